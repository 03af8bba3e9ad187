// `==` and `!=` on columns, as code written for StructuredQueries before 0.31 compares them:
// `$0.title == "Groceries"`, `$0.priority != nil`, `$0.id == $1.remindersListID`,
// `having { $0.id.count() == 2 }`.
//
// They answer as Swift's `==` does on optionals, as StructuredQueries renders them: where either
// side may be NULL they render `IS` and `IS NOT` (`$0.priority == nil` is `"priority" IS NULL`,
// and `$0.priority != 2` keeps the rows whose priority is NULL); two non-optional sides render
// `=` and `<>`. The methods (`eq`, `is`, `neq`, `isNot`) say which one explicitly.
//
// They live in this module and not in Cairn because they cost type-checking time in every file
// that sees them: plain values are query expressions and Cairn's arithmetic can read `a + 1` as
// SQL, so with a `==` that returns a SQL condition the type checker weighs SQL readings of plain
// conditions such as `let x = a + 1 > a && c * c != c / 2`, which take seconds instead of
// milliseconds. Code that imports `Cairn` does not pay for them; code that imports
// `StructuredQueries`, `StructuredQueriesSQLite` or `SQLiteData` (written with these operators)
// does, as it did with StructuredQueries. `Scripts/typecheck-timing.sh` prints both costs.

extension QueryExpression where QueryValue: QueryRepresentable {
    /// `self = other`, or `self IS other` where either side is optional (Swift's `nil == nil`).
    fileprivate func equality<Other: QueryRepresentable>(
        _ other: SQLExpression, _ otherType: Other.Type, negated: Bool
    ) -> SQLQueryExpression<Bool> {
        let nullable = QueryValue._Optionalized.self == QueryValue.self || Other._Optionalized.self == Other.self
        let op: SQLBinaryOperator = nullable ? (negated ? .isNot : .is) : (negated ? .notEqual : .equal)
        return SQLQueryExpression(.binary(op, sqlExpression, other))
    }
}

extension QueryBindable {
    /// The value bound, or `NULL` written out for `nil`: `$0.priority == nil` reads
    /// `"priority" IS NULL`, as StructuredQueries renders it.
    fileprivate var comparand: SQLExpression {
        databaseValue == .null ? .null : sqlExpression
    }
}

extension TableColumn where Value: QueryBindable {
    /// `column = ?`, the value bound; `column IS ?` for an optional column.
    ///
    /// ```swift
    /// Reminder.where { $0.title == "Groceries" }
    /// // SELECT … FROM "reminders" WHERE "reminders"."title" = ?   ("Groceries")
    /// Reminder.where { $0.priority == nil }
    /// // SELECT … FROM "reminders" WHERE "reminders"."priority" IS NULL
    /// ```
    ///
    /// `IS` is SQL's equality that holds for two NULLs and never answers NULL, so `==` and `!=`
    /// keep the rows Swift's `==` and `!=` would.
    public static func == (lhs: Self, rhs: Value.QueryOutput) -> SQLQueryExpression<Bool> {
        lhs.equality(Value(queryOutput: rhs).comparand, Value.self, negated: false)
    }

    /// `column <> ?`, the value bound; `column IS NOT ?` for an optional column.
    public static func != (lhs: Self, rhs: Value.QueryOutput) -> SQLQueryExpression<Bool> {
        lhs.equality(Value(queryOutput: rhs).comparand, Value.self, negated: true)
    }

    /// `? = column`, the value on the left: `2 == $0.priority` is `$0.priority == 2`.
    public static func == (lhs: Value.QueryOutput, rhs: Self) -> SQLQueryExpression<Bool> {
        rhs == lhs
    }

    /// `? <> column`, the value on the left.
    public static func != (lhs: Value.QueryOutput, rhs: Self) -> SQLQueryExpression<Bool> {
        rhs != lhs
    }

    /// `column = other`, or `column IS other` where either is optional: a join condition.
    ///
    /// ```swift
    /// RemindersList.join(Reminder.all) { $0.id == $1.remindersListID }
    /// // … JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID"
    /// ```
    public static func == <OtherRoot, Other: QueryBindable>(
        lhs: Self, rhs: TableColumn<OtherRoot, Other>
    ) -> SQLQueryExpression<Bool> where Other._Optionalized == Value._Optionalized {
        lhs.equality(rhs.sqlExpression, Other.self, negated: false)
    }

    /// `column <> other`, or `column IS NOT other` where either is optional.
    public static func != <OtherRoot, Other: QueryBindable>(
        lhs: Self, rhs: TableColumn<OtherRoot, Other>
    ) -> SQLQueryExpression<Bool> where Other._Optionalized == Value._Optionalized {
        lhs.equality(rhs.sqlExpression, Other.self, negated: true)
    }
}

extension SQLQueryExpression where QueryValue: QueryBindable {
    /// `expression = ?`, the value bound (`IS ?` for an optional expression): an aggregate, a
    /// function or arithmetic on the left.
    ///
    /// ```swift
    /// Reminder.where { $0.title.lower() == "haircut" }
    /// // SELECT … FROM "reminders" WHERE lower("reminders"."title") = ?   ("haircut")
    /// ```
    public static func == (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        lhs.equality(QueryValue(queryOutput: rhs).comparand, QueryValue.self, negated: false)
    }

    /// `expression <> ?`, the value bound (`IS NOT ?` for an optional expression).
    public static func != (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        lhs.equality(QueryValue(queryOutput: rhs).comparand, QueryValue.self, negated: true)
    }
}
