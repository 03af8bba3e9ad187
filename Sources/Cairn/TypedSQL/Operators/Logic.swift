// Boolean logic: Swift's `!`, `&&`, `||` and the methods `and`, `or`, `not()`. Conditions
// may be `Bool` or `Bool?` expressions (SQL's three-valued logic).
//
// `&&` and `||` join conditions of the two concrete types conditions come as: a column and a
// computed `SQLQueryExpression` (what every comparison returns); any other condition on the
// left (a computed `some QueryExpression<Bool>`) joins one of those, disfavored. They are not
// declared for every pair of `QueryExpression`s: plain Swift values are query expressions, and with the
// ordering operators (ComparisonOperators.swift) such an `&&` made the type checker try SQL
// readings of plain conditions (`a + b * 2 - 1 > a - b && s != "x"` took 20 times as long, or
// seconds, to type-check in any file importing Cairn). Other conditions (a `Case`, a subquery, a
// plain `Bool`) join with `and(_:)` and `or(_:)`.

extension QueryExpression where QueryValue: _BooleanValue {
    /// `NOT x`
    ///
    /// ```swift
    /// Reminder.where { !$0.isCompleted }  // … WHERE NOT "reminders"."isCompleted"
    /// ```
    public static prefix func ! (operand: Self) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(operand.sqlExpression.not())
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

// MARK: - `&&` and `||` on the condition types

extension SQLQueryExpression where QueryValue: _BooleanValue {
    /// `lhs AND rhs` with a hand-written condition: `!$0.isCompleted && #sql("…")` needs no
    /// `as: Bool.self` (the generic form cannot tell `Bool` from `Bool?` for `#sql`).
    @_disfavoredOverload
    public static func && (lhs: Self, rhs: SQLQueryExpression<Bool>) -> SQLQueryExpression<Bool> { lhs.and(rhs) }

    /// `lhs OR rhs` with a hand-written condition (`#sql` without `as: Bool.self`).
    @_disfavoredOverload
    public static func || (lhs: Self, rhs: SQLQueryExpression<Bool>) -> SQLQueryExpression<Bool> { lhs.or(rhs) }

    /// `lhs AND rhs`: `$0.priority > 2 && $0.position < 5`.
    public static func && <Other: _BooleanValue>(lhs: Self, rhs: SQLQueryExpression<Other>) -> SQLQueryExpression<Bool> { lhs.and(rhs) }

    /// `lhs OR rhs`
    public static func || <Other: _BooleanValue>(lhs: Self, rhs: SQLQueryExpression<Other>) -> SQLQueryExpression<Bool> { lhs.or(rhs) }

    /// `lhs AND column`: `$0.id.eq($1.remindersListID) && $1.isFlagged`.
    public static func && <Root, Other: _BooleanValue>(lhs: Self, rhs: TableColumn<Root, Other>) -> SQLQueryExpression<Bool> { lhs.and(rhs) }

    /// `lhs OR column`
    public static func || <Root, Other: _BooleanValue>(lhs: Self, rhs: TableColumn<Root, Other>) -> SQLQueryExpression<Bool> { lhs.or(rhs) }
}

extension TableColumn where Value: _BooleanValue {
    /// `column AND rhs` with a hand-written condition: `!$0.isCompleted && #sql("…")` needs no
    /// `as: Bool.self` (the generic form cannot tell `Bool` from `Bool?` for `#sql`).
    @_disfavoredOverload
    public static func && (lhs: Self, rhs: SQLQueryExpression<Bool>) -> SQLQueryExpression<Bool> { lhs.and(rhs) }

    /// `column OR rhs` with a hand-written condition (`#sql` without `as: Bool.self`).
    @_disfavoredOverload
    public static func || (lhs: Self, rhs: SQLQueryExpression<Bool>) -> SQLQueryExpression<Bool> { lhs.or(rhs) }

    /// `column AND rhs`: `$0.isFlagged && $0.priority > 2`.
    public static func && <Other: _BooleanValue>(lhs: Self, rhs: SQLQueryExpression<Other>) -> SQLQueryExpression<Bool> { lhs.and(rhs) }

    /// `column OR rhs`
    public static func || <Other: _BooleanValue>(lhs: Self, rhs: SQLQueryExpression<Other>) -> SQLQueryExpression<Bool> { lhs.or(rhs) }

    /// `column AND column`: `$0.isFlagged && $0.isCompleted`.
    public static func && <OtherRoot, Other: _BooleanValue>(lhs: Self, rhs: TableColumn<OtherRoot, Other>) -> SQLQueryExpression<Bool> { lhs.and(rhs) }

    /// `column OR column`
    public static func || <OtherRoot, Other: _BooleanValue>(lhs: Self, rhs: TableColumn<OtherRoot, Other>) -> SQLQueryExpression<Bool> { lhs.or(rhs) }
}

extension QueryExpression where QueryValue: _BooleanValue {
    /// `lhs AND rhs` for a condition of any other expression type on the left, such as a
    /// computed `some QueryExpression<Bool>` on a table's columns: `$0.isCompleted && $0.id.in(…)`.
    /// Disfavored, so the concrete forms above are tried first and a plain Swift `Bool` never
    /// takes it unless the right side is already SQL.
    @_disfavoredOverload
    public static func && <Other: _BooleanValue>(lhs: Self, rhs: SQLQueryExpression<Other>) -> SQLQueryExpression<Bool> { lhs.and(rhs) }

    /// `lhs OR rhs`, for a condition of any other expression type on the left.
    @_disfavoredOverload
    public static func || <Other: _BooleanValue>(lhs: Self, rhs: SQLQueryExpression<Other>) -> SQLQueryExpression<Bool> { lhs.or(rhs) }

    /// `lhs AND column`, for a condition of any other expression type on the left:
    /// `$0.isCompleted && $0.isFlagged`.
    @_disfavoredOverload
    public static func && <Root, Other: _BooleanValue>(lhs: Self, rhs: TableColumn<Root, Other>) -> SQLQueryExpression<Bool> { lhs.and(rhs) }

    /// `lhs OR column`, for a condition of any other expression type on the left.
    @_disfavoredOverload
    public static func || <Root, Other: _BooleanValue>(lhs: Self, rhs: TableColumn<Root, Other>) -> SQLQueryExpression<Bool> { lhs.or(rhs) }
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
