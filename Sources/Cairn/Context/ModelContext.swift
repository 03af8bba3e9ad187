import CairnSQLite
import Foundation

/// The object that tracks models: inserts, changes and deletes, written together by `save()`.
///
/// ```swift
/// let context = ModelContext(container)
/// let run = Workout(title: "Run", startedAt: .now, minutes: 30, calories: 250)
/// context.insert(run)
/// try context.save()        // INSERT INTO "Workout" ("title", …) VALUES (?, …)
/// run.minutes = 45
/// try context.save()        // UPDATE "Workout" SET "minutes" = ? WHERE "id" = ?
/// ```
///
/// A context holds one instance per row (uniquing): fetching a row twice gives the same
/// object. A context is not `Sendable`; it belongs to the actor that made it.
public final class ModelContext {
    /// The open stores, held by every context (``container`` may be a weak reference).
    let state: ContainerState
    /// The container of a context made with ``init(_:)``.
    private let ownContainer: ModelContainer?
    /// The container of a main context, which owns it.
    private weak var mainContainer: ModelContainer?
    /// Whether the context saves by itself soon after changes (only `mainContext`, on the main
    /// actor, saves automatically; it is `false` for contexts you make).
    public var autosaveEnabled: Bool = false
    /// The author recorded with this context's saves in the history
    /// (``DefaultHistoryTransaction/author``; see ``fetchHistory(_:)``).
    public var author: String?

    var isMainContext = false
    private var autosaveScheduled = false
    /// Whether a model was inserted, deleted or changed since pending changes were last
    /// processed (``processPendingChanges()``, `save()`, `rollback()`).
    private var hasUnprocessedChanges = false
    /// The entities whose models changed since ``postProcessedChanges()`` last posted; `nil`
    /// when that is not known (a rollback), which observers read as every entity.
    private var unprocessedEntities: Set<String>? = []
    /// The entity ``noteUnsavedChange(of:insertedOrDeleted:)`` last added to
    /// `unprocessedEntities`: a run of edits to one entity's models hashes its name once.
    private var lastUnprocessedEntity: ObjectIdentifier?
    /// Who hears processed pending changes (``observeProcessedChanges(owner:_:)``).
    private var processedChangesListeners: [ProcessedChangesListener] = []
    /// The error of the latest autosave that failed (nil after one that succeeded).
    var lastAutosaveError: (any Error)?
    /// The error of the latest batch a batched fetch could not read (FetchResultsCollection.swift).
    var lastBatchReadError: (any Error)?

    // The two tables are read and written for every fetched row. Unchecked exclusivity: a
    // context is confined to one thread or actor, and no access to either table overlaps
    // another (IdentityTable calls out to nothing while it holds one); the runtime check cost
    // about 80 instructions per access.

    /// Every model the context knows (inserted, fetched, deleted), by its storage's identity.
    /// Read through ``tracked``, which first registers a fetch's deferred models.
    @exclusivity(unchecked) var trackedTable = IdentityTable<ObjectIdentifier, any PersistentModel>()
    /// Tracked models by identifier (permanent ids of saved models, temporary ids of inserted
    /// ones). Read through ``byIdentifier``, as above.
    @exclusivity(unchecked) var byIdentifierTable = IdentityTable<PersistentIdentifier, ObjectIdentifier>()
    /// The models of the latest fetch, when it left them out of the tables until something
    /// reads them (ModelContext+DeferredRegistration.swift). Unchecked exclusivity, as the
    /// tables': every access to them reads it first.
    @exclusivity(unchecked) var deferredRegistration: DeferredRegistration?

    /// Every model the context knows; the deferred ones are registered first.
    var tracked: IdentityTable<ObjectIdentifier, any PersistentModel> {
        _read {
            if deferredRegistration != nil { registerDeferred() }
            yield trackedTable
        }
        _modify {
            if deferredRegistration != nil { registerDeferred() }
            yield &trackedTable
        }
    }

