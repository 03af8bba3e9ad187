// `CASE` expressions, spelled as StructuredQueries spells them:
// `Case().when(condition, then: value).else(other)` and `Case(base).when(value, then: …)`.

/// Starts a SQL `CASE` expression: `Case()` tests conditions, `Case(base)` compares a base
/// expression with each `when` value.
///
/// ```swift
/// Reminder.select { Case().when($0.isCompleted, then: "done").else("to do") }
/// // SELECT CASE WHEN "reminders"."isCompleted" THEN ? ELSE ? END FROM "reminders"
///
/// Reminder.select { Case($0.priority).when(Priority.high, then: "!!!").when(Priority.medium, then: "!!") }
/// // SELECT CASE "reminders"."priority" WHEN ? THEN ? WHEN ? THEN ? END FROM "reminders"
/// ```
///
/// Without `else`, a row no branch matches yields `NULL`, so the expression's value is
/// optional (`String?` above); `else` with a non-optional value makes it non-optional.
public struct Case<Base, QueryValue>: Sendable {
    let base: SQLExpression?

    /// A `CASE base WHEN value THEN …` expression: each `when` value is compared with `base`.
    public init(_ base: some QueryExpression<Base>) {
        self.base = base.sqlExpression
    }

    /// A `CASE WHEN condition THEN …` expression: each `when` is a condition.
    public init() where Base == Bool {
        self.base = nil
    }

    /// The first `WHEN … THEN …` branch. The result is optional until `else` is given.
    ///
    /// ```swift
    /// Case().when($0.isFlagged, then: $0.title)  // CASE WHEN "reminders"."isFlagged" THEN "reminders"."title" END
    /// ```
    public func when<Condition: QueryExpression, Result: QueryExpression>(
        _ condition: Condition, then result: Result
    ) -> Cases<Base, QueryValue._Optionalized>
    where Base: QueryRepresentable, Condition.QueryValue: QueryRepresentable,
        Condition.QueryValue._Optionalized == Base._Optionalized,
        QueryValue: QueryRepresentable, Result.QueryValue == QueryValue
    {
        Cases(base: base, branches: [SQLCaseBranch(when: condition.sqlExpression, then: result.sqlExpression)])
    }
}

/// A `CASE` expression with at least one branch, whose value is optional (`NULL` when no
/// branch matches); add branches with `when(_:then:)` and a default with `else(_:)`.
///
/// ```swift
/// Case().when($0.priority.eq(.high), then: 3).when($0.priority.eq(.medium), then: 2).else(1)
/// // CASE WHEN "reminders"."priority" = ? THEN ? WHEN "reminders"."priority" = ? THEN ? ELSE ? END
/// ```
public struct Cases<Base, QueryValue>: QueryExpression, Sendable {
    let base: SQLExpression?
    let branches: [SQLCaseBranch]

    /// The expression as SQL IR.
    public var sqlExpression: SQLExpression {
        SQLExpression.case(base, when: branches.map { ($0.when, $0.then) })
    }

    /// Another `WHEN … THEN …` branch, tested after the earlier ones.
    public func when<Condition: QueryExpression, Result: QueryExpression>(
        _ condition: Condition, then result: Result
    ) -> Cases
    where Base: QueryRepresentable, Condition.QueryValue: QueryRepresentable,
        Condition.QueryValue._Optionalized == Base._Optionalized,
        Result.QueryValue: QueryRepresentable, Result.QueryValue._Optionalized == QueryValue
    {
        Cases(base: base, branches: branches + [SQLCaseBranch(when: condition.sqlExpression, then: result.sqlExpression)])
    }

    /// Ends the expression with `ELSE value END`: the value when no branch matches. A
    /// non-optional `value` makes the whole expression non-optional.
    ///
    /// ```swift
    /// Case().when($0.isCompleted, then: "done").else("to do")  // … ELSE ? END, a String
    /// ```
    public func `else`<Result: QueryExpression>(_ result: Result) -> SQLQueryExpression<Result.QueryValue>
    where Result.QueryValue: QueryRepresentable, Result.QueryValue._Optionalized == QueryValue {
        SQLQueryExpression(SQLExpression.case(
            base, when: branches.map { ($0.when, $0.then) }, else: result.sqlExpression))
    }
}

// MARK: - `#bind` operands

// `#bind(value)` infers its representation from context, and `Case`'s result type is only
// pinned up to optionality, so `Case(self.status).when(#bind(.incomplete), then:
// #bind(.completing))` (SQLiteData's Reminders example) could not be typed. These overloads
// fix a `#bind` condition to the base's type and a `#bind` result to a non-optional one.
extension Case where Base: QueryBindable {
    /// `WHEN ? THEN …` with a `#bind` value compared with the base.
    public func when<Result: QueryExpression>(
        _ condition: BindQueryExpression<Base>, then result: Result
    ) -> Cases<Base, QueryValue._Optionalized>
    where QueryValue: QueryRepresentable, Result.QueryValue == QueryValue {
        Cases(base: base, branches: [SQLCaseBranch(when: condition.sqlExpression, then: result.sqlExpression)])
    }

    /// `WHEN ? THEN ?`, both `#bind` values.
    public func when(
        _ condition: BindQueryExpression<Base>, then result: BindQueryExpression<QueryValue>
    ) -> Cases<Base, QueryValue?> where QueryValue: QueryBindable {
        Cases(base: base, branches: [SQLCaseBranch(when: condition.sqlExpression, then: result.sqlExpression)])
    }
}

extension Case {
    /// `WHEN … THEN ?` with a `#bind` result.
    public func when<Condition: QueryExpression>(
        _ condition: Condition, then result: BindQueryExpression<QueryValue>
    ) -> Cases<Base, QueryValue?>
    where Base: QueryRepresentable, Condition.QueryValue: QueryRepresentable,
        Condition.QueryValue._Optionalized == Base._Optionalized, QueryValue: QueryBindable {
        Cases(base: base, branches: [SQLCaseBranch(when: condition.sqlExpression, then: result.sqlExpression)])
    }
}

extension Cases where Base: QueryBindable {
    /// Another `WHEN ? THEN …` with a `#bind` value compared with the base.
    public func when<Result: QueryExpression>(
        _ condition: BindQueryExpression<Base>, then result: Result
    ) -> Cases where Result.QueryValue: QueryRepresentable, Result.QueryValue._Optionalized == QueryValue {
        Cases(base: base, branches: branches + [SQLCaseBranch(when: condition.sqlExpression, then: result.sqlExpression)])
    }

    /// Another `WHEN ? THEN ?`, both `#bind` values.
    public func when<Wrapped: QueryBindable>(
        _ condition: BindQueryExpression<Base>, then result: BindQueryExpression<Wrapped>
    ) -> Cases where QueryValue == Wrapped? {
        Cases(base: base, branches: branches + [SQLCaseBranch(when: condition.sqlExpression, then: result.sqlExpression)])
    }
}

extension Cases {
    /// Another `WHEN … THEN ?` with a `#bind` result.
    public func when<Condition: QueryExpression, Wrapped: QueryBindable>(
        _ condition: Condition, then result: BindQueryExpression<Wrapped>
    ) -> Cases
    where Base: QueryRepresentable, Condition.QueryValue: QueryRepresentable,
        Condition.QueryValue._Optionalized == Base._Optionalized, QueryValue == Wrapped? {
        Cases(base: base, branches: branches + [SQLCaseBranch(when: condition.sqlExpression, then: result.sqlExpression)])
    }
}
