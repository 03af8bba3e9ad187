/// An `UPDATE` statement.
///
/// ```swift
/// SQLUpdate("reminders", set: [SQLAssignment("isCompleted", .true)])
///     .where(.column("id").equals(.value(.integer(7))))
/// // UPDATE "reminders" SET "isCompleted" = 1 WHERE "id" = ?
/// ```
public struct SQLUpdate: Sendable, Hashable {
    /// The table written.
    public var table: String
    /// The schema that holds the table, or `nil`: `UPDATE "schema"."table"`.
    public var schema: String?
    /// An alias usable in the `WHERE` clause and values.
    public var alias: String?
    /// The `SET` pairs; at least one, or rendering throws.
    public var assignments: [SQLAssignment]
    /// The `WHERE` condition; `nil` updates every row.
    public var condition: SQLExpression?
    /// `RETURNING` columns; empty renders no clause.
    public var returning: [SQLSelectColumn] = []

    /// An update of `table`.
    public init(_ table: String, schema: String? = nil, as alias: String? = nil, set assignments: [SQLAssignment]) {
        self.table = table
        self.schema = schema
        self.alias = alias
        self.assignments = assignments
    }

    /// Adds a `WHERE` condition; several calls are joined with `AND`.
    public func `where`(_ condition: SQLExpression) -> SQLUpdate {
        var copy = self
        copy.condition = copy.condition.map { $0.and(condition) } ?? condition
        return copy
    }

    /// Sets the `RETURNING` columns.
    public func returning(_ columns: [SQLSelectColumn]) -> SQLUpdate {
        var copy = self
        copy.returning = columns
        return copy
    }

    /// Sets the `RETURNING` columns from unnamed expressions: `RETURNING "id", "title"`.
    public func returning(_ expressions: [SQLExpression]) -> SQLUpdate {
        returning(expressions.map { SQLSelectColumn($0) })
    }
}