    /// Tracked models by identifier; the deferred ones are registered first.
    var byIdentifier: IdentityTable<PersistentIdentifier, ObjectIdentifier> {
        _read {
            if deferredRegistration != nil { registerDeferred() }
            yield byIdentifierTable
        }
        _modify {
            if deferredRegistration != nil { registerDeferred() }
            yield &byIdentifierTable
        }
    }
    /// Inserted models, in insertion order.
    var insertionOrder: [ObjectIdentifier] = []
    /// Deleted models, in deletion order.
    var deletionOrder: [ObjectIdentifier] = []
    /// Saved models changed since (may have been reverted).
    var dirty: [ObjectIdentifier] = []
    private var dirtySet: Set<ObjectIdentifier> = []
    /// Set while the context restores or loads values, so that doing so is not a change.
    var isRestoring = false
    /// Models inserted by saves since ``releaseUnreferencedModels()`` last let models go.
    var savedInsertions: [ObjectIdentifier] = []
    /// How many models the context held when ``releaseUnreferencedModels()`` last walked them.
    var trackedAfterRelease = 0
    /// How many times ``releaseUnreferencedModels()`` walked the registered models (tests).
    var releaseWalks = 0
    /// Whether a model of an entity with relationships was ever registered: only then does
    /// `deinit` walk the models (a context of 16,000 fetched rows without relationships paid
    /// about 290 instructions a row for the walk, callgrind, SwiftData W6).
    var mayHoldRelatedModels = false
    /// While `enumerate` runs a batch: the models registered since the batch began (the batch's
    /// own and those its block reached through relationships), so the batch can let go of
    /// exactly what it loaded (ModelContext+Enumerate.swift).
    var registrationLog: [ObjectIdentifier]?

    /// What the storage of each model this context tracks points to.
    let link: ContextLink

    /// The store and layout of each model type this context fetched, found once: by name
    /// through the container and the store, the lookup cost about 1,300 instructions a fetch
    /// (callgrind, W5). A container's stores and layouts never change.
    private var resolvedTables: [ObjectIdentifier: (store: ModelStore, layout: TableLayout)] = [:]
    /// Where others' commits leave the tables they changed for this context, once asked for.
    private var changeInbox: ContextInbox?
    /// This context's identity for custom stores (``editingState``), made when first asked for.
    var editingStateID: UUID?

    /// A context of the container.
    public init(_ container: ModelContainer) {
        state = container.state
        ownContainer = container
        link = ContextLink(container: container)
        link.context = self
    }

    /// The container's main context: it holds its container weakly (see ``ContainerState``).
    init(mainOf container: ModelContainer) {
        state = container.state
        ownContainer = nil
        mainContainer = container
        link = ContextLink(container: container)
        link.context = self
    }

    deinit {
        if let changeInbox { state.changes.removeInbox(changeInbox, of: ObjectIdentifier(self)) }
        // Custom stores this context used hear that it is gone.
        if let editingStateID {
            for store in state.dataStores { store.invalidateState(for: EditingState(id: editingStateID, author: author)) }
        }
        // Emptied here, where the tables' types are known (`IdentityTable.removeAll`).
        defer {
            deferredRegistration?.release()
            trackedTable.removeAll()
            byIdentifierTable.removeAll()
        }
        // Models that outlive the context must not keep each other alive through their
        // relationships (ModelStorage+Detach.swift), nor keep the stores open when they may.
        guard mayHoldRelatedModels else { return }
        // The deferred models too, without registering them: the context is going.
        let storages = trackedTable.values.compactMap(\._storage) + (deferredRegistration?.storages ?? [])
        for storage in storages { storage.detachSavedRelatedModels() }
        // A model still holding another may be in a cycle, and whatever such a cycle reaches
        // stays in memory with it: then none of the models keeps the stores open.
        guard storages.contains(where: \.holdsRelatedModels) else { return }
        let weakLink = link.forModelsHoldingRelatedModels()
        for storage in storages { storage.link = weakLink }
    }

    /// The container whose stores this context reads and writes.
    ///
    /// For a main context whose container was released, a new container on the same open
    /// stores, whose `mainContext` is this context.
    public var container: ModelContainer {
        if let ownContainer { return ownContainer }
        if let mainContainer { return mainContainer }
        let handle = ModelContainer(state: state, mainContext: self)
        mainContainer = handle
        return handle
    }

    /// The store that holds `type`'s rows, and its table layout.
    ///
    /// - Throws: ``ModelError`` when the container's schema does not list `type`.
    func table<T: PersistentModel>(of type: T.Type) throws -> (store: ModelStore, layout: TableLayout) {
        if let resolved = resolvedTables[ObjectIdentifier(type)] { return resolved }
        let entityName = Schema.entityName(for: type)
        let store = try state.store(for: entityName)
        let resolved = (store: store, layout: try store.layout(for: entityName))
        resolvedTables[ObjectIdentifier(type)] = resolved
        return resolved
    }

    /// This context's inbox of tables others changed (see ``mergeExternalChanges()``).
    var inbox: ContextInbox {
        if let changeInbox { return changeInbox }
        let inbox = state.changes.inbox(for: self)
        changeInbox = inbox
        return inbox
    }

