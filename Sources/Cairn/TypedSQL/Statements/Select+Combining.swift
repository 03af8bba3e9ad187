// Filters combined as values, as StructuredQueries' `Where` clauses are: a filter defined once
// (`static let flagged = Reminder.where(\.isFlagged)`) joins another with `and`, `or`, `&&`,
// `||`, or is negated with `not()` / `!`. Only the `WHERE` conditions take part: the other
// clauses of `other` (its order, limit, joins) are not carried over. A statement without a
// condition leaves the other's as it is, for `and` and for `or` alike, so a filter can be
// built up from `Reminder.all` one term at a time.

extension Select {
    /// `WHERE (self's conditions) AND (other's conditions)`.
    ///
    /// ```swift
    /// Reminder.where(\.isCompleted).and(Reminder.where(\.isFlagged))
    /// // … WHERE "reminders"."isCompleted" AND "reminders"."isFlagged"
    /// ```
    public func and(_ other: SelectOf<From>) -> Self {
        combining(other) { $0.and($1) }
    }

    /// `WHERE (self's conditions) OR (other's conditions)`.
    ///
    /// ```swift
    /// Reminder.where(\.isCompleted).or(Reminder.where(\.isFlagged))
    /// // … WHERE "reminders"."isCompleted" OR "reminders"."isFlagged"
    /// ```
    public func or(_ other: SelectOf<From>) -> Self {
        combining(other) { $0.or($1) }
    }

    private func combining(_ other: SelectOf<From>, _ join: (SQLExpression, SQLExpression) -> SQLExpression) -> Self {
        guard let added = other.query.condition else { return self }
        return with { query in query.condition = query.condition.map { join($0, added) } ?? added }
    }
}

extension Select where Columns == (), Joins == () {
    /// `WHERE NOT (conditions)`; a statement without a condition keeps no row.
    ///
    /// ```swift
    /// Reminder.where(\.isCompleted).not()  // … WHERE NOT "reminders"."isCompleted"
    /// ```
    public func not() -> Self {
        with { $0.condition = ($0.condition ?? .value(.integer(1))).not() }
    }

    /// `lhs.and(rhs)`: `Reminder.where(\.isCompleted) && Reminder.where(\.isFlagged)`.
    public static func && (lhs: Self, rhs: Self) -> Self { lhs.and(rhs) }

    /// `lhs.or(rhs)`
    public static func || (lhs: Self, rhs: Self) -> Self { lhs.or(rhs) }

    /// `operand.not()`
    public static prefix func ! (operand: Self) -> Self { operand.not() }
}

// MARK: - Counting

extension Select where Columns == (), Joins == () {
    /// `SELECT COUNT(*) FILTER (WHERE condition)`: the rows, of those the statement keeps,
    /// for which `filter` holds.
    ///
    /// ```swift
    /// Reminder.where(\.isFlagged).count { $0.isCompleted }
    /// // SELECT COUNT(*) FILTER (WHERE "reminders"."isCompleted") FROM "reminders"
    /// // WHERE "reminders"."isFlagged"
    /// ```
    public func count<Condition: QueryExpression>(
        filter: (From.TableColumns) -> Condition
    ) -> Select<Int, From, ()> where Condition.QueryValue: _BooleanValue {
        var query = self.query
        query.columns = [SQLSelectColumn(.countAll(filter: filter(From.columns).sqlExpression))]
        return Select<Int, From, ()>(query: query, isSelected: true, decode: { try $0.decode(Int.self) })
    }
}

extension Table {
    /// `Self.all.count(filter:)`: `Reminder.count { $0.isCompleted }`.
    public static func count<Condition: QueryExpression>(
        filter: (TableColumns) -> Condition
    ) -> Select<Int, Self, ()> where Condition.QueryValue: _BooleanValue {
        scoped.count(filter: filter)
    }
}
