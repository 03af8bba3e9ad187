import CairnSQLite
import Dispatch
import Foundation
import Testing
import CairnTestSupport

@Suite struct DatabaseQueueTests {
    @Test func writeCommitsAndReadSees() async throws {
        let queue = try DatabaseQueue.inMemory()
        try await queue.write { db in try db.execute(sql: "CREATE TABLE t (x INTEGER)") }
        try await queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1), (2)") }
        #expect(try await queue.read { db in try db.fetchValues(Int.self, sql: "SELECT x FROM t ORDER BY x") } == [1, 2])
        #expect(try await queue.read { db in try db.fetchCount(sql: "SELECT * FROM t") } == 2)
    }

    @Test func readCannotWrite() throws {
        let queue = try DatabaseQueue.inMemory()
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (x INTEGER)") }
        let error = #expect(throws: DatabaseError.self) {
            try queue.read { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
        // The connection is writable again afterwards.
        try queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
    }

    @Test func failedWriteRollsBack() throws {
        let queue = try DatabaseQueue.inMemory()
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (x INTEGER)") }
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try queue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                throw Failure()
            }
        }
        #expect(try queue.read { db in try db.fetchCount(sql: "SELECT * FROM t") } == 0)
    }

    @Test func reentrantAccessThrowsInsteadOfDeadlocking() throws {
        let queue = try DatabaseQueue.inMemory()
        let error = #expect(throws: DatabaseError.self) {
            try queue.write { _ in try queue.read { _ in 1 } }
        }
        #expect(error?.resultCode == .SQLITE_MISUSE)
    }

    @Test func reentrantAccessInsideAnAsyncAccessThrows() async throws {
        let queue = try DatabaseQueue.inMemory()
        await #expect(throws: DatabaseError.self) {
            try await queue.write { _ in try queue.read { _ in 1 } }
        }
        // The connection is free again afterwards.
        #expect(try await queue.read { _ in 2 } == 2)
    }

    /// A blocking access runs on its caller's thread, an async one on the connection's queue:
    /// both hold the one connection in turn, so read-modify-writes from threads and tasks at
    /// once lose nothing.
    @Test func blockingAndAsyncWritesTakeTurns() async throws {
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        let queue = try DatabaseQueue(path: temp.path)
        try await queue.write { db in
            try db.execute(sql: "CREATE TABLE counter (value INTEGER NOT NULL); INSERT INTO counter VALUES (0)")
        }
        let increment: @Sendable (Database) throws -> Void = { db in
            let value = try db.fetchValue(Int.self, sql: "SELECT value FROM counter") ?? 0
            try db.execute(sql: "UPDATE counter SET value = ?", arguments: [value + 1])
        }
        let threads = Task.detached {
            // Blocking writes on dispatch's threads, outside the cooperative pool.
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    DispatchQueue.concurrentPerform(iterations: 4) { _ in
                        for _ in 0..<50 { try? queue.write(increment) }
                    }
                    done.resume()
                }
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for _ in 0..<50 { try await queue.write(increment) } }
            }
            try await group.waitForAll()
        }
        await threads.value
        #expect(try await queue.read { db in try db.fetchValue(Int.self, sql: "SELECT value FROM counter") } == 400)
    }

    @Test func concurrentWritesFromManyTasksLoseNoUpdate() async throws {
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        let queue = try DatabaseQueue(path: temp.path)
        try await runCounterIncrements(on: queue)
    }
}

/// 50 tasks each read-modify-write a counter 10 times; serialized writes lose nothing.
func runCounterIncrements(on writer: any DatabaseWriter) async throws {
    try await writer.write { db in
        try db.execute(sql: "CREATE TABLE counter (value INTEGER NOT NULL); INSERT INTO counter VALUES (0)")
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<50 {
            group.addTask {
                for _ in 0..<10 {
                    try await writer.write { db in
                        let value = try db.fetchValue(Int.self, sql: "SELECT value FROM counter") ?? 0
                        try db.execute(sql: "UPDATE counter SET value = ?", arguments: [value + 1])
                    }
                }
            }
        }
        try await group.waitForAll()
    }
    #expect(try await writer.read { db in try db.fetchValue(Int.self, sql: "SELECT value FROM counter") } == 500)
}

/// A class: each test gets its own instance, whose `deinit` removes that test's database
/// folder (as a struct, the suite left one folder behind per test).
@Suite final class DatabasePoolTests {
    let temp: TemporaryDatabasePath
    let pool: DatabasePool

