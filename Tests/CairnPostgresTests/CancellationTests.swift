import CairnPostgres
import CairnSQLite
import Foundation
import Testing

@Suite("PostgreSQL cancellation", .enabled(if: TestServer.isAvailable, TestServer.skipMessage))
struct PostgresCancellationTests {
    @Test("Cancelling the task cancels the running statement with SQLSTATE 57014")
    func cancelRunningStatement() async throws {
        let pool = try PostgresDatabase(url: try #require(TestServer.url), maximumConnectionCount: 1)
        defer { pool.close() }
        let sql = "SELECT pg_sleep(10) -- \(UUID().uuidString)"
        let task = Task { try await pool.read { try $0.fetchAll(sql: sql) } }
        // Cancelled once the server runs it (a busy machine may start the block late).
        let observer = try TestServer.connect()
        for _ in 0..<1000 {
            let running = try observer.fetchAll(
                sql: "SELECT count(*) FROM pg_stat_activity WHERE query = $1 AND state = 'active'", arguments: [sql])
            if integer(running) == 1 { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        task.cancel()
        let result = await task.result
        guard case .failure(let error as PostgresError) = result else {
            Issue.record("expected a PostgresError, got \(result)")
            return
        }
        #expect(error.sqlState == "57014")
        // A sleep that ran to its end would have succeeded: the error alone shows it was cut short.
        #expect(error.message == "canceling statement due to user request")
        // The connection went back to the pool in a usable state.
        #expect(integer(try await pool.read { try $0.fetchAll(sql: "SELECT 1") }) == 1)
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
}
