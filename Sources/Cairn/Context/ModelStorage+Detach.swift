import Foundation

// Bidirectional relationships make reference cycles: a trip's `items` hold the items, and each
// item's `trip` holds the trip. While a context lives it holds its models anyway; once it lets
// them go (the context goes away, or a save lets go of the saved models nothing else holds)
// such a cycle would keep the models, and everything they reference, alive for the rest of the
// process. Core Data asks its users to break these cycles by hand
// (`refreshObject(_:mergeChanges: false)`); Cairn breaks them at those two points, where the
// store can give back what is dropped (`ModelContext.deinit`, `releaseUnreferencedModels`).

extension ModelStorage {
    /// Replaces each loaded relationship of saved models by what a fetch leaves there: a
    /// to-one by the related row's primary key, a to-many by "not loaded". Reading it again
    /// loads it from the store, through the model's context or, once that is gone, a context of
    /// the same container (Docs/ModelsAndContexts.md). A model with unsaved changes keeps its
    /// relationships, and so does a slot referencing a model without a row yet or with unsaved
    /// changes: the store does not have them as they are.
    func detachSavedRelatedModels() {
        guard state == .persisted, changed.isEmpty else { return }
        for index in entity.relationshipSlots {
            guard case .value(let value) = slots[index],
                let relationship = entity.properties[index] as? Schema.Relationship
            else { continue }
            let related = relatedModels(value)
            var keys: [Int64] = []
            for model in related {
                guard let storage = model._storage, storage.state == .persisted, !storage.hasChanges,
                    let key = storage.identifier.primaryKey
                else { break }
                keys.append(key)
            }
            guard keys.count == related.count else { continue }
            if relationship.isToOneRelationship {
                // An empty to-one (`nil`) holds nothing; leave it.
                guard let key = keys.first else { continue }
                slots[index] = .raw(.integer(key))
            } else {
                slots[index] = .unloaded
            }
        }
    }

    /// Whether a relationship slot still holds a model (after ``detachSavedRelatedModels()``).
    var holdsRelatedModels: Bool {
        entity.relationshipSlots.contains { index in
            if case .value(let value) = slots[index] { return !relatedModels(value).isEmpty }
            return false
        }
    }
}
