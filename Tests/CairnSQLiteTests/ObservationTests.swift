@testable import CairnSQLite
import Foundation
import Testing
import CairnTestSupport

/// A class, as `DatabasePoolTests`: each test's instance removes its database folder.
@Suite final class CommitObservationTests {
    let temp: TemporaryDatabasePath
    let pool: DatabasePool

    deinit { temp.cleanup() }

    init() throws {
        temp = try TemporaryDatabasePath()
        pool = try DatabasePool(path: temp.path)
        try pool.write { db in
            try db.execute(sql: """
                CREATE TABLE workout (id INTEGER PRIMARY KEY, title TEXT UNIQUE);
                CREATE TABLE tag (id INTEGER PRIMARY KEY, workoutID INTEGER REFERENCES workout(id) ON DELETE CASCADE, name TEXT);
                CREATE TABLE audit (message TEXT);
                CREATE TRIGGER workout_audit AFTER UPDATE ON workout BEGIN INSERT INTO audit VALUES ('updated'); END;
                """)
        }
    }

    @Test func namesTheTablesEachCommitTouched() async throws {
        let commits = Collected<Set<String>>()
        let token = pool.observeCommits { commits.append($0) }
        try await pool.write { db in try db.execute(sql: "INSERT INTO workout (title) VALUES ('Run')") }
        try await pool.write { db in
            try db.execute(sql: "INSERT INTO tag (workoutID, name) VALUES (1, 'a')")
            try db.execute(sql: "UPDATE workout SET title = 'Jog'")  // the trigger writes audit
        }
        // A read-only write transaction touches nothing.
        try await pool.write { db in _ = try db.fetchCount(sql: "SELECT * FROM workout") }
        #expect(commits.values == [["workout"], ["tag", "workout", "audit"]])
        token.cancel()
        try await pool.write { db in try db.execute(sql: "DELETE FROM audit") }
        #expect(commits.values.count == 2)
    }

    @Test func rollbacksNotifyNothing() throws {
        let commits = Collected<Set<String>>()
        let token = pool.observeCommits { commits.append($0) }
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try pool.write { db in
                try db.execute(sql: "INSERT INTO workout (title) VALUES ('x')")
                throw Failure()
            }
        }
        #expect(throws: DatabaseError.self) {
            try pool.write { db in
                try db.execute(sql: "INSERT INTO workout (title) VALUES ('dup')")
                try db.execute(sql: "INSERT INTO workout (title) VALUES ('dup')")
            }
        }
        // A savepoint rolled back inside a committed transaction does not count its tables.
        try pool.write { db in
            try? db.inSavepoint {
                try db.execute(sql: "INSERT INTO tag (name) VALUES ('gone')")
                throw Failure()
            }
            try db.execute(sql: "INSERT INTO audit VALUES ('kept')")
        }
        #expect(commits.values == [["audit"]])
        withExtendedLifetime(token) {}
    }

    @Test func writesOutsideExplicitTransactionsNotifyToo() throws {
        let commits = Collected<Set<String>>()
        let token = pool.observeCommits { commits.append($0) }
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO workout (title) VALUES ('a')")
            try db.execute(sql: "INSERT INTO tag (name) VALUES ('b')")
        }
        #expect(commits.values == [["workout"], ["tag"]])
        withExtendedLifetime(token) {}
    }

    @Test func releasingTheTokenStopsTheObservation() throws {
        let commits = Collected<Set<String>>()
        var token: CommitObservation? = pool.observeCommits { commits.append($0) }
        try pool.write { db in try db.execute(sql: "INSERT INTO audit VALUES ('1')") }
        #expect(token != nil)
        token = nil
        try pool.write { db in try db.execute(sql: "INSERT INTO audit VALUES ('2')") }
        #expect(commits.values == [["audit"]])
    }

    @Test func queueNotifiesToo() throws {
        let queue = try DatabaseQueue.inMemory()
        let commits = Collected<Set<String>>()
        let token = queue.observeCommits { commits.append($0) }
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1)") }
        #expect(commits.values == [["t"]])
        withExtendedLifetime(token) {}
    }

    @Test func recordsTheTablesAReadUsed() throws {
        let (count, tables) = try pool.read { db in
            try db.recordingReadTables {
                try db.fetchCount(sql: "SELECT * FROM workout JOIN tag ON tag.workoutID = workout.id")
            }
        }
        #expect(count == 0)
        #expect(tables == ["workout", "tag"])
    }
}

