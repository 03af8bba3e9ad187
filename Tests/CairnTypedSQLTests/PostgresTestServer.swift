import Cairn
import Foundation
import Testing

/// The PostgreSQL server of `CAIRN_TEST_POSTGRES_URL` (Scripts/with-postgres.sh starts one and
/// sets it); tests that need it are skipped without it.
enum PostgresTestServer {
    static let url = ProcessInfo.processInfo.environment["CAIRN_TEST_POSTGRES_URL"]
    static let skipMessage: Comment =
        "CAIRN_TEST_POSTGRES_URL is not set: run the tests with Scripts/with-postgres.sh to start a server"

    /// Runs `body` with a `PostgresDatabase` whose connections work in a schema of their own
    /// (dropped after), so tests in parallel never meet each other's tables.
    static func withDatabase<T>(_ body: (PostgresDatabase) throws -> T) throws -> T {
        let base = try #require(url)
        let admin = try PostgresConnection(url: base)
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try admin.execute(sql: "CREATE SCHEMA \(schema)")
        defer { _ = try? admin.execute(sql: "DROP SCHEMA \(schema) CASCADE") }
        let separator = base.contains("?") ? "&" : "?"
        let database = try PostgresDatabase(url: base + separator + "options=-csearch_path%3D\(schema)")
        defer { database.close() }
        return try body(database)
    }
}
