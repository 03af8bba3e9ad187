// Giving a built statement's base source a new name: every column that the old name
// qualified is qualified by the new one, and the source declares it (`AS "new"`). This is how a
// statement whose `FROM` is not a plain table name (a table-valued function such as
// `json_each(…)`) is aliased after it was built, so that two of them can be joined side by side.

extension SQLSelect {
    /// This select with its `FROM` source going by `alias`: the source declares it
    /// (`FROM "trips" AS "outers"`, `FROM json_each(…) AS "firsts"`), and every column qualified
    /// by the source's old name (``SQLTableSource/qualifier``), in every clause, joins' sources
    /// and conditions and correlated subqueries included, is qualified by `alias`.
    ///
    /// ```swift
    /// SQLSelect([.column("value", table: "json_each")], from: .function("json_each", [.column("tags", table: "items")]))
    ///     .requalified(as: "firsts")
    /// // SELECT "firsts"."value" FROM json_each("items"."tags") AS "firsts"
    /// ```
    ///
    /// A subquery that declares a source of the old name itself keeps its columns (they are its
    /// own); `#sql` text is not read, only the expressions interpolated into it. Common table
    /// expressions and compound members have sources of their own and are kept as they are.
    /// Without a `FROM` source, the select is returned unchanged.
    public func requalified(as alias: String) -> SQLSelect {
        guard let source = from, let old = source.qualifier, old != alias else { return self }
        let renamer = SQLQualifierRenamer(old: old, new: alias)
        var copy = renamer.clauses(of: self)
        copy.from = renamer.source(source).aliased(alias)
        return copy
    }
}

extension SQLTableSource {
    /// The source under `alias`.
    func aliased(_ alias: String) -> SQLTableSource {
        switch kind {
        case let .table(name, schema, _): .table(name, schema: schema, as: alias)
        case let .subquery(select, _): .subquery(select, as: alias)
        case let .function(name, call, _): SQLTableSource(kind: .function(name: name, call: call, alias: alias))
        }
    }

    /// Whether columns of this source go by `name`.
    func declares(_ name: String) -> Bool { qualifier == name }
}

/// Qualifies by `new` the columns qualified by `old`.
private struct SQLQualifierRenamer {
    let old: String
    let new: String

    /// The clauses of `select` that may refer to its own sources, renamed; its `FROM` source's
    /// arguments too (a function's arguments refer to the tables before it).
    func clauses(of select: SQLSelect) -> SQLSelect {
        var copy = select
        copy.columns = select.columns.map { SQLSelectColumn(expression($0.expression), as: $0.alias) }
        copy.from = select.from.map(source)
        copy.joins = select.joins.map { join in
            SQLJoin(join.kind, source(join.source), on: join.condition.map(expression))
        }
        copy.condition = select.condition.map(expression)
        copy.groupBy = select.groupBy.map(expression)
        copy.having = select.having.map(expression)
        copy.ordering = orderingTerms(select.ordering)
        copy.limit = select.limit.map(expression)
        copy.offset = select.offset.map(expression)
        return copy
    }

    /// A nested select (a correlated subquery): renamed unless it declares the old name itself.
    func subquery(_ select: SQLSelect) -> SQLSelect {
        let sources = [select.from].compactMap { $0 } + select.joins.map(\.source)
        return sources.contains { $0.declares(old) } ? select : clauses(of: select)
    }

    func source(_ source: SQLTableSource) -> SQLTableSource {
        switch source.kind {
        case .table: source
        case let .subquery(select, alias): .subquery(subquery(select), as: alias)
        case let .function(name, call, alias): SQLTableSource(kind: .function(name: name, call: expression(call), alias: alias))
        }
    }

    func orderingTerms(_ terms: [SQLOrderingTerm]) -> [SQLOrderingTerm] {
        terms.map { term in
            var copy = term
            copy.expression = expression(term.expression)
            return copy
        }
    }

    func aggregate(_ aggregate: SQLAggregate) -> SQLAggregate {
        var copy = aggregate
        copy.arguments = aggregate.arguments.map(expression)
        copy.ordering = orderingTerms(aggregate.ordering)
        copy.filter = aggregate.filter.map(expression)
        return copy
    }

    func expression(_ expression: SQLExpression) -> SQLExpression {
        switch expression.node {
        case let .column(table, name) where table == old: .column(name, table: new)
        case let .allColumns(table) where table == old: SQLExpression(.allColumns(table: new))
        case .column, .allColumns, .value, .null, .unbindable, .databaseDefault, .boolean, .parameter: expression
        case .row(let items): SQLExpression(.row(items.map(self.expression)))
        case let .unary(op, operand): SQLExpression(.unary(op, self.expression(operand)))
        case let .binary(op, lhs, rhs): SQLExpression(.binary(op, self.expression(lhs), self.expression(rhs)))
        case let .logical(op, operands): SQLExpression(.logical(op, operands.map(self.expression)))
        case let .like(value, pattern, escape, negated):
            SQLExpression(.like(self.expression(value), pattern: self.expression(pattern),
                                escape: escape.map(self.expression), negated: negated))
        case let .function(name, arguments, quotesName):
            SQLExpression(.function(name: name, arguments: arguments.map(self.expression), quotesName: quotesName))
        case .aggregate(let aggregate): SQLExpression(.aggregate(self.aggregate(aggregate)))
        case let .inList(value, items, negated):
            SQLExpression(.inList(self.expression(value), items.map(self.expression), negated: negated))
        case let .inSubquery(value, select, negated):
            SQLExpression(.inSubquery(self.expression(value), subquery(select), negated: negated))
        case let .exists(select, negated): SQLExpression(.exists(subquery(select), negated: negated))
        case .subquery(let select): SQLExpression(.subquery(subquery(select)))
        case let .caseWhen(base, branches, otherwise):
            SQLExpression(.caseWhen(
                base: base.map(self.expression),
                branches: branches.map { SQLCaseBranch(when: self.expression($0.when), then: self.expression($0.then)) },
                otherwise: otherwise.map(self.expression)))
        case let .between(value, low, high, negated):
            SQLExpression(.between(self.expression(value), low: self.expression(low),
                                   high: self.expression(high), negated: negated))
        case let .collate(value, collation): SQLExpression(.collate(self.expression(value), collation: collation))
        case let .cast(value, type): SQLExpression(.cast(self.expression(value), type))
        case let .typed(value, type): SQLExpression(.typed(self.expression(value), type))
        case .fragment(let fragment):
            SQLExpression(.fragment(SQLFragment(
                segments: fragment.segments.map { segment in
                    switch segment {
                    case .expression(let inner): .expression(self.expression(inner))
                    case .statement(.select(let select)): .statement(.select(subquery(select)))
                    case .sql, .value, .identifier, .statement: segment
                    }
                },
                propagatesNull: fragment.propagatesNull)))
        }
    }
}
