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
    ///   ``NSSortDescriptor/selectorError``, or a `FormatPredicateError` for an unknown key,
    ///   an entity name that is not `entity`'s, a `propertiesToFetch` entry that is neither a
    ///   name nor a description, or an `NSExpression` SQL cannot compute.
    public func sqlSelect(for entity: FormatSQLEntity) throws(FormatPredicateError) -> SQLSelect {
        try sqlSelect(for: entity, as: resultType)
    }

    /// The `SELECT` of this request as if its result type were `resultType`.
    func sqlSelect(for entity: FormatSQLEntity, as resultType: NSFetchRequestResultType)
        throws(FormatPredicateError) -> SQLSelect
    {
        try sqlSelect(for: entity, as: resultType, predicate: try predicate?.tree())
    }

    /// The `SELECT` of this request as if its result type were `resultType` and its predicate
    /// `predicateTree`.
    func sqlSelect(for entity: FormatSQLEntity, as resultType: NSFetchRequestResultType, predicate predicateTree: FormatPredicate?)
        throws(FormatPredicateError) -> SQLSelect
    {
        try sqlSelect(for: entity, as: resultType, condition: try predicateTree?.sqlCondition(for: entity))
    }

    /// The `SELECT` of this request as if its result type were `resultType` and its predicate
    /// the SQL `condition` (the predicate's own, or the keys of the rows Swift chose by it).
    func sqlSelect(for entity: FormatSQLEntity, as resultType: NSFetchRequestResultType, condition: SQLExpression?)
        throws(FormatPredicateError) -> SQLSelect
    {
        if let entityName, entityName != entity.name {
            throw FormatPredicateError(.unknownKey, "the request is for \(entityName), not \(entity.name)")
        }
        let table = entity.table
        let primaryKey = SQLExpression.column(entity.primaryKey, table: table)
        var select = SQLSelect([SQLSelectColumn](), from: .table(table))
        // A subentity of a `@Model` hierarchy reads only its rows of the shared table.
        select.condition = entity.rowCondition(alias: table)
        if let condition {
            select.condition = select.condition.map { $0.and(condition) } ?? condition
        }
        // The sort, then the primary key (dictionaries choose their own below).
        var ordering = resultType == .dictionaryResultType ? [] : try sortTerms(for: entity) + [primaryKey.ascending()]

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
            select.isDistinct = returnsDistinctResults
            if havingPredicate != nil, groups.isEmpty {
                throw FormatPredicateError(.unsupported, "havingPredicate needs propertiesToGroupBy")
            }
            let having = try havingPredicate?.tree()
            if !groups.isEmpty {
                // Filtering or sorting groups by a computed value (Cairn sorts by one too):
                // the groups become a subquery.
                let computed = Set(columns.filter { $0.isAggregate || entity.attributes[$0.name] == nil }.map(\.name))
                let named = having?.variableNames.intersection(computed) ?? []
                let sortsByComputed = (sortDescriptors ?? []).contains { $0.key.map(computed.contains) ?? false }
                if !named.isEmpty || sortsByComputed {
                    return try groupsFiltered(select, columns, by: having, naming: named, entity)
                }
            }
            if let having { select.having = try having.sqlCondition(for: entity) }
            if !groups.isEmpty {
                ordering = try sortTerms(for: entity)
            } else if !columns.contains(where: \.isAggregate) {
                ordering = try sortTerms(for: entity) + [primaryKey.ascending()]
            }  // else one row, the aggregates over every match: no order
        default:
            break
        }
        select.ordering = ordering
        return select.limit(fetchLimit > 0 ? fetchLimit : nil).offset(fetchOffset > 0 ? fetchOffset : nil)
    }

    /// The `ORDER BY` terms of the sort descriptors over `entity`.
    private func sortTerms(for entity: FormatSQLEntity) throws(FormatPredicateError) -> [SQLOrderingTerm] {
        var terms: [SQLOrderingTerm] = []
        for descriptor in sortDescriptors ?? [] {
            terms.append(try descriptor.formatSortDescriptor().sqlOrderingTerm(for: entity))
        }
        return terms
    }

    /// A grouped fetch whose `havingPredicate` names fetched values by variable, Core Data's
    /// way of filtering on aggregates (`NSPredicate(format: "%@ > 100",
    /// NSExpression(forVariable: "total"))`, or `$total > 100`), or whose sort descriptors
    /// name a computed value (`NSSortDescriptor(key: "total", ascending: false)`, which Core
    /// Data does not offer): the groups become a subquery whose columns are the fetched names,
    /// filtered and sorted outside it.
    ///
    /// ```sql
    /// SELECT "cairn_groups"."categoryName" AS "categoryName", "cairn_groups"."total" AS "total"
    /// FROM (SELECT "Expense"."categoryName" AS "categoryName", SUM("Expense"."amount") AS "total"
    ///       FROM "Expense" GROUP BY "Expense"."categoryName") AS "cairn_groups"
    /// WHERE "cairn_groups"."total" > ? ORDER BY "cairn_groups"."categoryName" ASC
    /// ```
    ///
    /// The predicate and the sort descriptors may then use only the fetched names.
    private func groupsFiltered(
        _ groups: SQLSelect, _ columns: [DictionaryColumn], by having: FormatPredicate?, naming named: Set<String>,
        _ entity: FormatSQLEntity
    ) throws(FormatPredicateError) -> SQLSelect {
        let alias = "cairn_groups"
        var names: [String: String] = [:]
        for column in columns { names[column.name] = column.name }
        let result = FormatSQLEntity(
            name: "the groups of \(entity.name)", table: alias, primaryKey: columns.first?.name ?? entity.primaryKey,
            attributes: names)
        var replacements: [String: FormatExpression] = [:]
        for name in named { replacements[name] = .keyPath(base: .evaluatedObject, path: [name]) }
        var select = SQLSelect(columns.map { SQLExpression.column($0.name, table: alias).aliased($0.name) },
                               from: .subquery(groups, as: alias))
        if let having { select.condition = try having.replacingVariables(replacements).sqlCondition(for: result) }
        select.ordering = try sortTerms(for: result)
        return select.limit(fetchLimit > 0 ? fetchLimit : nil).offset(fetchOffset > 0 ? fetchOffset : nil)
    }
}
