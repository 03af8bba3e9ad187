import Foundation

/// A connection while a ``StoreBackend`` access holds it: runs rendered statements and steps
/// their rows. Every statement it runs is recorded in the store's ``StatementLog``.
///
/// It lives for one `read` or `write` and is not `Sendable`: the connection belongs to the
/// access that handed it out.
struct StoreConnection {
    /// The engine connection, for what has no statement form here yet (history's own
    /// tables, a raw `read(for:)`/`write(for:)` block, the tables a statement reads).
    let database: Database
    let log: StatementLog

    /// Executes a statement built with the query IR.
    func execute(_ statement: some SQLRenderable) throws {
        try execute(try statement.render())
    }

    /// Executes rendered SQL (a template rendered once and bound per row, for instance).
    func execute(_ rendered: RenderedSQL) throws {
        log.record(rendered.sql)
        try database.execute(sql: rendered.sql, arguments: StatementArguments(rendered.arguments))
    }

    /// The rows of a statement, each as its column values.
    func rows(_ statement: some SQLRenderable) throws -> [[DatabaseValue]] {
        try rows(try statement.render())
    }

    /// Runs an INSERT and returns the primary key the database gave the row it inserted.
    func insertedPrimaryKey(_ rendered: RenderedSQL) throws -> Int64 {
        log.record(rendered.sql)
        try database.execute(sql: rendered.sql, arguments: StatementArguments(rendered.arguments))
        return database.lastInsertedRowID
    }

    /// The rows of rendered SQL, each as its column values.
    func rows(_ rendered: RenderedSQL) throws -> [[DatabaseValue]] {
        log.record(rendered.sql)
        return try database.fetchAll(sql: rendered.sql, arguments: StatementArguments(rendered.arguments)) { row in
            (0..<row.count).map { row.databaseValue(at: $0) }
        }
    }

    /// The rows of rendered SQL, each handed to `transform` while the statement is on it.
    func rows<T>(_ rendered: RenderedSQL, _ transform: (Row) throws -> T) throws -> [T] {
        log.record(rendered.sql)
        return try database.fetchAll(sql: rendered.sql, arguments: StatementArguments(rendered.arguments), transform)
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
        try database.cachedStatement(sql: rendered.sql).forEachRow(arguments: StatementArguments(rendered.arguments)) { row in
            // Consumed: the model `make` returns goes into the buffer as it is; appended as a
            // copy, it cost a retain and a release a row.
            if let model = try make(row) { made.append(consume model) }
        }
        return made.array(of: T.self)
    }
}
