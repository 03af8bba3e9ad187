import Foundation

// Changes reach every context: what other contexts, actors and raw writes committed is merged
// into the models this context holds at the start of its next fetch.

extension ModelContext {
    /// Brings the models this context holds up to date with what others committed since the
    /// last merge: for each table they wrote, the registered models of that table are read
    /// again (`SELECT … WHERE "id" IN (…)`); a model whose row is gone is marked deleted and
    /// dropped from the context. Properties with unsaved changes keep them (they win, and a
    /// later save writes them over the store); the others take the stored values, through the
    /// models' setters so observers hear the change.
    ///
    /// Called by every fetch, ``registeredModel(for:)`` and ``model(for:)``; call it directly
    /// to refresh models without fetching.
    func mergeExternalChanges() {
        state.changes.checkOthersCommitsIfDue()
        let tables = inbox.take()
        guard !tables.isEmpty else { return }
        refreshRegisteredModels(ofTables: tables)
    }

    /// Reads the saved registered models of `tables` (of every table when `nil`) again, as
    /// ``mergeExternalChanges()`` describes: unsaved changes are kept, to-many relationships
    /// load again on their next read.
    func refreshRegisteredModels(ofTables tables: Set<String>?) {
        var byEntity: [String: [ModelStorage]] = [:]
        for model in tracked.values {
            guard let storage = model._storage, storage.identifier.primaryKey != nil,
                storage.state == .persisted || storage.state == .deleted
            else { continue }
            byEntity[storage.entity.name, default: []].append(storage)
        }
        for (entityName, storages) in byEntity {
            guard let store = try? state.store(for: entityName), let layout = try? store.layout(for: entityName) else {
                continue
            }
            if tables?.contains(layout.tableName) ?? true {
                refresh(storages, layout: layout, store: store)
            }
            resetToMany(storages, layout: layout, changedTables: tables)
        }
    }

    /// Reads the rows of `storages` again and applies them.
    func refresh(_ storages: [ModelStorage], layout: TableLayout, store: ModelStore) {
        let chunkSize = 500
        var start = 0
        while start < storages.count {
            let chunk = Array(storages[start..<min(start + chunkSize, storages.count)])
            start += chunkSize
            let keys = chunk.compactMap { $0.identifier.primaryKey }
            let select = selectAll(layout).where(.column(layout.primaryKey).in(values: keys.map { .integer($0) }))
            guard let rows = try? store.read({ try $0.rows(select) }) else { continue }
            var rowsByKey: [Int64: [DatabaseValue]] = [:]
            for row in rows { if case .integer(let key)? = row.first { rowsByKey[key] = row } }
            for storage in chunk {
                guard let key = storage.identifier.primaryKey else { continue }
                if let row = rowsByKey[key] {
                    apply(row, to: storage, layout: layout)
                } else if storage.changed.isEmpty {
                    forgetDeletedElsewhere(storage)
                }
            }
        }
    }

    /// Sets the stored values of a row on a model, property by property, skipping properties
    /// with unsaved changes and values that did not change.
    private func apply(_ row: [DatabaseValue], to storage: ModelStorage, layout: TableLayout) {
        let wasRestoring = isRestoring
        isRestoring = true
        defer { isRestoring = wasRestoring }
        for (offset, column) in layout.columns.enumerated() where offset + 1 < row.count {
            let index = column.slot
            guard !storage.changed.contains(index) else { continue }
            let stored = row[offset + 1]
            switch column.kind {
            case .attribute(let attribute):
                if case .unloaded = storage.slots[index] { continue }  // faulted in when read
                if let current = storage.loadedValue(at: index), (try? attribute.databaseValue(for: current)) == stored {
                    continue
                }
                guard let value = try? attribute.value(from: stored) else {
                    // Unloaded, the next read shows the error's placeholder; a type without
                    // an empty value keeps its last good value instead (a read cannot throw).
                    if !layout.alwaysLoaded.contains(index) { storage.slots[index] = .unloaded }
                    continue
                }
                if let model = tracked[key(storage)], let keyPath = attribute.keypath as? any _KeyPathAssigning,
                    keyPath._assign(value, on: model)
                {
                    storage.changed.remove(index)
                    storage.originals[index] = nil
                }
                storage.slots[index] = .value(value)
            case .toOne:
                let currentKey: DatabaseValue? = switch storage.slots[index] {
                case .raw(let raw): raw
                case .value(let value): relatedStorages(value)?.first.map { $0.identifier.primaryKey.map { .integer($0) } ?? .null } ?? .null
                case .unloaded, .primitive: nil
                }
                if let currentKey, currentKey != stored { storage.slots[index] = .raw(stored) }
            }
        }
    }

