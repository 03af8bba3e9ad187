// `LIMIT` and `OFFSET`, in StructuredQueries' spellings: a number, an optional expression
// (`nil` leaves the clause as it is, so `.limit(isExpanded ? nil : 10)` reads naturally),
// or a closure over the statement's columns whose body may choose none.

/// Collects the expression of a `limit { … }` or `offset { … }` closure: an `Int`
/// expression, or `nil` (or an `if` that lists nothing) to leave the clause as it is.
///
/// ```swift
/// Reminder.limit { _ in
///     switch perPage {
///     case .all: nil
///     case .page: 20
///     }
/// }
/// ```
@resultBuilder
public enum LimitBuilder {
    /// An integer expression (a literal or a value is bound): the limit or offset.
    public static func buildExpression(_ expression: some QueryExpression<Int>) -> [SQLExpression] {
        [expression.sqlExpression]
    }

    /// `nil`: no limit (or offset) from this closure.
    public static func buildExpression(_ expression: Never?) -> [SQLExpression] { [] }

    /// Result builder: the statements of a block.
    public static func buildBlock(_ parts: [SQLExpression]...) -> [SQLExpression] { parts.flatMap { $0 } }
    /// Result builder: an `if` without `else` (no limit when false).
    public static func buildOptional(_ part: [SQLExpression]?) -> [SQLExpression] { part ?? [] }
    /// Result builder: the `if` branch of an `if`/`else`.
    public static func buildEither(first part: [SQLExpression]) -> [SQLExpression] { part }
    /// Result builder: the `else` branch of an `if`/`else`.
    public static func buildEither(second part: [SQLExpression]) -> [SQLExpression] { part }
}

extension Select {
    /// `LIMIT n [OFFSET m]`; the numbers are bound.
    ///
    /// ```swift
    /// Reminder.all.limit(10, offset: 20)  // … LIMIT ? OFFSET ?
    /// ```
    public func limit(_ maxLength: Int, offset: Int? = nil) -> Self {
        with {
            $0 = $0.limit(maxLength)
            if let offset { $0 = $0.offset(offset) }
        }
    }

    /// `LIMIT expression`; `nil` leaves the statement's limit as it is.
    ///
    /// ```swift
    /// Reminder.all.limit(isExpanded ? nil : 10)  // … LIMIT ?   (or no LIMIT)
    /// ```
    public func limit(_ maxLength: (any QueryExpression<Int>)?) -> Self {
        limiting(maxLength?.sqlExpression)
    }

    /// `LIMIT expression` from a closure over the statement's tables (``LimitBuilder``); a
    /// closure that gives `nil` leaves the limit as it is.
    public func limit<each J: Table>(
        @LimitBuilder _ maxLength: ((From.TableColumns, repeat (each J).TableColumns)) -> [SQLExpression]
    ) -> Self where Joins == (repeat each J) {
        limiting(maxLength((From.columns, repeat (each J).columns)).last)
    }

    /// `OFFSET m` (with `LIMIT -1` when no limit was set).
    public func offset(_ offset: Int) -> Self {
        offsetting(.value(.integer(Int64(offset))))
    }

    /// `OFFSET expression` (with `LIMIT -1` when no limit was set); `nil` leaves the statement's
    /// offset as it is.
    public func offset(_ offset: (any QueryExpression<Int>)?) -> Self {
        offsetting(offset?.sqlExpression)
    }

    /// `OFFSET expression` from a closure over the statement's tables (``LimitBuilder``).
    public func offset<each J: Table>(
        @LimitBuilder _ offset: ((From.TableColumns, repeat (each J).TableColumns)) -> [SQLExpression]
    ) -> Self where Joins == (repeat each J) {
        offsetting(offset((From.columns, repeat (each J).columns)).last)
    }

    func limiting(_ maxLength: SQLExpression?) -> Self {
        guard let maxLength else { return self }
        return with { $0 = $0.limit(maxLength) }
    }

    func offsetting(_ offset: SQLExpression?) -> Self {
        guard let offset else { return self }
        return with {
            if $0.limit == nil { $0 = $0.limit(-1) }
            $0 = $0.offset(offset)
        }
    }
}

extension Select where Joins == () {
    /// `LIMIT expression` from a closure over the table's columns: `limit { _ in 10 }`.
    public func limit(@LimitBuilder _ maxLength: (From.TableColumns) -> [SQLExpression]) -> Self {
        limiting(maxLength(From.columns).last)
    }

    /// `OFFSET expression` from a closure over the table's columns: `offset { _ in 20 }`.
    public func offset(@LimitBuilder _ offset: (From.TableColumns) -> [SQLExpression]) -> Self {
        offsetting(offset(From.columns).last)
    }
}

extension Table {
    /// `Self.all.limit(n, offset: m)`
    public static func limit(_ maxLength: Int, offset: Int? = nil) -> SelectOf<Self> {
        scoped.limit(maxLength, offset: offset)
    }

    /// `Self.all.limit(expression)`; `nil` adds no limit.
    public static func limit(_ maxLength: (any QueryExpression<Int>)?) -> SelectOf<Self> {
        scoped.limit(maxLength)
    }

    /// `Self.all.limit { … }`
    public static func limit(@LimitBuilder _ maxLength: (TableColumns) -> [SQLExpression]) -> SelectOf<Self> {
        scoped.limit(maxLength)
    }

    /// `Self.all.offset(m)`
    public static func offset(_ offset: Int) -> SelectOf<Self> {
        scoped.offset(offset)
    }

    /// `Self.all.offset(expression)`; `nil` adds no offset.
    public static func offset(_ offset: (any QueryExpression<Int>)?) -> SelectOf<Self> {
        scoped.offset(offset)
    }

    /// `Self.all.offset { … }`
    public static func offset(@LimitBuilder _ offset: (TableColumns) -> [SQLExpression]) -> SelectOf<Self> {
        scoped.offset(offset)
    }
}
