import CairnSQLite

/// SQL text written by hand, with typed interpolations that stay safe: what `#sql` takes.
///
/// - `\(expression)`: a column or any typed expression, rendered in place
///   (`\(Reminder.columns.title)` → `"reminders"."title"`); a plain value is bound (`?`).
/// - `\(Reminder.self)`: the quoted table name.
/// - `\(bind: value)`: binds any storable value.
/// - `\(raw: text)`: verbatim text; never pass user input.
///
/// ```swift
/// #sql("SELECT count(*) FROM \(Reminder.self) WHERE \(Reminder.columns.title) = \(title)", as: Int.self)
/// // SELECT count(*) FROM "reminders" WHERE "reminders"."title" = ?
/// ```
public struct QueryFragment: ExpressibleByStringInterpolation, Sendable, Hashable {
    /// The IR fragment.
    public var fragment: SQLFragment

    /// A fragment of raw SQL text.
    public init(stringLiteral value: String) {
        fragment = SQLFragment(sql: value)
    }

    /// A fragment from an interpolated string: literal parts as SQL, values bound.
    public init(stringInterpolation: StringInterpolation) {
        fragment = SQLFragment(segments: stringInterpolation.segments)
    }

    /// Builds a fragment from an interpolated string.
    public struct StringInterpolation: StringInterpolationProtocol {
        var segments: [SQLFragment.Segment] = []

        /// An empty interpolation.
        public init(literalCapacity: Int, interpolationCount: Int) {}

        /// Appends literal text as raw SQL.
        public mutating func appendLiteral(_ literal: String) {
            guard !literal.isEmpty else { return }
            if case .sql(let previous)? = segments.last {
                segments[segments.count - 1] = .sql(previous + literal)
            } else {
                segments.append(.sql(literal))
            }
        }

        /// `\(expression)`: a typed expression in place; a plain value is bound. (Disfavored so
        /// that a `Select`, also an expression, interpolates as its statement below.)
        @_disfavoredOverload
        public mutating func appendInterpolation(_ expression: some QueryExpression) {
            let parts = expression.selectedExpressions
            for (offset, part) in parts.enumerated() {
                if offset > 0 { appendLiteral(", ") }
                segments.append(.expression(part))
            }
        }

        /// `\(Table.self)`: the quoted table name.
        public mutating func appendInterpolation<T: Table>(_ table: T.Type) {
            segments.append(.identifier(T.tableName))
        }

        /// `\(bind: value)`: a bound value.
        public mutating func appendInterpolation(bind value: some DatabaseValueConvertible) {
            segments.append(.expression(.binding(value)))
        }

        /// `\(raw: text)`: verbatim SQL (a string, or a number's text, as StructuredQueries
        /// takes any `LosslessStringConvertible`). Never pass user input here: it is not bound.
        public mutating func appendInterpolation(raw text: some LosslessStringConvertible) {
            appendLiteral(text.description)
        }

        /// `\(statement)`: a whole `SELECT` in place (parenthesize it yourself).
        public mutating func appendInterpolation<C, F, J>(_ statement: Select<C, F, J>) {
            segments.append(.statement(.select(statement.query)))
        }
    }
}
