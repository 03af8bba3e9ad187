import CairnPostgres
import Foundation

/// A connection while a ``StoreBackend`` access holds it: runs rendered statements and steps
/// their rows. Every statement it runs is recorded in the store's ``StatementLog``.
///
/// It lives for one `read` or `write` and is not `Sendable`: the connection belongs to the
/// access that handed it out. Statements arrive rendered in the store's dialect
/// (``ModelStore/dialect``); rows from a server reach the same `Row` readers as SQLite's.
struct StoreConnection {
    enum Engine {
        case sqlite(Database)
        case postgres(PostgresConnection)
    }

    let engine: Engine
    let log: StatementLog

    init(database: Database, log: StatementLog) {
        engine = .sqlite(database)
        self.log = log
    }

    init(postgres connection: PostgresConnection, log: StatementLog) {
        engine = .postgres(connection)
        self.log = log
    }

    /// The SQLite connection, for what only SQLite offers (a raw `read(for:)`/`write(for:)`
    /// block, the tables a statement reads); on a server store, an error naming `purpose`.
    func sqliteDatabase(for purpose: @autoclosure () -> String) throws -> Database {
        switch engine {
        case .sqlite(let database):
            return database
        case .postgres:
            throw ModelError(
                .storeFailure,
                message: "\(purpose()) with a Database block needs a SQLite store, and this container's store is a "
                    + "PostgreSQL server: name the block's connection `(db: PostgresConnection) in`")
        }
    }

    /// The server connection, for a raw `read(for:)`/`write(for:)` block that names it; on a
    /// SQLite store, an error naming `purpose`.
    func postgresConnection(for purpose: @autoclosure () -> String) throws -> PostgresConnection {
        switch engine {
        case .postgres(let connection):
            return connection
        case .sqlite:
            throw ModelError(
                .storeFailure,
                message: "\(purpose()) with a PostgresConnection block needs a PostgreSQL store, and this container's store "
                    + "is SQLite: take `db in` (a Database) instead")
        }
    }

    /// The tables a query reads: SQLite's authorizer reports them as it prepares the
    /// statement, a server's planner as it plans it (`EXPLAIN`); neither runs it.
    func readTables(_ rendered: RenderedSQL) throws -> Set<String> {
        switch engine {
        case .sqlite(let database):
            try database.cachedStatement(sql: rendered.sql).readTables
        case .postgres(let connection):
            try connection.readTables(sql: rendered.sql, arguments: Self.serverArguments(rendered))
        }
    }

    /// The dialect of the statements this connection runs.
    var dialect: StoreDialect {
        switch engine {
        case .sqlite: .sqlite
        case .postgres: .postgres
        }
    }

    /// Executes a statement built with the query IR.
    func execute(_ statement: some SQLRenderable) throws {
        try execute(try dialect.render(statement))
    }

    /// Executes rendered SQL (a template rendered once and bound per row, for instance).
    func execute(_ rendered: RenderedSQL) throws {
        log.record(rendered.sql)
        switch engine {
        case .sqlite(let database):
            try database.execute(sql: rendered.sql, arguments: StatementArguments(rendered.arguments))
        case .postgres(let connection):
            _ = try connection.execute(sql: rendered.sql, arguments: Self.serverArguments(rendered))
        }
    }

    /// The rows of a statement, each as its column values.
    func rows(_ statement: some SQLRenderable) throws -> [[DatabaseValue]] {
        try rows(try dialect.render(statement))
    }

    /// Runs an INSERT and returns the primary key the database gave the row it inserted. On a
    /// server, `rendered` must end in `RETURNING` the key (``StoreDialect/returnsInsertedKeys``).
    func insertedPrimaryKey(_ rendered: RenderedSQL) throws -> Int64 {
        switch engine {
        case .sqlite(let database):
            log.record(rendered.sql)
            try database.execute(sql: rendered.sql, arguments: StatementArguments(rendered.arguments))
            return database.lastInsertedRowID
        case .postgres:
            guard case .integer(let key)? = try rows(rendered).first?.first else {
                throw ModelError(.storeFailure, message: "The insert returned no primary key: \(rendered.sql)")
            }
            return key
        }
    }

