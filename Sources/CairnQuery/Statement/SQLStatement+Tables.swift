// Which tables a statement names, for live queries that refetch when a commit touches a table
// they read.

/// The tables a statement or expression names, and whether raw SQL may name more.
public struct SQLTableReferences: Sendable, Hashable {
    /// Table names used in `FROM`, joins, subqueries and write targets; common table
    /// expression names defined by the statement are left out.
    public var tables: Set<String>
    /// Whether a raw ``SQLFragment`` is part of the statement: its text is not parsed, so it
    /// may read tables that are not in ``tables`` (ask the engine's authorizer for those).
    public var containsRawSQL: Bool
}

extension SQLSelect {
    /// The tables this select reads.
    ///
    /// ```swift
    /// SQLSelect(from: "reminders").join(.left, .table("lists"), on: nil)
    ///     .tableReferences.tables   // ["reminders", "lists"]
    /// ```
    public var tableReferences: SQLTableReferences { TableCollector.collect { $0.select(self) } }
}

extension SQLExpression {
    /// The tables the subqueries of this expression read.
    public var tableReferences: SQLTableReferences { TableCollector.collect { $0.expression(self) } }
}

extension SQLStatement {
    /// The tables this statement reads or writes.
    public var tableReferences: SQLTableReferences {
        TableCollector.collect { collector in
            switch self {
            case .select(let select): collector.select(select)
            case .insert(let insert):
                collector.tables.insert(insert.table)
                switch insert.source {
                case .values(let rows): rows.joined().forEach { collector.expression($0) }
                case .select(let select): collector.select(select)
                case .defaultValues: break
                }
                if let upsert = insert.upsert {
                    upsert.targetCondition.map { collector.expression($0) }
                    if case let .update(assignments, condition) = upsert.action {
                        assignments.forEach { collector.expression($0.value) }
                        condition.map { collector.expression($0) }
                    }
                }
                insert.returning.forEach { collector.expression($0.expression) }
            case .update(let update):
                collector.tables.insert(update.table)
                update.assignments.forEach { collector.expression($0.value) }
                update.condition.map { collector.expression($0) }
                update.returning.forEach { collector.expression($0.expression) }
            case .delete(let delete):
                collector.tables.insert(delete.table)
                delete.condition.map { collector.expression($0) }
                delete.returning.forEach { collector.expression($0.expression) }
            case .fragment(let fragment): collector.fragment(fragment)
            }
        }
    }
}

/// Walks the IR and gathers table names (iteratively over lists; recursion only follows
/// nesting).
private struct TableCollector {
    var tables: Set<String> = []
    var commonTableNames: Set<String> = []
    var containsRawSQL = false

    static func collect(_ body: (inout TableCollector) -> Void) -> SQLTableReferences {
        var collector = TableCollector()
        body(&collector)
        return SQLTableReferences(
            tables: collector.tables.subtracting(collector.commonTableNames),
            containsRawSQL: collector.containsRawSQL)
    }

    mutating func select(_ select: SQLSelect) {
        for cte in select.commonTableExpressions {
            commonTableNames.insert(cte.name)
            self.select(cte.select)
        }
        select.columns.forEach { expression($0.expression) }
        select.from.map { source($0) }
        for join in select.joins {
            source(join.source)
            join.condition.map { expression($0) }
        }
        select.condition.map { expression($0) }
        select.groupBy.forEach { expression($0) }
        select.having.map { expression($0) }
        select.compounds.forEach { self.select($0.select) }
        select.ordering.forEach { expression($0.expression) }
        select.limit.map { expression($0) }
        select.offset.map { expression($0) }
    }

    mutating func source(_ source: SQLTableSource) {
        switch source.kind {
        case .table(let name, _, _): tables.insert(name)
        case .subquery(let select, _): self.select(select)
        case .function(_, let call, _): expression(call)
        }
    }

    mutating func fragment(_ fragment: SQLFragment) {
        containsRawSQL = true
        for segment in fragment.segments {
            switch segment {
            case .expression(let expression): self.expression(expression)
            case .statement(let statement):
                let inner = statement.tableReferences
                tables.formUnion(inner.tables)
            case .sql, .value, .identifier: break
            }
        }
    }

    mutating func expression(_ expression: SQLExpression) {
        switch expression.node {
        case .column, .value, .parameter, .null, .unbindable, .databaseDefault, .boolean, .allColumns: break
        case .row(let items), .function(_, let items, _), .logical(_, let items):
            items.forEach { self.expression($0) }
        case .unary(_, let operand), .collate(let operand, _), .cast(let operand, _), .typed(let operand, _):
            self.expression(operand)
        case let .binary(_, lhs, rhs):
            self.expression(lhs)
            self.expression(rhs)
        case let .like(value, pattern, escape, _):
            self.expression(value)
            self.expression(pattern)
            escape.map { self.expression($0) }
        case .aggregate(let aggregate):
            aggregate.arguments.forEach { self.expression($0) }
            aggregate.ordering.forEach { self.expression($0.expression) }
            aggregate.filter.map { self.expression($0) }
        case let .inList(value, items, _):
            self.expression(value)
            items.forEach { self.expression($0) }
        case let .inSubquery(value, select, _):
            self.expression(value)
            self.select(select)
        case .exists(let select, _), .subquery(let select):
            self.select(select)
        case let .caseWhen(base, branches, otherwise):
            base.map { self.expression($0) }
            for branch in branches {
                self.expression(branch.when)
                self.expression(branch.then)
            }
            otherwise.map { self.expression($0) }
        case let .between(value, low, high, _):
            self.expression(value)
            self.expression(low)
            self.expression(high)
        case .fragment(let fragment):
            self.fragment(fragment)
        }
    }
}

extension SQLInsert {
    /// The table written and the tables read by the source and `RETURNING`.
    public var tableReferences: SQLTableReferences { SQLStatement.insert(self).tableReferences }
}

extension SQLUpdate {
    /// The table written and the tables read by values, `WHERE` and `RETURNING`.
    public var tableReferences: SQLTableReferences { SQLStatement.update(self).tableReferences }
}

extension SQLDelete {
    /// The table written and the tables read by `WHERE` and `RETURNING`.
    public var tableReferences: SQLTableReferences { SQLStatement.delete(self).tableReferences }
}
