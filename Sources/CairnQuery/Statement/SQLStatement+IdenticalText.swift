import CairnSQLite

// Byte-exact comparison of the text that two equal statements hold.
//
// The IR's synthesized `==` compares its strings the way Swift does, by canonical equivalence:
// a table named "café" with a precomposed "é" equals one spelled "cafe" + U+0301, and the
// Kelvin sign equals "K". SQLite compares identifiers and SQL text byte by byte, so those are
// different tables, columns and literals to it. `SQLRenderCache` keys its renderings by `==`;
// before serving one it checks with this walk that the statement's text has the same bytes
// as the shape that was rendered, so canonically equal spellings never share SQL text.
//
// The walk assumes the two statements are `==` (same structure) and compares only their
// strings. A string is first checked for identity (same small-string bits or same storage:
// always the case for the same literal), and only then byte by byte.

extension SQLStatement {
    /// Whether every identifier, alias, name and piece of SQL text in this statement has the
    /// same UTF-8 bytes as in `other`, a statement equal to it. `false` for statements whose
    /// structure differs.
    ///
    /// ```swift
    /// let composed = SQLStatement.select(SQLSelect(from: "caf\u{E9}"))
    /// let decomposed = SQLStatement.select(SQLSelect(from: "cafe\u{301}"))
    /// composed == decomposed                          // true: canonically equivalent
    /// composed.hasIdenticalText(to: decomposed)       // false: SQLite sees two tables
    /// ```
    public func hasIdenticalText(to other: SQLStatement) -> Bool {
        IdenticalText.statement(self, other)
    }
}

/// The walk behind ``SQLStatement/hasIdenticalText(to:)``, one function per IR type.
enum IdenticalText {
    static func statement(_ a: SQLStatement, _ b: SQLStatement) -> Bool {
        switch (a, b) {
        case let (.select(x), .select(y)): select(x, y)
        case let (.insert(x), .insert(y)): insert(x, y)
        case let (.update(x), .update(y)): update(x, y)
        case let (.delete(x), .delete(y)): delete(x, y)
        case let (.fragment(x), .fragment(y)): fragment(x, y)
        default: false
        }
    }

    // MARK: - Text

    static func text(_ a: String, _ b: String) -> Bool {
        a._isIdentical(to: b) || a.utf8.elementsEqual(b.utf8)
    }