    /// To-many relationships whose destination (or join) table changed (any, when
    /// `changedTables` is `nil`) are loaded again on their next read, unless they have unsaved
    /// changes.
    func resetToMany(_ storages: [ModelStorage], layout: TableLayout, changedTables: Set<String>?) {
        var indices: [Int] = []
        for (name, storageKind) in layout.toMany {
            guard let relationship = layout.entity.relationshipsByName[name],
                let index = layout.entity.properties.firstIndex(where: { $0 === relationship })
            else { continue }
            let table: String = switch storageKind {
            case .inverseForeignKey: relationship.destination
            case .joinTable(let name, _): name
            }
            if changedTables.map({ $0.contains(table) || $0.contains(relationship.destination) }) ?? true {
                indices.append(index)
            }
        }
        guard !indices.isEmpty else { return }
        for storage in storages {
            for index in indices where !storage.changed.contains(index) { storage.slots[index] = .unloaded }
        }
    }

    /// A model whose row another context (or a raw write) deleted: it becomes deleted and the
    /// context no longer holds it.
    private func forgetDeletedElsewhere(_ storage: ModelStorage) {
        let key = key(storage)
        storage.state = .deletedSaved
        deletionOrder.removeAll { $0 == key }
        tracked[key] = nil
        byIdentifier[storage.identifier] = nil
    }

    /// The stored model of an identifier, or `nil` when its row does not exist (or it is of
    /// another type): what `self[id, as:]` of a ``ModelActor`` returns.
    func existingModel<T: PersistentModel>(_ type: T.Type, for identifier: PersistentIdentifier) -> T? {
        mergeExternalChanges()
        if let model: T = registeredModel(for: identifier) { return model }
        guard identifier.entityName == Schema.entityName(for: T.self), let key = identifier.primaryKey else { return nil }
        return (try? fetchStored(T.self, primaryKey: key)) ?? nil
    }
}

extension ModelContext {
    /// After a save: lets go of saved, unchanged models that nothing outside the context holds,
    /// as Core Data's contexts hold registered objects weakly. A long import that saves every
    /// 500 rows then keeps only its unsaved rows in memory. A model dropped here is fetched
    /// again as a new instance when asked for; no one can tell, since no one held it.
    ///
    /// Models the saves inserted first let go of their saved related models (a new trip of its
    /// new items, each item of its trip; ModelStorage+Detach.swift): otherwise each graph an
    /// import inserts would hold itself and never count as unreferenced. One the caller still
    /// holds reads such a relationship from the store again, as the same instances where the
    /// context still has them.
    ///
    /// Looking means visiting every registered model, so it happens only when the context has
    /// doubled since it last looked (or 4,096 inserts wait to let go of their relationships):
    /// a context that holds 100,000 models its caller keeps, and saves one change per request,
    /// does not walk them after every save. The walks cost, amortized, a few visits per model
    /// registered.
    func releaseUnreferencedModels() {
        guard tracked.count > Swift.max(1_000, 2 * trackedAfterRelease) || savedInsertions.count > 4_096 else { return }
        guard tracked.count > 1_000 else {
            // Keep the list bounded by what the context still holds (saves may delete as much
            // as they insert, and the context stay small).
            savedInsertions.removeAll { trackedStorage($0) == nil }
            return
        }
        releaseWalks += 1
        for key in savedInsertions { trackedStorage(key)?.detachSavedRelatedModels() }
        savedInsertions = []
        releaseUnreferenced(Array(tracked.keys), collecting: false)
        trackedAfterRelease = tracked.count
    }

    /// Forgets the saved, unchanged models among `keys` that nothing outside the context holds;
    /// returns the keys it forgot, when `collecting` (gathering them in a set cost about 670
    /// instructions a model after a save of new rows, callgrind W1).
    @discardableResult
    func releaseUnreferenced(_ keys: [ObjectIdentifier], collecting: Bool = true) -> Set<ObjectIdentifier> {
        var released = Set<ObjectIdentifier>()
        for key in keys {
            guard let storage = cleanSavedStorage(key) else { continue }
            // An optional AnyObject: binding a non-optional from the removed existential keeps a
            // second reference alive and the check would always fail.
            var object: AnyObject? = tracked.removeValue(forKey: key)
            if isKnownUniquelyReferenced(&object) {
                byIdentifier[storage.identifier] = nil
                if collecting { released.insert(key) }
            } else if let model = object as? any PersistentModel {
                tracked[key] = model
            }
        }
        return released
    }

    /// The storage of a tracked model that is saved and unchanged (in its own function, so no
    /// temporary reference to the model outlives the check).
    private func cleanSavedStorage(_ key: ObjectIdentifier) -> ModelStorage? {
        guard let storage = trackedStorage(key), storage.state == .persisted, storage.changed.isEmpty else { return nil }
        return storage
    }
}
