/// A `SELECT` statement of the query IR, in clause order.
///
/// A value type: building methods return a modified copy, so a shared base query is never
/// changed by a caller that refines it. `LIMIT` and `OFFSET` are bound, so the next page of the
/// same query reuses the same SQL text.
///
/// ```swift
/// let select = SQLSelect([.column("title", table: "r")], from: .table("reminders", as: "r"))
///     .join(.left, .table("lists", as: "l"),
///           on: .column("id", table: "l").equals(.column("listID", table: "r")))
///     .where(.column("isCompleted", table: "r").not())
///     .orderBy(SQLExpression.column("title", table: "r").ascending())
///     .limit(10)
/// try select.render().sql
/// // SELECT "r"."title" FROM "reminders" AS "r"
/// //   LEFT JOIN "lists" AS "l" ON "l"."id" = "r"."listID"
/// //   WHERE NOT "r"."isCompleted" ORDER BY "r"."title" ASC LIMIT ?
/// ```
/// (one line in the real output.)
public struct SQLSelect: Sendable, Hashable {
    /// The clauses, as stored. `SQLSelect.==` compares them one by one: a new clause goes
    /// there too.
    @usableFromInline
    struct Clauses: Sendable, Hashable {
        @usableFromInline var commonTableExpressions: [SQLCommonTableExpression] = []
        @usableFromInline var isRecursive: Bool = false
        @usableFromInline var isDistinct: Bool = false
        @usableFromInline var columns: [SQLSelectColumn] = []
        @usableFromInline var from: SQLTableSource? = nil
        @usableFromInline var joins: [SQLJoin] = []
        @usableFromInline var condition: SQLExpression? = nil
        @usableFromInline var groupBy: [SQLExpression] = []
        @usableFromInline var having: SQLExpression? = nil
        @usableFromInline var compounds: [SQLCompound] = []
        @usableFromInline var ordering: [SQLOrderingTerm] = []
        @usableFromInline var limit: SQLExpression? = nil
        @usableFromInline var offset: SQLExpression? = nil
    }

    /// The clauses behind one copy-on-write reference. A select is copied each time a builder
    /// method returns and each time a typed query is run; as a struct of thirteen fields, each
    /// copy retained every array and expression in it (about 38 retains and 23 releases a
    /// typed primary-key lookup, callgrind W5). A copy now retains the box, and a change to a
    /// shared box copies the clauses first.
    ///
    /// `@unchecked Sendable`: `clauses` is only changed through `SQLSelect`'s accessors, after
    /// `isKnownUniquelyReferenced` has made the box this value's alone; a box that two values
    /// (or two threads) share is never written. For the same reason an access to `clauses`
    /// cannot overlap a change to it except through the same `SQLSelect`, which the compiler's
    /// static exclusivity checks already rule out, so the run-time check is off.
    @usableFromInline
    final class Box: @unchecked Sendable {
        @exclusivity(unchecked) @usableFromInline
        var clauses: Clauses

        @usableFromInline
        init(_ clauses: Clauses) { self.clauses = clauses }
    }

    @usableFromInline
    var box = Box(Clauses())

