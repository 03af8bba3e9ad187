import Foundation

// A context's reads and writes of the entities a custom store (``DataStore``) holds: the same
// `fetch`, `fetchCount`, `fetchIdentifiers`, `model(for:)`, faulting and `save()` as for a
// SQL store, with snapshots where those read and write rows. The routing lives where each of
// those paths first looks up its store (ModelContext+Query.swift, +Fetch.swift, +Save.swift).

extension ModelContext {
    /// Which context is asking, for a custom store: this context's identity and ``author``.
    public var editingState: EditingState {
        if let editingStateID { return EditingState(id: editingStateID, author: author) }
        let id = UUID()
        editingStateID = id
        return EditingState(id: id, author: author)
    }

    /// The custom store that holds `type`'s models, if one does (most containers have none,
    /// which is checked first).
    func dataStore<T: PersistentModel>(of type: T.Type) -> (any OpenDataStore)? {
        guard !state.dataStoresByEntity.isEmpty else { return nil }
        return state.dataStoresByEntity[Schema.entityName(for: type)]
    }

    /// The custom store that holds an entity's models, if one does.
    func dataStore(ofEntity entityName: String) -> (any OpenDataStore)? {
        guard !state.dataStoresByEntity.isEmpty else { return nil }
        return state.dataStoresByEntity[entityName]
    }

    // MARK: - Fetching

