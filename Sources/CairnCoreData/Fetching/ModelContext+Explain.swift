@_spi(CairnCoreData) import Cairn
import Foundation

extension ModelContext {
    /// The SQL a fetch of `request`'s objects runs on the saved rows, its bound values, and
    /// SQLite's query plan for it.
    ///
    /// ```swift
    /// let request = NSFetchRequest<Workout>(entityName: "Workout")
    /// request.predicate = NSPredicate(format: "minutes >= %d", 30)
    /// request.sortDescriptors = [NSSortDescriptor(key: "startedAt", ascending: false)]
    /// let plan = try context.explain(request)
    /// plan.sql      // SELECT "id", "title", … FROM "Workout" WHERE "Workout"."minutes" >= ?
    ///               //   ORDER BY "Workout"."startedAt" DESC, "Workout"."id" ASC
    /// plan.details  // ["SCAN Workout", "USE TEMP B-TREE FOR ORDER BY"]
    /// ```
    ///
    /// Unsaved changes, which a fetch merges in memory, are not part of the plan.
    ///
    /// - Throws: `FormatPredicateError` for an unknown entity, key or unsupported predicate,
    ///   as `fetch(_:)` would.
    public func explain<T>(_ request: NSFetchRequest<T>) throws -> QueryPlan {
        let entity = try schemaEntity(for: request)
        let select = try request.sqlSelect(for: FormatSQLEntity(entity), as: .managedObjectResultType)
        func explain<M: PersistentModel>(_ type: M.Type) throws -> QueryPlan {
            try explainStoredModels(
                type, where: select.condition, orderBy: select.ordering,
                limit: request.fetchLimit > 0 ? request.fetchLimit : nil, offset: request.fetchOffset)
        }
        return try explain(entity.modelType)
    }
}
