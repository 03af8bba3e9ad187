import Foundation

/// A store of your own behind SwiftData's API: a file format, a web service, another database.
///
/// A ``ModelContext`` reads and writes the models of a custom store's entities through it:
/// `fetch`, `fetchCount`, `fetchIdentifiers` and `model(for:)` call ``fetch(_:)`` (or
/// ``fetchCount(_:)``, ``fetchIdentifiers(_:)``), and `save()` calls ``save(_:)`` with a
/// snapshot of every inserted, changed and deleted model.
///
/// ```swift
/// final class JSONStore: DataStore {
///     typealias Configuration = JSONStoreConfiguration
///     typealias Snapshot = DefaultSnapshot
///     // init(_:migrationPlan:), configuration, identifier, schema, fetch(_:), save(_:)
/// }
/// let container = try ModelContainer(for: Trip.self, configurations: JSONStoreConfiguration(name: "Trips", fileURL: url))
/// ```
///
/// A store that cannot filter or sort throws ``DataStoreError/preferInMemoryFilter`` or
/// ``DataStoreError/preferInMemorySort`` from `fetch`: the context asks again without the
/// predicate (or the sort), then filters, sorts and pages the models itself, with the same
/// answers as Foundation's `Predicate.evaluate` and `sorted(using:)`.
///
/// Cairn calls a store from one thread at a time (the container serializes the calls), so a
/// store need not be `Sendable`.
public protocol DataStore: AnyObject {
    /// The configuration type that opens this store.
    associatedtype Configuration: DataStoreConfiguration
    /// What the store reads and writes for each model.
    associatedtype Snapshot: DataStoreSnapshot

    /// Opens the store a configuration describes (the container fills in its `schema` when
    /// it was `nil`).
    init(_ configuration: Configuration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws

    /// The configuration the store was opened with.
    var configuration: Configuration { get }
    /// The store's identifier: the ``PersistentIdentifier/storeIdentifier`` of its models.
    var identifier: String { get }
    /// The models the store holds.
    var schema: Schema { get }

    /// The snapshots of the models a request describes.
    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, Snapshot>
    /// The number of models a request describes (by default, of what ``fetch(_:)`` returns).
    func fetchCount<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> Int
    /// The identifiers of the models a request describes (by default, of what ``fetch(_:)``
    /// returns).
    func fetchIdentifiers<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier]
    /// Writes inserted, changed and deleted models; returns the permanent identifiers given to
    /// the inserted ones (``DataStoreSaveChangesResult/remappedIdentifiers``).
    func save(_ request: DataStoreSaveChangesRequest<Snapshot>) throws -> DataStoreSaveChangesResult<Snapshot>
    /// Deletes everything the store holds (by default, nothing: a store that can, says how).
    func erase() throws
    /// Called before a context first uses the store.
    func initializeState(for editingState: EditingState)
    /// Called when a context that used the store goes away.
    func invalidateState(for editingState: EditingState)
    /// The snapshots the store has at hand for some identifiers, without reading storage (by
    /// default, none). The context asks before it fetches a model it knows only by identifier.
    func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: Snapshot]
}

extension DataStore {
    /// The number of snapshots ``fetch(_:)`` returns.
    public func fetchCount<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> Int {
        try fetch(request).fetchedSnapshots.count
    }

    /// The identifiers of the snapshots ``fetch(_:)`` returns.
    public func fetchIdentifiers<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier] {
        try fetch(request).fetchedSnapshots.map(\.persistentIdentifier)
    }

    /// Erases nothing: a store that can delete all it holds implements this.
    public func erase() throws {}

    /// Does nothing: a store that keeps state per context implements this.
    public func initializeState(for editingState: EditingState) {}

    /// Does nothing: a store that keeps state per context implements this.
    public func invalidateState(for editingState: EditingState) {}

    /// No snapshots: a store with a cache implements this.
    public func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: Snapshot]
    {
        [:]
    }
}

/// What opens a custom ``DataStore``: its name, its schema and whatever the store needs (a file's
/// URL, a server's address).
///
/// ```swift
/// final class JSONStoreConfiguration: DataStoreConfiguration {
///     typealias Store = JSONStore
///     var name: String
///     var schema: Schema?
///     var fileURL: URL
///     // init, ==, hash(into:)
/// }
/// ```
public protocol DataStoreConfiguration: Hashable {
    /// The store this configuration opens.
    associatedtype Store: DataStore where Self == Store.Configuration
    /// The configuration's name.
    var name: String { get }
    /// The models the store holds; `nil` for all of the container's schema (the container sets it).
    var schema: Schema? { get set }
    /// Checks the configuration before the store opens (by default, nothing to check).
    func validate() throws
}

extension DataStoreConfiguration {
    /// Accepts every configuration: one that can be wrong (a missing folder) implements this.
    public func validate() throws {}
}

/// A store that deletes many models at once, without fetching them.
public protocol DataStoreBatching: DataStore {
    /// Deletes the models of `T` that match the request's predicate (all of them when `nil`).
    func delete<T: PersistentModel>(_ request: DataStoreBatchDeleteRequest<T>) throws
}

