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
    ///   an entity name that is not `entity`'s, or an option Cairn does not compile yet
    ///   (non-string `propertiesToFetch`).
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
            var columns: [SQLSelectColumn] = []
            var groupBy: [SQLExpression] = []
            // No properties named: every attribute, as Core Data returns.
            let fetched = propertiesToFetch.flatMap { $0.isEmpty ? nil : $0 } ?? entity.attributes.keys.sorted()
            for (list, isGroup) in [(fetched, false), (propertiesToGroupBy ?? [], true)] {
                for property in list {
                    guard let name = property as? String else {
                        throw FormatPredicateError(
                            .unsupported, "only property names are supported in propertiesToFetch and propertiesToGroupBy")
                    }
                    let term = try FormatSortDescriptor(key: name).sqlOrderingTerm(for: entity)
                    if isGroup { groupBy.append(term.expression) } else { columns.append(term.expression.aliased(name)) }
                }
            }
            select.columns = columns
            select.groupBy = groupBy
            if let havingPredicate {
                guard !groupBy.isEmpty else {
                    throw FormatPredicateError(.unsupported, "havingPredicate needs propertiesToGroupBy")
                }
                select.having = try havingPredicate.tree().sqlCondition(for: entity)
            }
            select.isDistinct = returnsDistinctResults
            if !groupBy.isEmpty { ordering.removeLast() }
        default:
            break
        }
        select.ordering = ordering
        return select.limit(fetchLimit > 0 ? fetchLimit : nil).offset(fetchOffset > 0 ? fetchOffset : nil)
    }
}
