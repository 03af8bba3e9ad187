import CairnPostgres
import Foundation
import Testing

/// The PostgreSQL server of `CAIRN_TEST_POSTGRES_URL` (Scripts/with-postgres.sh starts one and
/// sets it), and a schema of its own for each test: tests that need the server are skipped
/// without it, and tests in parallel never meet each other's tables.
///
/// ```swift
/// @Suite(.enabled(if: PostgresTestSchema.serverURL != nil, PostgresTestSchema.skipMessage))
/// …
/// try PostgresTestSchema.withSchema { url in
///     let container = try ModelContainer(for: Item.self, configurations: ModelConfiguration(url: URL(string: url)!))
/// }
/// ```
public enum PostgresTestSchema {
    /// The server's URL, or `nil` when the tests run without one.
    public static let serverURL = ProcessInfo.processInfo.environment["CAIRN_TEST_POSTGRES_URL"]
    /// Why a test that needs the server was skipped.
    public static let skipMessage: Comment =
        "CAIRN_TEST_POSTGRES_URL is not set: run the tests with Scripts/with-postgres.sh to start a server"

    /// Creates a schema, runs `body` with a URL whose connections work in it (libpq's
    /// `options=-csearch_path=…`), and drops the schema after.
    public static func withSchema<T>(_ body: (String) throws -> T) throws -> T {
        let (admin, schema, url) = try newSchema()
        defer { _ = try? admin.execute(sql: "DROP SCHEMA \(schema) CASCADE") }
        return try body(url)
    }

    /// The async form of ``withSchema(_:)``.
    public static func withSchema<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: (String) async throws -> T
    ) async throws -> T {
        let (admin, schema, url) = try newSchema()
        defer { _ = try? admin.execute(sql: "DROP SCHEMA \(schema) CASCADE") }
        return try await body(url)
    }

    private static func newSchema() throws -> (PostgresConnection, String, String) {
        let base = try #require(serverURL)
        let admin = try PostgresConnection(url: base)
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try admin.execute(sql: "CREATE SCHEMA \(schema)")
        let separator = base.contains("?") ? "&" : "?"
        return (admin, String(schema), base + separator + "options=-csearch_path%3D\(schema)")
    }
}
