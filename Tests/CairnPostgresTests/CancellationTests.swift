import CairnPostgres
import CairnSQLite
import CairnTestSupport
import Foundation
import Testing

/// Cancellation of statements on the server. Each slow statement sleeps 30 s: a test that ends
/// sooner with `CancellationError` shows the statement was cut short, with no timing asserted.
@Suite("PostgreSQL cancellation", .enabled(if: TestServer.isAvailable, TestServer.skipMessage))
struct PostgresCancellationTests {
    @Test("Cancelling the task of an async read cancels its running statement with CancellationError")
    func cancelRunningStatement() async throws {
        try await expectCancelled { pool, processID in
            Task {
                try await pool.read { db in
                    processID.withLock { $0 = db.serverProcessID }
                    _ = try db.fetchAll(sql: "SELECT pg_sleep(30)")
                }
            }
        }
    }

    @Test("A sync read in withTaskCancellation stops when its task is cancelled; the transaction rolls back")
    func cancelSyncStatement() async throws {
        try await expectCancelled { pool, processID in
            Task(executorPreference: BlockingTaskExecutor()) {
                try pool.read { db in
                    processID.withLock { $0 = db.serverProcessID }
                    _ = try db.withTaskCancellation { try db.fetchAll(sql: "SELECT pg_sleep(30)") }
                }
            }
        }
    }

    @Test("Cancelling a pipelined batch cancels its running row; the rest are skipped and the connection is clean")
    func cancelPipelinedBatch() async throws {
        let pool = try await expectCancelled { pool, processID in
            Task(executorPreference: BlockingTaskExecutor()) {
                try pool.write { db in
                    processID.withLock { $0 = db.serverProcessID }
                    try db.withTaskCancellation {
                        try db.executeBatch(sql: "SELECT pg_sleep($1)", argumentRows: [[0.0], [30.0], [0.0]])
                    }
                }
            }
        }
        // Out of pipeline mode: a batch runs to its end again.
        try await pool.write { db in try db.executeBatch(sql: "SELECT pg_sleep($1)", argumentRows: [[0.0], [0.0]]) }
    }

    @Test("In a cancelled task, withTaskCancellation runs nothing; statements outside it still run")
    func cancellationIsOptIn() async throws {
        let pool = try PostgresDatabase(url: try #require(TestServer.url), maximumConnectionCount: 1)
        defer { pool.close() }
        let ran = Locked(false)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try pool.read { db in
                let plain = integer(try db.fetchAll(sql: "SELECT 1"))
                let watched = Result { try db.withTaskCancellation { ran.withLock { $0 = true } } }
                return (plain, watched)
            }
        }
        let (plain, watched) = try await task.value
        #expect(plain == 1)
        #expect(throws: CancellationError.self) { try watched.get() }
        #expect(ran.withLock { $0 } == false)
    }

    @Test("A statement_timeout stays a PostgresError 57014 in a task that was not cancelled")
    func statementTimeoutIsNotCancellation() throws {
        try TestServer.withSchema { db, _ throws in
            let error = #expect(throws: PostgresError.self) {
                try db.withTaskCancellation {
                    try db.inTransaction {
                        try db.execute(sql: "SET LOCAL statement_timeout = 10")
                        _ = try db.fetchAll(sql: "SELECT pg_sleep(30)")
                    }
                }
            }
            #expect(error?.sqlState == "57014")
            #expect(integer(try db.fetchAll(sql: "SELECT 1")) == 1)
        }
    }

    @Test("A task cancelled before its block starts throws CancellationError and runs nothing")
    func cancelledBeforeStart() async throws {
        let pool = try PostgresDatabase(url: try #require(TestServer.url), maximumConnectionCount: 1)
        defer { pool.close() }
        let ran = Locked(false)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pool.write { _ in ran.withLock { $0 = true } }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(ran.withLock { $0 } == false)
    }

    /// Starts the task `start` makes on a pool of one connection, cancels it once the server
    /// runs its `pg_sleep` (however late a busy machine starts it), and expects `CancellationError`
    /// and the connection back in the pool out of its transaction (kept, not dropped), serving
    /// the next statement. Returns the pool for more (its connections close with it).
    @discardableResult
    private func expectCancelled(
        _ start: (PostgresDatabase, Locked<Int32>) -> Task<Void, any Error>
    ) async throws -> PostgresDatabase {
        let pool = try PostgresDatabase(url: try #require(TestServer.url), maximumConnectionCount: 1)
        let processID = Locked<Int32>(0)
        let task = start(pool, processID)
        PostgresActivity.cancel(
            task, whenRunning: { processID.withLock { $0 == 0 ? nil : $0 } }, statementContaining: "pg_sleep")
        await #expect(throws: CancellationError.self) { try await task.value }
        let running = processID.withLock { $0 }
        let (reused, one) = try await pool.read { db in (db.serverProcessID, integer(try db.fetchAll(sql: "SELECT 1"))) }
        #expect(reused == running)
        #expect(one == 1)
        return pool
    }
}
