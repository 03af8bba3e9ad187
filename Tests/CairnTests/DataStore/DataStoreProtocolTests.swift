import Cairn
import Foundation
import Testing

/// What a ``MemoryDataStore`` was asked, and what it holds: shared with the test through the
/// configuration, as the container keeps the store to itself.
final class DataStoreLog: @unchecked Sendable {
    // @unchecked Sendable: every field is only touched while holding `lock`.
    private let lock = NSLock()
    private var storedEvents: [String] = []
    private var storedSnapshots: [PersistentIdentifier: DefaultSnapshot] = [:]
    private var storedHistory: [MemoryTransaction] = []
    private var lastKey = 0
    /// When set, the store keeps its saved values and hands them back for updated models.
    let rejectsUpdates: Bool

    init(rejectsUpdates: Bool = false) { self.rejectsUpdates = rejectsUpdates }

    var events: [String] { lock.withLock { storedEvents } }
    func record(_ event: String) { lock.withLock { storedEvents.append(event) } }
    var snapshots: [PersistentIdentifier: DefaultSnapshot] {
        get { lock.withLock { storedSnapshots } }
        set { lock.withLock { storedSnapshots = newValue } }
    }
    /// A key no model had before (keys are never reused, as SQLite's AUTOINCREMENT).
    func nextKey() -> Int {
        lock.withLock {
            lastKey += 1
            return lastKey
        }
    }
    var history: [MemoryTransaction] {
        get { lock.withLock { storedHistory } }
        set { lock.withLock { storedHistory = newValue } }
    }
}

/// One save to a ``MemoryDataStore``.
struct MemoryTransaction: HistoryTransaction {
    struct Token: Comparable, Hashable, Identifiable, Sendable {
        let id: Int
        static func < (lhs: Token, rhs: Token) -> Bool { lhs.id < rhs.id }
    }

    let transactionIdentifier: Int
    let author: String?
    let storeIdentifier: String
    let timestamp: Date
    var changes: [HistoryChange] { [] }
    var token: Token { Token(id: transactionIdentifier) }
    var id: Int { transactionIdentifier }
}

struct MemoryStoreConfiguration: DataStoreConfiguration {
    typealias Store = MemoryDataStore
    var name: String
    var schema: Schema?
    let log: DataStoreLog

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// A store in memory with integer keys, which records the calls it gets.
final class MemoryDataStore: DataStore {
    typealias Configuration = MemoryStoreConfiguration
    typealias Snapshot = DefaultSnapshot

    let configuration: MemoryStoreConfiguration
    let schema: Schema
    var identifier: String { configuration.name }
    private var log: DataStoreLog { configuration.log }

    init(_ configuration: MemoryStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        schema = configuration.schema ?? Schema([])
    }

    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        log.record("fetch")
        if request.descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
        if !request.descriptor.sortBy.isEmpty { throw DataStoreError.preferInMemorySort }
        let entityName = Schema.entityName(for: T.self)
        let fetched = log.snapshots.values.filter { $0.persistentIdentifier.entityName == entityName }
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: fetched.sorted { $0.persistentIdentifier < $1.persistentIdentifier })
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        log.record("save \(request.inserted.count)/\(request.updated.count)/\(request.deleted.count)")
        var snapshots = log.snapshots
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        var reregister: [PersistentIdentifier: DefaultSnapshot] = [:]
        for snapshot in request.inserted {
            let key = log.nextKey()
            let permanent = try PersistentIdentifier.identifier(
                for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: key)
            remapped[snapshot.persistentIdentifier] = permanent
            snapshots[permanent] = snapshot.copy(persistentIdentifier: permanent)
        }
        for snapshot in request.updated {
            if log.rejectsUpdates, let kept = snapshots[snapshot.persistentIdentifier] {
                reregister[snapshot.persistentIdentifier] = kept
            } else {
                snapshots[snapshot.persistentIdentifier] = snapshot
            }
        }
        for snapshot in request.deleted { snapshots[snapshot.persistentIdentifier] = nil }
        log.snapshots = snapshots
        log.history.append(MemoryTransaction(
            transactionIdentifier: log.history.count + 1, author: request.editingState.author, storeIdentifier: identifier,
            timestamp: .now))
        return DataStoreSaveChangesResult(for: identifier, remappedIdentifiers: remapped, snapshotsToReregister: reregister)
    }

    func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: DefaultSnapshot]
    {
        log.record("cached")
        let snapshots = log.snapshots
        return Dictionary(uniqueKeysWithValues: persistentIdentifiers.compactMap { id in snapshots[id].map { (id, $0) } })
    }

    func initializeState(for editingState: EditingState) { log.record("initialize \(editingState.id)") }
    func invalidateState(for editingState: EditingState) { log.record("invalidate \(editingState.id)") }
}

