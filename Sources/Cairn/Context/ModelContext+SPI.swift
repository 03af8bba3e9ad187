import Foundation

// Hooks for CairnCoreData's `NSFetchRequest` execution: SQL-side fetching of models and raw
// rows, for modules of this package only (`@_spi(CairnCoreData) import Cairn`).
extension ModelContext {
    /// The registered models of the rows `adjust` selects: it receives
    /// `SELECT "id", <every column> FROM "<Entity>"`, adds WHERE, ORDER BY, LIMIT and OFFSET,
    /// and must keep the selected columns.
    @_spi(CairnCoreData)
    public func fetchStoredModels<T: PersistentModel>(
        _ type: T.Type, adjusting adjust: (SQLSelect) throws -> SQLSelect
    ) throws -> [T] {
        try fetchStored(type, adjusting: adjust)
    }

    /// The rows of a SELECT run on the store that holds `entityName`, and that store's
    /// identifier (for permanent `PersistentIdentifier`s).
    @_spi(CairnCoreData)
    public func storedRows(entityName: String, _ select: SQLSelect) throws -> (store: String, rows: [[DatabaseValue]]) {
        let store = try container.store(for: entityName)
        return (store.identifier, try store.access { try $0.rows(select) })
    }
}