@Suite struct CancellationTests {
    static let endless = """
        WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 1000000000) SELECT count(*) FROM c
        """

    @Test func cancellingATaskInterruptsItsQuery() async throws {
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        let pool = try DatabasePool(path: temp.path)
        let started = Collected<Bool>()
        let task = Task {
            try await pool.read { db in
                started.append(true)
                return try db.fetchValue(Int.self, sql: Self.endless)
            }
        }
        while started.values.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(20))
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        // The connection is usable afterwards, and later accesses are not interrupted.
        #expect(try await pool.read { db in try db.fetchValue(Int.self, sql: "SELECT 1") } == 1)
    }

    @Test func cancelledWriteRollsBack() async throws {
        let queue = try DatabaseQueue.inMemory()
        try await queue.write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        let started = Collected<Bool>()
        let task = Task {
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                started.append(true)
                _ = try db.fetchValue(Int.self, sql: Self.endless)
            }
        }
        while started.values.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await queue.read { db in try db.fetchCount(sql: "SELECT * FROM t") } == 0)
    }

    @Test func taskCancelledBeforeItsTurnDoesNotRun() async throws {
        let queue = try DatabaseQueue.inMemory()
        let ran = Collected<Bool>()
        let task = Task {
            try await Task.sleep(for: .milliseconds(50))  // cancelled while sleeping → throws here
            return try await queue.read { _ in ran.append(true) }
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(ran.values.isEmpty)
    }

    /// A cancellation that lands while SQLite compiles the next statement makes
    /// `sqlite3_prepare` fail with `SQLITE_INTERRUPT`; that is the cancellation too, not a
    /// database error. (CI once hit it: the task was cancelled just as `cancelledWriteRollsBack`
    /// compiled its endless query.) A statement left mid-way keeps SQLite's interrupt flag
    /// raised, which makes the compile-time interruption deterministic here.
    @Test func cancellationWhileCompilingIsACancellation() throws {
        let db = try Database.inMemory()
        let running = try db.makeStatement(sql: "SELECT 1 UNION ALL SELECT 2")
        #expect(try running.step())
        db.interruptHandle.cancel()
        #expect(throws: CancellationError.self) {
            try db.fetchValue(Int.self, sql: "SELECT 40 + 2")
        }
        running.reset()
        db.interruptHandle.clearCancellation()
        #expect(try db.fetchValue(Int.self, sql: "SELECT 40 + 2") == 42)
    }

    @Test func explicitInterruptIsADatabaseError() throws {
        let db = try Database.inMemory()
        let handle = db.interruptHandle
        db.add(function: DatabaseFunction("stop", argumentCount: 1, isDeterministic: false) { arguments in
            if arguments[0] == .integer(1000) { handle.interrupt() }
            return 0
        })
        let error = #expect(throws: DatabaseError.self) {
            try db.fetchValue(Int.self, sql: "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 1000000) SELECT sum(stop(n)) FROM c")
        }
        #expect(error?.resultCode == .SQLITE_INTERRUPT)
    }
}

@Suite struct ForeignKeyActionObservationTests {
    @Test func cascadeDeleteReportsTheChildTable() throws {
        let queue = try DatabaseQueue.inMemory()
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE parent (id INTEGER PRIMARY KEY);
                CREATE TABLE child (id INTEGER PRIMARY KEY, parentID INTEGER REFERENCES parent(id) ON DELETE CASCADE);
                INSERT INTO parent VALUES (1); INSERT INTO child VALUES (1, 1);
                """)
        }
        let commits = Collected<Set<String>>()
        let token = queue.observeCommits { commits.append($0) }
        try queue.write { db in try db.execute(sql: "DELETE FROM parent WHERE id = 1") }
        #expect(commits.values == [["parent", "child"]])
        withExtendedLifetime(token) {}
    }
}
