import Foundation

// Core Data's `reset()`, `refreshAllObjects()` and `refresh(_:mergeChanges:)`, which SwiftData's
// context lacks, for CairnCoreData's `NSManagedObjectContext` (`@_spi(CairnCoreData) import
// Cairn`). They stand on `rollback()`, the release of saved models that batched reads use, and
// the re-reading of registered models that merging others' commits uses.
extension ModelContext {
    /// Discards every unsaved change (``rollback()``), forgets every model nothing outside the
    /// context holds (the next fetch makes it anew), and reads the models still held from the
    /// store again: they stay this context's, so a change made to one later is saved, not lost.
    /// (Core Data forgets every object and invalidates those still held.)
    @_spi(CairnCoreData)
    public func reset() {
        rollback()
        let keys = Array(tracked.keys)
        // Saved models holding each other through relationships would never count as
        // unreferenced; what they held is read from the store again when asked for.
        for key in keys { trackedStorage(key)?.detachSavedRelatedModels() }
        releaseUnreferenced(keys, collecting: false)
        savedInsertions = []
        trackedAfterRelease = tracked.count
        refreshAllModels()
    }

    /// Reads every saved model the context holds from the store again. Properties with unsaved
    /// changes keep them; the others take the stored values (what other contexts, actors and
    /// raw writes committed), through the models' setters so observers hear the change.
    @_spi(CairnCoreData)
    public func refreshAllModels() {
        state.changes.checkOthersCommitsIfDue()
        _ = inbox.take()
        refreshRegisteredModels(ofTables: nil)
    }

    /// Reads one saved model from the store again. With `keepingChanges`, its unsaved changes
    /// stay over the stored values; without, they are discarded first. A model that is not
    /// this context's, or not saved yet, is left as it is.
    @_spi(CairnCoreData)
    public func refresh(_ model: some PersistentModel, keepingChanges: Bool) {
        guard let storage = model._storage, storage.context === self, storage.identifier.primaryKey != nil,
            storage.state == .persisted || storage.state == .deleted,
            let store = try? state.store(for: storage.entity.name), let layout = try? store.layout(for: storage.entity.name)
        else { return }
        if !keepingChanges, !storage.changed.isEmpty {
            isRestoring = true
            restore(model, storage)
            isRestoring = false
        }
        refresh([storage], layout: layout, store: store)
        resetToMany([storage], layout: layout, changedTables: nil)
    }
}
