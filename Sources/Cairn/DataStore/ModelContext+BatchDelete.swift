import Foundation

// `delete(model:where:includeSubclasses:)` on the models of a custom store that deletes in
// batches (``DataStoreBatching``): the store is asked once, with the predicate, instead of the
// context fetching every model and deleting it one by one.

extension ModelContext {
    /// Deletes the models of `T` a predicate selects through their custom store's
    /// ``DataStoreBatching/delete(_:)``; `false` when `T` is not in such a store (the caller
    /// then fetches and deletes).
    ///
    /// The store deletes at once, as a batch delete does. The models this context holds that
    /// match by their current values go with them: saved ones become deleted and unregistered,
    /// as after a save that deleted them; unsaved inserted ones are discarded. Live results of
    /// `T`, and of the entities related to it, refetch.
    func batchDelete<T: PersistentModel>(_ type: T.Type, where predicate: Predicate<T>?, includeSubclasses: Bool) throws
        -> Bool
    {
        guard let store = dataStore(of: type) else { return false }
        let request = DataStoreBatchDeleteRequest(
            editingState: editingState, includeSubclasses: includeSubclasses, predicate: predicate)
        guard try store.delete(request) else { return false }
        try forgetDeleted(type, where: predicate, includeSubclasses: includeSubclasses)
        let entity = Schema.Entity.of(type)
        state.changes.storeDidCommit(Set([entity.name] + entity.relationships.map(\.destination)))
        return true
    }

    /// Drops the models of `T` this context holds that a store's batch delete removed.
    private func forgetDeleted<T: PersistentModel>(_ type: T.Type, where predicate: Predicate<T>?, includeSubclasses: Bool)
        throws
    {
        var saved: [ModelStorage] = []
        var unsaved: [any PersistentModel] = []
        for model in tracked.values {
            guard let typed = model as? T, includeSubclasses || Swift.type(of: model) == type,
                let storage = model._storage
            else { continue }
            if let predicate, try !predicate.checkedEvaluate(typed) { continue }
            switch storage.state {
            case .inserted: unsaved.append(model)
            case .persisted, .deleted: saved.append(storage)
            case .new, .deletedSaved: continue
            }
        }
        for model in unsaved { deleteModel(model) }
        guard !saved.isEmpty else { return }
        // As after a save that deleted them: no row to load from, and no hold on the stores.
        let deletedLink = link.forModelsHoldingRelatedModels()
        deletedLink.context = self
        var forgotten: Set<ObjectIdentifier> = []
        for storage in saved {
            storage.state = .deleted
            storage.commit()
            storage.link = deletedLink
            let key = key(storage)
            forgotten.insert(key)
            tracked[key] = nil
            byIdentifier[storage.identifier] = nil
        }
        deletionOrder.removeAll { forgotten.contains($0) }
    }
}
