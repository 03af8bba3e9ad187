import Foundation

// Hooks for CairnCoreData's `NSFetchRequest` execution: SQL-side fetching of models and raw
// rows, for modules of this package only (`@_spi(CairnCoreData) import Cairn`).
extension ModelContext {
    /// The registered models of the rows `SELECT "id", <every column> FROM "<Entity>"` with
    /// `condition`, `ordering` and the page `limit` rows from `offset` (0: none) returns. When
    /// `ordering` ends with the primary key ascending after a descending key (`ORDER BY
    /// "date" DESC, "id" ASC LIMIT 20`), the page is read in the order of an index on the key,
    /// as a SwiftData fetch with a `.reverse` last sort is (see `storedModelsInIndexOrder`).
    /// What other contexts, actors and raw writes committed is merged into the registered
    /// models first, as every fetch does.
    @_spi(CairnCoreData)
    public func fetchStoredModels<T: PersistentModel>(
        _ type: T.Type, where condition: SQLExpression?, orderBy ordering: [SQLOrderingTerm], limit: Int?, offset: Int
    ) throws -> [T] {
        mergeExternalChanges()
        let (store, layout) = try table(of: type)
        return try storedModels(type, where: condition, orderBy: ordering, limit: limit, offset: offset, layout: layout, store: store)
    }

    /// ``fetchStoredModels(_:where:orderBy:limit:offset:)`` once the context has merged and found the table.
    func storedModels<T: PersistentModel>(
        _ type: T.Type, where condition: SQLExpression?, orderBy ordering: [SQLOrderingTerm], limit: Int?, offset: Int,
        layout: TableLayout, store: ModelStore
    ) throws -> [T] {
        var select = selectAll(layout)
        select.condition = condition
        // Only PostgreSQL writes a NULLS clause that the marks leave out.
        select.ordering = store.dialect == .postgres ? layout.markingNeverNullKeys(ordering) : ordering
        if let limit,
            let page = try storedModelsInIndexOrder(T.self, select, limit: limit, offset: offset, layout: layout, store: store)
        {
            return page
        }
        return try fetchStored(type, select.limit(limit).offset(offset > 0 ? offset : nil), layout: layout, store: store)
    }

    /// The rows of a SELECT run on the store that holds `entityName`, and that store's
    /// identifier (for permanent `PersistentIdentifier`s).
    @_spi(CairnCoreData)
    public func storedRows(entityName: String, _ select: SQLSelect) throws -> (store: String, rows: [[DatabaseValue]]) {
        let store = try state.store(for: entityName)
        return (store.identifier, try store.read { try $0.rows(select) })
    }
}

extension ModelContext {
    /// The tables a SELECT on the store of `entityName` reads, as the engine reports them
    /// (the entity's table, and whatever subqueries and joins reach); `[entityName]` when the
    /// statement cannot be prepared.
    @_spi(CairnCoreData)
    public func tablesRead(by select: SQLSelect, entityName: String) -> Set<String> {
        guard let store = try? state.store(for: entityName) else { return [entityName] }
        guard let rendered = try? store.dialect.render(SQLStatement.select(select)),
            let tables = try? store.read({ try $0.readTables(rendered) }),
            !tables.isEmpty
        else { return [entityName] }
        return tables
    }
}
