import Foundation

extension ModelContext {
    /// Calls `block` with every model a descriptor describes, reading `batchSize` rows at a
    /// time; memory stays flat over any number of rows.
    ///
    /// Unless `allowEscapingMutations` is `true`, each batch lets go of what it loaded once
    /// `block` has seen it: its models, and the related models `block` reached through their
    /// relationships (`trip.items`, `item.trip`). Models registered before the call stay
    /// registered, and so do models `block` changed, until the caller's `save()` writes them,
    /// and models the caller still holds, so that changing or deleting one later is saved.
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
    /// With `includePendingChanges` (the default), the context's unsaved inserts, edits and
    /// deletes of `T` take their places in the order, as in `fetch(_:)`; the saved rows are
    /// still read a batch at a time.
    public func enumerate<T: PersistentModel>(
        _ fetch: FetchDescriptor<T>, batchSize: Int = 5000, allowEscapingMutations: Bool = false,
        block: (T) throws -> Void
    ) throws {
        mergeExternalChanges()
        // A custom store answers with every snapshot at once: its models, in `fetch`'s order.
        if dataStore(of: T.self) != nil {
            for model in try fetchThroughSQL(fetch) { try block(model) }
            return
        }
        let size = Swift.max(1, batchSize)
        if fetch.includePendingChanges, hasPendingChanges {
            let pending = pendingChanges(of: T.self)
            if !pending.isEmpty {
                try enumerateMerging(pending, fetch, batchSize: size, allowEscapingMutations: allowEscapingMutations, block: block)
                return
            }
        }
        let keys = try primaryKeys(fetch)
        var start = 0
        while start < keys.count {
            let end = Swift.min(keys.count, start + size)
            try inBatch(releasing: !allowEscapingMutations) {
                for model in try storedBatch(T.self, primaryKeys: keys[start..<end]) { try block(model) }
            }
            start = end
        }
    }

    /// `enumerate` with unsaved changes of `T`: the saved rows' keys in SQL order, less the
    /// rows the context deleted or changed, read a batch at a time and merged with the changed
    /// and inserted models that match (the context holds those anyway) in the order
    /// `fetch(_:)` gives them (ties: saved rows by primary key, then new models); offset and
    /// limit apply to the merged sequence, as in `fetch(_:)`. Before, this case read every
    /// matching row in one fetch.
    private func enumerateMerging<T: PersistentModel>(
        _ pending: PendingChanges<T>, _ fetch: FetchDescriptor<T>, batchSize: Int, allowEscapingMutations: Bool,
        block: (T) throws -> Void
    ) throws {
        var whole = fetch
        whole.fetchLimit = nil
        whole.fetchOffset = nil
        var replaced = Set(pending.deleted.compactMap { trackedStorage($0)?.identifier.primaryKey })
        replaced.formUnion(pending.changed.compactMap { $0.persistentModelID.primaryKey })
        let keys = try primaryKeys(whole).filter { !replaced.contains($0) }
        var extras = pending.changed + pending.inserted
        if let predicate = fetch.predicate { extras = try extras.filter { try predicate.checkedEvaluate($0) } }
        if fetch.sorts { extras = sortedByStoredOrder(extras, using: fetch.sortBy) }

        var toSkip = Swift.max(0, fetch.fetchOffset ?? 0)
        var toVisit = fetch.fetchLimit.flatMap { $0 >= 0 ? $0 : nil } ?? Int.max
        /// Hands `model` to the block unless the offset skips it; false once the limit is reached.
        func visit(_ model: T) throws -> Bool {
            if toSkip > 0 {
                toSkip -= 1
                return true
            }
            guard toVisit > 0 else { return false }
            toVisit -= 1
            try block(model)
            return toVisit > 0
        }
        var nextExtra = 0
        /// Visits the changed and inserted models that sort before `model` (all that are left
        /// when `model` is nil); false once the limit is reached.
        func visitExtras(before model: T?) throws -> Bool {
            while nextExtra < extras.count {
                if let model, !fetch.sorts || !comesBefore(extras[nextExtra], model, sortBy: fetch.sortBy) { return true }
                guard try visit(extras[nextExtra]) else { return false }
                nextExtra += 1
            }
            return true
        }
        var start = 0
        var going = toVisit > 0
        while going, start < keys.count {
            let end = Swift.min(keys.count, start + batchSize)
            try inBatch(releasing: !allowEscapingMutations) {
                for model in try storedBatch(T.self, primaryKeys: keys[start..<end]) {
                    guard try visitExtras(before: model), try visit(model) else {
                        going = false
                        return
                    }
                }
            }
            start = end
        }
        if going { _ = try visitExtras(before: nil) }
    }

    /// Whether `lhs` sorts before `rhs` in `fetch(_:)`'s merged order: by the descriptors, then
    /// by primary key, models without a row last.
    private func comesBefore<T: PersistentModel>(_ lhs: T, _ rhs: T, sortBy: [SortDescriptor<T>]) -> Bool {
        for descriptor in sortBy {
            switch descriptor.compare(lhs, rhs) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: continue
            }
        }
        return (lhs.persistentModelID.primaryKey ?? .max) < (rhs.persistentModelID.primaryKey ?? .max)
    }

    /// Runs one batch's `body`, letting go of what it registered afterwards when `releasing`.
    private func inBatch(releasing: Bool, _ body: () throws -> Void) throws {
        if releasing { try withBatchReleased(body) } else { try body() }
    }

    /// The models of one batch, in order. Unlike a batched collection's subscript, which
    /// cannot throw, a failed read throws; a row deleted since the identifiers were read (by
    /// another context) is skipped, as a fetch made now would skip it.
    private func storedBatch<T: PersistentModel>(_ type: T.Type, primaryKeys: ArraySlice<Int64>) throws -> [T] {
        let scope = try table(of: T.self).layout.identifierScope
        let identifiers = primaryKeys.map { PersistentIdentifier.permanent(scope: scope, primaryKey: $0) }
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

    /// Forgets the saved, unchanged models among `keys` that nothing outside the context holds,
    /// having first broken the relationships between them; returns the keys it forgot. A
    /// changed model stays registered until `save()` writes it, and so does a model the caller
    /// kept (appended to an array in the block, say): a change made to it later, or its
    /// deletion, must reach the next `save()`. Its relationships load again on first use.
    @discardableResult
    func releaseSavedModels(_ keys: [ObjectIdentifier]) -> Set<ObjectIdentifier> {
        let clean = keys.filter { key in
            guard let storage = trackedStorage(key) else { return false }
            return storage.state == .persisted && !storage.hasChanges
        }
        for key in clean { trackedStorage(key)?.detachSavedRelatedModels() }
        return releaseUnreferenced(clean)
    }
}
