import CairnSQLite

/// A connection typed statements run on: the `db` that `read { db in }` and `write { db in }`
/// hand their block. SQLite's ``Database`` is one; a PostgreSQL connection is another, so
/// code written once runs on both:
///
/// ```swift
/// func openReminders(_ db: some QueryConnection) throws -> [Reminder] {
///     try Reminder.where { !$0.isCompleted }.order(by: \.title).fetchAll(db)
/// }
/// // SQLite:     SELECT … FROM "reminders" WHERE NOT "reminders"."isCompleted"
/// //             ORDER BY "reminders"."title" ASC
/// // PostgreSQL: the same with "title" ASC NULLS FIRST, and $1-style placeholders
/// ```
///
/// The connection renders the statement in its own dialect (and caches the rendering per
/// statement shape), runs it with its values bound, and hands each row to the caller as a
/// ``Row``, so every decoder reads both databases' rows the same way.
public protocol QueryConnection {
    /// Runs `statement` and returns each row transformed by `transform`, while the statement
    /// is on that row.
    func fetchAll<Element>(_ statement: SQLStatement, _ transform: (Row) throws -> Element) throws -> [Element]

    /// Runs `statement` and returns its first row transformed by `transform`, or `nil`.
    func fetchOne<Element>(_ statement: SQLStatement, _ transform: (Row) throws -> Element) throws -> Element?

    /// Runs `statement`, discarding any rows.
    func execute(_ statement: SQLStatement) throws

    /// A cursor over the rows of `statement`, read one at a time (on SQLite, stepped; on a
    /// server, fetched in batches from a server-side cursor).
    func fetchCursor(_ statement: SQLStatement) throws -> RowCursor

    /// Runs the statement `template` stands for and returns each row transformed by
    /// `transform`. A connection that renders in a dialect of its own renders the template
    /// once per identity (``SQLRenderCache/rendering(of:)``); by default, runs
    /// ``SQLTemplate/statement``.
    func fetchAll<Element>(_ template: SQLTemplate, _ transform: (Row) throws -> Element) throws -> [Element]

    /// Runs the statement `template` stands for and returns its first row transformed by
    /// `transform`, or `nil`, rendering it as the template `fetchAll` does.
    func fetchOne<Element>(_ template: SQLTemplate, _ transform: (Row) throws -> Element) throws -> Element?

    /// Runs the statement `template` stands for, discarding any rows, rendering it as the
    /// template `fetchAll` does.
    func execute(_ template: SQLTemplate) throws

    /// Runs `body` so that cancelling the current task stops its running statement (SQLite
    /// interrupts it, a server cancels it) and throws `CancellationError`.
    func withTaskCancellation<T>(_ body: () throws -> T) throws -> T
}

extension QueryConnection {
    /// Runs ``SQLTemplate/statement``.
    public func fetchAll<Element>(_ template: SQLTemplate, _ transform: (Row) throws -> Element) throws -> [Element] {
        try fetchAll(template.statement, transform)
    }

    /// Runs ``SQLTemplate/statement``.
    public func fetchOne<Element>(_ template: SQLTemplate, _ transform: (Row) throws -> Element) throws -> Element? {
        try fetchOne(template.statement, transform)
    }

    /// Runs ``SQLTemplate/statement``.
    public func execute(_ template: SQLTemplate) throws {
        try execute(template.statement)
    }
}

extension Database: QueryConnection {
    /// Renders `statement` once per shape (``SQLRenderCache``), runs it through the
    /// connection's statement cache and transforms each row.
    @inlinable
    public func fetchAll<Element>(_ statement: SQLStatement, _ transform: (Row) throws -> Element) throws -> [Element] {
        let rendered = try SQLRenderCache.shared.render(statement)
        return try cachedStatement(sql: rendered.sql).fetchAll(arguments: StatementArguments(rendered.arguments), transform)
    }

