import CairnSQLite

/// One SQL expression of Cairn's query IR, rendered by an ``SQLDialect`` into SQL text plus
/// bound arguments.
///
/// Every surface of Cairn (SwiftData's `#Predicate`, Core Data's `NSPredicate`, the typed SQL
/// builder) compiles into this type; none of them writes SQL text. Values are always bound:
///
/// ```swift
/// let condition = SQLExpression.column("title", table: "t0")
///     .equals(.value(.text("Trader Joe's")))
///     .and(.column("isDone").not())
/// try condition.render().sql        // "t0"."title" = ? AND NOT "isDone"
/// try condition.render().arguments  // [.text("Trader Joe's")]
/// ```
///
/// The type is an opaque struct over an internal indirect enum, so new kinds of expression can
/// be added without breaking callers. It is `Hashable`: two expressions of the same shape and
/// values are equal; the same shape with other values renders the same SQL text.
public struct SQLExpression: Sendable, Hashable {
    /// The expression tree. Every case documents the SQL it renders (SQLite spelling).
    indirect enum Node: Sendable, Hashable {
        /// `"name"` or `"table"."name"` (identifiers always quoted, inner quotes doubled).
        case column(table: String?, name: String)
        /// `?` (`$n` on PostgreSQL); the value is appended to the arguments, never spliced.
        case value(DatabaseValue)
        /// `NULL`
        case null
        /// A value that cannot be bound (a `UInt64` above `Int64.max`, a JSON value that does
        /// not encode): rendering throws ``SQLRenderError`` with `reason`, so the statement
        /// fails where it would otherwise compare with NULL and answer wrongly.
        case unbindable(reason: String)
        /// A value the database assigns, in a row of `INSERT … VALUES`: `DEFAULT` where the
        /// dialect writes it there (PostgreSQL, where an identity key takes its next value), else
        /// a bound `NULL` (SQLite, where a NULL integer primary key takes the next rowid).
        case databaseDefault
        /// `1` / `0` on SQLite, `TRUE` / `FALSE` on PostgreSQL (the dialect decides).
        case boolean(Bool)
        /// `*` or `"table".*`
        case allColumns(table: String?)
        /// `?` (`$n`), whose value is supplied after rendering by
        /// ``RenderedSQL/binding(_:)`` from its parameter array at this index, so a cached
        /// rendering serves every value.
        case parameter(Int)
        /// `(a, b, c)`: a row value, for example the left side of a composite-key `IN`.
        case row([SQLExpression])
        /// `NOT x`, `-x`, `+x`, `~x`, `x IS NULL`, `x IS NOT NULL`
        case unary(SQLUnaryOperator, SQLExpression)
        /// `lhs op rhs`, for example `a = b`, `a || b`, `a GLOB b` (never AND/OR: see `logical`).
        case binary(SQLBinaryOperator, SQLExpression, SQLExpression)
        /// `a AND b AND c` or `a OR b OR c`: a flat list of at least two operands, so long
        /// conjunctions stay shallow (no deep recursion when rendering, hashing or freeing).
        case logical(SQLBinaryOperator, [SQLExpression])
        /// `x LIKE pattern`, `x NOT LIKE pattern`, optionally followed by `ESCAPE e`
        case like(SQLExpression, pattern: SQLExpression, escape: SQLExpression?, negated: Bool)
        /// `name(a, b)`: a scalar function, built in or registered (`fold(x)`); with
        /// `quotesName`, `"name"(a, b)`, the spelling of a typed `@DatabaseFunction` call.
        case function(name: String, arguments: [SQLExpression], quotesName: Bool)
        /// `NAME([DISTINCT] args [ORDER BY …]) [FILTER (WHERE …)]`, `COUNT(*)`
        case aggregate(SQLAggregate)
        /// `x IN (a, b, c)` / `x NOT IN (…)`; an empty list renders the constant it means
        /// (`0` for `IN`, `1` for `NOT IN`).
        case inList(SQLExpression, [SQLExpression], negated: Bool)
        /// `x IN (SELECT …)` / `x NOT IN (SELECT …)`
        case inSubquery(SQLExpression, SQLSelect, negated: Bool)
        /// `EXISTS (SELECT …)` / `NOT EXISTS (SELECT …)`
        case exists(SQLSelect, negated: Bool)
        /// `(SELECT …)`: a scalar subquery.
        case subquery(SQLSelect)
        /// `CASE [base] WHEN w THEN t … [ELSE e] END`
        case caseWhen(base: SQLExpression?, branches: [SQLCaseBranch], otherwise: SQLExpression?)
        /// `x BETWEEN low AND high` / `x NOT BETWEEN low AND high`
        case between(SQLExpression, low: SQLExpression, high: SQLExpression, negated: Bool)
        /// `x COLLATE name`
        case collate(SQLExpression, collation: String)
        /// `CAST(x AS type)`, the type name chosen by the dialect.
        case cast(SQLExpression, SQLType)
        /// `x`, a bound value of type `type`: written `x` on SQLite, `CAST(x AS type)` where
        /// the dialect asks for its bound values' types (PostgreSQL, which otherwise infers
        /// a parameter's type from where it stands).
        case typed(SQLExpression, SQLType)
        /// Raw SQL written by the developer (`#sql`), with bound values and nested expressions.
        case fragment(SQLFragment)
    }

