@_spi(CairnCoreData) import Cairn
import Foundation

extension PersistentModel {
    /// A fetch request for this model's entity, as Core Data generates for each class.
    ///
    /// ```swift
    /// let request = Expense.fetchRequest()      // NSFetchRequest<Expense>
    /// request.predicate = NSPredicate(format: "amount > %f", 50.0)
    /// let expenses = try context.fetch(request)
    /// // SELECT "id", … FROM "Expense" WHERE "Expense"."amount" > ? ORDER BY "Expense"."id" ASC
    /// ```
    public static func fetchRequest() -> NSFetchRequest<Self> {
        NSFetchRequest<Self>(entityName: Schema.entityName(for: Self.self))
    }

    /// A fetch request for this model's entity whose results may be objects, identifiers,
    /// dictionaries or a count (Core Data's `NSManagedObject.fetchRequest()`), chosen where the
    /// type asks for it.
    ///
    /// ```swift
    /// let request: NSFetchRequest<NSFetchRequestResult> = Expense.fetchRequest()
    /// request.resultType = .countResultType
    /// let count = (try context.fetch(request).first as? NSNumber)?.intValue
    /// ```
    ///
    /// Without a type annotation, `Expense.fetchRequest()` is `NSFetchRequest<Expense>` (Apple's
    /// reports the two as ambiguous there).
    @_disfavoredOverload
    public static func fetchRequest() -> NSFetchRequest<any NSFetchRequestResult> {
        NSFetchRequest<any NSFetchRequestResult>(entityName: Schema.entityName(for: Self.self))
    }

    /// Core Data's name for `PersistentModel/persistentModelID`.
    public var objectID: NSManagedObjectID { persistentModelID }
}

/// Core Data's name for `PersistentIdentifier`.
public typealias NSManagedObjectID = PersistentIdentifier

