// Boolean logic: Swift's `!`, `&&`, `||` and the methods `and`, `or`, `not()`. Conditions
// may be `Bool` or `Bool?` expressions (SQL's three-valued logic).

extension QueryExpression where QueryValue: _BooleanValue {
    /// `NOT x`
    ///
    /// ```swift
    /// Reminder.where { !$0.isCompleted }  // … WHERE NOT "reminders"."isCompleted"
    /// ```
    public static prefix func ! (operand: Self) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(operand.sqlExpression.not())
    }

    /// `lhs AND rhs`
    ///
    /// ```swift
    /// Reminder.where { $0.isFlagged && !$0.isCompleted }
    /// // … WHERE "reminders"."isFlagged" AND NOT "reminders"."isCompleted"
    /// ```
    public static func && <Other: QueryExpression>(lhs: Self, rhs: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: _BooleanValue {
        SQLQueryExpression(lhs.sqlExpression.and(rhs.sqlExpression))
    }

    /// `lhs OR rhs`
    public static func || <Other: QueryExpression>(lhs: Self, rhs: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: _BooleanValue {
        SQLQueryExpression(lhs.sqlExpression.or(rhs.sqlExpression))
    }

    /// `lhs AND rhs` with a hand-written condition: `!isCompleted && #sql("…")` needs no
    /// `as: Bool.self` (the generic form cannot tell `Bool` from `Bool?` for `#sql`).
    @_disfavoredOverload
    public static func && (lhs: Self, rhs: SQLQueryExpression<Bool>) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(lhs.sqlExpression.and(rhs.sqlExpression))
    }

    /// `lhs OR rhs` with a hand-written condition (`#sql` without `as: Bool.self`).
    @_disfavoredOverload
    public static func || (lhs: Self, rhs: SQLQueryExpression<Bool>) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(lhs.sqlExpression.or(rhs.sqlExpression))
    }

    /// `self AND other`
    public func and<Other: QueryExpression>(_ other: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: _BooleanValue {
        SQLQueryExpression(sqlExpression.and(other.sqlExpression))
    }

    /// `self OR other`
    public func or<Other: QueryExpression>(_ other: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: _BooleanValue {
        SQLQueryExpression(sqlExpression.or(other.sqlExpression))
    }

    /// `NOT self`
    public func not() -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(sqlExpression.not())
    }
}

// MARK: - Coalescing

extension QueryExpression {
    /// `coalesce(lhs, rhs)`: the right side where the left is NULL.
    ///
    /// ```swift
    /// Reminder.select { $0.notes ?? "" }  // SELECT coalesce("reminders"."notes", ?) …
    /// ```
    public static func ?? <Wrapped, Other: QueryExpression>(lhs: Self, rhs: Other) -> SQLQueryExpression<Other.QueryValue>
    where QueryValue == Wrapped?, Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == Wrapped? {
        SQLQueryExpression(.function("coalesce", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// `ifnull(x, other)`: `other` where `x` is NULL, as `??` (SQLite's two-argument form).
    ///
    /// ```swift
    /// RemindersList.select { $0.color.ifnull(0) }  // SELECT ifnull("remindersLists"."color", ?) …
    /// ```
    public func ifnull<Wrapped, Other: QueryExpression>(_ other: Other) -> SQLQueryExpression<Other.QueryValue>
    where QueryValue == Wrapped?, Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == Wrapped? {
        SQLQueryExpression(.function("ifnull", sqlExpression, other.sqlExpression))
    }
}
