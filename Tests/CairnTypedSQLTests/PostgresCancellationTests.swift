import Cairn
import CairnTestSupport
import Foundation
import Testing

/// Typed SQL on a `PostgresDatabase` stops when its task is cancelled, through the same
/// `withTaskCancellation` as on SQLite.
@Suite("Typed SQL cancellation on PostgreSQL", .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipMessage))
struct PostgresTypedCancellationTests {
    /// Written once for any connection, as code shared by a SQLite and a PostgreSQL app is.
    static func cancellableFetch(_ db: some QueryConnection, _ query: SQLQueryExpression<Int>) throws -> [Int] {
        try db.withTaskCancellation { try query.fetchAll(db) }
    }

    /// A sync read, whose statement sleeps 30 s on the server.
    static func slowRead(_ database: PostgresDatabase, processID: Collected<Int32>) throws -> [Int] {
        try database.read { db in
            processID.append(db.serverProcessID)
            return try cancellableFetch(db, #sql("SELECT 1 FROM pg_sleep(30)", as: Int.self))
        }
    }

    @Test("cancelling a task stops its sync typed fetch on the server; the pool serves the next query")
    func cancelTypedFetch() async throws {
        let database = try PostgresDatabase(url: try #require(PostgresTestServer.url), maximumConnectionCount: 1)
        defer { database.close() }
        let processID = Collected<Int32>()
        let task = Task(executorPreference: BlockingTaskExecutor()) { try Self.slowRead(database, processID: processID) }
        PostgresActivity.cancel(task, whenRunning: { processID.values.first }, statementContaining: "pg_sleep")
        await #expect(throws: CancellationError.self) { try await task.value }
        let running = try #require(processID.values.first)
        let (reused, values) = try Self.read(database) { db in
            (db.serverProcessID, try #sql("SELECT 2", as: Int.self).fetchAll(db))
        }
        #expect(reused == running)
        #expect(values == [2])
    }

    private static func read<T>(_ database: PostgresDatabase, _ block: (PostgresConnection) throws -> T) throws -> T {
        try database.read(block)
    }
}
