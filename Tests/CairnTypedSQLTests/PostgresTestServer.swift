import Cairn
import CairnTestSupport
import Foundation
import Testing

/// The PostgreSQL server of `CAIRN_TEST_POSTGRES_URL` for typed SQL tests.
enum PostgresTestServer {
    static var url: String? { PostgresTestSchema.serverURL }
    static var skipMessage: Comment { PostgresTestSchema.skipMessage }

    /// Runs `body` with a `PostgresDatabase` whose connections work in a schema of their own
    /// (dropped after), so tests in parallel never meet each other's tables.
    static func withDatabase<T>(_ body: (PostgresDatabase) throws -> T) throws -> T {
        try PostgresTestSchema.withSchema { url in
            let database = try PostgresDatabase(url: url)
            defer { database.close() }
            return try body(database)
        }
    }
}
