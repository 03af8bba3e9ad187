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

    /// Core Data's name for ``PersistentModel/persistentModelID``.
    public var objectID: NSManagedObjectID { persistentModelID }
}

/// Core Data's name for ``PersistentIdentifier``.
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
    /// - Throws: the predicate's ``Foundation/NSPredicate/formatError``, an unknown key or
    ///   selector, an entity missing from the container's schema, or a result type `T` that
    ///   does not match ``NSFetchRequest/resultType``.
    public func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] {
        let entity = try schemaEntity(for: request)
        let results: [Any]
        switch request.resultType {
        case .countResultType:
            let count = try count(for: request)
            results = T.self == Int.self ? [count] : [NSNumber(value: count)]
        case .managedObjectIDResultType:
            results = try identifiers(request, entity)
        case .dictionaryResultType:
            results = try dictionaries(request, entity).map { (row: [String: Any]) -> Any in
                T.self == NSDictionary.self ? NSDictionary(dictionary: row) : row
            }
        default:
            results = try anyObjects(request, entity)
        }
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
        guard case .integer(let count) = try storedRows(entityName: entity.name, select).rows.first?.first else {
            return 0
        }
        return Int(count)
    }

    // MARK: - Result types

    private func schemaEntity<T>(for request: NSFetchRequest<T>) throws -> Schema.Entity {
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
        // Compiling checks every key, selector and predicate, also when the work runs in memory.
        let sqlEntity = FormatSQLEntity(entity)
        let select = try request.sqlSelect(for: sqlEntity, as: .managedObjectResultType)
        guard usesMemory(request, entity) else {
            return try fetchStoredModels(M.self) { base in
                var adjusted = base
                adjusted.condition = select.condition
                adjusted.ordering = select.ordering
                adjusted.limit = select.limit
                adjusted.offset = select.offset
                return adjusted
            }
        }
        // Stored rows in primary-key order (registered ones carry their unsaved values), minus
        // unsaved deletions, plus unsaved insertions; then Core Data's semantics in memory.
        let deleted = Set(deletedModelsArray.map { ObjectIdentifier($0) })
        var models = try fetchStoredModels(M.self) {
            $0.orderBy(SQLExpression.column(sqlEntity.primaryKey, table: sqlEntity.table).ascending())
        }
        models.removeAll { deleted.contains(ObjectIdentifier($0)) }
        models += insertedModelsArray.compactMap { $0 as? M }
        if let predicate = request.predicate {
            var kept: [M] = []
            for model in models where try predicate.checkedEvaluate(with: model) { kept.append(model) }
            models = kept
        }
        if let descriptors = request.sortDescriptors, !descriptors.isEmpty {
            models = try models.sortedArray(using: descriptors)
        }
        if request.fetchOffset > 0 { models = Array(models.dropFirst(request.fetchOffset)) }
        if request.fetchLimit > 0 { models = Array(models.prefix(request.fetchLimit)) }
        return models
    }

    private func identifiers<T>(_ request: NSFetchRequest<T>, _ entity: Schema.Entity) throws -> [Any] {
        if usesMemory(request, entity) {
            return try anyObjects(request, entity).map { $0.persistentModelID }
        }
        let select = try request.sqlSelect(for: FormatSQLEntity(entity), as: .managedObjectIDResultType)
        let (store, rows) = try storedRows(entityName: entity.name, select)
        return try rows.map { row in
            guard case .integer(let key) = row.first else {
                throw FormatPredicateError(.evaluation, "a row of \(entity.name) has no integer primary key")
            }
            return try PersistentIdentifier.identifier(for: store, entityName: entity.name, primaryKey: key)
        }
    }

    private func dictionaries<T>(_ request: NSFetchRequest<T>, _ entity: Schema.Entity) throws -> [[String: Any]] {
        let select = try request.sqlSelect(for: FormatSQLEntity(entity), as: .dictionaryResultType)
        let names = select.columns.compactMap(\.alias)
        let rows = try storedRows(entityName: entity.name, select).rows
        return try rows.map { row in
            var dictionary: [String: Any] = [:]
            for (name, value) in zip(names, row) where !value.isNull {
                if let attribute = entity.attributesByName[name] {
                    dictionary[name] = try attribute.value(from: value)
                } else {
                    dictionary[name] = value.plainValue
                }
            }
            return dictionary
        }
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