extension ModelContext {
    /// Runs a Core Data fetch request: the models, their identifiers, dictionaries of their
    /// values or their count, by ``NSFetchRequest/resultType``.
    ///
    /// ```swift
    /// let request = Expense.fetchRequest()
    /// request.predicate = NSPredicate(format: "name CONTAINS[cd] %@", "coffee")
    /// request.sortDescriptors = [NSSortDescriptor(key: "date", ascending: false)]
    /// request.fetchLimit = 20
    /// let recent = try context.fetch(request)
    /// // SELECT "id", … FROM "Expense" WHERE cairn_fold("Expense"."name", ?) GLOB ?
    /// //   ORDER BY "Expense"."date" DESC, "Expense"."id" ASC LIMIT ?
    /// ```
    ///
    /// The predicate and sort descriptors run in SQL. When ``NSFetchRequest/includesPendingChanges``
    /// is true and the context has unsaved changes of the entity, they run in memory over the
    /// stored rows merged with those changes instead (the same meaning, as tested). Dictionaries
    /// always come from the store, as in Core Data.
    ///
    /// - Returns: `[T]` where `T` is the model type (objects), `NSManagedObjectID` (identifiers),
    ///   `NSDictionary` or `[String: Any]` (dictionaries; nil values are left out), or
    ///   `NSNumber`/`Int` (one count).
    /// - Throws: the predicate's `Foundation/NSPredicate/formatError`, an unknown key or
    ///   selector, an entity missing from the container's schema, or a result type `T` that
    ///   does not match ``NSFetchRequest/resultType``.
    @_disfavoredOverload
    public func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] { try results(of: request) }

    /// What every `fetch(_:)` overload returns, as an array.
    private func results<T>(of request: NSFetchRequest<T>) throws -> [T] {
        try results(of: request, entity: try schemaEntity(for: request))
    }

    /// ``results(of:)`` for the request's entity, already looked up.
    private func results<T>(of request: NSFetchRequest<T>, entity: Schema.Entity) throws -> [T] {
        let results: [Any]
        switch request.resultType {
        case .countResultType:
            let count = try count(for: request)
            results = T.self == Int.self ? [count] : [NSNumber(value: count)]
        case .managedObjectIDResultType:
            results = try identifiers(request, entity)
        case .dictionaryResultType:
            // `NSDictionary`, as Core Data returns, unless the request asks for Swift's type.
            results = try dictionaries(request, entity).map { (row: [String: Any]) -> Any in
                T.self == [String: Any].self ? row : NSDictionary(dictionary: row)
            }
        default:
            return try typedObjects(request, entity)
        }
        return try typed(results, request)
    }

    /// Runs a fetch request of any result type (`NSFetchRequest<NSFetchRequestResult>`) and
    /// returns an array, as Core Data does, so that the results cast as its users cast them.
    ///
    /// ```swift
    /// let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Expense")
    /// request.resultType = .dictionaryResultType
    /// request.propertiesToFetch = ["name", "amount"]
    /// let rows = try context.fetch(request) as? [[String: Any]] ?? []   // or as? [NSDictionary]
    /// ```
    ///
    /// Objects come as the models, identifiers as `NSManagedObjectID`, dictionaries as
    /// `NSDictionary` (they cast to `[String: Any]`), a count as one `NSNumber` (it casts to
    /// `Int`). A `fetchBatchSize` loads nothing lazily here: the array holds every object.
    public func fetch(_ request: NSFetchRequest<any NSFetchRequestResult>) throws -> [any NSFetchRequestResult] {
        try results(of: request)
    }

    /// `results` as `[T]`, or the error that says the request's result type is not `T`.
    private func typed<T>(_ results: [Any], _ request: NSFetchRequest<T>) throws -> [T] {
        var typed: [T] = []
        typed.reserveCapacity(results.count)
        for result in results {
            guard let result = result as? T else {
                throw FormatPredicateError(
                    .unsupported,
                    "NSFetchRequest<\(T.self)> with resultType \(request.resultType.rawValue) returns \(type(of: result)), not \(T.self)")
            }
            typed.append(result)
        }
        return typed
    }

    /// Runs a Core Data fetch request and returns its results as a collection; with
    /// ``NSFetchRequest/fetchBatchSize`` above 0, objects load in batches as it is read (Core
    /// Data's batch faulting).
    ///
    /// ```swift
    /// let request = Expense.fetchRequest()
    /// request.sortDescriptors = [NSSortDescriptor(key: "date", ascending: false)]
    /// request.fetchBatchSize = 20
    /// let expenses = try context.fetch(request)      // FetchResultsCollection<Expense>
    /// // SELECT "Expense"."id" FROM "Expense" ORDER BY "Expense"."date" DESC, "Expense"."id" ASC
    /// expenses[0].name
    /// // SELECT "t0"."id", "t0"."name", … FROM "Expense" AS "t0"
    /// //   WHERE "t0"."id" IN (SELECT value FROM json_each(?))       -- rows 0..<20
    /// let ids = expenses.map(\.objectID)               // one such SELECT per batch of 20
    /// ```
    ///
    /// The identifiers of every match are read at once (8 bytes each); the objects a batch at
    /// a time, and the batch read before is let go (its unchanged objects leave the context),
    /// so walking any number of rows keeps about one batch in memory. Reading the same
    /// position twice gives the same object while its batch is held.
    ///
    /// Swift picks this overload where the result's type is not given (`let expenses =
    /// try context.fetch(request)`, `for expense in try context.fetch(request)`, `.map`); where
    /// an array is asked for (`let expenses: [Expense] = …`, a `-> [Expense]` return), the
    /// `[T]` overload runs and loads everything at once, as it does without a batch size.
    /// Batches apply to `.managedObjectResultType` requests whose entity has no unsaved
    /// changes in the context (with unsaved changes, and `includesPendingChanges`, the results
    /// are merged in memory and load at once).
    ///
    /// - Throws: what the `[T]` overload throws.
    public func fetch<T>(_ request: NSFetchRequest<T>) throws -> FetchResultsCollection<T> {
        let entity = try schemaEntity(for: request)
        if request.fetchBatchSize > 0, request.resultType == .managedObjectResultType, !usesMemory(request, entity) {
            func batched<M: PersistentModel>(_ type: M.Type) throws -> FetchResultsCollection<T> {
                try batchedObjects(M.self, request, entity)
            }
            do {
                return try batched(entity.modelType)
            } catch let error as SQLRenderError where error.unsupportedDialect != nil {
                // Read at once: what selects the rows runs in Swift (objectsInSwift).
            }
        }
        return FetchResultsCollection(elements: try results(of: request, entity: entity))
    }

    private func batchedObjects<M: PersistentModel, T>(_ type: M.Type, _ request: NSFetchRequest<T>, _ entity: Schema.Entity)
        throws -> FetchResultsCollection<T>
    {
        guard M.self is T.Type else {
            throw FormatPredicateError(
                .unsupported, "NSFetchRequest<\(T.self)> with resultType \(request.resultType.rawValue) returns \(M.self), not \(T.self)")
        }
        let keys = try primaryKeys(request, entity).keys
        let load = try batchLoader(M.self, primaryKeys: keys)
        // `M` is `T` (checked above), so every element casts and a batch keeps its length.
        return FetchResultsCollection(count: keys.count, batchSize: request.fetchBatchSize) { range in
            load(range).compactMap { $0 as? T }
        }
    }

    /// How many objects a request matches (after its offset and limit).
    ///
    /// ```swift
    /// try context.count(for: Expense.fetchRequest())
    /// // SELECT COUNT(*) FROM "Expense"
    /// ```
    public func count<T>(for request: NSFetchRequest<T>) throws -> Int {
        let entity = try schemaEntity(for: request)
        if usesMemory(request, entity) { return try anyObjects(request, entity).count }
        let select = try request.sqlSelect(for: FormatSQLEntity(entity), as: .countResultType)
        let rows: [[DatabaseValue]]
        do {
            rows = try storedRows(entityName: entity.name, select).rows
        } catch let error as SQLRenderError where error.unsupportedDialect != nil {
            return try anyObjects(request, entity).count  // counted in Swift (objectsInSwift)
        }
        guard case .integer(let count) = rows.first?.first else { return 0 }
        return Int(count)
    }

    // MARK: - Result types

    func schemaEntity<T>(for request: NSFetchRequest<T>) throws -> Schema.Entity {
        let name = request.entityName ?? (T.self as? any PersistentModel.Type).map { Schema.entityName(for: $0) }
        guard let name, let entity = container.schema.entitiesByName[name] else {
            throw FormatPredicateError(
                .unknownKey,
                "the container has no entity named '\(request.entityName ?? "\(T.self)")'; entities: "
                    + container.schema.entitiesByName.keys.sorted().joined(separator: ", "))
        }
        return entity
    }

    /// Whether the request must see unsaved changes of its entity.
    private func usesMemory<T>(_ request: NSFetchRequest<T>, _ entity: Schema.Entity) -> Bool {
        guard request.includesPendingChanges, hasChanges else { return false }
        let pending = insertedModelsArray + changedModelsArray + deletedModelsArray
        func entityName(of model: some PersistentModel) -> String { Schema.entityName(for: type(of: model)) }
        return pending.contains { entityName(of: $0) == entity.name }
    }

    /// The models of a `.managedObjectResultType` request as `[T]`. When `T` is the entity's
    /// model type (`NSFetchRequest<Expense>`), the array is returned as it is: casting each
    /// element through `Any` cost about 1,000 instructions a model (callgrind, Core Data W3),
    /// and even `as? [T]` checked every element again (about 80 a model).
    private func typedObjects<T>(_ request: NSFetchRequest<T>, _ entity: Schema.Entity) throws -> [T] {
        func fetch<M: PersistentModel>(_ type: M.Type) throws -> [T] {
            let models = try objects(type, request, entity)
            // `T` is `M` itself, so `[M]` and `[T]` are one type and the cast only renames it.
            if T.self == M.self { return unsafeBitCast(models, to: [T].self) }
            return try typed(models, request)
        }
        return try fetch(entity.modelType)
    }

    /// ``objects(_:_:_:)`` for the entity's model type.
    private func anyObjects<T>(_ request: NSFetchRequest<T>, _ entity: Schema.Entity) throws -> [any PersistentModel] {
        func fetch<M: PersistentModel>(_ type: M.Type) throws -> [any PersistentModel] {
            try objects(type, request, entity)
        }
        return try fetch(entity.modelType)
    }

    private func objects<M: PersistentModel, T>(_ type: M.Type, _ request: NSFetchRequest<T>, _ entity: Schema.Entity)
        throws -> [M]
    {
        guard usesMemory(request, entity) else {
            // The SQL of each shape is compiled once; compiling checks every key and selector.
            let predicate = try request.predicate?.tree()
            var sorts: [FormatSortDescriptor] = []
            for descriptor in request.sortDescriptors ?? [] { sorts.append(try descriptor.formatSortDescriptor()) }
            do {
                return try fetchStoredModels(
                    M.self, matching: predicate, sortedBy: sorts, limit: request.fetchLimit > 0 ? request.fetchLimit : nil,
                    offset: request.fetchOffset
                ) { predicate in
                    let select = try request.sqlSelect(for: FormatSQLEntity(entity), as: .managedObjectResultType, predicate: predicate)
                    return (select.condition, select.ordering)
                }
            } catch let error as SQLRenderError where error.unsupportedDialect != nil {
                return try objectsInSwift(M.self, request, entity, includingPending: false)
            }
        }
        return try objectsInSwift(M.self, request, entity, includingPending: true)
    }

    private func identifiers<T>(_ request: NSFetchRequest<T>, _ entity: Schema.Entity) throws -> [Any] {
        if usesMemory(request, entity) {
            return try anyObjects(request, entity).map { $0.persistentModelID }
        }
        let store: String, keys: [Int64]
        do {
            (store, keys) = try primaryKeys(request, entity)
        } catch let error as SQLRenderError where error.unsupportedDialect != nil {
            return try anyObjects(request, entity).map { $0.persistentModelID }  // chosen in Swift
        }
        return try keys.map { key in
            try PersistentIdentifier.identifier(for: store, entityName: entity.name, primaryKey: key)
        }
    }

    /// The primary keys of the stored rows a request selects, in its order.
    private func primaryKeys<T>(_ request: NSFetchRequest<T>, _ entity: Schema.Entity) throws -> (store: String, keys: [Int64]) {
        let select = try request.sqlSelect(for: FormatSQLEntity(entity), as: .managedObjectIDResultType)
        let (store, rows) = try storedRows(entityName: entity.name, select)
        let keys = try rows.map { row in
            guard case .integer(let key) = row.first else {
                throw FormatPredicateError(.evaluation, "a row of \(entity.name) has no integer primary key")
            }
            return key
        }
        return (store, keys)
    }

    private func dictionaries<T>(_ request: NSFetchRequest<T>, _ entity: Schema.Entity) throws -> [[String: Any]] {
        let sqlEntity = FormatSQLEntity(entity)
        let select = try request.sqlSelect(for: sqlEntity, as: .dictionaryResultType)
        let columns = try request.dictionaryColumns(for: sqlEntity)
        let store: String, rows: [[DatabaseValue]]
        do {
            (store, rows) = try storedRows(entityName: entity.name, select)
        } catch let error as SQLRenderError where error.unsupportedDialect != nil {
            // A server that cannot run the predicate as Swift does: Swift chooses the rows by
            // it (objectsInSwift), and the server groups, adds up, orders and pages the rows
            // chosen, by their keys. A sort or havingPredicate the server cannot run still fails.
            guard let keys = try keysChosenInSwift(request, entity), keys.count <= Self.mostKeysChosenInSwift else { throw error }
            let chosen = SQLExpression.column(sqlEntity.primaryKey, table: sqlEntity.table).in(values: keys.map(DatabaseValue.integer))
            (store, rows) = try storedRows(
                entityName: entity.name, try request.sqlSelect(for: sqlEntity, as: .dictionaryResultType, condition: chosen))
        }
        return try rows.map { row in
            var dictionary: [String: Any] = [:]
            for (column, value) in zip(columns, row) {
                if let converted = try column.value(from: value, entity: entity, store: store) {
                    dictionary[column.name] = converted
                }
            }
            return dictionary
        }
    }
}

