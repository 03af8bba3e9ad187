/// A `DELETE` statement.
///
/// ```swift
/// SQLDelete(from: "reminders").where(.column("isCompleted"))
/// // DELETE FROM "reminders" WHERE "isCompleted"
/// ```
public struct SQLDelete: Sendable, Hashable {
    /// The table written.
    public var table: String
    /// The schema that holds the table, or `nil`: `DELETE FROM "schema"."table"`.
    public var schema: String?
    /// An alias usable in the `WHERE` clause.
    public var alias: String?
    /// The `WHERE` condition; `nil` deletes every row.
    public var condition: SQLExpression?
    /// `RETURNING` columns; empty renders no clause.
    public var returning: [SQLSelectColumn] = []

    /// A delete from `table`.
    public init(from table: String, schema: String? = nil, as alias: String? = nil) {
        self.table = table
        self.schema = schema
        self.alias = alias
    }

    /// Adds a `WHERE` condition; several calls are joined with `AND`.
    public func `where`(_ condition: SQLExpression) -> SQLDelete {
        var copy = self
        copy.condition = copy.condition.map { $0.and(condition) } ?? condition
        return copy
    }

    /// Sets the `RETURNING` columns.
    public func returning(_ columns: [SQLSelectColumn]) -> SQLDelete {
        var copy = self
        copy.returning = columns
        return copy
    }

    /// Sets the `RETURNING` columns from unnamed expressions: `RETURNING "id", "title"`.
    public func returning(_ expressions: [SQLExpression]) -> SQLDelete {
        returning(expressions.map { SQLSelectColumn($0) })
    }
}