/// A store that keeps the history of its changes: a context's `fetchHistory` and
/// `deleteHistory` of `HistoryType` go to it.
public protocol HistoryProviding<HistoryType> {
    /// The store's transactions.
    associatedtype HistoryType: HistoryTransaction
    /// The transactions a descriptor selects.
    func fetchHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws -> [HistoryType]
    /// Deletes the transactions a descriptor selects.
    func deleteHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws
    /// The store's transaction type.
    static var historyType: HistoryType.Type { get }
}

extension HistoryProviding {
    /// `HistoryType.self`.
    public static var historyType: HistoryType.Type { HistoryType.self }
}

/// Which models a ``DataStoreBatching`` store deletes.
public struct DataStoreBatchDeleteRequest<T: PersistentModel>: Sendable {
    /// The context asking.
    public let editingState: EditingState
    /// Whether models of `T`'s subclasses are deleted too.
    public let includeSubclasses: Bool
    /// The models to delete; `nil` for every model of `T`.
    public let predicate: Predicate<T>?

    init(editingState: EditingState, includeSubclasses: Bool, predicate: Predicate<T>?) {
        self.editingState = editingState
        self.includeSubclasses = includeSubclasses
        self.predicate = predicate
    }
}

/// Why a custom store did not answer a request itself.
public enum DataStoreError: Error, Hashable, Sendable {
    /// The request's predicate is not one the store accepts: the fetch fails with it.
    case invalidPredicate
    /// The store cannot filter: the context fetches without the predicate and filters in memory.
    case preferInMemoryFilter
    /// The store cannot sort: the context fetches without the sort and sorts in memory.
    case preferInMemorySort
    /// The store does not do what was asked.
    case unsupportedFeature
}

/// Which context is asking a store, and on whose behalf (``ModelContext/author``).
public struct EditingState: Hashable, Sendable, Identifiable {
    /// The context's identity, stable for its life.
    public let id: UUID
    /// The author of the context's saves.
    public var author: String?

    init(id: UUID, author: String?) {
        self.id = id
        self.author = author
    }
}

/// A fetch a context asks of a custom store.
public struct DataStoreFetchRequest<T: PersistentModel> {
    /// What to fetch: the predicate, sort, limit and offset.
    public let descriptor: FetchDescriptor<T>
    /// The context asking.
    public let editingState: EditingState

    init(descriptor: FetchDescriptor<T>, editingState: EditingState) {
        self.descriptor = descriptor
        self.editingState = editingState
    }
}

/// What a custom store answers a fetch with.
public struct DataStoreFetchResult<ModelType: PersistentModel, SnapshotType: DataStoreSnapshot> {
    /// The request's descriptor.
    public let descriptor: FetchDescriptor<ModelType>
    /// The snapshots of the models fetched, in the order the context returns them.
    public let fetchedSnapshots: [SnapshotType]
    /// Snapshots of other models the fetched ones refer to, which the context uses rather than
    /// asking again when a relationship is read.
    public let relatedSnapshots: [PersistentIdentifier: SnapshotType]

    /// A result of `fetchedSnapshots`, and the `relatedSnapshots` of models they refer to.
    public init(
        descriptor: FetchDescriptor<ModelType>, fetchedSnapshots: [SnapshotType],
        relatedSnapshots: [PersistentIdentifier: SnapshotType] = [:]
    ) {
        self.descriptor = descriptor
        self.fetchedSnapshots = fetchedSnapshots
        self.relatedSnapshots = relatedSnapshots
    }
}

/// The changes of one save, as snapshots: inserted models still have their temporary
/// identifiers.
public struct DataStoreSaveChangesRequest<SnapshotType: DataStoreSnapshot>: Sendable {
    /// The context saving.
    public let editingState: EditingState
    /// New models, with temporary identifiers the store replaces (``DataStoreSaveChangesResult/remappedIdentifiers``).
    public let inserted: [SnapshotType]
    /// Changed models, every property included.
    public let updated: [SnapshotType]
    /// Deleted models.
    public let deleted: [SnapshotType]

    init(editingState: EditingState, inserted: [SnapshotType], updated: [SnapshotType], deleted: [SnapshotType]) {
        self.editingState = editingState
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }
}

/// What a custom store answers a save with.
public final class DataStoreSaveChangesResult<T: DataStoreSnapshot>: Sendable {
    /// The identifier of the store that saved.
    public let storeIdentifier: String
    /// The permanent identifier of each inserted model, by its temporary identifier.
    public let remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]
    /// Snapshots whose values the context takes for its models (values the store computed).
    public let snapshotsToReregister: [PersistentIdentifier: T]

    /// The result of a save to the store `storeIdentifier`.
    public init(
        for storeIdentifier: String, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:],
        snapshotsToReregister: [PersistentIdentifier: T] = [:]
    ) {
        self.storeIdentifier = storeIdentifier
        self.remappedIdentifiers = remappedIdentifiers
        self.snapshotsToReregister = snapshotsToReregister
    }
}
