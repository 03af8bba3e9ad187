import Cairn
import Foundation
import Testing

struct BatchingStoreConfiguration: DataStoreConfiguration {
    typealias Store = BatchingMemoryStore
    var name: String
    var schema: Schema?
    let log: DataStoreLog

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// ``MemoryDataStore`` that also deletes in batches. It understands one predicate, as a store
/// translating predicates to its own queries would: "fewer than 3 nights" (the tests pass
/// `#Predicate<Waypoint> { $0.nights < 3 }`); without a predicate it deletes every model of
/// the entity.
final class BatchingMemoryStore: DataStore, DataStoreBatching {
    typealias Configuration = BatchingStoreConfiguration
    typealias Snapshot = DefaultSnapshot

    let configuration: BatchingStoreConfiguration
    let schema: Schema
    var identifier: String { configuration.name }
    private let inner: MemoryDataStore

    init(_ configuration: BatchingStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        inner = try MemoryDataStore(
            MemoryStoreConfiguration(name: configuration.name, schema: configuration.schema, log: configuration.log),
            migrationPlan: migrationPlan)
        schema = inner.schema
    }

    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        try inner.fetch(request)
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        try inner.save(request)
    }

    func delete<T: PersistentModel>(_ request: DataStoreBatchDeleteRequest<T>) throws {
        let entityName = Schema.entityName(for: T.self)
        let log = configuration.log
        log.record("batch delete \(entityName) predicate: \(request.predicate != nil) subclasses: \(request.includeSubclasses)")
        log.snapshots = try log.snapshots.filter { _, snapshot in
            guard snapshot.persistentIdentifier.entityName == entityName else { return true }
            guard request.predicate != nil else { return false }
            return try Self.nights(of: snapshot) >= 3
        }
    }

    private static func nights(of snapshot: DefaultSnapshot) throws -> Int {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(snapshot)) as? [String: Any]
        return object?["nights"] as? Int ?? 0
    }
}

@Suite("Custom data store: batch deletes")
struct BatchDeleteTests {
    func context(_ log: DataStoreLog) throws -> ModelContext {
        ModelContext(try ModelContainer(
            for: Waypoint.self, Journey.self, configurations: BatchingStoreConfiguration(name: "batching", log: log)))
    }

    func seed(_ context: ModelContext) throws -> [Waypoint] {
        let waypoints = [("Bergen", 2), ("Oslo", 4), ("Tromsø", 1)].map { Waypoint(city: $0.0, nights: $0.1) }
        for waypoint in waypoints { context.insert(waypoint) }
        try context.save()
        return waypoints
    }

    @Test func theStoreIsAskedOnceAndDeletesAtOnce() throws {
        let log = DataStoreLog()
        let context = try context(log)
        _ = try seed(context)
        let before = log.events.count

        try context.delete(model: Waypoint.self, where: #Predicate { $0.nights < 3 })

        // One request, no fetch of the models, nothing left for save() to do.
        #expect(Array(log.events.dropFirst(before)) == ["batch delete Waypoint predicate: true subclasses: true"])
        #expect(!context.hasChanges)
        let other = ModelContext(context.container)
        #expect(try other.fetch(FetchDescriptor<Waypoint>()).map(\.city) == ["Oslo"])
    }

    @Test func theModelsTheContextHoldsThatMatchAreDeletedWithThem() throws {
        let log = DataStoreLog()
        let context = try context(log)
        let saved = try seed(context)
        let unsaved = Waypoint(city: "Bodø", nights: 1)
        let unsavedKept = Waypoint(city: "Alta", nights: 6)
        context.insert(unsaved)
        context.insert(unsavedKept)

        try context.delete(model: Waypoint.self, where: #Predicate { $0.nights < 3 }, includeSubclasses: false)

        #expect(log.events.contains("batch delete Waypoint predicate: true subclasses: false"))
        #expect(saved.map(\.isDeleted) == [true, false, true])
        #expect(context.registeredModel(for: saved[0].persistentModelID) as Waypoint? == nil)
        #expect(context.registeredModel(for: saved[1].persistentModelID) as Waypoint? === saved[1])
        // The unsaved model that matched is discarded; the other one is still to be inserted.
        #expect(context.insertedModelsArray.compactMap { $0 as? Waypoint }.map(\.city) == ["Alta"])
        #expect(context.deletedModelsArray.isEmpty)
        try context.save()
        #expect(log.events.last == "save 1/0/0")
        let fresh = ModelContext(context.container)
        #expect(try fresh.fetch(FetchDescriptor<Waypoint>(sortBy: [SortDescriptor(\.city)])).map(\.city) == ["Alta", "Oslo"])
    }

    @Test func withoutAPredicateEveryModelOfTheTypeGoes() throws {
        let log = DataStoreLog()
        let context = try context(log)
        _ = try seed(context)
        context.insert(Journey(name: "North", startDate: .now, budget: 100))
        try context.save()

        try context.delete(model: Waypoint.self)

        #expect(log.events.contains("batch delete Waypoint predicate: false subclasses: true"))
        #expect(try context.fetchCount(FetchDescriptor<Waypoint>()) == 0)
        #expect(try context.fetch(FetchDescriptor<Journey>()).map(\.name) == ["North"])
    }

    @Test func aStoreWithoutBatchingHasItsModelsFetchedAndDeletedAtTheSave() throws {
        let log = DataStoreLog()
        let context = ModelContext(try ModelContainer(
            for: Waypoint.self, Journey.self, configurations: MemoryStoreConfiguration(name: "memory", log: log)))
        _ = try seed(context)

        try context.delete(model: Waypoint.self, where: #Predicate { $0.nights < 3 })

        #expect(!log.events.contains { $0.hasPrefix("batch") })
        #expect(context.deletedModelsArray.count == 2)
        try context.save()
        #expect(log.events.last == "save 0/0/2")
    }
}

@MainActor
@Suite("Custom data store: batch deletes and live results")
struct BatchDeleteLiveTests {
    @Test func aResultsObserverRefetchesAfterABatchDelete() async throws {
        let log = DataStoreLog()
        let container = try ModelContainer(
            for: Waypoint.self, Journey.self, configurations: BatchingStoreConfiguration(name: "batching", log: log))
        let context = ModelContext(container)
        for (city, nights) in [("Bergen", 2), ("Oslo", 4)] { context.insert(Waypoint(city: city, nights: nights)) }
        try context.save()
        let observer = ResultsObserver(
            fetchDescriptor: FetchDescriptor<Waypoint>(sortBy: [SortDescriptor(\.city)]), modelContainer: container)
        #expect(observer.results.map(\.city) == ["Bergen", "Oslo"])
        let fired = try await changeFires(of: { _ = observer.results }) {
            try ModelContext(container).delete(model: Waypoint.self, where: #Predicate { $0.nights < 3 })
        }
        #expect(fired)
        await drainMainActor()
        #expect(observer.results.map(\.city) == ["Oslo"])
    }
}
