import Cairn
import Foundation

extension NSFetchRequest {
    /// The `SELECT` that runs this request against `entity`'s table: `WHERE` from the
    /// predicate, `ORDER BY` from the sort descriptors (then the primary key, so equal keys
    /// keep a stable order), bound `LIMIT`/`OFFSET`, and the columns of the result type.
    ///
    /// ```swift
    /// request.resultType = .countResultType
    /// try request.sqlSelect(for: expenseEntity).render().sql
    /// // SELECT COUNT(*) FROM "Expense" WHERE "Expense"."amount" > ?
    /// ```
    ///
    /// - Throws: the predicate's ``NSPredicate/formatError``, a sort descriptor's
    ///   ``NSSortDescriptor/selectorError``, or a ``FormatPredicateError`` for an unknown key,
    ///   an entity name that is not `entity`'s, a `propertiesToFetch` entry that is neither a
    ///   name nor a description, or an `NSExpression` SQL cannot compute.
    public func sqlSelect(for entity: FormatSQLEntity) throws(FormatPredicateError) -> SQLSelect {
        try sqlSelect(for: entity, as: resultType)
    }

    /// The `SELECT` of this request as if its result type were `resultType`.
    func sqlSelect(for entity: FormatSQLEntity, as resultType: NSFetchRequestResultType)
        throws(FormatPredicateError) -> SQLSelect
    {
        if let entityName, entityName != entity.name {
            throw FormatPredicateError(.unknownKey, "the request is for \(entityName), not \(entity.name)")
        }
        let table = entity.table
        let primaryKey = SQLExpression.column(entity.primaryKey, table: table)
        var select = SQLSelect([SQLSelectColumn](), from: .table(table))
        if let predicate {
            select.condition = try predicate.tree().sqlCondition(for: entity)
        }
        var ordering: [SQLOrderingTerm] = []
        for descriptor in sortDescriptors ?? [] {
            ordering.append(try descriptor.formatSortDescriptor().sqlOrderingTerm(for: entity))
        }
        ordering.append(primaryKey.ascending())

        switch resultType {
        case .countResultType:
            var rows = select
            rows.columns = [SQLSelectColumn(primaryKey)]
            if fetchLimit > 0 || fetchOffset > 0 {
                rows = rows.limit(fetchLimit > 0 ? fetchLimit : nil).offset(fetchOffset > 0 ? fetchOffset : nil)
                return SQLSelect([.countAll], from: .subquery(rows, as: "cairn_rows"))
            }
            rows.columns = [SQLSelectColumn(.countAll)]
            return rows
        case .managedObjectIDResultType:
            select.columns = [SQLSelectColumn(primaryKey)]
        case .dictionaryResultType:
            let columns = try dictionaryColumns(for: entity)
            let groups = try groupingColumns(for: entity)
            if !groups.isEmpty {
                // Core Data's rule: with GROUP BY, fetch only grouped properties and aggregates.
                let grouped = Set(groups.map(\.name))
                if let loose = columns.first(where: { !$0.isAggregate && !grouped.contains($0.name) }) {
                    throw FormatPredicateError(
                        .unsupported,
                        "'\(loose.name)' is in propertiesToFetch but not in propertiesToGroupBy; with propertiesToGroupBy, "
                            + "propertiesToFetch may hold only grouped properties and aggregates (\(grouped.sorted().joined(separator: ", ")))")
                }
            }
            select.columns = columns.map { $0.expression.aliased($0.name) }
            select.groupBy = groups.map(\.expression)
            if let havingPredicate {
                guard !groups.isEmpty else {
                    throw FormatPredicateError(.unsupported, "havingPredicate needs propertiesToGroupBy")
                }
                select.having = try havingPredicate.tree().sqlCondition(for: entity)
            }
            select.isDistinct = returnsDistinctResults
            if !groups.isEmpty {
                ordering.removeLast()
            } else if columns.contains(where: \.isAggregate) {
                ordering = []  // one row: the aggregates over every match
            }
        default:
            break
        }
        select.ordering = ordering
        return select.limit(fetchLimit > 0 ? fetchLimit : nil).offset(fetchOffset > 0 ? fetchOffset : nil)
    }
}
