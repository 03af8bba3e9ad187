import CairnPostgres

extension PostgresDatabase: QueryDatabase {}

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