    /// The stored models a descriptor selects, from a custom store. When the store prefers
    /// (``DataStoreError/preferInMemoryFilter``, ``DataStoreError/preferInMemorySort``), it
    /// is asked again without the predicate or the sort, and this context filters with the
    /// in-memory evaluator and sorts.
    ///
    /// The store is never asked to page: `fetchLimit` and `fetchOffset` are applied here, to
    /// what it answers. A store may ignore them (Apple's JSON store sample does), and one that
    /// honoured them could not be told from one that did not, so paging twice or not at all
    /// would be a silent wrong answer.
    func dataStoreModels<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, in store: any OpenDataStore) throws -> [T] {
        var asked = descriptor.withoutPaging
        var filters = false
        var sorts = false
        while true {
            do {
                let (fetched, related) = try store.fetch(asked, editingState: editingState)
                var models = try fetched.map { try model(T.self, from: $0, related: related) }
                if filters, let predicate = descriptor.predicate {
                    models = try models.filter { try predicate.checkedEvaluate($0) }
                }
                if sorts, descriptor.sorts { models = sortedByStoredOrder(models, using: descriptor.sortBy) }
                return descriptor.page(models)
            } catch DataStoreError.preferInMemoryFilter where !filters {
                filters = true
                asked.predicate = nil
            } catch DataStoreError.preferInMemorySort where !sorts {
                sorts = true
                asked.sortBy = []
            }
        }
    }

    /// `fetchCount` from a custom store: its own count (paged here), or the models' when it
    /// prefers this context to filter or sort.
    func dataStoreCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, in store: any OpenDataStore) throws -> Int {
        do {
            let count = try store.fetchCount(descriptor.withoutPaging, editingState: editingState)
            let remaining = max(0, count - max(0, descriptor.fetchOffset ?? 0))
            guard let limit = descriptor.fetchLimit, limit >= 0 else { return remaining }
            return min(remaining, limit)
        } catch DataStoreError.preferInMemoryFilter, DataStoreError.preferInMemorySort {
            return try dataStoreModels(descriptor, in: store).count
        }
    }

    /// `fetchIdentifiers` from a custom store, as ``dataStoreCount(_:in:)``.
    func dataStoreIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, in store: any OpenDataStore) throws
        -> [PersistentIdentifier]
    {
        do {
            return descriptor.page(try store.fetchIdentifiers(descriptor.withoutPaging, editingState: editingState))
        } catch DataStoreError.preferInMemoryFilter, DataStoreError.preferInMemorySort {
            return try dataStoreModels(descriptor, in: store).map(\.persistentModelID)
        }
    }

    /// The model with an identifier from a custom store, or `nil` when the store has none.
    func dataStoreModel(for identifier: PersistentIdentifier, in store: any OpenDataStore) -> (any PersistentModel)? {
        guard let entity = state.schema.entitiesByName[identifier.entityName],
            let (snapshot, related) = try? snapshot(of: entity.modelType, identifier: identifier, in: store)
        else { return nil }
        return try? registeredOrMade(snapshot, related: related)
    }

    /// A custom store's snapshot of one model: from its cache, else fetched by identifier (and
    /// picked out here when the store prefers not to filter).
    private func snapshot<M: PersistentModel>(of type: M.Type, identifier: PersistentIdentifier, in store: any OpenDataStore)
        throws -> (DefaultSnapshot, [PersistentIdentifier: DefaultSnapshot])?
    {
        if let cached = try store.cachedSnapshots(for: [identifier], editingState: editingState)[identifier] {
            return (cached, [:])
        }
        var descriptor = FetchDescriptor<M>(predicate: #Predicate { $0.persistentModelID == identifier })
        descriptor.fetchLimit = 1
        let result: (fetched: [DefaultSnapshot], related: [PersistentIdentifier: DefaultSnapshot])
        do {
            result = try store.fetch(descriptor, editingState: editingState)
        } catch DataStoreError.preferInMemoryFilter, DataStoreError.preferInMemorySort {
            result = try store.fetch(FetchDescriptor<M>(), editingState: editingState)
        }
        return result.fetched.first { $0.persistentIdentifier == identifier }.map { ($0, result.related) }
    }

    /// Loads the unloaded values of a model of a custom store (the context's faulting, as
    /// `faultIn` does from a row).
    func faultIn(_ storage: ModelStorage, from store: any OpenDataStore) {
        guard storage.state != .deletedSaved, !storage.identifier.isTemporary,
            let (snapshot, related) = try? snapshot(of: storage.entity.modelType, identifier: storage.identifier, in: store)
        else { return }
        let wasRestoring = isRestoring
        isRestoring = true
        defer { isRestoring = wasRestoring }
        try? fill(storage, from: snapshot, related: related, onlyUnloaded: true)
    }

    // MARK: - History

    /// `fetchHistory` of a container of custom stores: the history of each store that keeps
    /// `T` (``HistoryProviding``), store after store.
    func dataStoreHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T] {
        var transactions: [T]?
        for store in state.dataStores {
            if let some = try store.fetchHistory(descriptor) { transactions = (transactions ?? []) + some }
        }
        guard let transactions else { throw noHistory(T.self) }
        return transactions
    }

    /// `deleteHistory` of a container of custom stores, as ``dataStoreHistory(_:)``.
    func deleteDataStoreHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws {
        var deleted = false
        for store in state.dataStores where try store.deleteHistory(descriptor) { deleted = true }
        if !deleted { throw noHistory(T.self) }
    }

    private func noHistory<T: HistoryTransaction>(_ type: T.Type) -> SwiftDataError {
        SwiftDataError.invalidTransactionFetchRequest.with(
            reason: "No data store of this container keeps \(T.self) history: its store must conform to HistoryProviding "
                + "with that HistoryType (the stores are " + state.dataStores.map { "'\($0.name)'" }.joined(separator: ", ") + ")")
    }

    // MARK: - Models from snapshots

    /// The model of a fetched snapshot, which must be of `T`.
    private func model<T: PersistentModel>(
        _ type: T.Type, from snapshot: DefaultSnapshot, related: [PersistentIdentifier: DefaultSnapshot]
    ) throws -> T {
        let model = try registeredOrMade(snapshot, related: related)
        guard let typed = model as? T else {
            throw ModelError(
                .valueDecodingFailed, entityName: snapshot.persistentIdentifier.entityName,
                message: "A data store answered a fetch of \(T.self) with a snapshot of \(snapshot.persistentIdentifier) "
                    + "(entity \(snapshot.persistentIdentifier.entityName)): it must answer with models of the entity asked for")
        }
        return typed
    }

    /// The model of a snapshot the store just read: the registered one with the snapshot's
    /// values (its unsaved changes stay: a fetch shows what others saved since, as a SQL
    /// store's merge of others' commits does), or a new one.
    func registeredOrMade(_ snapshot: DefaultSnapshot, related: [PersistentIdentifier: DefaultSnapshot]) throws
        -> any PersistentModel
    {
        let model = try registeredOrFault(snapshot.persistentIdentifier, related: [:])
        if let storage = model._storage, storage.state == .persisted || storage.state == .deleted {
            try fill(storage, from: snapshot, related: related, onlyUnloaded: false)
        }
        return model
    }

    /// The registered model of an identifier, or a new one whose values load when first read
    /// (from `related` at once when it has the identifier's snapshot).
    private func registeredOrFault(_ identifier: PersistentIdentifier, related: [PersistentIdentifier: DefaultSnapshot])
        throws -> any PersistentModel
    {
        if let key = byIdentifier[identifier], let model = tracked[key] { return model }
        guard let entity = state.schema.entitiesByName[identifier.entityName] else {
            throw ModelError(
                .invalidSchema, entityName: identifier.entityName,
                message: "A data store's snapshot refers to \(identifier), an entity the container's schema lacks")
        }
        let (model, storage) = try makeFault(entity.modelType, identifier: identifier)
        // Registered before its values are filled: a relationship back to it finds it.
        if let snapshot = related[identifier] { try fill(storage, from: snapshot, related: related, onlyUnloaded: true) }
        return model
    }

    private func makeFault<M: PersistentModel>(_ type: M.Type, identifier: PersistentIdentifier) throws
        -> (any PersistentModel, ModelStorage)
    {
        let storage = ModelStorage.stored(entity: Schema.Entity.of(M.self), identifier: identifier)
        storage.context = self
        let model = M._$makeFetched(_FetchedStorage(storage: storage))
        if storage.droppedByModel {
            throw ModelError(
                .invalidSchema, entityName: identifier.entityName,
                message: "\(M.self).init(backingData:) did not keep the backing data it was given: a model must "
                    + "store it in `persistentBackingData`, as SwiftData requires")
        }
        register(model, storage)
        return (model, storage)
    }

    /// Writes a snapshot's values into a model's slots (only the unloaded ones when asked; never
    /// over an unsaved change), as a fetched row's are: attributes decoded by their codecs,
    /// relationships as the related models (registered ones, or new ones that load when read).
    func fill(
        _ storage: ModelStorage, from snapshot: DefaultSnapshot, related: [PersistentIdentifier: DefaultSnapshot],
        onlyUnloaded: Bool
    ) throws {
        let changed = storage.changed
        for (index, property) in storage.entity.properties.enumerated() where !changed.contains(index) {
            if onlyUnloaded {
                guard case .unloaded = storage.slots[index] else { continue }
            }
            if let attribute = property as? Schema.Attribute {
                guard !attribute.isTransient, let stored = snapshot.values[attribute.name] else {
                    if let value = attribute.defaultValue { storage.slots[index] = .value(value) }
                    continue
                }
                storage.slots[index] = .value(try decode(stored, for: attribute, of: snapshot))
            } else if let relationship = property as? Schema.Relationship {
                switch snapshot.values[relationship.name] {
                case .model(let identifier)?:
                    let model = try registeredOrFault(identifier, related: related)
                    storage.slots[index] = .value(relationship.isToOneRelationship ? model : RelationshipSync.typedArray([model], of: relationship))
                case .models(let identifiers)?:
                    let models = try identifiers.map { try registeredOrFault($0, related: related) }
                    storage.slots[index] = .value(relationship.isToOneRelationship
                        ? models.first as Any : RelationshipSync.typedArray(models, of: relationship))
                default:
                    if relationship.isToOneRelationship {
                        if let empty = (relationship.valueType as? any _OptionalBuilding.Type)?._nilValue {
                            storage.slots[index] = .value(empty)
                        }
                    } else {
                        storage.slots[index] = .value(RelationshipSync.typedArray([], of: relationship))
                    }
                }
            }
        }
    }

    private func decode(_ stored: DefaultSnapshot.Value, for attribute: Schema.Attribute, of snapshot: DefaultSnapshot) throws
        -> Any
    {
        let entityName = snapshot.persistentIdentifier.entityName
        guard let codec = attribute.codec, let value = stored.databaseValue(for: codec.columnType) else {
            throw ModelError(
                .valueDecodingFailed, entityName: entityName, propertyName: attribute.name, value: "\(stored)",
                message: "The snapshot of \(snapshot.persistentIdentifier) has a value for '\(attribute.name)' that is not "
                    + "a \(attribute.valueType)")
        }
        do {
            return try attribute.value(from: value)
        } catch {
            throw ModelError(
                .valueDecodingFailed, entityName: entityName, propertyName: attribute.name, value: "\(value)",
                message: "The snapshot of \(snapshot.persistentIdentifier) has a value for '\(attribute.name)' that cannot "
                    + "be read as \(attribute.valueType): \(error)")
        }
    }

    /// After a save: a store's snapshots whose values the models take (values it computed).
    func reregister(_ snapshots: [PersistentIdentifier: DefaultSnapshot]) throws {
        for (identifier, snapshot) in snapshots {
            guard let storage = byIdentifier[identifier].flatMap(trackedStorage) else { continue }
            let wasRestoring = isRestoring
            isRestoring = true
            defer { isRestoring = wasRestoring }
            try fill(storage, from: snapshot, related: [:], onlyUnloaded: false)
        }
    }
}

