import CairnSQLite

/// SQL text and the values bound to its placeholders, in order: what the engine executes.
///
/// ```swift
/// let rendered = try SQLSelect(from: "t").where(.column("id").equals(.value(.integer(3)))).render()
/// rendered.sql        // SELECT * FROM "t" WHERE "id" = ?
/// rendered.arguments  // [.integer(3)]
/// ```
/// The same statement shape with other values renders the same `sql`, so it can key a
/// prepared-statement cache.
public struct RenderedSQL: Sendable, Hashable, CustomStringConvertible {
    /// The SQL text, with a placeholder for every value.
    public var sql: String
    /// The values for the placeholders, in order.
    public var arguments: [DatabaseValue]

    /// Rendered SQL.
    public init(sql: String, arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// The SQL text only; arguments are left out so logs never leak values.
    public var description: String { sql }
}

/// Anything of the IR that renders to SQL: expressions, statements and fragments.
public protocol SQLRenderable: Sendable {
    /// Renders into SQL text and bound arguments in the given dialect.
    ///
    /// Throws ``SQLRenderError`` for input the SQL cannot express (an invalid function or
    /// collation name, an insert without rows, rows of the wrong width, an update without
    /// assignments).
    func render(dialect: any SQLDialect) throws -> RenderedSQL
}

extension SQLRenderable {
    /// Renders in the SQLite dialect.
    public func render() throws -> RenderedSQL {
        try render(dialect: SQLiteDialect())
    }
}

extension SQLExpression: SQLRenderable {
    public func render(dialect: any SQLDialect) throws -> RenderedSQL {
        try SQLGenerationContext.render(dialect) { try $0.expression(self) }
    }
}

extension SQLSelect: SQLRenderable {
    public func render(dialect: any SQLDialect) throws -> RenderedSQL {
        try SQLGenerationContext.render(dialect) { try $0.select(self) }
    }
}

extension SQLInsert: SQLRenderable {
    public func render(dialect: any SQLDialect) throws -> RenderedSQL {
        try SQLGenerationContext.render(dialect) { try $0.insert(self) }
    }
}

extension SQLUpdate: SQLRenderable {
    public func render(dialect: any SQLDialect) throws -> RenderedSQL {
        try SQLGenerationContext.render(dialect) { try $0.update(self) }
    }
}

extension SQLDelete: SQLRenderable {
    public func render(dialect: any SQLDialect) throws -> RenderedSQL {
        try SQLGenerationContext.render(dialect) { try $0.delete(self) }
    }
}

extension SQLStatement: SQLRenderable {
    public func render(dialect: any SQLDialect) throws -> RenderedSQL {
        try SQLGenerationContext.render(dialect) { try $0.statement(self) }
    }
}

extension SQLFragment: SQLRenderable {
    public func render(dialect: any SQLDialect) throws -> RenderedSQL {
        try SQLGenerationContext.render(dialect) { try $0.fragment(self) }
    }
}