    init() throws {
        temp = try TemporaryDatabasePath()
        pool = try DatabasePool(path: temp.path)
        try pool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER)") }
    }

    deinit { temp.cleanup() }

    @Test func inMemoryPoolIsRejected() {
        #expect(throws: DatabaseError.self) { try DatabasePool(path: ":memory:") }
    }

    @Test func readerSeesAConsistentSnapshotWhileTheWriterWrites() throws {
        try pool.write { db in try db.execute(sql: "INSERT INTO t (x) VALUES (1)") }
        let readerHasRead = DispatchSemaphore(value: 0)
        let writerHasCommitted = DispatchSemaphore(value: 0)
        let writerDone = DispatchGroup()
        writerDone.enter()
        let pool = self.pool
        DispatchQueue.global().async {
            readerHasRead.wait()
            // The writer is not blocked by the open read transaction.
            try? pool.write { db in try db.execute(sql: "INSERT INTO t (x) VALUES (2), (3)") }
            writerHasCommitted.signal()
            writerDone.leave()
        }
        let (before, after) = try pool.read { db in
            let before = try db.fetchCount(sql: "SELECT * FROM t")
            readerHasRead.signal()
            writerHasCommitted.wait()
            // Same transaction: still the snapshot of its first read.
            let after = try db.fetchCount(sql: "SELECT * FROM t")
            return (before, after)
        }
        writerDone.wait()
        #expect(before == 1)
        #expect(after == 1)
        #expect(try pool.read { db in try db.fetchCount(sql: "SELECT * FROM t") } == 3)
    }

    @Test func readersDoNotWaitForAnOpenWriteTransaction() throws {
        try pool.write { db in try db.execute(sql: "INSERT INTO t (x) VALUES (1)") }
        let writerInside = DispatchSemaphore(value: 0)
        let readerDone = DispatchSemaphore(value: 0)
        let writerFinished = DispatchGroup()
        writerFinished.enter()
        let pool = self.pool
        DispatchQueue.global().async {
            try? pool.write { db in
                try db.execute(sql: "INSERT INTO t (x) VALUES (2)")
                writerInside.signal()
                // Hold the write transaction open until the reader has finished.
                _ = readerDone.wait(timeout: .now() + 10)
            }
            writerFinished.leave()
        }
        writerInside.wait()
        let seen = try pool.read { db in try db.fetchCount(sql: "SELECT * FROM t") }
        readerDone.signal()
        writerFinished.wait()
        #expect(seen == 1)  // the uncommitted row is invisible, and the read did not block
        #expect(try pool.read { db in try db.fetchCount(sql: "SELECT * FROM t") } == 2)
    }

    @Test func readsRunConcurrently() throws {
        // Two reads that each wait for the other to have started can only finish if they run at once.
        let first = DispatchSemaphore(value: 0)
        let second = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let results = Collected<Int>()
        let pool = self.pool
        for (mine, theirs) in [(first, second), (second, first)] {
            group.enter()
            DispatchQueue.global().async {
                let value = try? pool.read { db in
                    mine.signal()
                    _ = theirs.wait(timeout: .now() + 10)
                    return try db.fetchCount(sql: "SELECT * FROM t")
                }
                results.append(value ?? -1)
                group.leave()
            }
        }
        group.wait()
        #expect(results.values == [0, 0])
    }

    @Test func readersCannotWrite() throws {
        let error = #expect(throws: DatabaseError.self) {
            try pool.read { db in try db.execute(sql: "INSERT INTO t (x) VALUES (1)") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
    }

    @Test func concurrentWritesFromManyTasksLoseNoUpdate() async throws {
        try await runCounterIncrements(on: pool)
    }

    @Test func manyConcurrentAsyncReadsShareTheReaders() async throws {
        try await pool.write { db in try db.execute(sql: "INSERT INTO t (x) VALUES (1), (2), (3)") }
        let pool = self.pool
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<40 {
                group.addTask { try await pool.read { db in try db.fetchCount(sql: "SELECT * FROM t") } }
            }
            return try await group.reduce(0, +)
        }
        #expect(total == 120)
    }

    @Test func closedPoolThrows() throws {
        try pool.close()
        #expect(throws: DatabaseError.self) { try pool.read { _ in 1 } }
        #expect(throws: DatabaseError.self) { try pool.write { _ in 1 } }
    }
}
