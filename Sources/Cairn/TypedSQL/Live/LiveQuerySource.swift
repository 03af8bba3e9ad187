import CairnPostgres
import Foundation

/// The database a live query reads and watches, by engine: what each can tell about the
/// tables a query read and the commits that changed them.
///
/// - SQLite: the query runs in a read transaction while SQLite's authorizer records the
///   tables it reads; every commit of the database (any connection) reports its tables.
/// - PostgreSQL: the query runs in a snapshot, then the server plans each statement it ran
///   (``PostgresConnection/readTables(sql:arguments:)``); those tables get change triggers
///   and commits arrive through `LISTEN` (``PostgresDatabase/observeCommits(to:_:)``).
///
/// It is the ``CommitSource`` of a live query's ``CommitWatch``.
enum LiveQuerySource: CommitSource {
    typealias Failure = any Error

    case sqlite(any DatabaseReader)
    case postgres(PostgresDatabase)

    init(_ database: any LiveQueryDatabase) throws {
        if let reader = database as? any DatabaseReader {
            self = .sqlite(reader)
        } else if let server = database as? PostgresDatabase {
            self = .postgres(server)
        } else {
            throw LiveQueryError(description: "live queries read a DatabaseQueue, a DatabasePool or a PostgresDatabase, not a \(type(of: database))")
        }
    }

    /// Runs `fetch` on one snapshot and returns its value with the tables it read.
    func load<Value>(_ fetch: (any QueryConnection) throws -> Value) throws -> (result: Value, tables: Set<String>) {
        switch self {
        case .sqlite(let reader):
            return try reader.read { db in try db.recordingReadTables { try fetch(db) } }
        case .postgres(let server):
            return try server.read { connection in try Self.recordingTables(connection, fetch) }
        }
    }

    /// `load(_:)` off the cooperative thread pool.
    func load<Value: Sendable>(
        _ fetch: @escaping @Sendable (any QueryConnection) throws -> Value
    ) async throws -> (result: Value, tables: Set<String>) {
        switch self {
        case .sqlite(let reader):
            return try await reader.read { db in try db.recordingReadTables { try fetch(db) } }
        case .postgres(let server):
            return try await server.read { connection in try Self.recordingTables(connection, fetch) }
        }
    }

    /// Runs `fetch` on one snapshot, off the cooperative thread pool.
    func fetch<Value: Sendable>(_ fetch: @escaping @Sendable (any QueryConnection) throws -> Value) async throws -> Value {
        switch self {
        case .sqlite(let reader): try await reader.read { db in try fetch(db) }
        case .postgres(let server): try await server.read { connection in try fetch(connection) }
        }
    }

    /// Calls `observer` after commits with the tables they changed: on SQLite every commit, on
    /// PostgreSQL those that changed one of `tables` (every reported one with `nil`).
    func observeCommits(
        to tables: Set<String>?, _ observer: @escaping @Sendable (Set<String>) -> Void
    ) throws -> CommitObservation {
        switch self {
        case .sqlite(let reader): reader.observeCommits(observer)
        case .postgres(let server): try server.observeCommits(to: tables, observer)
        }
    }

    private static func recordingTables<Value>(
        _ connection: PostgresConnection, _ fetch: (any QueryConnection) throws -> Value
    ) throws -> (result: Value, tables: Set<String>) {
        let recording = RecordingConnection(connection)
        let result = try fetch(recording)
        var tables = Set<String>()
        for statement in recording.statements {
            let rendered = try PostgresRendering.cache.render(statement)
            tables.formUnion(try connection.readTables(sql: rendered.sql, arguments: StatementArguments(rendered.arguments)))
        }
        return (result, tables)
    }
}

/// A PostgreSQL connection that keeps the statements run through it, for their tables.
private final class RecordingConnection: QueryConnection {
    let connection: PostgresConnection
    private(set) var statements: [SQLStatement] = []

    init(_ connection: PostgresConnection) { self.connection = connection }

    func fetchAll<Element>(_ statement: SQLStatement, _ transform: (Row) throws -> Element) throws -> [Element] {
        statements.append(statement)
        return try connection.fetchAll(statement, transform)
    }

    func fetchOne<Element>(_ statement: SQLStatement, _ transform: (Row) throws -> Element) throws -> Element? {
        statements.append(statement)
        return try connection.fetchOne(statement, transform)
    }

    func execute(_ statement: SQLStatement) throws {
        statements.append(statement)
        try connection.execute(statement)
    }

    func fetchCursor(_ statement: SQLStatement) throws -> RowCursor {
        statements.append(statement)
        return try connection.fetchCursor(statement)
    }

    func withTaskCancellation<T>(_ body: () throws -> T) throws -> T {
        try connection.withTaskCancellation(body)
    }
}
