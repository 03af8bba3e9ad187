// Arithmetic on numeric expressions: `+ - * /` between expressions or with values, and
// unary `-`. (Text concatenation is `||` through `#sql`; `+` is numeric only here.)

/// The value type of a numeric expression: an integer or floating-point type, or its optional.
public protocol _NumericValue {}
extension Int: _NumericValue {}
extension Int8: _NumericValue {}
extension Int16: _NumericValue {}
extension Int32: _NumericValue {}
extension Int64: _NumericValue {}
extension UInt8: _NumericValue {}
extension UInt16: _NumericValue {}
extension UInt32: _NumericValue {}
extension Double: _NumericValue {}
extension Float: _NumericValue {}
extension Optional: _NumericValue where Wrapped: _NumericValue {}

extension QueryExpression where QueryValue: _NumericValue & QueryRepresentable {
    /// `lhs + rhs`; a value on either side is bound.
    ///
    /// ```swift
    /// Reminder.select { $0.position + 1 }  // SELECT "reminders"."position" + ? FROM "reminders"
    /// ```
    public static func + <Other: QueryExpression>(lhs: Self, rhs: Other) -> SQLQueryExpression<QueryValue>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        SQLQueryExpression(lhs.sqlExpression.plus(rhs.sqlExpression))
    }

    /// `lhs - rhs`
    public static func - <Other: QueryExpression>(lhs: Self, rhs: Other) -> SQLQueryExpression<QueryValue>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        SQLQueryExpression(lhs.sqlExpression.minus(rhs.sqlExpression))
    }

    /// `lhs * rhs`
    public static func * <Other: QueryExpression>(lhs: Self, rhs: Other) -> SQLQueryExpression<QueryValue>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        SQLQueryExpression(lhs.sqlExpression.times(rhs.sqlExpression))
    }

    /// `lhs / rhs` (integer division truncates, as Swift's `/` does; by zero it is `NULL`).
    public static func / <Other: QueryExpression>(lhs: Self, rhs: Other) -> SQLQueryExpression<QueryValue>
    where Other.QueryValue: QueryRepresentable, Other.QueryValue._Optionalized == QueryValue._Optionalized {
        SQLQueryExpression(lhs.sqlExpression.dividedBy(rhs.sqlExpression))
    }

    /// `-x`
    public static prefix func - (operand: Self) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(operand.sqlExpression.negated())
    }
}
