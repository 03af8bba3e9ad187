import Foundation

/// A custom store a container opened, as its contexts use it: every call converts the store's
/// own snapshots to ``DefaultSnapshot`` (the form contexts make models from) and back.
protocol OpenDataStore: AnyObject, Sendable {
    /// The store's identifier (``DataStore/identifier``).
    var identifier: String { get }
    /// The configuration's name.
    var name: String { get }
    /// The entities the store holds.
    var entityNames: Set<String> { get }
    func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState) throws
        -> (fetched: [DefaultSnapshot], related: [PersistentIdentifier: DefaultSnapshot])
    func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState) throws -> Int
    func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState) throws
        -> [PersistentIdentifier]
    func cachedSnapshots(for identifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: DefaultSnapshot]
    /// Saves the models' snapshots; returns the permanent identifiers of the inserted ones and
    /// the snapshots to take values from.
    func save(inserted: [ModelStorage], updated: [ModelStorage], deleted: [ModelStorage], editingState: EditingState)
        throws -> (remapped: [PersistentIdentifier: PersistentIdentifier], reregister: [PersistentIdentifier: DefaultSnapshot])
    func erase() throws
    /// Asks the store to delete the models a request selects; `false` when it does not delete in
    /// batches (``DataStoreBatching``).
    func delete<T: PersistentModel>(_ request: DataStoreBatchDeleteRequest<T>) throws -> Bool
    func invalidateState(for editingState: EditingState)
    /// The store's history of `T`, or `nil` when it keeps none of that type (``HistoryProviding``).
    func fetchHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T]?
    /// Deletes the store's history of `T`; `false` when it keeps none of that type.
    func deleteHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> Bool
}

/// A ``DataStore`` behind a lock.
final class LockedDataStore<Store: DataStore>: OpenDataStore, @unchecked Sendable {
    // @unchecked Sendable: `store` is the user's class, which need not be Sendable (SwiftData
    // does not ask it to be); every use of it, and of `initialized`, holds `lock`, so one
    // thread at a time calls into it.
    private let store: Store
    private let lock = NSLock()
    /// The contexts the store was told of (``DataStore/initializeState(for:)``).
    private var initialized: Set<UUID> = []
    let identifier: String
    let name: String
    let entityNames: Set<String>

    init(_ store: Store, name: String, entityNames: Set<String>) {
        self.store = store
        identifier = store.identifier
        self.name = name
        self.entityNames = entityNames
    }

    /// Runs `body` with the store, telling it of a context the first time that context asks.
    private func withStore<R>(_ editingState: EditingState, _ body: (Store) throws -> R) rethrows -> R {
        // lock()/unlock() rather than `withLock`, whose closure would capture the store's
        // metatype, which need not be Sendable.
        lock.lock()
        defer { lock.unlock() }
        if initialized.insert(editingState.id).inserted { store.initializeState(for: editingState) }
        return try body(store)
    }

