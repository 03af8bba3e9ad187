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

    /// Where each ``SQLExpression/parameter(_:)`` placeholder sits in `arguments`.
    package internal(set) var parameterSlots: [ParameterSlot] = []

    package struct ParameterSlot: Sendable, Hashable {
        /// The position in `arguments`.
        package var argument: Int
        /// The index in the array given to `binding(_:)`.
        package var parameter: Int
    }

    /// Rendered SQL.
    public init(sql: String, arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// Whether the SQL holds ``SQLExpression/parameter(_:)`` placeholders that
    /// ``binding(_:)`` fills.
    public var hasParameters: Bool { !parameterSlots.isEmpty }

    /// The number of parameters ``binding(_:)`` needs (the highest index plus one).
    public var parameterCount: Int { (parameterSlots.map(\.parameter).max() ?? -1) + 1 }

    /// The same SQL with every ``SQLExpression/parameter(_:)`` placeholder given its value
    /// from `parameters`; the other arguments are kept. Use it to render a statement shape once
    /// and execute it with new values:
    ///
    /// ```swift
    /// let template = try SQLSelect(from: "t").where(.column("id").equals(.parameter(0)))
    ///     .limit(10).render()                   // SELECT * FROM "t" WHERE "id" = ? LIMIT ?
    /// try template.binding([.integer(7)]).arguments  // [.integer(7), .integer(10)]
    /// ```
    ///
    /// Throws ``SQLRenderError`` when `parameters` has no value for a parameter index.
    public func binding(_ parameters: [DatabaseValue]) throws -> RenderedSQL {
        var bound = self
        if parametersAreArguments(given: parameters.count) {
            // Every argument is the parameter of its position (an INSERT's VALUES): the
            // parameters are the arguments, without copying the template's array and
            // overwriting it value by value (about 1,200 instructions a saved row, callgrind W1).
            bound.arguments = parameters
            return bound
        }
        for slot in parameterSlots {
            guard parameters.indices.contains(slot.parameter) else {
                throw SQLRenderError(reason: .missingParameter(
                    index: slot.parameter, given: parameters.count, sql: sql))
            }
            bound.arguments[slot.argument] = parameters[slot.parameter]
        }
        return bound
    }

    /// Whether argument `i` is parameter `i` for every argument, and `count` parameters are
    /// given, one for each.
    private func parametersAreArguments(given count: Int) -> Bool {
        guard count == arguments.count, parameterSlots.count == count else { return false }
        for (index, slot) in parameterSlots.enumerated() where slot.argument != index || slot.parameter != index {
            return false
        }
        return true
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
    /// Renders the SQL text and its bound arguments in `dialect`.
    public func render(dialect: any SQLDialect) throws -> RenderedSQL {
        try SQLGenerationContext.render(dialect) { try $0.expression(self) }
    }
}

extension SQLSelect: SQLRenderable {
    /// Renders the SQL text and its bound arguments in `dialect`.
    public func render(dialect: any SQLDialect) throws -> RenderedSQL {
        try SQLGenerationContext.render(dialect) { try $0.select(self) }
    }
}

extension SQLInsert: SQLRenderable {
    /// Renders the SQL text and its bound arguments in `dialect`.
    public func render(dialect: any SQLDialect) throws -> RenderedSQL {
        try SQLGenerationContext.render(dialect) { try $0.insert(self) }
    }
}

extension SQLUpdate: SQLRenderable {
    /// Renders the SQL text and its bound arguments in `dialect`.
    public func render(dialect: any SQLDialect) throws -> RenderedSQL {
        try SQLGenerationContext.render(dialect) { try $0.update(self) }
    }
}

extension SQLDelete: SQLRenderable {
    /// Renders the SQL text and its bound arguments in `dialect`.
    public func render(dialect: any SQLDialect) throws -> RenderedSQL {
        try SQLGenerationContext.render(dialect) { try $0.delete(self) }
    }
}

extension SQLStatement: SQLRenderable {
    /// Renders the SQL text and its bound arguments in `dialect`.
    public func render(dialect: any SQLDialect) throws -> RenderedSQL {
        try SQLGenerationContext.render(dialect) { try $0.statement(self) }
    }
}

extension SQLFragment: SQLRenderable {
    /// Renders the SQL text and its bound arguments in `dialect`.
    public func render(dialect: any SQLDialect) throws -> RenderedSQL {
        try SQLGenerationContext.render(dialect) { try $0.fragment(self) }
    }
}