    static func text(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (x?, y?): text(x, y)
        default: false
        }
    }

    /// Element by element, after a cheap check for the same array storage (a table's column
    /// list is usually one shared array).
    static func all<T>(_ a: [T], _ b: [T], _ same: (T, T) -> Bool) -> Bool {
        guard a.count == b.count else { return false }
        let shared = a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
        return shared || zip(a, b).allSatisfy(same)
    }

    static func optional<T>(_ a: T?, _ b: T?, _ same: (T, T) -> Bool) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (x?, y?): same(x, y)
        default: false
        }
    }

    static func value(_ a: DatabaseValue, _ b: DatabaseValue) -> Bool {
        if case .text(let x) = a, case .text(let y) = b { return text(x, y) }
        return a == b
    }

    // MARK: - Statements

    static func select(_ a: SQLSelect, _ b: SQLSelect) -> Bool {
        all(a.commonTableExpressions, b.commonTableExpressions) {
            text($0.name, $1.name) && all($0.columns, $1.columns, text) && select($0.select, $1.select)
        }
            && all(a.columns, b.columns, column)
            && optional(a.from, b.from, source)
            && all(a.joins, b.joins) { source($0.source, $1.source) && optional($0.condition, $1.condition, expression) }
            && optional(a.condition, b.condition, expression)
            && all(a.groupBy, b.groupBy, expression)
            && optional(a.having, b.having, expression)
            && all(a.compounds, b.compounds) { select($0.select, $1.select) }
            && all(a.ordering, b.ordering, ordering)
            && optional(a.limit, b.limit, expression)
            && optional(a.offset, b.offset, expression)
    }

    static func insert(_ a: SQLInsert, _ b: SQLInsert) -> Bool {
        guard text(a.table, b.table), text(a.schema, b.schema), text(a.alias, b.alias), all(a.columns, b.columns, text),
            all(a.returning, b.returning, column)
        else { return false }
        let sameSource =
            switch (a.source, b.source) {
            case let (.values(x), .values(y)): all(x, y) { all($0, $1, expression) }
            case let (.select(x), .select(y)): select(x, y)
            case (.defaultValues, .defaultValues): true
            default: false
            }
        return sameSource
            && optional(a.upsert, b.upsert) { x, y in
                guard all(x.target, y.target, text), optional(x.targetCondition, y.targetCondition, expression)
                else { return false }
                switch (x.action, y.action) {
                case (.nothing, .nothing): return true
                case let (.update(p, c), .update(q, d)): return all(p, q, assignment) && optional(c, d, expression)
                default: return false
                }
            }
    }

    static func update(_ a: SQLUpdate, _ b: SQLUpdate) -> Bool {
        text(a.table, b.table) && text(a.schema, b.schema) && text(a.alias, b.alias)
            && all(a.assignments, b.assignments, assignment)
            && optional(a.condition, b.condition, expression) && all(a.returning, b.returning, column)
    }

    static func delete(_ a: SQLDelete, _ b: SQLDelete) -> Bool {
        text(a.table, b.table) && text(a.schema, b.schema) && text(a.alias, b.alias)
            && optional(a.condition, b.condition, expression) && all(a.returning, b.returning, column)
    }

    static func fragment(_ a: SQLFragment, _ b: SQLFragment) -> Bool {
        all(a.segments, b.segments) { x, y in
            switch (x, y) {
            case let (.sql(p), .sql(q)), let (.identifier(p), .identifier(q)): text(p, q)
            case let (.value(p), .value(q)): value(p, q)
            case let (.expression(p), .expression(q)): expression(p, q)
            case let (.statement(p), .statement(q)): statement(p, q)
            default: false
            }
        }
    }

    // MARK: - Clauses

    static func column(_ a: SQLSelectColumn, _ b: SQLSelectColumn) -> Bool {
        text(a.alias, b.alias) && expression(a.expression, b.expression)
    }

    static func source(_ a: SQLTableSource, _ b: SQLTableSource) -> Bool {
        switch (a.kind, b.kind) {
        case let (.table(x, s, p), .table(y, t, q)): text(x, y) && text(s, t) && text(p, q)
        case let (.subquery(x, p), .subquery(y, q)): text(p, q) && select(x, y)
        case let (.function(_, x, p), .function(_, y, q)): text(p, q) && expression(x, y)
        default: false
        }
    }

    static func ordering(_ a: SQLOrderingTerm, _ b: SQLOrderingTerm) -> Bool {
        text(a.collation, b.collation) && expression(a.expression, b.expression)
    }

    static func assignment(_ a: SQLAssignment, _ b: SQLAssignment) -> Bool {
        text(a.column, b.column) && expression(a.value, b.value)
    }

    // MARK: - Expressions

    static func expression(_ a: SQLExpression, _ b: SQLExpression) -> Bool {
        switch (a.node, b.node) {
        case let (.column(t, n), .column(u, m)): text(t, u) && text(n, m)
        case let (.allColumns(t), .allColumns(u)): text(t, u)
        case let (.value(x), .value(y)): value(x, y)
        case (.null, .null), (.boolean, .boolean), (.parameter, .parameter): true
        case let (.row(x), .row(y)), let (.logical(_, x), .logical(_, y)): all(x, y, expression)
        case let (.unary(_, x), .unary(_, y)): expression(x, y)
        case let (.binary(_, x, p), .binary(_, y, q)): expression(x, y) && expression(p, q)
        case let (.like(x, p, e, _), .like(y, q, f, _)):
            expression(x, y) && expression(p, q) && optional(e, f, expression)
        case let (.function(n, x, _), .function(m, y, _)): text(n, m) && all(x, y, expression)
        case let (.aggregate(x), .aggregate(y)):
            text(x.name, y.name) && all(x.arguments, y.arguments, expression)
                && all(x.ordering, y.ordering, ordering) && optional(x.filter, y.filter, expression)
        case let (.inList(x, p, _), .inList(y, q, _)): expression(x, y) && all(p, q, expression)
        case let (.inSubquery(x, p, _), .inSubquery(y, q, _)): expression(x, y) && select(p, q)
        case let (.exists(x, _), .exists(y, _)), let (.subquery(x), .subquery(y)): select(x, y)
        case let (.caseWhen(x, p, e), .caseWhen(y, q, f)):
            optional(x, y, expression) && optional(e, f, expression)
                && all(p, q) { expression($0.when, $1.when) && expression($0.then, $1.then) }
        case let (.between(x, l, h, _), .between(y, m, i, _)):
            expression(x, y) && expression(l, m) && expression(h, i)
        case let (.collate(x, c), .collate(y, d)): text(c, d) && expression(x, y)
        case let (.cast(x, s), .cast(y, t)), let (.typed(x, s), .typed(y, t)): type(s, t) && expression(x, y)
        case let (.fragment(x), .fragment(y)): fragment(x, y)
        default: false
        }
    }

    static func type(_ a: SQLType, _ b: SQLType) -> Bool {
        if case .named(let x) = a.kind, case .named(let y) = b.kind { return text(x, y) }
        return a == b
    }
}
