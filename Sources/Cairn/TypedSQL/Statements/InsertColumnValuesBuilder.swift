// The rows of an insert of named columns (`insert { ($0.a, $0.b) } values: { … }`), as
// StructuredQueries writes them: Swift values of the columns' types, bound in the columns'
// representations, or SQL expressions in their place (`#sql`, functions, subqueries, a
// trigger's `new` row).

/// One row of an insert of named columns: the columns' Swift values, or SQL expressions.
public struct InsertColumnRow<Outputs> {
    enum Content {
        /// Values bound through their columns (a column group's value writes its columns).
        case values(Outputs)
        /// Expressions written as they are, one per written column.
        case expressions([SQLExpression])
    }

    let content: Content

    /// The row's values, when it is a row of values. Read through this property rather than by
    /// matching `content` where `Outputs` is a tuple of a pack: the compiler (6.3) crashes
    /// binding an enum payload of such a tuple.
    var values: Outputs? {
        if case .values(let values) = content { values } else { nil }
    }

    /// The row's expressions, when it is a row of expressions.
    var expressions: [SQLExpression]? {
        if case .expressions(let expressions) = content { expressions } else { nil }
    }
}

/// The rows of an insert of named columns, written with a result builder: one row per line,
/// arrays of rows, `if` and `for`. A row is a tuple of the columns' values, or of expressions of
/// the columns' types (a single value for a single column):
///
/// ```swift
/// Reminder.insert { ($0.remindersListID, $0.title, $0.priority) } values: {
///     (1, "Groceries", .high)
///     (#sql("2"), #sql("'Haircut'"), #sql("NULL"))
/// }
/// // INSERT INTO "reminders" ("remindersListID", "title", "priority") VALUES (?, ?, ?), (2, 'Haircut', NULL)
/// Asset.insert { ($0.name, $0.data) } values: { ("noise", 1_024.randomblob()) }
/// // INSERT INTO "assets" ("name", "data") VALUES (?, randomblob(?))
/// ```
///
/// `Values` are the columns' query value types (which infer `#sql`'s), `Outputs` their Swift
/// value types.
@resultBuilder
public enum InsertColumnValuesBuilder<Values, Outputs> {
    /// Result builder: one row of values.
    @_disfavoredOverload
    public static func buildExpression(_ row: Outputs) -> [InsertColumnRow<Outputs>] {
        [InsertColumnRow(content: .values(row))]
    }

    /// Result builder: rows of values.
    public static func buildExpression(_ rows: [Outputs]) -> [InsertColumnRow<Outputs>] {
        rows.map { InsertColumnRow(content: .values($0)) }
    }

    /// Result builder: one row of expressions, each of its column's type.
    @_disfavoredOverload
    public static func buildExpression<each E: QueryExpression>(
        _ row: (repeat each E)
    ) -> [InsertColumnRow<Outputs>] where Values == (repeat (each E).QueryValue) {
        var expressions: [SQLExpression] = []
        for expression in repeat each row { expressions += expression.selectedExpressions }
        return [InsertColumnRow(content: .expressions(expressions))]
    }

    /// Result builder: the statements of a block.
    public static func buildBlock(_ parts: [InsertColumnRow<Outputs>]...) -> [InsertColumnRow<Outputs>] {
        parts.flatMap { $0 }
    }
    /// Result builder: the iterations of a `for` loop.
    public static func buildArray(_ parts: [[InsertColumnRow<Outputs>]]) -> [InsertColumnRow<Outputs>] {
        parts.flatMap { $0 }
    }
    /// Result builder: an `if` without `else` (nothing when false).
    public static func buildOptional(_ part: [InsertColumnRow<Outputs>]?) -> [InsertColumnRow<Outputs>] { part ?? [] }
    /// Result builder: the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first: [InsertColumnRow<Outputs>]) -> [InsertColumnRow<Outputs>] { first }
    /// Result builder: the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second: [InsertColumnRow<Outputs>]) -> [InsertColumnRow<Outputs>] { second }
}
