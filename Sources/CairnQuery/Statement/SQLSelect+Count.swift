// Counting the rows of a select without loading them (fetchCount).

extension SQLSelect {
    /// A select of the number of rows this select returns: `SELECT COUNT(*) …` with the
    /// same `FROM`, joins and `WHERE` (ordering dropped) when that is equivalent, otherwise
    /// `SELECT COUNT(*) FROM (self)` (for `DISTINCT`, `GROUP BY`, compounds, `LIMIT`/`OFFSET`).
    ///
    /// ```swift
    /// SQLSelect(from: "reminders").where(.column("isCompleted")).orderBy(…).selectingCount()
    /// // SELECT COUNT(*) FROM "reminders" WHERE "isCompleted"
    /// ```
    public func selectingCount() -> SQLSelect {
        let simple = !isDistinct && groupBy.isEmpty && having == nil && compounds.isEmpty
            && limit == nil && offset == nil
            && columns.allSatisfy { !$0.expression.mayAggregate }
        guard simple else {
            return SQLSelect([SQLSelectColumn(.countAll)], from: .subquery(self))
        }
        var copy = self
        copy.columns = [SQLSelectColumn(.countAll)]
        copy.ordering = []
        return copy
    }
}

extension SQLExpression {
    /// Whether the expression may contain an aggregate of the enclosing select (subqueries
    /// aggregate on their own; raw SQL and unknown functions are assumed to).
    var mayAggregate: Bool {
        switch node {
        case .column, .value, .parameter, .null, .unbindable, .databaseDefault, .boolean, .allColumns, .subquery, .exists:
            return false
        case .aggregate, .fragment:
            return true
        case .function(let name, let arguments, _):
            // `min(x)`/`max(x)` with one argument are aggregates in SQLite.
            let lowered = name.lowercased()
            if arguments.count == 1 && (lowered == "min" || lowered == "max") { return true }
            return arguments.contains { $0.mayAggregate }
        case .row(let items), .logical(_, let items):
            return items.contains { $0.mayAggregate }
        case .unary(_, let operand), .collate(let operand, _), .cast(let operand, _), .typed(let operand, _):
            return operand.mayAggregate
        case let .binary(_, lhs, rhs):
            return lhs.mayAggregate || rhs.mayAggregate
        case let .like(value, pattern, escape, _):
            return value.mayAggregate || pattern.mayAggregate || (escape?.mayAggregate ?? false)
        case let .inList(value, items, _):
            return value.mayAggregate || items.contains { $0.mayAggregate }
        case let .inSubquery(value, _, _):
            return value.mayAggregate
        case let .caseWhen(base, branches, otherwise):
            return (base?.mayAggregate ?? false) || (otherwise?.mayAggregate ?? false)
                || branches.contains { $0.when.mayAggregate || $0.then.mayAggregate }
        case let .between(value, low, high, _):
            return value.mayAggregate || low.mayAggregate || high.mayAggregate
        }
    }
}
