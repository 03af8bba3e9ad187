import CairnSQLite

// Operators as methods, so every surface reads left to right:
// `a.equals(b).and(c.isNull())` renders `a = b AND c IS NULL`. Parentheses are added at
// rendering time from SQL precedence, never by the caller.

// MARK: - Comparison

extension SQLExpression {
    /// `self = other`
    public func equals(_ other: SQLExpression) -> SQLExpression { .binary(.equal, self, other) }
    /// `self <> other`
    public func notEquals(_ other: SQLExpression) -> SQLExpression { .binary(.notEqual, self, other) }
    /// `self < other`
    public func lessThan(_ other: SQLExpression) -> SQLExpression { .binary(.less, self, other) }
    /// `self <= other`
    public func lessThanOrEqual(_ other: SQLExpression) -> SQLExpression {
        .binary(.lessOrEqual, self, other)
    }
    /// `self > other`
    public func greaterThan(_ other: SQLExpression) -> SQLExpression { .binary(.greater, self, other) }
    /// `self >= other`
    public func greaterThanOrEqual(_ other: SQLExpression) -> SQLExpression {
        .binary(.greaterOrEqual, self, other)
    }
    /// `self IS other`: equality where `NULL IS NULL` is true (Swift's `nil == nil`).
    public func `is`(_ other: SQLExpression) -> SQLExpression { .binary(.is, self, other) }
    /// `self IS NOT other`: inequality where `NULL IS NOT 1` is true.
    public func isNot(_ other: SQLExpression) -> SQLExpression { .binary(.isNot, self, other) }
    /// `self IS NULL`
    public func isNull() -> SQLExpression { .unary(.isNull, self) }
    /// `self IS NOT NULL`
    public func isNotNull() -> SQLExpression { .unary(.isNotNull, self) }
}

// MARK: - Logic

extension SQLExpression {
    /// `self AND other`
    ///
    /// ```swift
    /// a.or(b).and(c) // (a OR b) AND c
    /// ```
    public func and(_ other: SQLExpression) -> SQLExpression { .binary(.and, self, other) }
    /// `self OR other`
    public func or(_ other: SQLExpression) -> SQLExpression { .binary(.or, self, other) }
    /// `NOT self`
    public func not() -> SQLExpression { .unary(.not, self) }

    /// The terms this condition joins with `AND`, in order; itself when it is not an `AND`.
    ///
    /// ```swift
    /// a.and(b).and(c).conjuncts // [a, b, c]
    /// a.or(b).conjuncts         // [a OR b]
    /// ```
    public var conjuncts: [SQLExpression] {
        switch node {
        case .logical(.and, let terms): terms.flatMap(\.conjuncts)
        case .binary(.and, let left, let right): left.conjuncts + right.conjuncts
        default: [self]
        }
    }
}

// MARK: - Arithmetic and strings

extension SQLExpression {
    /// `-self` (arithmetic negation; for logical negation use ``not()``).
    public func negated() -> SQLExpression { .unary(.negative, self) }
    /// `self + other`
    public func plus(_ other: SQLExpression) -> SQLExpression { .binary(.add, self, other) }
    /// `self - other`
    public func minus(_ other: SQLExpression) -> SQLExpression { .binary(.subtract, self, other) }
    /// `self * other`
    public func times(_ other: SQLExpression) -> SQLExpression { .binary(.multiply, self, other) }
    /// `self / other`. A zero divisor answers NULL, as in SQLite, on every dialect: on
    /// PostgreSQL the divisor is `nullif(other, 0)`, which for a bound divisor needs its type
    /// stated (``typed(as:)``, the type of the division's operands).
    ///
    /// ```swift
    /// SQLExpression.column("minutes").dividedBy(SQLExpression.value(.integer(0)).typed(as: .integer))
    /// // SQLite:     "minutes" / ?
    /// // PostgreSQL: "minutes" / nullif(CAST($1 AS BIGINT), 0)
    /// ```
    public func dividedBy(_ other: SQLExpression) -> SQLExpression { .binary(.divide, self, other) }
    /// `self % other`; a zero divisor answers NULL, as ``dividedBy(_:)`` says.
    public func remainder(dividingBy other: SQLExpression) -> SQLExpression {
        .binary(.remainder, self, other)
    }
    /// A bound value (or parameter) that stands for a value of `type`, stated where the
    /// dialect asks for it (PostgreSQL's `CAST($1 AS BIGINT)`; SQLite's `?`). Any other
    /// expression has a type of its own and is returned as it is.
    public func typed(as type: SQLType) -> SQLExpression {
        switch node {
        case .value, .parameter: SQLExpression(.typed(self, type))
        default: self
        }
    }
    /// `self || other` (string concatenation)
    public func concatenated(with other: SQLExpression) -> SQLExpression {
        .binary(.concatenate, self, other)
    }

