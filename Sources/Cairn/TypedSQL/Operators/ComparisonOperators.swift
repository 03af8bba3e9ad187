// Swift's comparison operators on query expressions, beside the methods of Comparison.swift:
// `$0.priority > 2`, `$0.title == "x"`, `$0.id == $1.remindersListID`.
//
// `<`, `>`, `<=`, `>=` are StructuredQueries' operators. StructuredQueries offered `==` and
// `!=` up to 0.30 and made them unavailable in 0.31 (they hide SQL's three-valued logic);
// Cairn keeps them, with the SQL StructuredQueries rendered, so code written for either
// compiles. Where a NULL may be compared, `eq`/`is` say which comparison is meant.
//
// Each operator has two shapes, as `eq` does: a value of the column's own type (one concrete
// parameter type, so the type checker settles it at once) and, disfavored, any expression of
// the same type or its optional.
//
// The left side must be a column (`_ComparisonOperand`). Plain values are query expressions
// too, and Cairn's arithmetic turns `a + 1` on plain `Int`s into a possible SQL expression; an
// operator taking any expression on the left let the type checker build SQL readings of plain
// Swift code: `let x = a + b * 2 - 1 > a - b && Double(a) * c != c / 2` took 4.5 s instead of
// milliseconds, in every file importing Cairn. With a column required, plain code is
// unaffected. Compare a computed expression (`$0.id.count()`, `$0.title.length()`) with the
// methods: `$0.id.count().gt(3)`.

/// A column, which Swift's comparison operators compare in SQL: `$0.priority > 2`. Plain
/// Swift values and computed expressions are not operands, so comparing them stays Swift's
/// comparison (and the methods `eq`, `gt`… compare computed expressions).
public protocol _ComparisonOperand: QueryExpression {}

extension TableColumn: _ComparisonOperand {}

extension _ComparisonOperand where QueryValue: QueryRepresentable {
    /// Whether the expression's type is optional: `==` then compares with `IS`, as
    /// StructuredQueries does, so a NULL equals NULL.
    fileprivate static var isOptional: Bool {
        ObjectIdentifier(QueryValue.self) == ObjectIdentifier(QueryValue._Optionalized.self)
    }

    /// `=` or `IS` for `lhs == rhs`: `IS` where the left side is optional or the right side is
    /// NULL, `=` otherwise.
    fileprivate static func equality(_ lhs: Self, _ rhs: SQLExpression, negated: Bool) -> SQLQueryExpression<Bool> {
        let nullSafe = isOptional || rhs == .value(.null)
        let op: SQLBinaryOperator = nullSafe ? (negated ? .isNot : .is) : (negated ? .notEqual : .equal)
        return SQLQueryExpression(.binary(op, lhs.sqlExpression, rhs))
    }

    /// `lhs = rhs`, or `lhs IS rhs` where `lhs` is optional or `rhs` is NULL.
    ///
    /// ```swift
    /// RemindersList.join(Reminder.all) { $0.id == $1.remindersListID }
    /// // … JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID"
    /// ```
    @_disfavoredOverload
    public static func == <Other: QueryExpression>(lhs: Self, rhs: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        equality(lhs, rhs.sqlExpression, negated: false)
    }

    /// `lhs <> rhs`, or `lhs IS NOT rhs` where `lhs` is optional or `rhs` is NULL.
    @_disfavoredOverload
    public static func != <Other: QueryExpression>(lhs: Self, rhs: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        equality(lhs, rhs.sqlExpression, negated: true)
    }

    /// `lhs IS NULL`, also for a column that is not optional (the right side of a left join).
    ///
    /// ```swift
    /// Reminder.where { $0.priority == nil }  // … WHERE "reminders"."priority" IS ?  -- NULL
    /// ```
    public static func == (lhs: Self, rhs: _OptionalNilComparisonType) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.is, lhs.sqlExpression, .value(.null)))
    }

    /// `lhs IS NOT NULL`
    public static func != (lhs: Self, rhs: _OptionalNilComparisonType) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.isNot, lhs.sqlExpression, .value(.null)))
    }

    /// `lhs < rhs`
    ///
    /// ```swift
    /// Reminder.where { $0.position < $0.remindersListID }
    /// ```
    @_disfavoredOverload
    public static func < <Other: QueryExpression>(lhs: Self, rhs: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        SQLQueryExpression(.binary(.less, lhs.sqlExpression, rhs.sqlExpression))
    }

    /// `lhs > rhs`
    ///
    /// ```swift
    /// Reminder.where { $0.position > 1 }  // … WHERE "reminders"."position" > ?
    /// ```
    @_disfavoredOverload
    public static func > <Other: QueryExpression>(lhs: Self, rhs: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        SQLQueryExpression(.binary(.greater, lhs.sqlExpression, rhs.sqlExpression))
    }

    /// `lhs <= rhs`
    @_disfavoredOverload
    public static func <= <Other: QueryExpression>(lhs: Self, rhs: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        SQLQueryExpression(.binary(.lessOrEqual, lhs.sqlExpression, rhs.sqlExpression))
    }

    /// `lhs >= rhs`
    @_disfavoredOverload
    public static func >= <Other: QueryExpression>(lhs: Self, rhs: Other) -> SQLQueryExpression<Bool>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        SQLQueryExpression(.binary(.greaterOrEqual, lhs.sqlExpression, rhs.sqlExpression))
    }
}

// MARK: - Against bound values

extension _ComparisonOperand where QueryValue: QueryBindable {
    private static func bound(_ value: QueryValue.QueryOutput) -> SQLExpression {
        QueryValue(queryOutput: value).sqlExpression
    }

    /// `lhs = ?` (`lhs IS ?` where `lhs` is optional), the value bound.
    ///
    /// ```swift
    /// Reminder.where { $0.title == "Groceries" }  // … WHERE "reminders"."title" = ?
    /// ```
    public static func == (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        equality(lhs, bound(rhs), negated: false)
    }

    /// `lhs <> ?` (`lhs IS NOT ?` where `lhs` is optional), the value bound.
    public static func != (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        equality(lhs, bound(rhs), negated: true)
    }

    /// `lhs < ?`
    public static func < (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.less, lhs.sqlExpression, bound(rhs)))
    }

    /// `lhs > ?`: `Reminder.where { $0.priority > .low }`.
    public static func > (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.greater, lhs.sqlExpression, bound(rhs)))
    }

    /// `lhs <= ?`
    public static func <= (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.lessOrEqual, lhs.sqlExpression, bound(rhs)))
    }

    /// `lhs >= ?`
    public static func >= (lhs: Self, rhs: QueryValue.QueryOutput) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.binary(.greaterOrEqual, lhs.sqlExpression, bound(rhs)))
    }
}