    let node: Node

    init(_ node: Node) {
        self.node = node
    }

    /// Whether this is `"name"`, `"table"."name"` or `*`: a leaf that holds no value.
    var isColumnReference: Bool {
        switch node {
        case .column, .allColumns: true
        default: false
        }
    }
}

/// A prefix or postfix operator of ``SQLExpression``.
public enum SQLUnaryOperator: Sendable, Hashable {
    /// `NOT x`
    case not
    /// `-x`
    case negative
    /// `+x`
    case positive
    /// `~x`
    case bitwiseNot
    /// `x IS NULL`
    case isNull
    /// `x IS NOT NULL`
    case isNotNull
}

/// An infix operator of ``SQLExpression``.
public enum SQLBinaryOperator: Sendable, Hashable {
    /// `=`
    case equal
    /// `<>`
    case notEqual
    /// `<`
    case less
    /// `<=`
    case lessOrEqual
    /// `>`
    case greater
    /// `>=`
    case greaterOrEqual
    /// `IS` (null-safe equality; `IS NOT DISTINCT FROM` on PostgreSQL)
    case `is`
    /// `IS NOT` (null-safe inequality; `IS DISTINCT FROM` on PostgreSQL)
    case isNot
    /// `AND`
    case and
    /// `OR`
    case or
    /// `+`
    case add
    /// `-`
    case subtract
    /// `*`
    case multiply
    /// `/` (integer division truncates toward zero on integers, as Swift's `/`)
    case divide
    /// `%`
    case remainder
    /// `||` (string concatenation)
    case concatenate
    /// `GLOB` (case-sensitive Unix-style pattern; SQLite only)
    case glob
    /// `&`
    case bitwiseAnd
    /// `|`
    case bitwiseOr
    /// `<<`
    case leftShift
    /// `>>`
    case rightShift
}

/// One `WHEN … THEN …` branch of a `CASE` expression.
public struct SQLCaseBranch: Sendable, Hashable {
    /// The condition (or, with a base expression, the value compared to the base).
    public var when: SQLExpression
    /// The result when the branch matches.
    public var then: SQLExpression

    /// A branch `WHEN when THEN then`.
    public init(when: SQLExpression, then: SQLExpression) {
        self.when = when
        self.then = then
    }
}

/// An aggregate function call: `NAME([DISTINCT] args [ORDER BY …]) [FILTER (WHERE …)]`.
///
/// Built with ``SQLExpression/count(_:distinct:filter:)`` and its siblings rather than
/// directly.
public struct SQLAggregate: Sendable, Hashable {
    /// The function name, for example `COUNT`, `SUM`, `GROUP_CONCAT`.
    public var name: String
    /// The arguments; `COUNT(*)` has the single argument ``SQLExpression/star``.
    public var arguments: [SQLExpression]
    /// Whether `DISTINCT` precedes the arguments.
    public var distinct: Bool
    /// `ORDER BY` inside the call (SQLite 3.44+, PostgreSQL).
    public var ordering: [SQLOrderingTerm]
    /// The `FILTER (WHERE …)` condition.
    public var filter: SQLExpression?
    /// Whether the name renders as a quoted identifier (`"joined"(…)`), as a typed
    /// `@DatabaseFunction` aggregate's call does; built-in aggregates render bare.
    public var quotesName: Bool

    /// An aggregate call; see the static constructors on ``SQLExpression`` for the common ones.
    public init(
        name: String, arguments: [SQLExpression], distinct: Bool = false,
        ordering: [SQLOrderingTerm] = [], filter: SQLExpression? = nil, quotesName: Bool = false
    ) {
        self.name = name
        self.quotesName = quotesName
        self.arguments = arguments
        self.distinct = distinct
        self.ordering = ordering
        self.filter = filter
    }
}