    func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState) throws
        -> (fetched: [DefaultSnapshot], related: [PersistentIdentifier: DefaultSnapshot])
    {
        let result = try withStore(editingState) {
            try $0.fetch(DataStoreFetchRequest(descriptor: descriptor, editingState: editingState))
        }
        return (try Self.standard(result.fetchedSnapshots), try Self.standard(result.relatedSnapshots))
    }

    func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState) throws -> Int {
        try withStore(editingState) {
            try $0.fetchCount(DataStoreFetchRequest(descriptor: descriptor, editingState: editingState))
        }
    }

    func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState) throws
        -> [PersistentIdentifier]
    {
        try withStore(editingState) {
            try $0.fetchIdentifiers(DataStoreFetchRequest(descriptor: descriptor, editingState: editingState))
        }
    }

    func cachedSnapshots(for identifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: DefaultSnapshot]
    {
        try Self.standard(withStore(editingState) { try $0.cachedSnapshots(for: identifiers, editingState: editingState) })
    }

    func save(inserted: [ModelStorage], updated: [ModelStorage], deleted: [ModelStorage], editingState: EditingState)
        throws -> (remapped: [PersistentIdentifier: PersistentIdentifier], reregister: [PersistentIdentifier: DefaultSnapshot])
    {
        // Made before the store is locked: a snapshot reads the models' unloaded values, which
        // may fetch from this store.
        let request = DataStoreSaveChangesRequest(
            editingState: editingState, inserted: try Self.snapshots(inserted), updated: try Self.snapshots(updated),
            deleted: try Self.snapshots(deleted))
        let result = try withStore(editingState) { try $0.save(request) }
        return (result.remappedIdentifiers, try Self.standard(result.snapshotsToReregister))
    }

    func erase() throws {
        lock.lock()
        defer { lock.unlock() }
        try store.erase()
    }

    func delete<T: PersistentModel>(_ request: DataStoreBatchDeleteRequest<T>) throws -> Bool {
        try withStore(request.editingState) { store in
            guard let batching = store as? any DataStoreBatching else { return false }
            try batching.delete(request)
            return true
        }
    }

    func invalidateState(for editingState: EditingState) {
        lock.lock()
        defer { lock.unlock() }
        guard initialized.remove(editingState.id) != nil else { return }
        store.invalidateState(for: editingState)
    }

    // MARK: - History

    func fetchHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T]? {
        lock.lock()
        defer { lock.unlock() }
        guard let provider = store as? any HistoryProviding else { return nil }
        return try Self.fetchHistory(of: provider, descriptor)
    }

    func deleteHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let provider = store as? any HistoryProviding else { return false }
        return try Self.deleteHistory(of: provider, descriptor)
    }

    private static func fetchHistory<Provider: HistoryProviding, T: HistoryTransaction>(
        of provider: Provider, _ descriptor: HistoryDescriptor<T>
    ) throws -> [T]? {
        guard let typed = descriptor as? HistoryDescriptor<Provider.HistoryType> else { return nil }
        return try provider.fetchHistory(typed) as? [T]
    }

    private static func deleteHistory<Provider: HistoryProviding, T: HistoryTransaction>(
        of provider: Provider, _ descriptor: HistoryDescriptor<T>
    ) throws -> Bool {
        guard let typed = descriptor as? HistoryDescriptor<Provider.HistoryType> else { return false }
        try provider.deleteHistory(typed)
        return true
    }

    // MARK: - Snapshots

    // Loops, not `map(Self.snapshot)`: a function reference would capture the store's
    // metatype, which need not be Sendable.

    private static func snapshots(_ storages: [ModelStorage]) throws -> [Store.Snapshot] {
        var snapshots: [Store.Snapshot] = []
        for storage in storages { snapshots.append(try snapshot(storage)) }
        return snapshots
    }

    private static func standard(_ snapshots: [Store.Snapshot]) throws -> [DefaultSnapshot] {
        var standards: [DefaultSnapshot] = []
        for snapshot in snapshots { standards.append(try standard(snapshot)) }
        return standards
    }

    private static func standard(_ snapshots: [PersistentIdentifier: Store.Snapshot]) throws
        -> [PersistentIdentifier: DefaultSnapshot]
    {
        var standards: [PersistentIdentifier: DefaultSnapshot] = [:]
        for (identifier, snapshot) in snapshots { standards[identifier] = try standard(snapshot) }
        return standards
    }

    /// The store's snapshot of a model: Cairn's own, checked (`DefaultSnapshot(of:)` throws for
    /// a value that cannot be stored), or the store's type made from the model's backing data.
    private static func snapshot(_ storage: ModelStorage) throws -> Store.Snapshot {
        let standard = try DefaultSnapshot(of: storage)
        if let snapshot = standard as? Store.Snapshot { return snapshot }
        guard let model = storage.owner else {
            throw ModelError(
                .storeFailure, entityName: storage.entity.name,
                message: "The model \(storage.identifier) is gone; its snapshot cannot be made")
        }
        var related: [PersistentIdentifier: any BackingData] = [:]
        return Store.Snapshot(from: backingData(of: model), relatedBackingDatas: &related)
    }

    /// A store's snapshot as a ``DefaultSnapshot``: itself, or through its `Codable` form, which
    /// must use ``DataStoreSnapshotCodingKey``'s keys as `DefaultSnapshot`'s does.
    private static func standard(_ snapshot: Store.Snapshot) throws -> DefaultSnapshot {
        if let standard = snapshot as? DefaultSnapshot { return standard }
        do {
            return try JSONDecoder().decode(DefaultSnapshot.self, from: JSONEncoder().encode(snapshot))
        } catch {
            throw ModelError(
                .valueDecodingFailed, entityName: snapshot.persistentIdentifier.entityName,
                message: "A \(Store.Snapshot.self) of the store \(Store.self) cannot be read as a model's values: its "
                    + "Codable form must be an object keyed by DataStoreSnapshotCodingKey, as DefaultSnapshot's is (\(error))")
        }
    }
}

/// Opens the store a custom configuration describes, for a container.
func openDataStore<Configuration: DataStoreConfiguration>(
    _ configuration: Configuration, entityNames: Set<String>, migrationPlan: (any SchemaMigrationPlan.Type)?
) throws -> any OpenDataStore {
    let store = try Configuration.Store(configuration, migrationPlan: migrationPlan)
    return LockedDataStore(store, name: configuration.name, entityNames: entityNames)
}

/// A model's backing data, whatever its type.
func backingData<M: PersistentModel>(of model: M) -> any BackingData { model.persistentBackingData }