    /// Whether this context has unsaved inserts, deletes or edits of any type.
    var hasPendingChanges: Bool { !insertionOrder.isEmpty || !deletionOrder.isEmpty || !dirty.isEmpty }

    // MARK: - Inserting and deleting

    /// Registers a new model (and the new models it references); `save()` writes it.
    ///
    /// Inserting a model of another context does nothing; inserting a deleted model of this
    /// context undoes the delete.
    public func insert<T: PersistentModel>(_ model: T) {
        insertModel(model)
    }

    func insertModel(_ model: any PersistentModel) {
        guard let storage = model._storage else { return }
        if let owner = storage.context {
            guard owner === self else { return }
            if storage.state == .deleted {
                storage.state = .persisted
                deletionOrder.removeAll { $0 == key(storage) }
                noteUnsavedChange(of: storage.entity)
            }
            return
        }
        // A model whose context went away before saving its insert or delete starts over here.
        if storage.state == .inserted { storage.state = .new }
        if storage.state == .deleted { storage.state = .persisted }
        switch storage.state {
        case .new:
            storage.state = .inserted
            storage.context = self
            let key = key(storage)
            tracked[key] = model
            if !storage.entity.relationshipSlots.isEmpty { mayHoldRelatedModels = true }
            byIdentifier[storage.identifier] = key
            insertionOrder.append(key)
            insertRelatedModels(of: storage)
            noteUnsavedChange(of: storage.entity)
        case .persisted, .inserted, .deleted, .deletedSaved:
            // A saved model whose context is gone: adopt it.
            storage.context = self
            register(model, storage)
        }
    }

    /// Marks a model deleted; `save()` removes its row. Deleting an unsaved model un-inserts it.
    public func delete<T: PersistentModel>(_ model: T) {
        deleteModel(model)
    }

    func deleteModel(_ model: any PersistentModel) {
        guard let storage = model._storage, storage.context === self else { return }
        let key = key(storage)
        switch storage.state {
        case .inserted:
            storage.state = .new
            storage.context = nil
            insertionOrder.removeAll { $0 == key }
            tracked[key] = nil
            byIdentifier[storage.identifier] = nil
        case .persisted:
            storage.state = .deleted
            deletionOrder.append(key)
        case .new, .deleted, .deletedSaved:
            return
        }
        noteUnsavedChange(of: storage.entity)
    }

    /// Deletes every model of a type that matches a predicate (all of them when `nil`).
    ///
    /// ```swift
    /// try context.delete(model: Workout.self, where: #Predicate { $0.minutes < 5 })
    /// ```
    ///
    /// The models are fetched and deleted, and `save()` removes their rows. A custom store that
    /// deletes in batches (``DataStoreBatching``) is instead asked once, with the predicate, and
    /// deletes at once; the models this context holds that match go with them.
    public func delete<T: PersistentModel>(
        model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true
    ) throws {
        if try batchDelete(T.self, where: predicate, includeSubclasses: includeSubclasses) { return }
        for model in try fetch(FetchDescriptor<T>(predicate: predicate)) { delete(model) }
    }

    // MARK: - State

    /// Whether there are inserts, changes or deletes not saved yet.
    public var hasChanges: Bool {
        !insertionOrder.isEmpty || !deletionOrder.isEmpty || dirty.contains { trackedStorage($0)?.changed.isEmpty == false }
    }

    /// The models inserted and not saved yet, in insertion order.
    public var insertedModelsArray: [any PersistentModel] { insertionOrder.compactMap { tracked[$0] } }

    /// The saved models with unsaved changes.
    public var changedModelsArray: [any PersistentModel] {
        dirty.compactMap { key in
            guard let storage = trackedStorage(key), storage.state == .persisted, !storage.changed.isEmpty else { return nil }
            return tracked[key]
        }
    }

    /// The models deleted and not saved yet.
    public var deletedModelsArray: [any PersistentModel] { deletionOrder.compactMap { tracked[$0] } }

    /// The model with an identifier if this context holds it, else `nil`.
    public func registeredModel<T: PersistentModel>(for persistentModelID: PersistentIdentifier) -> T? {
        mergeExternalChanges()
        return byIdentifier[persistentModelID].flatMap { tracked[$0] } as? T
    }

