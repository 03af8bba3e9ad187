import CairnPostgres
import CairnSQLite
import Foundation
import Testing

@Suite("PostgreSQL cancellation", .enabled(if: TestServer.isAvailable, TestServer.skipMessage))
struct PostgresCancellationTests {
    @Test("Cancelling the task cancels the running statement with SQLSTATE 57014")
    func cancelRunningStatement() async throws {
        let pool = try PostgresPool(url: try #require(TestServer.url), maximumConnectionCount: 1)
        defer { pool.close() }
        let started = Date()
        let task = Task { try await pool.read { try $0.fetchAll(sql: "SELECT pg_sleep(10)") } }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        let result = await task.result
        let elapsed = Date().timeIntervalSince(started)
        guard case .failure(let error as PostgresError) = result else {
            Issue.record("expected a PostgresError, got \(result)")
            return
        }
        #expect(error.sqlState == "57014")
        #expect(error.message == "canceling statement due to user request")
        #expect(elapsed < 3)
        // The connection went back to the pool in a usable state.
        #expect(integer(try await pool.read { try $0.fetchAll(sql: "SELECT 1") }) == 1)
    }

    @Test("A task cancelled before its block starts throws CancellationError and runs nothing")
    func cancelledBeforeStart() async throws {
        let pool = try PostgresPool(url: try #require(TestServer.url), maximumConnectionCount: 1)
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
