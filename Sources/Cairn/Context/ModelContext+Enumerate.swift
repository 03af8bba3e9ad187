import Foundation

extension ModelContext {
    /// Calls `block` with every model a descriptor describes, reading `batchSize` rows at a
    /// time; memory stays flat over any number of rows.
    ///
    /// Unless `allowEscapingMutations` is `true`, each batch lets go of what it loaded once
    /// `block` has seen it: its models, and the related models `block` reached through their
    /// relationships (`trip.items`, `item.trip`). Models registered before the call stay
    /// registered, and so do models `block` changed, until the caller's `save()` writes them.
    ///
    /// ```swift
    /// try context.enumerate(FetchDescriptor<Workout>(), batchSize: 1_000) { workout in
    ///     workout.calories = (workout.calories * 10).rounded() / 10
    /// }
    /// // per batch: SELECT "t0"."id", "t0"."title", … FROM "Workout" AS "t0"
    /// //            WHERE "t0"."id" IN (SELECT value FROM json_each(?))
    /// try context.save()
    /// ```
    ///
    /// With `includePendingChanges` (the default) and unsaved changes of `T` in the context,
    /// the rows are read in one fetch, so that the unsaved changes are merged into their order.
    public func enumerate<T: PersistentModel>(
        _ fetch: FetchDescriptor<T>, batchSize: Int = 5000, allowEscapingMutations: Bool = false,
        block: (T) throws -> Void
    ) throws {
        mergeExternalChanges()
        let size = Swift.max(1, batchSize)
        if fetch.includePendingChanges, !pendingChanges(of: T.self).isEmpty {
            for model in try fetchThroughSQL(fetch) { try block(model) }
            return
        }
        let scope = try table(of: T.self).layout.identifierScope
        let keys = try primaryKeys(fetch)
        var start = 0
        while start < keys.count {
            let end = Swift.min(keys.count, start + size)
            let identifiers = keys[start..<end].map {
                PersistentIdentifier.permanent(scope: scope, primaryKey: $0)
            }
            if allowEscapingMutations {
                for model in try storedBatch(T.self, for: identifiers) { try block(model) }
            } else {
                try withBatchReleased {
                    for model in try storedBatch(T.self, for: identifiers) { try block(model) }
                }
            }
            start = end
        }
    }

    /// The models of one batch, in order. Unlike a batched collection's subscript, which
    /// cannot throw, a failed read throws; a row deleted since the identifiers were read (by
    /// another context) is skipped, as a fetch made now would skip it.
    private func storedBatch<T: PersistentModel>(_ type: T.Type, for identifiers: [PersistentIdentifier]) throws -> [T] {
        let found = try registeredOrStoredModels(T.self, for: identifiers)
        return identifiers.compactMap { found[$0] }
    }

    /// Runs `body`, then lets go of the saved, unchanged models it registered, having first
    /// broken the relationships between them (ModelStorage+Detach.swift), so that models
    /// holding each other do not outlive the batch. Runs inside another such call as well: the
    /// outer one then also sees what this one kept.
    func withBatchReleased(_ body: () throws -> Void) rethrows {
        let outer = registrationLog
        registrationLog = []
        defer {
            let registered = registrationLog ?? []
            let released = releaseSavedModels(registered)
            registrationLog = outer.map { $0 + registered.filter { !released.contains($0) } }
        }
        try body()
    }

    /// Forgets the saved, unchanged models among `keys`, first breaking the relationships
    /// between them when asked (a batch that let its block read relationships); returns the
    /// keys it forgot. A changed model stays registered until `save()` writes it.
    @discardableResult
    func releaseSavedModels(_ keys: [ObjectIdentifier], detachingRelationships: Bool = true) -> Set<ObjectIdentifier> {
        var clean: [(key: ObjectIdentifier, storage: ModelStorage)] = []
        for key in keys {
            guard let storage = trackedStorage(key), storage.state == .persisted, !storage.hasChanges else { continue }
            clean.append((key, storage))
        }
        if detachingRelationships {
            for (_, storage) in clean { storage.detachSavedRelatedModels() }
        }
        for (key, storage) in clean {
            tracked[key] = nil
            if byIdentifier[storage.identifier] == key { byIdentifier[storage.identifier] = nil }
        }
        return Set(clean.map(\.key))
    }
}