    /// Discards every unsaved change: inserted models are dropped, deleted ones come back, and
    /// changed ones get their saved values again (observers are told).
    public func rollback() {
        if hasPendingChanges {
            hasUnprocessedChanges = true
            unprocessedEntities = nil
        }
        isRestoring = true
        defer { isRestoring = false }
        for key in insertionOrder {
            guard let storage = trackedStorage(key) else { continue }
            storage.state = .new
            storage.context = nil
            tracked[key] = nil
            byIdentifier[storage.identifier] = nil
        }
        insertionOrder = []
        for key in deletionOrder { trackedStorage(key)?.state = .persisted }
        deletionOrder = []
        for key in dirty {
            guard let model = tracked[key], let storage = model._storage else { continue }
            restore(model, storage)
        }
        dirty = []
        dirtySet = []
        postProcessedChanges()
    }

    /// Puts back the saved values of a model, through its setters so that observers hear it.
    func restore(_ model: any PersistentModel, _ storage: ModelStorage) {
        let originals = storage.originals
        for (index, slot) in originals {
            if let value = slot.loaded, let keyPath = storage.entity.properties[index].keypath as? any _KeyPathAssigning,
                keyPath._assign(value, on: model)
            {
                continue
            }
            storage.slots[index] = slot
        }
        for (index, slot) in originals { storage.slots[index] = slot }
        storage.originals = [:]
        storage.changed = []
    }

    /// Applies the delete rules of deleted models and settles relationships, then tells the
    /// context's observers about the unsaved inserts, deletes and edits made since the last
    /// time (a fetched-results controller over this context reports them to its delegate).
    ///
    /// ```swift
    /// expense.amount = 12
    /// context.insert(Expense(name: "Tea", amount: 3))
    /// context.processPendingChanges()   // the controller's delegate hears the update and the insert
    /// ```
    ///
    /// Core Data also processes pending changes at the end of each run-loop event. Linux has no
    /// run loop to end an event, so Cairn processes them when this is called, at the start of
    /// ``save()`` and after ``rollback()``.
    public func processPendingChanges() {
        applyDeleteRules()
        postProcessedChanges()
    }

    /// Tells the listeners of processed pending changes when something changed since they
    /// were last told.
    func postProcessedChanges() {
        guard hasUnprocessedChanges else { return }
        hasUnprocessedChanges = false
        let entities = unprocessedEntities
        unprocessedEntities = []
        lastUnprocessedEntity = nil
        guard !processedChangesListeners.isEmpty else { return }
        processedChangesListeners.removeAll { $0.owner == nil }
        // A copy: a listener may fetch, and so add or drop listeners, while it runs.
        let listeners = processedChangesListeners
        for listener in listeners where listener.owner != nil { listener.call(entities) }
    }

    /// Calls `listener` whenever ``processPendingChanges()``, `save()` or `rollback()`
    /// processes inserts, deletes or edits made since the last time, with the names of the
    /// entities whose models changed (`nil` when every entity may have: after a rollback), for
    /// as long as `owner` lives. The fetched-results controller listens to report unsaved
    /// changes.
    ///
    /// A list the context calls directly, not a notification: a context processes pending
    /// changes at every save, and a post, with its `userInfo` bridged, cost more than a
    /// one-row save's SQL when nothing listened.
    @_spi(CairnCoreData)
    public func observeProcessedChanges(owner: AnyObject, _ listener: @escaping (Set<String>?) -> Void) {
        processedChangesListeners.append(ProcessedChangesListener(owner: owner, call: listener))
    }

    /// Runs `block`, then saves.
    ///
    /// ```swift
    /// try context.transaction {
    ///     context.insert(Workout(title: "Row", startedAt: .now, minutes: 20, calories: 150))
    /// }   // BEGIN IMMEDIATE; INSERT …; COMMIT
    /// ```
    public func transaction(block: () throws -> Void) throws {
        try block()
        try save()
    }

    // MARK: - Bookkeeping

    func key(_ storage: ModelStorage) -> ObjectIdentifier { ObjectIdentifier(storage) }

    func trackedStorage(_ key: ObjectIdentifier) -> ModelStorage? { tracked[key]?._storage }

    /// Adds a stored model to the context.
    func register(_ model: any PersistentModel, _ storage: ModelStorage) {
        let key = key(storage)
        tracked[key] = model
        if !storage.entity.relationshipSlots.isEmpty { mayHoldRelatedModels = true }
        byIdentifier[storage.identifier] = key
        registrationLog?.append(key)
    }

    /// Called by a model's storage when a property is set.
    func noteChange(of storage: ModelStorage, at index: Int) {
        guard !isRestoring else { return }
        let key = key(storage)
        if storage.state == .persisted, dirtySet.insert(key).inserted { dirty.append(key) }
        if let relationship = storage.entity.properties[index] as? Schema.Relationship {
            relationshipChanged(relationship, of: storage, at: index)
            // The inverse side changes too, whether or not its model is loaded.
            unprocessedEntities?.insert(relationship.destination)
        }
        noteUnsavedChange(of: storage.entity, insertedOrDeleted: false)
    }

