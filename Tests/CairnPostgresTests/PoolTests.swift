import CairnPostgres
import CairnSQLite
import Foundation
import Testing

@Suite("PostgreSQL pool", .enabled(if: TestServer.isAvailable, TestServer.skipMessage))
struct PostgresDatabaseTests {
    @Test("Many tasks read at once over at most the pool's connections")
    func concurrentReads() async throws {
        try await TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).t (x integer)")
            try db.executeBatch(sql: "INSERT INTO \(schema).t VALUES ($1)", argumentRows: (1...100).map { [$0] })
            let pool = try PostgresDatabase(url: try #require(TestServer.url), maximumConnectionCount: 4)
            defer { pool.close() }
            let results = try await withThrowingTaskGroup(of: (Int64?, Int64?).self) { group in
                for task in 0..<40 {
                    group.addTask {
                        try await pool.read { db in
                            let sum = try db.fetchAll(sql: "SELECT sum(x) + $1 FROM \(schema).t", arguments: [task])
                            let pid = try db.fetchAll(sql: "SELECT pg_backend_pid()")
                            return (integer(sum).map { $0 - Int64(task) }, integer(pid))
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 40)
            #expect(results.allSatisfy { $0.0 == 5050 })
            let backends = Set(results.compactMap(\.1))
            #expect(!backends.isEmpty && backends.count <= 4)
        }
    }

    @Test("Writes run one at a time: read-then-write increments from many tasks lose none")
    func serializedWrites() async throws {
        try await TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).counter (n integer); INSERT INTO \(schema).counter VALUES (0)")
            let pool = try PostgresDatabase(url: try #require(TestServer.url), maximumConnectionCount: 4)
            defer { pool.close() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        try await pool.write { db in
                            // Under READ COMMITTED two concurrent writers would both read n and
                            // one increment would be lost; the pool's one-writer rule prevents it.
                            let n = try #require(integer(try db.fetchAll(sql: "SELECT n FROM \(schema).counter")))
                            Thread.sleep(forTimeInterval: 0.002)
                            try db.execute(sql: "UPDATE \(schema).counter SET n = $1", arguments: [n + 1])
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(integer(try db.fetchAll(sql: "SELECT n FROM \(schema).counter")) == 20)
        }
    }

    @Test("A read sees one snapshot, and cannot write")
    func readSnapshot() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).t (x integer)")
            let pool = try PostgresDatabase(url: try #require(TestServer.url), maximumConnectionCount: 2)
            defer { pool.close() }
            let counts = try pool.read { reader in
                let before = integer(try reader.fetchAll(sql: "SELECT count(*) FROM \(schema).t"))
                try db.execute(sql: "INSERT INTO \(schema).t VALUES ($1)", arguments: [1])
                let after = integer(try reader.fetchAll(sql: "SELECT count(*) FROM \(schema).t"))
                return (before, after)
            }
            #expect(counts.0 == 0 && counts.1 == 0)
            #expect(integer(try pool.read { try $0.fetchAll(sql: "SELECT count(*) FROM \(schema).t") }) == 1)
            let error = try #require(throws: PostgresError.self) {
                try pool.read { try $0.execute(sql: "INSERT INTO \(schema).t VALUES ($1)", arguments: [2]) }
            }
            #expect(error.sqlState == "25006")
        }
    }

    @Test("A read without a transaction runs each statement in its own snapshot, with no BEGIN around it")
    func readWithoutTransaction() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).t (x integer)")
            let pool = try PostgresDatabase(url: try #require(TestServer.url), maximumConnectionCount: 2)
            defer { pool.close() }
            let counts = try pool.readWithoutTransaction { reader in
                #expect(!reader.isInTransaction)
                let before = integer(try reader.fetchAll(sql: "SELECT count(*) FROM \(schema).t"))
                try db.execute(sql: "INSERT INTO \(schema).t VALUES ($1)", arguments: [1])
                // The next statement is a snapshot of its own: it sees the commit in between.
                let after = integer(try reader.fetchAll(sql: "SELECT count(*) FROM \(schema).t"))
                return (before, after)
            }
            #expect(counts.0 == 0 && counts.1 == 1)
        }
    }

    @Test("Tasks waiting for a connection are woken with an error when the pool closes")
    func waitingTasksWakeWhenThePoolCloses() async throws {
        let pool = try PostgresDatabase(url: try #require(TestServer.url), maximumConnectionCount: 1)
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = Thread {
            _ = try? pool.read { _ in
                holding.signal()
                release.wait()
            }
        }
        holder.start()
        // Waited for off the cooperative pool, which the waiting tasks below need.
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                holding.wait()
                continuation.resume()
            }
        }
        let waiters = Task {
            await withTaskGroup(of: String?.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        do {
                            try await pool.read { _ in }
                            return nil
                        } catch {
                            return (error as? PostgresError)?.message
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        // Long enough for most of the 40 tasks to reach the pool and wait; any that arrive
        // after the close are refused at once, with the same error.
        try await Task.sleep(for: .milliseconds(300))
        pool.close()
        release.signal()
        let outcomes = await waiters.value
        #expect(outcomes.count == 40)
        #expect(outcomes.allSatisfy { $0 == "the PostgreSQL pool is closed" })
    }

    @Test("A closed pool throws instead of waiting")
    func closed() throws {
        let pool = try PostgresDatabase(url: try #require(TestServer.url))
        pool.close()
        let error = try #require(throws: PostgresError.self) { try pool.read { _ in } }
        #expect(error.message == "the PostgreSQL pool is closed")
    }
}
