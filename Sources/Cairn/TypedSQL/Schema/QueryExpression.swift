/// A typed SQL expression whose value decodes as `QueryValue`: a column, a bound value, an
/// operator or function applied to other expressions, or a whole table's columns.
///
/// Every expression compiles into CairnQuery's ``SQLExpression`` IR; values are bound, never
/// spliced into the SQL text.
///
/// ```swift
/// Reminder.where { $0.title.eq("Groceries") }
/// // SELECT … FROM "reminders" WHERE ("reminders"."title" = ?)
/// ```
public protocol QueryExpression<QueryValue>: SendableMetatype {
    /// The Swift type the expression's result represents (a representation such as
    /// `Date.UnixTimeRepresentation`, or the value type itself).
    associatedtype QueryValue

    /// The expression as IR.
    var sqlExpression: SQLExpression { get }

    /// The result columns the expression contributes to a `SELECT` (one for a scalar, every
    /// column for a table or a `@Selection`).
    var selectedExpressions: [SQLExpression] { get }
}

extension QueryExpression {
    /// The result columns the expression selects.
    public var selectedExpressions: [SQLExpression] { [sqlExpression] }
}

/// An expression built from IR with a declared result type: what operators, functions and
/// `#sql` return.
///
/// ```swift
/// let titled = SQLQueryExpression<Bool>(SQLExpression.column("title").isNotNull())
/// ```
public struct SQLQueryExpression<QueryValue>: QueryExpression, Sendable {
    /// The expression as SQL IR.
    public let sqlExpression: SQLExpression
    /// The hand-written SQL, when the expression came from `#sql` (so it can run as a statement).
    let fragment: SQLFragment?

    /// Wraps an IR expression, declaring its result type.
    public init(_ expression: SQLExpression, as type: QueryValue.Type = QueryValue.self) {
        self.sqlExpression = expression
        self.fragment = nil
    }

    /// Wraps another expression, keeping its SQL and changing its declared type.
    public init(_ expression: some QueryExpression, as type: QueryValue.Type = QueryValue.self) {
        self.sqlExpression = expression.sqlExpression
        self.fragment = nil
    }

    /// Raw SQL with bound interpolations: the value `#sql` expands to.
    ///
    /// ```swift
    /// SQLQueryExpression<Int>("length(\(Reminder.columns.title))")
    /// // length("reminders"."title")
    /// ```
    public init(_ fragment: QueryFragment, as type: QueryValue.Type = QueryValue.self) {
        self.sqlExpression = .raw(fragment.fragment)
        self.fragment = fragment.fragment
    }
}

/// The `DISTINCT` or `NULLS` ordering of an `ORDER BY` term: `.first` or `.last`.
public enum NullOrdering: Sendable, Hashable {
    /// `NULLS FIRST`
    case first
    /// `NULLS LAST`
    case last

    var sql: SQLNullOrdering { self == .first ? .first : .last }
}

/// Something that can stand in an `ORDER BY` clause: any expression (ascending) or a term
/// made by `asc(nulls:)` / `desc(nulls:)`.
public protocol QueryOrderingTerm {
    /// The term as IR.
    var orderingTerm: SQLOrderingTerm { get }
}

/// An ordering term with an explicit direction.
public struct OrderingTerm: QueryOrderingTerm, Sendable {
    /// The term as SQL IR.
    public let orderingTerm: SQLOrderingTerm
}

extension QueryExpression {
    /// `expr ASC [NULLS FIRST|LAST]`
    ///
    /// ```swift
    /// Reminder.order { $0.dueDate.asc(nulls: .last) }
    /// // … ORDER BY "reminders"."dueDate" ASC NULLS LAST
    /// ```
    public func asc(nulls: NullOrdering? = nil) -> OrderingTerm {
        OrderingTerm(orderingTerm: nullability(sqlExpression.ascending(nulls: nulls?.sql)))
    }

    /// `expr DESC [NULLS FIRST|LAST]`
    ///
    /// ```swift
    /// Reminder.order { $0.dueDate.desc() }
    /// // … ORDER BY "reminders"."dueDate" DESC
    /// ```
    public func desc(nulls: NullOrdering? = nil) -> OrderingTerm {
        OrderingTerm(orderingTerm: nullability(sqlExpression.descending(nulls: nulls?.sql)))
    }

    /// `term`, marked as having no NULL key when this expression is a column that holds none.
    func nullability(_ term: SQLOrderingTerm) -> SQLOrderingTerm {
        var term = term
        term.keyIsNeverNull = (self as? any NullabilityKnown)?.holdsNoNull ?? false
        return term
    }
}

/// An expression used as an ordering term sorts ascending.
extension TableColumn: QueryOrderingTerm {
    /// The expression as an ascending `ORDER BY` term.
    public var orderingTerm: SQLOrderingTerm { nullability(sqlExpression.ascending()) }
}

extension SQLQueryExpression: QueryOrderingTerm {
    /// The expression as an ascending `ORDER BY` term.
    public var orderingTerm: SQLOrderingTerm { sqlExpression.ascending() }
}