    func clearDirty() {
        dirty = []
        dirtySet = []
    }

    /// Marks the changes of a model of `entity` unprocessed and schedules the main context's
    /// autosave. An insert or a delete also changes the other side of each relationship.
    private func noteUnsavedChange(of entity: Schema.Entity, insertedOrDeleted: Bool = true) {
        hasUnprocessedChanges = true
        if lastUnprocessedEntity != ObjectIdentifier(entity) {
            lastUnprocessedEntity = ObjectIdentifier(entity)
            unprocessedEntities?.insert(entity.name)
        }
        if insertedOrDeleted {
            for relationship in entity.relationships { unprocessedEntities?.insert(relationship.destination) }
        }
        guard autosaveEnabled, isMainContext, !autosaveScheduled, !isRestoring else { return }
        autosaveScheduled = true
        let box = MainContextReference(context: self)
        Task { @MainActor in
            guard let context = box.context else { return }
            context.autosaveScheduled = false
            guard context.autosaveEnabled, context.hasChanges else { return }
            do {
                try context.save()
                context.lastAutosaveError = nil
            } catch {
                context.autosaveDidFail(error)
            }
        }
    }

    /// A failed autosave changes nothing (the changes stay, and the next change schedules
    /// another try), but no caller is there to catch its error: it is written to standard
    /// error, as a silent failure would lose the changes when the program ends.
    private func autosaveDidFail(_ error: any Error) {
        lastAutosaveError = error
        writeDiagnostic("the main context's autosave failed; its changes stay unsaved until a save succeeds: \(error)")
    }
}

/// Carries the main context to the main-actor task that autosaves it.
private struct MainContextReference: @unchecked Sendable {
    // @unchecked Sendable: only made for `mainContext` (checked by `isMainContext`), which is
    // created by the @MainActor `ModelContainer.mainContext` and used on the main actor; the task
    // that reads it runs on the main actor too.
    weak var context: ModelContext?
}

/// Sets a property through a key path given as `AnyKeyPath` (for restoring values through the
/// model's observed setters).
protocol _KeyPathAssigning {
    func _assign(_ value: Any, on root: AnyObject) -> Bool
}

extension ReferenceWritableKeyPath: _KeyPathAssigning {
    func _assign(_ value: Any, on root: AnyObject) -> Bool {
        guard let root = root as? Root, let value = value as? Value else { return false }
        root[keyPath: self] = value
        return true
    }
}

// MARK: - Notifications

extension ModelContext {
    /// Posted before a context saves; the object is the context.
    public static let willSave = Notification.Name("Cairn.ModelContext.willSave")
    /// Posted after a context saved; `userInfo` has the identifiers of the inserted, updated
    /// and deleted models under ``NotificationKey`` raw values.
    ///
    /// ```swift
    /// let ids = note.userInfo?[ModelContext.NotificationKey.insertedIdentifiers.rawValue]
    ///     as? [PersistentIdentifier]
    /// ```
    public static let didSave = Notification.Name("Cairn.ModelContext.didSave")

    /// The keys of a `didSave` notification's `userInfo`.
    public enum NotificationKey: String, Sendable {
        /// The identifiers of the models the save inserted (`[PersistentIdentifier]`).
        case insertedIdentifiers
        /// The identifiers of the models the save updated (`[PersistentIdentifier]`).
        case updatedIdentifiers
        /// The identifiers of the models the save deleted (`[PersistentIdentifier]`).
        case deletedIdentifiers
        /// SwiftData's key for "every model changed"; Cairn's saves do not set it.
        case invalidatedAllIdentifiers
        /// SwiftData's key for the query generation; Cairn's saves do not set it.
        case queryGeneration
    }
}

/// A listener of a context's processed pending changes, kept while its owner lives.
struct ProcessedChangesListener {
    weak var owner: AnyObject?
    let call: (Set<String>?) -> Void
}

extension ModelContext: Equatable {
    public static func == (lhs: ModelContext, rhs: ModelContext) -> Bool { lhs === rhs }
}

extension ModelContext: CustomDebugStringConvertible {
    public var debugDescription: String {
        "ModelContext(\(tracked.count) models, \(insertionOrder.count) inserted, \(changedModelsArray.count) changed, "
            + "\(deletionOrder.count) deleted)"
    }
}
