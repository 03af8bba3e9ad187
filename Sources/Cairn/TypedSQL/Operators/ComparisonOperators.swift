// Swift's ordering operators on columns and computed expressions, as StructuredQueries code
// writes them: `$0.priority > 2`, `having { $0.id.count() > 3 }`. The right side is a value,
// bound, or another column of the same type (`$1.key < $2.key`); compare other expressions
// with the methods (`$0.position.gt($1.position.count())`). The value is
// the column's Swift type, also for a representation's column: `$0.startedAt < cutoff` on a
// `Date.UnixTimeRepresentation` column (or a `@Model`'s date) binds the date as the column
// stores it.
//
// They are static members of the two concrete expression types, `TableColumn` and
// `SQLQueryExpression`, and of nothing else, and the `&&`/`||` that join their results are too
// (Logic.swift). Plain Swift values are query expressions, so operators declared for every
// `QueryExpression`, or a marker protocol columns adopt, let the type checker try SQL readings of
// plain code such as `a + b * 2 - 1 > a - b && s != "x"` in every file that imports Cairn.
// `Scripts/typecheck-timing.sh` checks that plain Swift type-checks about as fast with Cairn
// imported. `==` and `!=` are not offered here: even as members of these two types they make
// such plain conditions take seconds, so they live in the StructuredQueries module
// (Sources/StructuredQueries/EqualityOperators.swift), for code written with them; here write
// `eq`/`is` and `neq`/`isNot`.

extension QueryExpression {
    fileprivate func ordering(_ op: SQLBinaryOperator, _ value: some QueryExpression) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(op, sqlExpression, value.sqlExpression))
    }
}

extension TableColumn where Value: QueryBindable {
    /// `column < ?`
    public static func < (lhs: Self, rhs: Value.QueryOutput) -> SQLQueryExpression<Bool> { lhs.ordering(.less, Value(queryOutput: rhs)) }

    /// `column > ?`, the value bound.
    ///
    /// ```swift
    /// Reminder.where { $0.priority > 2 && $0.position <= 10 }
    /// // SELECT … FROM "reminders"
    /// // WHERE ("reminders"."priority" > ?) AND ("reminders"."position" <= ?)   (2, 10)
    /// ```
    ///
    /// A NULL column compares as SQL does: `priority > 2` is not true for a NULL priority.
    public static func > (lhs: Self, rhs: Value.QueryOutput) -> SQLQueryExpression<Bool> { lhs.ordering(.greater, Value(queryOutput: rhs)) }

    /// `column <= ?`
    public static func <= (lhs: Self, rhs: Value.QueryOutput) -> SQLQueryExpression<Bool> { lhs.ordering(.lessOrEqual, Value(queryOutput: rhs)) }

    /// `column >= ?`
    public static func >= (lhs: Self, rhs: Value.QueryOutput) -> SQLQueryExpression<Bool> { lhs.ordering(.greaterOrEqual, Value(queryOutput: rhs)) }
}

extension TableColumn where Value: QueryBindable {
    /// `column < other`: two columns of the same type, of any tables of the statement.
    ///
    /// ```swift
    /// Item.join(Item.columns.tags.jsonEach().as(First.self)) { _, _ in true }
    ///     .join(Item.columns.tags.jsonEach().as(Second.self)) { $1.key < $2.key }
    /// // … JOIN json_each("items"."tags") AS "seconds" ON "firsts"."key" < "seconds"."key"
    /// ```
    public static func < <Other>(lhs: Self, rhs: TableColumn<Other, Value>) -> SQLQueryExpression<Bool> {
        lhs.ordering(.less, rhs)
    }

    /// `column > other`
    public static func > <Other>(lhs: Self, rhs: TableColumn<Other, Value>) -> SQLQueryExpression<Bool> {
        lhs.ordering(.greater, rhs)
    }

    /// `column <= other`
    public static func <= <Other>(lhs: Self, rhs: TableColumn<Other, Value>) -> SQLQueryExpression<Bool> {
        lhs.ordering(.lessOrEqual, rhs)
    }

    /// `column >= other`
    public static func >= <Other>(lhs: Self, rhs: TableColumn<Other, Value>) -> SQLQueryExpression<Bool> {
        lhs.ordering(.greaterOrEqual, rhs)
    }
}

extension SQLQueryExpression where QueryValue: QueryBindable {
    /// `expression < ?`
    public static func < (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        lhs.ordering(.less, QueryValue(queryOutput: rhs))
    }

    /// `expression > ?`, the value bound: an aggregate, a function or arithmetic on the left.
    ///
    /// ```swift
    /// Reminder.group(by: \.remindersListID).having { $0.id.count() > 3 }
    /// // … GROUP BY "reminders"."remindersListID" HAVING (count("reminders"."id") > ?)   (3)
    /// ```
    public static func > (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        lhs.ordering(.greater, QueryValue(queryOutput: rhs))
    }

    /// `expression <= ?`
    public static func <= (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        lhs.ordering(.lessOrEqual, QueryValue(queryOutput: rhs))
    }

    /// `expression >= ?`
    public static func >= (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        lhs.ordering(.greaterOrEqual, QueryValue(queryOutput: rhs))
    }
}
