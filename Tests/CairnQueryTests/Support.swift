import CairnQuery
import Testing

/// Shorthands so the tables of expected SQL stay readable.
let a = SQLExpression.column("a")
let b = SQLExpression.column("b")
let c = SQLExpression.column("c")
let d = SQLExpression.column("d")

func int(_ value: Int64) -> SQLExpression { .value(.integer(value)) }
func text(_ value: String) -> SQLExpression { .value(.text(value)) }

/// Renders in SQLite's dialect and returns the text and arguments.
func sqlite(_ renderable: some SQLRenderable) throws -> RenderedSQL {
    try renderable.render(dialect: SQLiteDialect())
}

/// Renders in PostgreSQL's dialect.
func postgres(_ renderable: some SQLRenderable) throws -> RenderedSQL {
    try renderable.render(dialect: PostgreSQLDialect())
}

/// One row of a snapshot table: an IR value, the SQL it must render and its arguments.
struct Snapshot: Sendable, CustomTestStringConvertible {
    let name: String
    let expression: SQLExpression
    let sql: String
    let arguments: [DatabaseValue]

    init(_ name: String, _ expression: SQLExpression, _ sql: String, _ arguments: [DatabaseValue] = []) {
        self.name = name
        self.expression = expression
        self.sql = sql
        self.arguments = arguments
    }

    var testDescription: String { name }
}
