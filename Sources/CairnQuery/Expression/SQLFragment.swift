import CairnSQLite

/// Raw SQL written by a developer, kept as segments so values are bound and identifiers
/// quoted: the IR behind `#sql` and ``SQLExpression/raw(_:)``.
///
/// Interpolating a ``DatabaseValue`` binds it; `identifier:` quotes a name; an
/// ``SQLExpression`` or ``SQLStatement`` renders in place. Only the literal text (and the
/// explicit `raw:` interpolation) reaches the SQL text verbatim.
///
/// ```swift
/// let title = DatabaseValue.text("'; DROP TABLE t; --")
/// let fragment: SQLFragment = "SELECT * FROM \(identifier: "reminders") WHERE title = \(title)"
/// try fragment.render().sql        // SELECT * FROM "reminders" WHERE title = ?
/// try fragment.render().arguments  // [.text("'; DROP TABLE t; --")]
/// ```
public struct SQLFragment: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// One piece of a fragment.
    public enum Segment: Sendable, Hashable {
        /// SQL text written by the developer, emitted verbatim.
        case sql(String)
        /// A bound value: a placeholder in the text, the value in the arguments.
        case value(DatabaseValue)
        /// An identifier, emitted quoted (`"name"`).
        case identifier(String)
        /// An expression, rendered in place (parenthesized when it is not a single term).
        case expression(SQLExpression)
        /// A whole statement, rendered in place without parentheses.
        case statement(SQLStatement)
    }

    /// The segments, in order.
    public var segments: [Segment]

    /// Whether the fragment is NULL whenever one of its expressions is NULL, as Cairn's own
    /// `x + 978307200` is; `false` (unknown) for hand-written SQL. It lets `map` on an optional
    /// expression leave out its NULL test (``SQLExpression/propagatesNull(from:)``).
    public var propagatesNull = false

    /// A fragment made of the given segments; `propagatesNull` when it is NULL whenever one of
    /// its expressions is.
    public init(segments: [Segment], propagatesNull: Bool = false) {
        self.segments = segments
        self.propagatesNull = propagatesNull
    }

    /// A fragment of verbatim SQL text; use interpolation to add values.
    public init(sql: String) {
        self.segments = sql.isEmpty ? [] : [.sql(sql)]
    }

    /// A fragment of verbatim SQL text from a literal: `let f: SQLFragment = "VACUUM"`.
    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    /// A fragment from an interpolated literal; interpolated values are bound.
    public init(stringInterpolation: StringInterpolation) {
        self.segments = stringInterpolation.segments
    }

    /// Appends another fragment.
    public static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(segments: lhs.segments + rhs.segments)
    }

    /// Builds a fragment from literal text and interpolations; values are bound.
    public struct StringInterpolation: StringInterpolationProtocol {
        var segments: [Segment] = []

        /// Starts an interpolation (called by the compiler).
        public init(literalCapacity: Int, interpolationCount: Int) {
            segments.reserveCapacity(interpolationCount * 2 + 1)
        }

        /// Appends literal SQL text (called by the compiler).
        public mutating func appendLiteral(_ literal: String) {
            guard !literal.isEmpty else { return }
            if case .sql(let previous)? = segments.last {
                segments[segments.count - 1] = .sql(previous + literal)
            } else {
                segments.append(.sql(literal))
            }
        }

        /// `\(value)`: binds the value (`?`).
        public mutating func appendInterpolation(_ value: DatabaseValue) {
            segments.append(.value(value))
        }

        /// `\(bind: value)`: binds the value (`?`); the spelling of StructuredQueries' `#sql`.
        public mutating func appendInterpolation(bind value: DatabaseValue) {
            segments.append(.value(value))
        }

        /// `\(identifier: name)`: a quoted identifier (`"name"`).
        public mutating func appendInterpolation(identifier name: String) {
            segments.append(.identifier(name))
        }

        /// `\(expression)`: renders the expression in place.
        public mutating func appendInterpolation(_ expression: SQLExpression) {
            segments.append(.expression(expression))
        }

        /// `\(statement)`: renders a statement in place (for example a subquery body).
        public mutating func appendInterpolation(_ statement: SQLStatement) {
            segments.append(.statement(statement))
        }

        /// `\(select)`: renders a `SELECT` in place, without parentheses.
        public mutating func appendInterpolation(_ select: SQLSelect) {
            segments.append(.statement(.select(select)))
        }

        /// `\(fragment)`: splices another fragment's segments.
        public mutating func appendInterpolation(_ fragment: SQLFragment) {
            for segment in fragment.segments {
                if case .sql(let text) = segment { appendLiteral(text) } else { segments.append(segment) }
            }
        }

        /// `\(raw: text)`: verbatim SQL text. Never pass user input here: it is not bound.
        public mutating func appendInterpolation(raw text: String) {
            appendLiteral(text)
        }
    }
}