    @inlinable
    mutating func uniqueBox() -> Box {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.clauses) }
        return box
    }

    /// `WITH` common table expressions.
    @inlinable
    public var commonTableExpressions: [SQLCommonTableExpression] {
        _read { yield box.clauses.commonTableExpressions }
        _modify { yield &uniqueBox().clauses.commonTableExpressions }
    }
    /// `WITH RECURSIVE` instead of `WITH`.
    @inlinable
    public var isRecursive: Bool {
        _read { yield box.clauses.isRecursive }
        _modify { yield &uniqueBox().clauses.isRecursive }
    }
    /// `SELECT DISTINCT`.
    @inlinable
    public var isDistinct: Bool {
        _read { yield box.clauses.isDistinct }
        _modify { yield &uniqueBox().clauses.isDistinct }
    }
    /// The result columns; empty renders `*`.
    @inlinable
    public var columns: [SQLSelectColumn] {
        _read { yield box.clauses.columns }
        _modify { yield &uniqueBox().clauses.columns }
    }
    /// The `FROM` source; `nil` selects without a table (`SELECT ?`).
    @inlinable
    public var from: SQLTableSource? {
        _read { yield box.clauses.from }
        _modify { yield &uniqueBox().clauses.from }
    }
    /// Joins, in order.
    @inlinable
    public var joins: [SQLJoin] {
        _read { yield box.clauses.joins }
        _modify { yield &uniqueBox().clauses.joins }
    }
    /// The `WHERE` condition.
    @inlinable
    public var condition: SQLExpression? {
        _read { yield box.clauses.condition }
        _modify { yield &uniqueBox().clauses.condition }
    }
    /// `GROUP BY` keys.
    @inlinable
    public var groupBy: [SQLExpression] {
        _read { yield box.clauses.groupBy }
        _modify { yield &uniqueBox().clauses.groupBy }
    }
    /// The `HAVING` condition.
    @inlinable
    public var having: SQLExpression? {
        _read { yield box.clauses.having }
        _modify { yield &uniqueBox().clauses.having }
    }
    /// Selects combined with this one, in order (`UNION`, `INTERSECT`, `EXCEPT`).
    @inlinable
    public var compounds: [SQLCompound] {
        _read { yield box.clauses.compounds }
        _modify { yield &uniqueBox().clauses.compounds }
    }
    /// `ORDER BY` terms (of the whole compound, when there is one).
    @inlinable
    public var ordering: [SQLOrderingTerm] {
        _read { yield box.clauses.ordering }
        _modify { yield &uniqueBox().clauses.ordering }
    }
    /// `LIMIT`; build with `limit(_:)` so it is bound.
    @inlinable
    public var limit: SQLExpression? {
        _read { yield box.clauses.limit }
        _modify { yield &uniqueBox().clauses.limit }
    }
    /// `OFFSET`; build with `offset(_:)` so it is bound.
    @inlinable
    public var offset: SQLExpression? {
        _read { yield box.clauses.offset }
        _modify { yield &uniqueBox().clauses.offset }
    }

    public static func == (lhs: SQLSelect, rhs: SQLSelect) -> Bool {
        if lhs.box === rhs.box { return true }
        // Clause by clause, read in place in the boxes: comparing `box.clauses` as values
        // copied both structs first, a retain and a release of each of their thirteen fields
        // (about 580 instructions a typed primary-key lookup, whose cached rendering is
        // checked against its select; callgrind W5). It also stops at the first difference.
        let l = lhs.box, r = rhs.box
        return l.clauses.columns == r.clauses.columns && l.clauses.from == r.clauses.from
            && l.clauses.condition == r.clauses.condition && l.clauses.joins == r.clauses.joins
            && l.clauses.ordering == r.clauses.ordering && l.clauses.limit == r.clauses.limit
            && l.clauses.offset == r.clauses.offset && l.clauses.groupBy == r.clauses.groupBy
            && l.clauses.having == r.clauses.having && l.clauses.isDistinct == r.clauses.isDistinct
            && l.clauses.compounds == r.clauses.compounds && l.clauses.isRecursive == r.clauses.isRecursive
            && l.clauses.commonTableExpressions == r.clauses.commonTableExpressions
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(box.clauses)
    }

    /// A select of `columns` (all, `*`, when empty) from `source`.
    public init(_ columns: [SQLSelectColumn] = [], from source: SQLTableSource? = nil) {
        self.columns = columns
        self.from = source
    }

    /// A select of expressions (unnamed columns) from `source`.
    public init(_ expressions: [SQLExpression], from source: SQLTableSource? = nil) {
        self.init(expressions.map { SQLSelectColumn($0) }, from: source)
    }

    /// `SELECT * FROM "table"`.
    public init(from table: String) {
        self.init([SQLSelectColumn](), from: .table(table))
    }
}

/// One further select of a compound select, with the operator that joins it.
public struct SQLCompound: Sendable, Hashable {
    /// `UNION`, `UNION ALL`, `INTERSECT` or `EXCEPT`.
    public var op: SQLCompoundOperator
    /// The combined select. A select with its own `ORDER BY`, `LIMIT`, `WITH` or compounds is
    /// wrapped as `SELECT * FROM (…)` when rendered, so it keeps its meaning.
    public var select: SQLSelect

