// Arithmetic and concatenation operators on expressions, as StructuredQueries offers them:
// `($0.position.max() ?? -1) + 1`, `"#" + $0.title`. Both sides have the same type; a
// plain value on either side is bound.
//
// Operators overload Swift's own, so the type checker weighs them for every `+` in a file
// that imports Cairn. Keeping both sides of one type with a concrete result keeps that cheap:
// plain Int, Double and String arithmetic type-checks as fast with them as without them
// (`swiftc -typecheck`), `reduce(0, +)` costs about 50 ms more, and no query expression in the
// tests takes 100 ms. Comparisons: ComparisonOperators.swift (`<`, `>`, `<=`, `>=`) and the
// named methods (`eq`, `gt`, …).

extension QueryExpression where QueryValue: Numeric & QueryBindable {
    /// `lhs + rhs`
    public static func + (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(lhs.sqlExpression.plus(rhs.sqlExpression))
    }

    /// `lhs - rhs`
    public static func - (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(lhs.sqlExpression.minus(rhs.sqlExpression))
    }

    /// `lhs * rhs`
    public static func * (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(lhs.sqlExpression.times(rhs.sqlExpression))
    }

    /// `lhs / rhs` (SQLite's division: integer division for integers, as Swift's)
    public static func / (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(lhs.sqlExpression.dividedBy(rhs.sqlExpression))
    }

    /// `-expression`
    public static prefix func - (expression: Self) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(expression.sqlExpression.negated())
    }
}

extension QueryExpression where QueryValue: BinaryInteger & QueryBindable {
    /// `lhs % rhs` (the sign of the dividend, as Swift's), optional as in StructuredQueries:
    /// SQLite answers NULL for a remainder by zero where Swift would stop the program.
    ///
    /// ```swift
    /// Reminder.select { $0.id % 0 }  // SELECT "reminders"."id" % ? FROM …   → [nil, nil, …]
    /// ```
    ///
    /// PostgreSQL refuses a remainder by zero: the statement throws its `division by zero`.
    public static func % (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLQueryExpression<QueryValue?> {
        SQLQueryExpression(lhs.sqlExpression.remainder(dividingBy: rhs.sqlExpression))
    }
}

extension QueryExpression where QueryValue == String {
    /// `lhs || rhs`
    public static func + (lhs: Self, rhs: some QueryExpression<String>) -> SQLQueryExpression<String> {
        SQLQueryExpression(lhs.sqlExpression.concatenated(with: rhs.sqlExpression))
    }
}
