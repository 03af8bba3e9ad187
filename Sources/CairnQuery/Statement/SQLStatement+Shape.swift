import CairnSQLite

// A statement's shape: the statement with every bound value replaced by a numbered
// parameter. Two statements that differ only in their values have equal shapes, and render
// the same SQL text, so a shape keys a cache of renderings (``SQLRenderCache``).
//
// The rewrite only ever turns `.value(v)` into `.parameter(i)` (and a fragment's `.value`
// segment into an expression segment holding `.parameter(i)`, which renders the same `?`);
// everything else is kept. Equality of shapes is the IR's own synthesized equality, so a case
// this file forgot to visit can only make a shape keep its value (fewer cache hits), never
// make two different statements share a rendering.

extension SQLStatement {
    /// The statement with its bound values replaced by parameters `0, 1, …` in visiting order,
    /// and the values in that order; `nil` when the statement already holds parameters or has
    /// more than `maximumValues` values (render it directly then).
    ///
    /// ```swift
    /// let statement = SQLStatement.select(SQLSelect(from: "t").where(.column("id").equals(.value(.integer(7)))))
    /// let (shape, values) = statement.shape()!
    /// // shape: SELECT * FROM "t" WHERE "id" = <parameter 0>; values: [.integer(7)]
    /// ```
    public func shape(maximumValues: Int = 256) -> (shape: SQLStatement, values: [DatabaseValue])? {
        // A multi-row insert over the limit is known from its size, before any rewriting.
        if case .insert(let insert) = self, case .values(let rows) = insert.source,
            rows.reduce(0, { $0 + $1.count }) > maximumValues
        {
            return nil
        }
        var extractor = SQLShapeExtractor(maximumValues: maximumValues)
        let shape = extractor.statement(self)
        guard !extractor.failed else { return nil }
        return (shape, extractor.values)
    }
}

/// Walks the IR, replacing values by parameters and collecting the values.
///
/// A subtree that yields no value is returned as it was (no copy), so the walk allocates only
/// along the paths that lead to values.
struct SQLShapeExtractor {
    let maximumValues: Int
    var values: [DatabaseValue] = []
    /// Set when the statement cannot be parameterized: it holds parameters already, or too
    /// many values.
    var failed = false

    init(maximumValues: Int) {
        self.maximumValues = maximumValues
    }

    private mutating func parameter(for value: DatabaseValue) -> SQLExpression {
        guard values.count < maximumValues else {
            failed = true
            return .value(value)
        }
        values.append(value)
        return .parameter(values.count - 1)
    }

    // MARK: - Statements

    mutating func statement(_ statement: SQLStatement) -> SQLStatement {
        switch statement {
        case .select(let select): .select(self.select(select))
        case .insert(let insert): .insert(self.insert(insert))
        case .update(let update): .update(self.update(update))
        case .delete(let delete): .delete(self.delete(delete))
        case .fragment(let fragment): .fragment(self.fragment(fragment))
        }
    }

    mutating func select(_ select: SQLSelect) -> SQLSelect {
        let start = values.count
        var copy = select
        copy.commonTableExpressions = select.commonTableExpressions.map {
            var cte = $0
            cte.select = self.select($0.select)
            return cte
        }
        copy.columns = columns(select.columns)
        copy.from = select.from.map { source($0) }
        copy.joins = select.joins.map { join in
            var copy = join
            copy.source = source(join.source)
            copy.condition = join.condition.map { expression($0) }
            return copy
        }
        copy.condition = select.condition.map { expression($0) }
        copy.groupBy = select.groupBy.map { expression($0) }
        copy.having = select.having.map { expression($0) }
        copy.compounds = select.compounds.map { SQLCompound($0.op, self.select($0.select)) }
        copy.ordering = orderingTerms(select.ordering)
        copy.limit = select.limit.map { expression($0) }
        copy.offset = select.offset.map { expression($0) }
        return values.count == start ? select : copy
    }

    mutating func insert(_ insert: SQLInsert) -> SQLInsert {
        let start = values.count
        var copy = insert
        switch insert.source {
        case .values(let rows): copy.source = .values(rows.map { $0.map { expression($0) } })
        case .select(let select): copy.source = .select(self.select(select))
        case .defaultValues: break
        }
        if let upsert = insert.upsert {
            var rewritten = upsert
            rewritten.targetCondition = upsert.targetCondition.map { expression($0) }
            if case let .update(assignments, condition) = upsert.action {
                rewritten.action = .update(self.assignments(assignments), condition: condition.map { expression($0) })
            }
            copy.upsert = rewritten
        }
        copy.returning = columns(insert.returning)
        return values.count == start ? insert : copy
    }

    mutating func update(_ update: SQLUpdate) -> SQLUpdate {
        let start = values.count
        var copy = update
        copy.assignments = assignments(update.assignments)
        copy.condition = update.condition.map { expression($0) }
        copy.returning = columns(update.returning)
        return values.count == start ? update : copy
    }

    mutating func delete(_ delete: SQLDelete) -> SQLDelete {
        let start = values.count
        var copy = delete
        copy.condition = delete.condition.map { expression($0) }
        copy.returning = columns(delete.returning)
        return values.count == start ? delete : copy
    }

