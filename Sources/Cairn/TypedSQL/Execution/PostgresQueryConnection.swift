import CairnPostgres

/// A PostgreSQL server as a ``QueryDatabase``: `read { db in }` runs on one snapshot
/// (`REPEATABLE READ READ ONLY`), `write { db in }` in one transaction, retried as a whole on a
/// serialization failure or deadlock. Typed statements run on it unchanged:
///
/// ```swift
/// let database = try PostgresDatabase(url: "postgresql://app@/reminders?host=/var/run/postgresql")
/// let open = try database.read { db in
///     try Reminder.where { !$0.isCompleted }.order(by: \.title).fetchAll(db)
/// }
/// // SELECT … FROM "reminders" WHERE NOT ("reminders"."isCompleted") ORDER BY "reminders"."title"
/// ```
///
/// Statements render in ``PostgreSQLDialect``: what SQLite spells differently is rewritten to
/// answer the same, and what PostgreSQL cannot express throws an error naming it.
public typealias PostgresDatabase = PostgresPool

extension PostgresPool: QueryDatabase {}

/// The rendering of typed statements for PostgreSQL, once per statement shape.
enum PostgresRendering {
    static let cache = SQLRenderCache(dialect: PostgreSQLDialect())
}

extension PostgresConnection: QueryConnection {
    /// Renders `statement` in PostgreSQL's dialect (once per shape), runs it with its values
    /// bound and transforms each row.
    public func fetchAll<Element>(_ statement: SQLStatement, _ transform: (Row) throws -> Element) throws -> [Element] {
        try rows(of: statement).map(transform)
    }

    /// Renders and runs `statement` and transforms its first row, or returns `nil`.
    public func fetchOne<Element>(_ statement: SQLStatement, _ transform: (Row) throws -> Element) throws -> Element? {
        var first: Element?
        let rows = try rows(of: statement)
        guard rows.count > 0 else { return nil }
        try rows.forEach { row in
            if first == nil { first = try transform(row) }
        }
        return first
    }

    /// Renders and runs `statement`, discarding its rows.
    public func execute(_ statement: SQLStatement) throws {
        let rendered = try PostgresRendering.cache.render(statement)
        try execute(sql: rendered.sql, arguments: StatementArguments(rendered.arguments))
    }

    private func rows(of statement: SQLStatement) throws -> BufferedRows {
        let rendered = try PostgresRendering.cache.render(statement)
        let result = try fetchAll(sql: rendered.sql, arguments: StatementArguments(rendered.arguments))
        var rows = BufferedRows(columnNames: result.columnNames, sql: rendered.sql)
        for row in result.rows { rows.append(row) }
        return rows
    }
}