extension MemoryDataStore: HistoryProviding {
    func fetchHistory(_ descriptor: HistoryDescriptor<MemoryTransaction>) throws -> [MemoryTransaction] {
        try log.history.filter { try descriptor.predicate?.evaluate($0) ?? true }
    }

    func deleteHistory(_ descriptor: HistoryDescriptor<MemoryTransaction>) throws {
        log.history = try log.history.filter { try !(descriptor.predicate?.evaluate($0) ?? true) }
    }
}

@Suite("Custom data store protocol")
struct DataStoreProtocolTests {
    func container(_ log: DataStoreLog) throws -> ModelContainer {
        try ModelContainer(for: Waypoint.self, Journey.self, configurations: MemoryStoreConfiguration(name: "memory", log: log))
    }

    @Test func storesHearOfEachContextOnceAndWhenItGoes() throws {
        let log = DataStoreLog()
        let container = try container(log)
        var id: UUID?
        do {
            let context = ModelContext(container)
            _ = try context.fetch(FetchDescriptor<Waypoint>())
            _ = try context.fetchCount(FetchDescriptor<Waypoint>())
            id = context.editingState.id
        }
        let contextID = try #require(id)
        #expect(log.events.filter { $0.hasPrefix("initialize") } == ["initialize \(contextID)"])
        #expect(log.events.last == "invalidate \(contextID)")
    }

    @Test func integerKeysOfACustomStoreNameItsModels() throws {
        let log = DataStoreLog()
        let container = try container(log)
        let context = ModelContext(container)
        let waypoint = Waypoint(city: "Bergen", nights: 2)
        context.insert(waypoint)
        try context.save()
        #expect(log.events.last == "save 1/0/0")
        #expect(waypoint.persistentModelID.primaryKey == 1)
        #expect(waypoint.persistentModelID.storeIdentifier == "memory")

        // Another context finds it by identifier in the store's cache, without a fetch.
        let other = ModelContext(container)
        let before = log.events.count
        let found = other.model(for: waypoint.persistentModelID) as? Waypoint
        #expect(found?.city == "Bergen")
        #expect(found !== waypoint)
        #expect(Array(log.events.dropFirst(before)).filter { $0 == "fetch" }.isEmpty)
    }

    @Test func snapshotsToReregisterReplaceTheModelsValues() throws {
        let log = DataStoreLog(rejectsUpdates: true)
        let context = ModelContext(try container(log))
        let waypoint = Waypoint(city: "Bergen", nights: 2)
        context.insert(waypoint)
        try context.save()
        waypoint.nights = 5
        try context.save()
        #expect(log.events.last == "save 0/1/0")
        #expect(waypoint.nights == 2)
        #expect(!context.hasChanges)
    }

    @Test func aStoredValueOfTheWrongTypeIsAnErrorThatNamesTheProperty() throws {
        let log = DataStoreLog()
        let context = ModelContext(try container(log))
        context.insert(Waypoint(city: "Bergen", nights: 2))
        try context.save()
        // The store's copy now has text where the model has an Int, as a hand-edited file would.
        let (id, snapshot) = try #require(log.snapshots.first)
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(snapshot)) as? [String: Any])
        object["nights"] = "two"
        log.snapshots = [id: try JSONDecoder().decode(DefaultSnapshot.self, from: JSONSerialization.data(withJSONObject: object))]

        let fresh = ModelContext(try container(log))
        #expect {
            try fresh.fetch(FetchDescriptor<Waypoint>())
        } throws: { error in
            guard let error = error as? ModelError else { return false }
            return error.kind == .valueDecodingFailed && error.propertyName == "nights" && error.entityName == "Waypoint"
        }
    }

    @Test func historyComesFromAStoreThatProvidesIt() throws {
        let log = DataStoreLog()
        let context = ModelContext(try container(log))
        context.author = "importer"
        context.insert(Waypoint(city: "Bergen", nights: 2))
        try context.save()
        context.insert(Waypoint(city: "Oslo", nights: 1))
        try context.save()

        let history = try context.fetchHistory(HistoryDescriptor<MemoryTransaction>())
        #expect(history.map(\.transactionIdentifier) == [1, 2])
        #expect(history.allSatisfy { $0.author == "importer" && $0.storeIdentifier == "memory" })
        try context.deleteHistory(HistoryDescriptor<MemoryTransaction>(predicate: #Predicate { $0.transactionIdentifier < 2 }))
        #expect(try context.fetchHistory(HistoryDescriptor<MemoryTransaction>()).map(\.transactionIdentifier) == [2])

        // A transaction type no store keeps.
        #expect(throws: SwiftDataError.invalidTransactionFetchRequest) {
            try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        }
    }
}