    /// Runs an INSERT that returns the key (`RETURNING`) once per row of `valueRows`, each
    /// bound to the template's parameters, and returns the keys in order: on a server, sent in
    /// libpq's pipeline mode, without a round trip per row.
    func insertedPrimaryKeys(_ template: RenderedSQL, valueRows: [[DatabaseValue]]) throws -> [Int64] {
        let returned: [[DatabaseValue]]
        switch engine {
        case .sqlite:
            returned = try valueRows.map { try rows(try template.binding($0)).first ?? [] }
        case .postgres(let connection):
            var argumentRows: [StatementArguments] = []
            argumentRows.reserveCapacity(valueRows.count)
            for values in valueRows {
                log.record(template.sql)
                argumentRows.append(Self.serverArguments(try template.binding(values)))
            }
            returned = try connection.fetchFirstRows(sql: template.sql, argumentRows: argumentRows)
        }
        return try returned.map { row in
            guard case .integer(let key)? = row.first else {
                throw ModelError(.storeFailure, message: "The insert returned no primary key: \(template.sql)")
            }
            return key
        }
    }

    /// The rows of rendered SQL, each as its column values.
    func rows(_ rendered: RenderedSQL) throws -> [[DatabaseValue]] {
        switch engine {
        case .sqlite(let database):
            log.record(rendered.sql)
            return try database.fetchAll(sql: rendered.sql, arguments: StatementArguments(rendered.arguments)) { row in
                (0..<row.count).map { row.databaseValue(at: $0) }
            }
        case .postgres(let connection):
            log.record(rendered.sql)
            return try connection.fetchAll(sql: rendered.sql, arguments: Self.serverArguments(rendered)).rows
        }
    }

    /// The rows of rendered SQL, each handed to `transform` while the statement is on it.
    func rows<T>(_ rendered: RenderedSQL, _ transform: (Row) throws -> T) throws -> [T] {
        log.record(rendered.sql)
        switch engine {
        case .sqlite(let database):
            return try database.fetchAll(sql: rendered.sql, arguments: StatementArguments(rendered.arguments), transform)
        case .postgres(let connection):
            return try connection.fetchAll(sql: rendered.sql, arguments: Self.serverArguments(rendered), transform)
        }
    }

    /// The models of rendered SQL's rows, each made while the statement is on its row.
    ///
    /// They are collected as plain references (``ObjectCollector``) and cast once at the end:
    /// appending to a `[T]` in code that is generic over the model type looks up `Array<T>`'s
    /// type metadata on every row, which costs more than decoding a column.
    /// A row for which `make` returns `nil` is read but makes no model.
    func models<T: AnyObject>(
        _ rendered: RenderedSQL, expectedCount: Int = 0, _ make: (Row) throws -> T?
    ) throws -> [T] {
        log.record(rendered.sql)
        var made = ObjectCollector(capacity: expectedCount)
        // Consumed: the model `make` returns goes into the buffer as it is; appended as a copy,
        // it cost a retain and a release a row.
        switch engine {
        case .sqlite(let database):
            try database.cachedStatement(sql: rendered.sql).forEachRow(arguments: StatementArguments(rendered.arguments)) { row in
                if let model = try make(row) { made.append(consume model) }
            }
        case .postgres(let connection):
            try connection.forEachRow(sql: rendered.sql, arguments: Self.serverArguments(rendered)) { row in
                if let model = try make(row) { made.append(consume model) }
            }
        }
        return made.array(of: T.self)
    }

    /// The arguments of a statement for a server, with every text in Unicode's composed form
    /// (NFC). Swift compares strings by canonical equivalence (`"é" == "e\u{301}"`, the
    /// Kelvin sign `"\u{212A}" == "K"`) and orders them by their composed scalars; the server
    /// compares bytes (`COLLATE "C"`). With every stored and every compared text composed,
    /// the two agree, so text is composed on its way in, and reads back canonically equal to
    /// what was saved.
    static func serverArguments(_ rendered: RenderedSQL) -> StatementArguments {
        StatementArguments(rendered.arguments.map { value in
            guard case .text(let text) = value, !text.utf8.allSatisfy({ $0 < 0x80 }) else { return value }
            return .text(text.precomposedStringWithCanonicalMapping)
        })
    }

    /// Whether the store has a table of that name.
    func tableExists(_ table: String) throws -> Bool {
        try !rows(StoreCatalog.tableExists(table, in: dialect)).isEmpty
    }
}
