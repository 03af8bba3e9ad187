import Foundation

extension ModelContext {
    /// Inserts the new models a newly inserted model references, and makes the inverses of
    /// relationships set before insertion (in `init`) agree.
    func insertRelatedModels(of storage: ModelStorage) {
        // Without relationships there is nothing to insert, and no inverse needs the owner
        // (naming it makes a box, ModelStorage.Fields.knownOwner).
        guard !storage.entity.relationshipSlots.isEmpty, let model = tracked[key(storage)] else { return }
        storage.owner = model
        for (index, property) in storage.entity.properties.enumerated() {
            guard let relationship = property as? Schema.Relationship, case .value(let value) = storage.slots[index] else {
                continue
            }
            let related = relatedModels(value)
            RelationshipSync.didSet(storage, model: model, relationship: relationship, old: [], new: related)
            for other in related where other._storage?.state == .new { insertModel(other) }
        }
    }

    /// Keeps track of relationship changes of registered models (inverses are kept by
    /// ``RelationshipSync``; new related models are inserted when saving).
    func relationshipChanged(_ relationship: Schema.Relationship, of storage: ModelStorage, at index: Int) {}

    /// Inserts new models referenced by changed models, and applies the delete rules of
    /// deleted models: cascade deletes, nullify takes the model out of the inverse, deny is
    /// reported (and makes `save()` throw), noAction does nothing.
    @discardableResult
    func applyDeleteRules() -> [ModelError] {
        // The relationship slots only: asking every property whether it is one cost about
        // 1,400 instructions per inserted model of an entity that has none (callgrind, W1).
        for key in dirty + insertionOrder {
            guard let storage = trackedStorage(key) else { continue }
            for index in storage.entity.relationshipSlots {
                guard case .value(let value) = storage.slots[index] else { continue }
                for other in relatedModels(value) where other._storage?.state == .new { insertModel(other) }
            }
        }
        var denials: [ModelError] = []
        var processed: Set<ObjectIdentifier> = []
        // Walked by position, growing at the end as cascades delete more: removing each key
        // from the front would move every key behind it, n² / 2 moves for n deletions.
        var queue = deletionOrder
        var next = queue.startIndex
        while next < queue.endIndex {
            let key = queue[next]
            next += 1
            guard processed.insert(key).inserted, let model = tracked[key], let storage = model._storage else { continue }
            // Only the relationship slots have delete rules; the entity lists them once.
            for index in storage.entity.relationshipSlots {
                guard let relationship = storage.entity.properties[index] as? Schema.Relationship else { continue }
                let related = storage.currentRelatedModels(at: index).filter { $0._storage?.isDeleted == false }
                guard !related.isEmpty else { continue }
                switch relationship.deleteRule {
                case .cascade:
                    for other in related {
                        deleteModel(other)
                        if let otherStorage = other._storage { queue.append(self.key(otherStorage)) }
                    }
                case .nullify:
                    guard let (inverse, inverseIndex) = RelationshipSync.inverse(of: relationship, in: storage.entity) else {
                        continue
                    }
                    for other in related {
                        guard let otherStorage = other._storage else { continue }
                        RelationshipSync.remove(model, fromSlot: inverseIndex, of: otherStorage, relationship: inverse)
                    }
                case .deny:
                    denials.append(ModelError(
                        .constraintViolation, entityName: storage.entity.name, propertyName: relationship.name,
                        value: "\(related.count) related \(relationship.destination)",
                        message: "Cannot delete this \(storage.entity.name): its relationship '\(relationship.name)' has the "
                            + "delete rule .deny and still holds \(related.count) model(s); remove them first"))
                case .noAction:
                    break
                }
            }
        }
        return denials
    }

    /// Turns a raw to-one slot (a related row's primary key) into a model. Other models of the
    /// same entity whose same relationship is still a key are resolved in the same query.
    func resolve(_ raw: DatabaseValue, property: any SchemaProperty, of storage: ModelStorage) -> Any? {
        guard let relationship = property as? Schema.Relationship, let destination = relationship.destinationType else {
            return nil
        }
        guard case .integer(let primaryKey) = raw else {
            return (relationship.valueType as? any _OptionalBuilding.Type)?._nilValue
        }
        guard let store = try? state.store(for: relationship.destination),
            let scope = try? store.layout(for: relationship.destination).identifierScope
        else { return nil }
        let identifier = PersistentIdentifier.permanent(scope: scope, primaryKey: primaryKey)
        if let key = byIdentifier[identifier], let model = tracked[key] { return model }
        // Batch: every registered model of this entity whose relationship is an unresolved key.
        var keys: Set<Int64> = [primaryKey]
        if let index = storage.entity.properties.firstIndex(where: { $0 === relationship }) {
            for other in tracked.values {
                guard let otherStorage = other._storage, otherStorage.entity === storage.entity,
                    case .raw(.integer(let otherKey)) = otherStorage.slots[index]
                else { continue }
                let otherID = PersistentIdentifier.permanent(scope: scope, primaryKey: otherKey)
                if byIdentifier[otherID] == nil { keys.insert(otherKey) }
            }
        }
        _ = try? fetchStored(destination, primaryKeys: keys.sorted())
        if let key = byIdentifier[identifier], let model = tracked[key] { return model }
        return nil
    }

