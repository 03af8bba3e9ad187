// Comparison operators as methods (`eq`, `neq`, `gt`…), as in StructuredQueries (`<`, `>`, `<=`,
// `>=` against a value are also operators: ComparisonOperators.swift; `==` and `!=` only where
// the StructuredQueries module is imported: Sources/StructuredQueries/EqualityOperators.swift). Either side
// may be optional (`$0.id.eq($1.remindersListID)` after a left join); a plain value is bound.

extension QueryExpression where QueryValue: QueryRepresentable {
    private func compare(_ op: SQLBinaryOperator, _ other: SQLExpression) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(op, sqlExpression, other))
    }

    /// `lhs = rhs`
    ///
    /// ```swift
    /// RemindersList.leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
    /// // … ON "remindersLists"."id" = "reminders"."remindersListID"
    /// ```
    @_disfavoredOverload
    public func eq<Other: QueryExpression>(_ other: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        compare(.equal, other.sqlExpression)
    }

    /// `lhs <> rhs`
    @_disfavoredOverload
    public func neq<Other: QueryExpression>(_ other: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        compare(.notEqual, other.sqlExpression)
    }

    /// `lhs > rhs`
    @_disfavoredOverload
    public func gt<Other: QueryExpression>(_ other: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        compare(.greater, other.sqlExpression)
    }

    /// `lhs >= rhs`
    @_disfavoredOverload
    public func gte<Other: QueryExpression>(_ other: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        compare(.greaterOrEqual, other.sqlExpression)
    }

    /// `lhs < rhs`
    @_disfavoredOverload
    public func lt<Other: QueryExpression>(_ other: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        compare(.less, other.sqlExpression)
    }

    /// `lhs <= rhs`
    @_disfavoredOverload
    public func lte<Other: QueryExpression>(_ other: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        compare(.lessOrEqual, other.sqlExpression)
    }

    /// `lhs IS rhs` (NULL-safe equality)
    @_disfavoredOverload
    public func `is`<Other: QueryExpression>(_ other: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        compare(.is, other.sqlExpression)
    }

    /// `lhs IS NOT rhs` (NULL-safe inequality)
    @_disfavoredOverload
    public func isNot<Other: QueryExpression>(_ other: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        compare(.isNot, other.sqlExpression)
    }

    /// `lhs BETWEEN low AND high`
    @_disfavoredOverload
    public func between<Low: QueryExpression, High: QueryExpression>(
        _ low: Low, and high: High
    ) -> SQLQueryExpression<Bool>
    where Low.QueryValue: QueryRepresentable, High.QueryValue: QueryRepresentable,
        Low.QueryValue._Optionalized == QueryValue._Optionalized,
        High.QueryValue._Optionalized == QueryValue._Optionalized {
        SQLQueryExpression(sqlExpression.between(low.sqlExpression, and: high.sqlExpression))
    }

    /// `lhs IN (SELECT …)`
    ///
    /// ```swift
    /// RemindersList.where { $0.id.in(Reminder.where(\.isFlagged).select(\.remindersListID)) }
    /// // … WHERE "remindersLists"."id" IN (SELECT "reminders"."remindersListID" FROM …)
    /// ```
    public func `in`<C, F, J>(_ subquery: Select<C, F, J>) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(sqlExpression.in(subquery.query))
    }

    /// `lhs NOT IN (SELECT …)`
    public func notIn<C, F, J>(_ subquery: Select<C, F, J>) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(sqlExpression.notIn(subquery.query))
    }
}

// MARK: - Against bound values

extension QueryExpression where QueryValue: QueryBindable {
    private func bound(_ value: QueryValue.QueryOutput) -> SQLExpression {
        QueryValue(queryOutput: value).sqlExpression
    }

