@_spi(CairnCoreData) import Cairn
import Foundation

extension ModelContext {
    /// The models of a request whose predicate or sort runs in Swift, with the meaning
    /// `evaluate(with:)` and `sortedArray(using:)` give them:
    ///
    /// - with `includingPending`, over the stored rows merged with the context's unsaved
    ///   changes (registered models carry their unsaved values; unsaved deletions are left
    ///   out and unsaved insertions added), as Core Data answers `includesPendingChanges`;
    /// - without, because the store's SQL cannot express part of the request (a PostgreSQL
    ///   server has no `[c]`, `[d]`, `MATCHES` or `lowercase()` that answers as Swift's string
    ///   code does): SQL reads the rows with what it can express (the predicate, or the sort,
    ///   or neither) and Swift does the rest.
    ///
    /// The offset and limit apply last. Every row the SQL part selects is read: on a server,
    /// a search over a large table is faster with a predicate the server runs (`==`,
    /// `BEGINSWITH`, `CONTAINS`, `LIKE` without options).
    func objectsInSwift<M: PersistentModel, T>(
        _ type: M.Type, _ request: NSFetchRequest<T>, _ entity: Schema.Entity, includingPending: Bool
    ) throws -> [M] {
        // Compiling checks every key, selector and predicate, wherever the work then runs.
        let sqlEntity = FormatSQLEntity(entity)
        let select = try request.sqlSelect(for: sqlEntity, as: .managedObjectResultType)
        let byKey = [SQLExpression.column(sqlEntity.primaryKey, table: sqlEntity.table).ascending()]
        // Every row of the entity: of a subentity, its rows of the hierarchy's table.
        let every = sqlEntity.rowCondition(alias: sqlEntity.table)
        let attempts: [(condition: SQLExpression?, ordering: [SQLOrderingTerm], filters: Bool, sorts: Bool)] =
            includingPending
            ? [(every, byKey, true, true)]
            : [(select.condition, byKey, false, true), (every, select.ordering, true, false), (every, byKey, true, true)]
        for (index, attempt) in attempts.enumerated() {
            var models: [M]
            do {
                models = try fetchStoredModels(M.self, where: attempt.condition, orderBy: attempt.ordering, limit: nil, offset: 0)
            } catch let error as SQLRenderError where error.unsupportedDialect != nil && index < attempts.count - 1 {
                continue
            }
            if includingPending {
                let deleted = Set(deletedModelsArray.map { ObjectIdentifier($0) })
                models.removeAll { deleted.contains(ObjectIdentifier($0)) }
                models += insertedModelsArray.compactMap { $0 as? M }
            }
            if attempt.filters, let predicate = request.predicate {
                var kept: [M] = []
                for model in models where try predicate.checkedEvaluate(with: model) { kept.append(model) }
                models = kept
            }
            if attempt.sorts, let descriptors = request.sortDescriptors, !descriptors.isEmpty {
                models = try models.sortedArray(using: descriptors)
            }
            if request.fetchOffset > 0 { models = Array(models.dropFirst(request.fetchOffset)) }
            if request.fetchLimit > 0 { models = Array(models.prefix(request.fetchLimit)) }
            return models
        }
        return []  // not reached: the last attempt returns or throws
    }
}