    /// Renders `statement` once per shape, runs it and transforms its first row.
    @inlinable
    public func fetchOne<Element>(_ statement: SQLStatement, _ transform: (Row) throws -> Element) throws -> Element? {
        let rendered = try SQLRenderCache.shared.render(statement)
        return try cachedStatement(sql: rendered.sql).fetchOne(arguments: StatementArguments(rendered.arguments), transform)
    }

    /// Renders `template` once per identity, runs it and transforms each row.
    @inlinable
    public func fetchAll<Element>(_ template: SQLTemplate, _ transform: (Row) throws -> Element) throws -> [Element] {
        let rendered = try SQLRenderCache.shared.rendering(of: template)
        return try cachedStatement(sql: rendered.sql).fetchAll(arguments: StatementArguments(rendered.arguments), transform)
    }

    /// Renders `template` once per identity, runs it and transforms its first row.
    @inlinable
    public func fetchOne<Element>(_ template: SQLTemplate, _ transform: (Row) throws -> Element) throws -> Element? {
        let rendered = try SQLRenderCache.shared.rendering(of: template)
        return try cachedStatement(sql: rendered.sql).fetchOne(arguments: StatementArguments(rendered.arguments), transform)
    }

    /// Renders `template` once per identity and runs it.
    public func execute(_ template: SQLTemplate) throws {
        let rendered = try SQLRenderCache.shared.rendering(of: template)
        try cachedStatement(sql: rendered.sql).execute(arguments: StatementArguments(rendered.arguments))
    }

    /// Renders `statement` once per shape and runs it.
    public func execute(_ statement: SQLStatement) throws {
        let rendered = try SQLRenderCache.shared.render(statement)
        try cachedStatement(sql: rendered.sql).execute(arguments: StatementArguments(rendered.arguments))
    }

    /// Renders `statement` once per shape and steps it with a cursor.
    public func fetchCursor(_ statement: SQLStatement) throws -> RowCursor {
        let rendered = try SQLRenderCache.shared.render(statement)
        return try fetchCursor(sql: rendered.sql, arguments: StatementArguments(rendered.arguments))
    }
}

/// A database typed statements run on, read on a snapshot and written in a transaction:
/// ``DatabaseQueue``, ``DatabasePool`` and `PostgresDatabase` alike.
///
/// ```swift
/// func addReminder(_ title: String, to database: some QueryDatabase) throws {
///     try database.write { db in
///         try Reminder.insert { Reminder.Draft(title: title, remindersListID: 1) }.execute(db)
///     }
/// }
/// ```
public protocol QueryDatabase: Sendable {
    /// What `read` and `write` hand their block.
    associatedtype Connection: QueryConnection

    /// Runs `block` on a consistent snapshot of the database and returns its result.
    func read<T>(_ block: (Connection) throws -> T) throws -> T

    /// Runs `block` in one transaction: it commits when `block` returns and rolls back when it
    /// throws.
    func write<T>(_ block: (Connection) throws -> T) throws -> T
}

extension DatabaseQueue: QueryDatabase {}
extension DatabasePool: QueryDatabase {}

// MARK: - Running typed statements

/// Runs `statement` on `db` and decodes each row. Inlinable, so the row loop is specialized
/// for the caller's row type and connection (see the note at the top of Fetching.swift).
@inlinable
func fetchRows<Connection: QueryConnection, Element>(
    _ db: Connection, _ statement: SQLStatement, _ decode: (inout QueryDecoder) throws -> Element
) throws -> [Element] {
    try db.fetchAll(statement) { row in
        var decoder = QueryDecoder(row: row)
        return try decode(&decoder)
    }
}

/// Runs `statement` on `db` and decodes its first row, or returns `nil`.
@inlinable
func fetchFirst<Connection: QueryConnection, Element>(
    _ db: Connection, _ statement: SQLStatement, _ decode: (inout QueryDecoder) throws -> Element
) throws -> Element? {
    try db.fetchOne(statement) { row in
        var decoder = QueryDecoder(row: row)
        return try decode(&decoder)
    }
}
