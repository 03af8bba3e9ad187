/// Collects the conditions of a `where { … }` closure whose body is statements: each
/// condition it lists is joined with `AND`, and `if`, `switch` and `for` choose or repeat
/// them, as StructuredQueries' `where` builder allows. A body that lists none adds no `WHERE`.
///
/// ```swift
/// Reminder.where {
///     if let listID { $0.remindersListID.eq(listID) }
///     for word in words { $0.title.like("%\(word)%") }
/// }
/// // … WHERE "reminders"."remindersListID" = ? AND "reminders"."title" LIKE ? AND …
/// ```
///
/// A closure that is one expression (`where { $0.isFlagged }`) or that `return`s its condition
/// takes the plain form; this builder is chosen for bodies the plain form cannot type, and for
/// `where { #sql("…") }`, whose condition type (`Bool` or `Bool?`) the plain form cannot infer.
@resultBuilder
public enum ConditionBuilder {
    /// Result builder: one condition of the block.
    public static func buildExpression<Condition: QueryExpression>(
        _ condition: Condition
    ) -> [SQLExpression] where Condition.QueryValue: _BooleanValue {
        [condition.sqlExpression]
    }

    /// `#sql("…")` as a condition, without `as: Bool.self`.
    public static func buildExpression(_ condition: SQLQueryExpression<Bool>) -> [SQLExpression] {
        [condition.sqlExpression]
    }

    /// `nil`: no condition, as in StructuredQueries' `where { _ in nil }`.
    public static func buildExpression(_ condition: Never?) -> [SQLExpression] { [] }

    /// Result builder: the statements of a block.
    public static func buildBlock(_ parts: [SQLExpression]...) -> [SQLExpression] { parts.flatMap { $0 } }
    /// Result builder: an `if` without `else` (nothing when false).
    public static func buildOptional(_ part: [SQLExpression]?) -> [SQLExpression] { part ?? [] }
    /// Result builder: the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first part: [SQLExpression]) -> [SQLExpression] { part }
    /// Result builder: the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second part: [SQLExpression]) -> [SQLExpression] { part }
    /// Result builder: the iterations of a `for` loop.
    public static func buildArray(_ parts: [[SQLExpression]]) -> [SQLExpression] { parts.flatMap { $0 } }

    /// The conditions joined with `AND`, or `nil` when there are none.
    static func conjunction(_ conditions: [SQLExpression]) -> SQLExpression? {
        guard var combined = conditions.first else { return nil }
        for condition in conditions.dropFirst() { combined = combined.and(condition) }
        return combined
    }
}