    mutating func fragment(_ fragment: SQLFragment) -> SQLFragment {
        let start = values.count
        let segments = fragment.segments.map { segment -> SQLFragment.Segment in
            switch segment {
            case .sql, .identifier: segment
            // `.parameter` renders the same placeholder as a value segment, and is primary, so
            // the fragment renderer adds no parentheses around it.
            case .value(let value): .expression(parameter(for: value))
            case .expression(let expression): .expression(self.expression(expression))
            case .statement(let statement): .statement(self.statement(statement))
            }
        }
        return values.count == start ? fragment : SQLFragment(segments: segments)
    }

    // MARK: - Clauses

    private mutating func columns(_ columns: [SQLSelectColumn]) -> [SQLSelectColumn] {
        // Result columns rarely hold values: a new array is made only from the first column
        // that does, so a value-free list is returned as the same array (its shape then
        // compares equal to the cached one by identity). A list of plain column references,
        // the usual one, is recognized in place first: walking it column by column copied
        // each one out, about 200 instructions a column (callgrind, typed SQL W5).
        let onlyColumnReferences = columns.withUnsafeBufferPointer { columns in
            columns.allSatisfy { $0.expression.isColumnReference }
        }
        if onlyColumnReferences { return columns }
        var rewritten: [SQLSelectColumn]?
        for (index, column) in columns.enumerated() {
            let start = values.count
            let expression = expression(column.expression)
            if rewritten == nil, values.count != start { rewritten = Array(columns[..<index]) }
            rewritten?.append(SQLSelectColumn(expression, as: column.alias))
        }
        return rewritten ?? columns
    }

    private mutating func source(_ source: SQLTableSource) -> SQLTableSource {
        switch source.kind {
        case .table: source
        case let .subquery(select, alias): .subquery(self.select(select), as: alias)
        case let .function(name, call, alias): SQLTableSource(kind: .function(name: name, call: expression(call), alias: alias))
        }
    }

    private mutating func orderingTerms(_ terms: [SQLOrderingTerm]) -> [SQLOrderingTerm] {
        let start = values.count
        let rewritten = terms.map { term in
            var copy = term
            copy.expression = expression(term.expression)
            return copy
        }
        return values.count == start ? terms : rewritten
    }

    private mutating func assignments(_ assignments: [SQLAssignment]) -> [SQLAssignment] {
        assignments.map { SQLAssignment($0.column, expression($0.value)) }
    }

    private mutating func expressions(_ list: [SQLExpression]) -> [SQLExpression] {
        list.map { expression($0) }
    }

    // MARK: - Expressions

    mutating func expression(_ expression: SQLExpression) -> SQLExpression {
        let start = values.count
        let rewritten: SQLExpression
        switch expression.node {
        case .column, .null, .unbindable, .databaseDefault, .boolean, .allColumns:
            return expression
        case .value(let value):
            return parameter(for: value)
        case .parameter:
            failed = true
            return expression
        case .row(let items):
            rewritten = SQLExpression(.row(expressions(items)))
        case let .unary(op, operand):
            rewritten = SQLExpression(.unary(op, self.expression(operand)))
        case let .binary(op, lhs, rhs):
            let left = self.expression(lhs)
            rewritten = SQLExpression(.binary(op, left, self.expression(rhs)))
        case let .logical(op, operands):
            rewritten = SQLExpression(.logical(op, expressions(operands)))
        case let .like(value, pattern, escape, negated):
            let subject = self.expression(value)
            let pattern = self.expression(pattern)
            rewritten = SQLExpression(.like(
                subject, pattern: pattern, escape: escape.map { self.expression($0) }, negated: negated))
        case let .function(name, arguments, quotesName):
            rewritten = SQLExpression(.function(name: name, arguments: expressions(arguments), quotesName: quotesName))
        case .aggregate(let aggregate):
            var copy = aggregate
            copy.arguments = expressions(aggregate.arguments)
            copy.ordering = orderingTerms(aggregate.ordering)
            copy.filter = aggregate.filter.map { self.expression($0) }
            rewritten = SQLExpression(.aggregate(copy))
        case let .inList(value, items, negated):
            let subject = self.expression(value)
            rewritten = SQLExpression(.inList(subject, expressions(items), negated: negated))
        case let .inSubquery(value, subquery, negated):
            let subject = self.expression(value)
            rewritten = SQLExpression(.inSubquery(subject, select(subquery), negated: negated))
        case let .exists(subquery, negated):
            rewritten = SQLExpression(.exists(select(subquery), negated: negated))
        case .subquery(let subquery):
            rewritten = SQLExpression(.subquery(select(subquery)))
        case let .caseWhen(base, branches, otherwise):
            let base = base.map { self.expression($0) }
            let branches = branches.map { branch in
                let when = self.expression(branch.when)
                return SQLCaseBranch(when: when, then: self.expression(branch.then))
            }
            rewritten = SQLExpression(.caseWhen(
                base: base, branches: branches, otherwise: otherwise.map { self.expression($0) }))
        case let .between(value, low, high, negated):
            let subject = self.expression(value)
            let low = self.expression(low)
            rewritten = SQLExpression(.between(subject, low: low, high: self.expression(high), negated: negated))
        case let .collate(value, collation):
            rewritten = SQLExpression(.collate(self.expression(value), collation: collation))
        case let .cast(value, type):
            rewritten = SQLExpression(.cast(self.expression(value), type))
        case let .typed(value, type):
            rewritten = SQLExpression(.typed(self.expression(value), type))
        case .fragment(let fragment):
            rewritten = SQLExpression(.fragment(self.fragment(fragment)))
        }
        return values.count == start ? expression : rewritten
    }
}