    /// `self LIKE pattern [ESCAPE escape]` (ASCII case-insensitive on SQLite).
    ///
    /// ```swift
    /// SQLExpression.column("title").like(.value(.text("50\\%%")), escape: .value(.text("\\")))
    /// // "title" LIKE ? ESCAPE ?
    /// ```
    public func like(_ pattern: SQLExpression, escape: SQLExpression? = nil) -> SQLExpression {
        SQLExpression(.like(self, pattern: pattern, escape: escape, negated: false))
    }
    /// `self NOT LIKE pattern [ESCAPE escape]`
    public func notLike(_ pattern: SQLExpression, escape: SQLExpression? = nil) -> SQLExpression {
        SQLExpression(.like(self, pattern: pattern, escape: escape, negated: true))
    }
    /// `self GLOB pattern` (case-sensitive, `*` and `?` wildcards; SQLite).
    public func glob(_ pattern: SQLExpression) -> SQLExpression { .binary(.glob, self, pattern) }

    /// `self COLLATE name`, for example `NOCASE`, `BINARY`, `RTRIM` or a registered collation.
    ///
    /// ```swift
    /// SQLExpression.column("title").collate("NOCASE") // "title" COLLATE NOCASE
    /// ```
    public func collate(_ collation: String) -> SQLExpression {
        SQLExpression(.collate(self, collation: collation))
    }

    /// `CAST(self AS type)`
    public func cast(as type: SQLType) -> SQLExpression { .cast(self, as: type) }
}

// MARK: - Sets and ranges

extension SQLExpression {
    /// `self IN (a, b, …)`; an empty list is false.
    ///
    /// ```swift
    /// SQLExpression.column("id").in([.value(.integer(1)), .value(.integer(2))]) // "id" IN (?, ?)
    /// ```
    public func `in`(_ list: [SQLExpression]) -> SQLExpression {
        SQLExpression(.inList(self, list, negated: false))
    }
    /// `self NOT IN (a, b, …)`; an empty list is true.
    public func notIn(_ list: [SQLExpression]) -> SQLExpression {
        SQLExpression(.inList(self, list, negated: true))
    }
    /// `self IN (?, ?, …)` over bound values, the list padded to a power of two by repeating
    /// its last value, so lists of similar length share one SQL text (and one prepared
    /// statement) while the answer stays the same. An empty list is false.
    ///
    /// ```swift
    /// SQLExpression.column("id").in(values: [.integer(1), .integer(2), .integer(3)])
    /// // "id" IN (?, ?, ?, ?)   arguments: [1, 2, 3, 3]
    /// ```
    public func `in`(values: [DatabaseValue]) -> SQLExpression {
        SQLExpression(.inList(self, Self.padded(values), negated: false))
    }

    /// `self NOT IN (?, ?, …)` over bound values, padded as ``in(values:)``; an empty list is
    /// true.
    public func notIn(values: [DatabaseValue]) -> SQLExpression {
        SQLExpression(.inList(self, Self.padded(values), negated: true))
    }

    /// The number of placeholders ``in(values:)`` renders for `count` values: the next power
    /// of two (0 for none). Surfaces that render `IN` lists of ``parameter(_:)`` placeholders
    /// use it to bucket their shapes the same way.
    public static func paddedListCount(_ count: Int) -> Int {
        guard count > 1 else { return Swift.max(count, 0) }
        var size = 1
        while size < count { size <<= 1 }
        return size
    }

    private static func padded(_ values: [DatabaseValue]) -> [SQLExpression] {
        guard let last = values.last else { return [] }
        let expressions = values.map { SQLExpression.value($0) }
        return expressions + Array(repeating: .value(last), count: paddedListCount(values.count) - values.count)
    }

    /// `self IN (SELECT …)`
    public func `in`(_ subquery: SQLSelect) -> SQLExpression {
        SQLExpression(.inSubquery(self, subquery, negated: false))
    }
    /// `self NOT IN (SELECT …)`
    public func notIn(_ subquery: SQLSelect) -> SQLExpression {
        SQLExpression(.inSubquery(self, subquery, negated: true))
    }
    /// `self BETWEEN low AND high` (both ends included).
    public func between(_ low: SQLExpression, and high: SQLExpression) -> SQLExpression {
        SQLExpression(.between(self, low: low, high: high, negated: false))
    }
    /// `self NOT BETWEEN low AND high`
    public func notBetween(_ low: SQLExpression, and high: SQLExpression) -> SQLExpression {
        SQLExpression(.between(self, low: low, high: high, negated: true))
    }
}

// MARK: - Use in statements

extension SQLExpression {
    /// An ascending `ORDER BY` term.
    ///
    /// ```swift
    /// SQLExpression.column("due").ascending(nulls: .last) // "due" ASC NULLS LAST
    /// ```
    public func ascending(nulls: SQLNullOrdering? = nil, collation: String? = nil) -> SQLOrderingTerm {
        SQLOrderingTerm(self, .ascending, nulls: nulls, collation: collation)
    }
    /// A descending `ORDER BY` term.
    public func descending(nulls: SQLNullOrdering? = nil, collation: String? = nil) -> SQLOrderingTerm {
        SQLOrderingTerm(self, .descending, nulls: nulls, collation: collation)
    }
    /// A result column with an alias: `self AS "alias"`.
    public func aliased(_ alias: String) -> SQLSelectColumn { SQLSelectColumn(self, as: alias) }
}