    /// A compound member.
    public init(_ op: SQLCompoundOperator, _ select: SQLSelect) {
        self.op = op
        self.select = select
    }
}

// MARK: - Building

extension SQLSelect {
    /// Replaces the result columns.
    public func select(_ columns: [SQLSelectColumn]) -> SQLSelect {
        var copy = self
        copy.columns = columns
        return copy
    }

    /// `SELECT DISTINCT` (or not).
    public func distinct(_ isDistinct: Bool = true) -> SQLSelect {
        var copy = self
        copy.isDistinct = isDistinct
        return copy
    }

    /// Adds a join: `kind JOIN source ON condition`.
    public func join(
        _ kind: SQLJoinKind = .inner, _ source: SQLTableSource, on condition: SQLExpression?
    ) -> SQLSelect {
        var copy = self
        copy.joins.append(SQLJoin(kind, source, on: condition))
        return copy
    }

    /// Adds a `WHERE` condition; several calls are joined with `AND`. On a compound select it
    /// filters the first select only; filter each select before combining them.
    public func `where`(_ condition: SQLExpression) -> SQLSelect {
        var copy = self
        copy.condition = copy.condition.map { $0.and(condition) } ?? condition
        return copy
    }

    /// Adds `GROUP BY` keys.
    public func groupBy(_ keys: SQLExpression...) -> SQLSelect {
        var copy = self
        copy.groupBy += keys
        return copy
    }

    /// Adds a `HAVING` condition; several calls are joined with `AND`.
    public func having(_ condition: SQLExpression) -> SQLSelect {
        var copy = self
        copy.having = copy.having.map { $0.and(condition) } ?? condition
        return copy
    }

    /// Appends `ORDER BY` terms (earlier terms sort first; later ones break ties).
    public func orderBy(_ terms: SQLOrderingTerm...) -> SQLSelect {
        var copy = self
        copy.ordering += terms
        return copy
    }

    /// `LIMIT ?`, bound; `nil` removes the limit.
    public func limit(_ count: Int?) -> SQLSelect {
        var copy = self
        copy.limit = count.map { .value(.integer(Int64($0))) }
        return copy
    }

    /// `OFFSET ?`, bound; `nil` removes the offset. Without a limit, SQLite renders
    /// `LIMIT -1 OFFSET ?`.
    public func offset(_ count: Int?) -> SQLSelect {
        var copy = self
        copy.offset = count.map { .value(.integer(Int64($0))) }
        return copy
    }

    /// `LIMIT expression`, for example a ``SQLExpression/parameter(_:)``.
    public func limit(_ expression: SQLExpression) -> SQLSelect {
        var copy = self
        copy.limit = expression
        return copy
    }

    /// `OFFSET expression`, for example a ``SQLExpression/parameter(_:)``.
    public func offset(_ expression: SQLExpression) -> SQLSelect {
        var copy = self
        copy.offset = expression
        return copy
    }

    /// Adds a common table expression: `WITH "name" AS (SELECT …) …`.
    public func with(_ cte: SQLCommonTableExpression, recursive: Bool = false) -> SQLSelect {
        var copy = self
        copy.commonTableExpressions.append(cte)
        copy.isRecursive = copy.isRecursive || recursive
        return copy
    }

    /// `self UNION [ALL] other`.
    public func union(all: Bool = false, _ other: SQLSelect) -> SQLSelect {
        compound(all ? .unionAll : .union, other)
    }

    /// `self INTERSECT other`.
    public func intersect(_ other: SQLSelect) -> SQLSelect { compound(.intersect, other) }

    /// `self EXCEPT other`.
    public func except(_ other: SQLSelect) -> SQLSelect { compound(.except, other) }

    /// Combines with another select. When `self` already has an `ORDER BY`, `LIMIT` or
    /// `OFFSET` (which would apply to the whole compound), it is first wrapped as
    /// `SELECT * FROM (self)` so those clauses keep applying to `self` alone.
    public func compound(_ op: SQLCompoundOperator, _ other: SQLSelect) -> SQLSelect {
        var base = self
        if !ordering.isEmpty || limit != nil || offset != nil {
            base = SQLSelect([SQLSelectColumn](), from: .subquery(self))
        }
        base.compounds.append(SQLCompound(op, other))
        return base
    }
}
