import CairnPostgres

extension PostgresDatabase: QueryDatabase {}

/// The rendering of typed statements for PostgreSQL, once per statement shape.
@usableFromInline
enum PostgresRendering {
    @usableFromInline
    static let cache = SQLRenderCache(dialect: PostgreSQLDialect())
}

extension PostgresConnection: QueryConnection {
    /// Renders `statement` in PostgreSQL's dialect (once per shape), runs it with its values
    /// bound and transforms each row.
    ///
    /// Inlinable, as `PostgresConnection.fetchAll(sql:arguments:_:)` is: the rows are then
    /// collected in code specialized for `Element`, where generic code looks up
    /// `Array<Element>`'s metadata for every row it appends (about 330 instructions a row).
    @inlinable
    public func fetchAll<Element>(_ statement: SQLStatement, _ transform: (Row) throws -> Element) throws -> [Element] {
        let rendered = try PostgresRendering.cache.render(statement)
        return try fetchAll(sql: rendered.sql, arguments: StatementArguments(rendered.arguments), transform)
    }

    /// Renders and runs `statement` and transforms its first row, or returns `nil`.
    public func fetchOne<Element>(_ statement: SQLStatement, _ transform: (Row) throws -> Element) throws -> Element? {
        let rendered = try PostgresRendering.cache.render(statement)
        return try fetchOne(sql: rendered.sql, arguments: StatementArguments(rendered.arguments), transform)
    }

    /// Renders `template` in PostgreSQL's dialect once per identity, runs it and transforms
    /// each row (inlinable for the reason `fetchAll(_:_:)` of a statement is).
    @inlinable
    public func fetchAll<Element>(_ template: SQLTemplate, _ transform: (Row) throws -> Element) throws -> [Element] {
        let rendered = try PostgresRendering.cache.rendering(of: template)
        return try fetchAll(sql: rendered.sql, arguments: StatementArguments(rendered.arguments), transform)
    }

    /// Renders `template` once per identity, runs it and transforms its first row.
    public func fetchOne<Element>(_ template: SQLTemplate, _ transform: (Row) throws -> Element) throws -> Element? {
        let rendered = try PostgresRendering.cache.rendering(of: template)
        return try fetchOne(sql: rendered.sql, arguments: StatementArguments(rendered.arguments), transform)
    }

    /// Renders `template` once per identity and runs it, discarding its rows.
    public func execute(_ template: SQLTemplate) throws {
        let rendered = try PostgresRendering.cache.rendering(of: template)
        try execute(sql: rendered.sql, arguments: StatementArguments(rendered.arguments))
    }

    /// Renders and runs `statement`, discarding its rows.
    public func execute(_ statement: SQLStatement) throws {
        let rendered = try PostgresRendering.cache.render(statement)
        try execute(sql: rendered.sql, arguments: StatementArguments(rendered.arguments))
    }

    /// Renders `statement` and reads its rows through a server-side cursor, a batch at a time
    /// (see `PostgresConnection.fetchCursor(sql:arguments:batchSize:)`).
    public func fetchCursor(_ statement: SQLStatement) throws -> RowCursor {
        let rendered = try PostgresRendering.cache.render(statement)
        return try fetchCursor(sql: rendered.sql, arguments: StatementArguments(rendered.arguments))
    }
}