extension ModelContext {
    /// The most keys a dictionary request's rows chosen in Swift are sent back to the server
    /// with: an `IN` list of bound values, padded to a power of two, stays under PostgreSQL's
    /// 65,535 parameters.
    static var mostKeysChosenInSwift: Int { 30_000 }

    /// The stored rows' keys that `request`'s predicate selects, evaluated in Swift
    /// (`evaluate(with:)` on each model); nil for a request without a predicate.
    fileprivate func keysChosenInSwift<T>(_ request: NSFetchRequest<T>, _ entity: Schema.Entity) throws -> [Int64]? {
        guard let predicate = request.predicate else { return nil }
        let matching = NSFetchRequest<any NSFetchRequestResult>(entityName: entity.name)
        matching.predicate = predicate
        func keys<M: PersistentModel>(_ type: M.Type) throws -> [Int64] {
            try objectsInSwift(M.self, matching, entity, includingPending: false).compactMap { $0.persistentModelID.primaryKey }
        }
        return try keys(entity.modelType)
    }
}

extension DatabaseValue {
    /// The Swift value of a column that is not a model attribute (an aggregate, a key path).
    var plainValue: Any? {
        switch self {
        case .null: nil
        case .integer(let value): Int(value)
        case .real(let value): value
        case .text(let value): value
        case .blob(let value): value
        }
    }
}
