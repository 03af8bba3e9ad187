import CairnPostgres
import CairnSQLite
import Foundation
import Testing

/// The server the tests run against: `CAIRN_TEST_POSTGRES_URL`, which Scripts/with-postgres.sh
/// sets (`Scripts/with-postgres.sh swift test --filter CairnPostgresTests`).
enum TestServer {
    static let url = ProcessInfo.processInfo.environment["CAIRN_TEST_POSTGRES_URL"]
    static var isAvailable: Bool { url != nil }
    static let skipMessage: Comment =
        "CAIRN_TEST_POSTGRES_URL is not set: run the tests with Scripts/with-postgres.sh to start a server"

    /// A new connection to the test server.
    static func connect() throws -> PostgresConnection {
        try PostgresConnection(url: try #require(url))
    }

    /// Runs `body` with a connection and a schema of its own (dropped after), so tests run in
    /// parallel without meeting each other's tables.
    static func withSchema<T>(_ body: (PostgresConnection, String) throws -> T) throws -> T {
        let (connection, schema) = try connectInNewSchema()
        defer { _ = try? connection.execute(sql: "DROP SCHEMA \(schema) CASCADE") }
        return try body(connection, schema)
    }

    /// The async form of ``withSchema(_:)``.
    static func withSchema<T>(_ body: (PostgresConnection, String) async throws -> T) async throws -> T {
        let (connection, schema) = try connectInNewSchema()
        defer { _ = try? connection.execute(sql: "DROP SCHEMA \(schema) CASCADE") }
        return try await body(connection, schema)
    }

    private static func connectInNewSchema() throws -> (PostgresConnection, String) {
        let connection = try connect()
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try connection.execute(sql: "CREATE SCHEMA \(schema)")
        return (connection, String(schema))
    }
}

/// A value shared between a test and the threads it starts.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read and written under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock { try body(&value) }
    }
}

/// The single integer of a one-row, one-column result.
func integer(_ rows: PostgresRows) -> Int64? {
    guard case .integer(let value)? = rows.rows.first?.first else { return nil }
    return value
}
