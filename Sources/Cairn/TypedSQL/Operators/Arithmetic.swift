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

    /// `lhs / rhs` (SQLite's division: integer division for integers, as Swift's). A zero
    /// divisor answers NULL, on PostgreSQL too (`"id" / nullif(CAST($1 AS BIGINT), 0)`).
    public static func / (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(lhs.sqlExpression.dividedBy(divisor(rhs)))
    }

    /// `rhs` with its type stated where a bound value's type is not inferred from the division
    /// (PostgreSQL's `nullif($1, 0)`): `BIGINT` for integers, `DOUBLE PRECISION` for floating
    /// point, as stored.
    static func divisor(_ rhs: some QueryExpression<QueryValue>) -> SQLExpression {
        switch QueryValue.self {
        case is any BinaryInteger.Type: rhs.sqlExpression.typed(as: .integer)
        case is any BinaryFloatingPoint.Type: rhs.sqlExpression.typed(as: .real)
        default: rhs.sqlExpression
        }
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
    /// PostgreSQL answers NULL too: `"id" % nullif(CAST($1 AS BIGINT), 0)`.
    public static func % (lhs: Self, rhs: some QueryExpression<QueryValue>) -> SQLQueryExpression<QueryValue?> {
        SQLQueryExpression(lhs.sqlExpression.remainder(dividingBy: rhs.sqlExpression.typed(as: .integer)))
    }
}

extension QueryExpression where QueryValue == String {
    /// `lhs || rhs`
    public static func + (lhs: Self, rhs: some QueryExpression<String>) -> SQLQueryExpression<String> {
        SQLQueryExpression(lhs.sqlExpression.concatenated(with: rhs.sqlExpression))
    }
}