extension FetchDescriptor {
    /// The descriptor without `fetchLimit` and `fetchOffset`.
    var withoutPaging: FetchDescriptor {
        var copy = self
        copy.fetchLimit = nil
        copy.fetchOffset = nil
        return copy
    }

    /// The part of `elements` that `fetchOffset` and `fetchLimit` select.
    func page<Element>(_ elements: [Element]) -> [Element] {
        let offset = max(0, fetchOffset ?? 0)
        let rest = offset > 0 ? Array(elements.dropFirst(offset)) : elements
        guard let limit = fetchLimit, limit >= 0, rest.count > limit else { return rest }
        return Array(rest.prefix(limit))
    }
}

extension SaveWriter {
    /// Saves the changes of the custom stores' models, each store with one request, and takes
    /// those models out of the lists the SQL stores write; records the permanent identifier
    /// each store gave an inserted model.
    mutating func writeDataStores(
        inserted: inout [ModelStorage], updated: inout [ModelStorage], deleted: inout [ModelStorage]
    ) throws {
        let byEntity = context.state.dataStoresByEntity
        for store in context.state.dataStores {
            let isInStore = { (storage: ModelStorage) in byEntity[storage.entity.name] === store }
            let mine = (inserted.filter(isInStore), updated.filter(isInStore), deleted.filter(isInStore))
            guard !(mine.0.isEmpty && mine.1.isEmpty && mine.2.isEmpty) else { continue }
            let result = try store.save(
                inserted: mine.0, updated: mine.1, deleted: mine.2, editingState: context.editingState)
            for storage in mine.0 {
                assigned[ObjectIdentifier(storage)] = result.remapped[storage.identifier] ?? storage.identifier
            }
            reregistered.merge(result.reregister) { _, new in new }
            // Live results of these entities refetch, as after a SQL store's commit.
            var entities: Set<String> = []
            for storage in [mine.0, mine.1, mine.2].joined() where entities.insert(storage.entity.name).inserted {
                for relationship in storage.entity.relationships { entities.insert(relationship.destination) }
            }
            context.state.changes.storeDidCommit(entities)
        }
        let isInAStore = { (storage: ModelStorage) in byEntity[storage.entity.name] != nil }
        inserted.removeAll(where: isInAStore)
        updated.removeAll(where: isInAStore)
        deleted.removeAll(where: isInAStore)
    }
}
