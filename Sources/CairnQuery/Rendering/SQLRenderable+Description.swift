// Descriptions for debugging and test failures: the SQLite rendering, values left out.

extension SQLRenderable {
    /// The SQLite SQL text, or the reason it cannot render.
    var renderedDescription: String {
        do {
            return try render().sql
        } catch {
            return "<cannot render: \(error)>"
        }
    }
}

extension SQLExpression: CustomStringConvertible {
    /// The SQLite SQL text (placeholders, no values), for debugging.
    public var description: String { renderedDescription }
}

extension SQLSelect: CustomStringConvertible {
    /// The SQLite SQL text (placeholders, no values), for debugging.
    public var description: String { renderedDescription }
}

extension SQLInsert: CustomStringConvertible {
    /// The SQLite SQL text (placeholders, no values), for debugging.
    public var description: String { renderedDescription }
}

extension SQLUpdate: CustomStringConvertible {
    /// The SQLite SQL text (placeholders, no values), for debugging.
    public var description: String { renderedDescription }
}

extension SQLDelete: CustomStringConvertible {
    /// The SQLite SQL text (placeholders, no values), for debugging.
    public var description: String { renderedDescription }
}

extension SQLStatement: CustomStringConvertible {
    /// The SQLite SQL text (placeholders, no values), for debugging.
    public var description: String { renderedDescription }
}

extension SQLFragment: CustomStringConvertible {
    /// The SQLite SQL text (placeholders, no values), for debugging.
    public var description: String { renderedDescription }
}