    /// `lhs = ?`, the value bound: `$0.status.eq(.incomplete)`.
    public func eq(_ value: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.equal, sqlExpression, bound(value)))
    }

    /// `lhs <> ?`
    public func neq(_ value: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.notEqual, sqlExpression, bound(value)))
    }

    /// `lhs > ?`: `$0.priority.gt(.low)`.
    public func gt(_ value: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.greater, sqlExpression, bound(value)))
    }

    /// `lhs >= ?`
    public func gte(_ value: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.greaterOrEqual, sqlExpression, bound(value)))
    }

    /// `lhs < ?`
    public func lt(_ value: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.less, sqlExpression, bound(value)))
    }

    /// `lhs <= ?`
    public func lte(_ value: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.lessOrEqual, sqlExpression, bound(value)))
    }

    /// `lhs IS ?`; `is(nil)` renders `lhs IS NULL`, as StructuredQueries writes it.
    ///
    /// ```swift
    /// Reminder.where { $0.priority.is(nil) }   // … WHERE "reminders"."priority" IS NULL
    /// ```
    public func `is`(_ value: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        let value = bound(value)
        return SQLQueryExpression(value == .value(.null) ? sqlExpression.isNull() : .binary(.is, sqlExpression, value))
    }

    /// `lhs IS NOT ?`; `isNot(nil)` renders `lhs IS NOT NULL`, as StructuredQueries writes it.
    ///
    /// ```swift
    /// Reminder.where { $0.dueDate.isNot(nil) }   // … WHERE "reminders"."dueDate" IS NOT NULL
    /// ```
    public func isNot(_ value: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        let value = bound(value)
        return SQLQueryExpression(value == .value(.null) ? sqlExpression.isNotNull() : .binary(.isNot, sqlExpression, value))
    }

    /// `lhs BETWEEN ? AND ?`
    public func between(_ low: QueryValue.QueryOutput, and high: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(sqlExpression.between(bound(low), and: bound(high)))
    }

    /// `lhs IN (?, ?, …)`; an empty sequence is false.
    ///
    /// ```swift
    /// Tag.where { $0.title.in(["Work", "Personal"]) }
    /// // … WHERE "tags"."title" IN (?, ?)
    /// ```
    public func `in`(_ values: some Sequence<QueryValue.QueryOutput>) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(sqlExpression.in(values.map(bound)))
    }

    /// `lhs NOT IN (?, ?, …)`; an empty sequence is true.
    public func notIn(_ values: some Sequence<QueryValue.QueryOutput>) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(sqlExpression.notIn(values.map(bound)))
    }
}

// MARK: - Against `#bind`

// `#bind(value)` leaves its representation to be inferred, and the generic forms above accept
// either `T` or `T?` for it, so `$0.status.eq(#bind(.completing))` could not be typed. These
// pin it to the column's own type.
extension QueryExpression where QueryValue: QueryBindable {
    /// `lhs = ?`: `new.status.eq(#bind(.completing))`.
    public func eq(_ other: BindQueryExpression<QueryValue>) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.equal, sqlExpression, other.sqlExpression))
    }

    /// `lhs <> ?`
    public func neq(_ other: BindQueryExpression<QueryValue>) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.notEqual, sqlExpression, other.sqlExpression))
    }

    /// `lhs > ?`
    public func gt(_ other: BindQueryExpression<QueryValue>) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.greater, sqlExpression, other.sqlExpression))
    }

    /// `lhs >= ?`
    public func gte(_ other: BindQueryExpression<QueryValue>) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.greaterOrEqual, sqlExpression, other.sqlExpression))
    }

    /// `lhs < ?`
    public func lt(_ other: BindQueryExpression<QueryValue>) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.less, sqlExpression, other.sqlExpression))
    }

    /// `lhs <= ?`
    public func lte(_ other: BindQueryExpression<QueryValue>) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.lessOrEqual, sqlExpression, other.sqlExpression))
    }

    /// `lhs IS ?`
    public func `is`(_ other: BindQueryExpression<QueryValue>) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.is, sqlExpression, other.sqlExpression))
    }

    /// `lhs IS NOT ?`
    public func isNot(_ other: BindQueryExpression<QueryValue>) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.isNot, sqlExpression, other.sqlExpression))
    }
}