    /// The stored rows of a model type with the given primary keys, registered.
    @discardableResult
    func fetchStored<T: PersistentModel>(_ type: T.Type, primaryKeys: [Int64]) throws -> [T] {
        guard !primaryKeys.isEmpty else { return [] }
        let (store, layout) = try table(of: type)
        let select = selectAll(layout).where(.column(layout.primaryKey).in(primaryKeys.map { .value(.integer($0)) }))
        return try fetchStored(T.self, select, layout: layout, store: store)
    }

    /// The models of a to-many relationship, with one query, adjusted for unsaved changes of
    /// the inverse to-one relationships this context holds.
    func loadToMany(
        _ relationship: Schema.Relationship, of storage: ModelStorage, primaryKey: Int64, layout: TableLayout, store: ModelStore
    ) throws -> Any {
        guard let destinationType = relationship.destinationType, let storageKind = layout.toMany[relationship.name] else {
            return RelationshipSync.typedArray([], of: relationship)
        }
        let destinationStore = try state.store(for: relationship.destination)
        let destination = try destinationStore.layout(for: relationship.destination)
        var select = selectAll(destination)
        switch storageKind {
        case .inverseForeignKey(let column):
            select = select.where(.column(column).equals(.value(.integer(primaryKey))))
        case .joinTable(let table, let reversed):
            let keys = SQLSelect([SQLSelectColumn(.column(reversed ? "source" : "target"))], from: .table(table))
                .where(.column(reversed ? "target" : "source").equals(.value(.integer(primaryKey))))
            select = select.where(.column(destination.primaryKey).in(keys))
        }
        let rows = try destinationStore.read { try $0.rows(select) }
        let models: [any PersistentModel] = try rows.map {
            try materializeAny(destinationType, row: $0, layout: destination, store: destinationStore)
        }
        return adjustedToMany(models, relationship, of: storage, storageKind: storageKind, destination: destination)
    }

    /// The stored models of an owner's to-many relationship as the typed array its slot holds:
    /// unsaved changes of the inverse to-one relationship win over the store, deleted models
    /// are left out.
    func adjustedToMany(
        _ stored: [any PersistentModel], _ relationship: Schema.Relationship, of storage: ModelStorage,
        storageKind: TableLayout.ToManyStorage, destination: TableLayout, loadedInverses: [any PersistentModel]? = nil
    ) -> Any {
        var models = stored
        if case .inverseForeignKey(let column) = storageKind, let owner = storage.owner,
            let inverseIndex = destination.columns.first(where: { $0.name == column })?.slot
        {
            let candidates = loadedInverses ?? self.loadedInverses(of: destination, slot: inverseIndex)
            // Unsaved changes of the inverse win over what the store says.
            models.removeAll { model in
                guard let other = model._storage, case .value(let value) = other.slots[inverseIndex] else { return false }
                return !relatedModels(value).contains { $0 === owner }
            }
            for candidate in candidates {
                guard let other = candidate._storage, case .value(let value) = other.slots[inverseIndex],
                    relatedModels(value).contains(where: { $0 === owner }),
                    !models.contains(where: { $0 === candidate })
                else { continue }
                models.append(candidate)
            }
        }
        return RelationshipSync.typedArray(models.filter { $0._storage?.isDeleted == false }, of: relationship)
    }

    /// The registered models of a destination whose inverse to-one slot holds a model (not a
    /// stored key) that may differ from the store: only a model changed since it was read, or
    /// not saved yet, can. (Walking every registered model instead made reading `trip.items`
    /// for each of n fetched trips cost n² steps.)
    func loadedInverses(of destination: TableLayout, slot inverseIndex: Int) -> [any PersistentModel] {
        (dirty + insertionOrder).compactMap { key in
            guard let candidate = tracked[key], let other = candidate._storage, other.entity === destination.entity,
                case .value = other.slots[inverseIndex]
            else { return nil }
            return candidate
        }
    }

    func materializeAny<M: PersistentModel>(
        _ type: M.Type, row: [DatabaseValue], layout: TableLayout, store: ModelStore
    ) throws -> any PersistentModel {
        try materialize(M.self, row: row, layout: layout, store: store)
    }
}
