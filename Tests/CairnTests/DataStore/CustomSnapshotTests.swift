import Cairn
import Foundation
import Testing

/// A store's own snapshot type: Cairn's snapshot of the model, and the revision the store gave it.
struct RevisedSnapshot: DataStoreSnapshot {
    var values: DefaultSnapshot
    var revision: Int

    init(from backingData: any BackingData, relatedBackingDatas: inout [PersistentIdentifier: any BackingData]) {
        values = DefaultSnapshot(from: backingData, relatedBackingDatas: &relatedBackingDatas)
        revision = 0
    }

    var persistentIdentifier: PersistentIdentifier { values.persistentIdentifier }

    func copy(persistentIdentifier: PersistentIdentifier, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]?)
        -> RevisedSnapshot
    {
        var copy = self
        copy.values = values.copy(persistentIdentifier: persistentIdentifier, remappedIdentifiers: remappedIdentifiers)
        return copy
    }

    // Encoded as DefaultSnapshot's keys plus one of its own, so the context can read it.
    private enum Extra: String, CodingKey { case revision = "_revision" }

    func encode(to encoder: any Encoder) throws {
        try values.encode(to: encoder)
        var container = encoder.container(keyedBy: Extra.self)
        try container.encode(revision, forKey: .revision)
    }

    init(from decoder: any Decoder) throws {
        values = try DefaultSnapshot(from: decoder)
        revision = try decoder.container(keyedBy: Extra.self).decode(Int.self, forKey: .revision)
    }
}

struct RevisedStoreConfiguration: DataStoreConfiguration {
    typealias Store = RevisedStore
    var name: String
    var schema: Schema?
    let log: DataStoreLog
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// Keeps `RevisedSnapshot`s in memory, counting each model's saves.
final class RevisedStore: DataStore {
    typealias Configuration = RevisedStoreConfiguration
    typealias Snapshot = RevisedSnapshot

    let configuration: RevisedStoreConfiguration
    let schema: Schema
    var identifier: String { configuration.name }
    private var stored: [PersistentIdentifier: RevisedSnapshot] = [:]

    init(_ configuration: RevisedStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        schema = configuration.schema ?? Schema([])
    }

    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, RevisedSnapshot> {
        if request.descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
        if !request.descriptor.sortBy.isEmpty { throw DataStoreError.preferInMemorySort }
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: Array(stored.values))
    }

    func save(_ request: DataStoreSaveChangesRequest<RevisedSnapshot>) throws -> DataStoreSaveChangesResult<RevisedSnapshot> {
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        for var snapshot in request.inserted {
            let id = try PersistentIdentifier.identifier(
                for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: "r\(stored.count + 1)")
            remapped[snapshot.persistentIdentifier] = id
            snapshot.revision = 1
            stored[id] = snapshot.copy(persistentIdentifier: id)
        }
        for var snapshot in request.updated {
            snapshot.revision = (stored[snapshot.persistentIdentifier]?.revision ?? 0) + 1
            stored[snapshot.persistentIdentifier] = snapshot
        }
        configuration.log.record(stored.values.map { "\($0.persistentIdentifier.description) r\($0.revision)" }.sorted().joined(separator: ","))
        return DataStoreSaveChangesResult(for: identifier, remappedIdentifiers: remapped)
    }
}

@Suite("Custom data store: a snapshot type of its own")
struct CustomSnapshotTests {
    @Test func aStoresOwnSnapshotsSaveAndFetch() throws {
        let log = DataStoreLog()
        let container = try ModelContainer(
            for: Waypoint.self, Journey.self, configurations: RevisedStoreConfiguration(name: "revised", log: log))
        let context = ModelContext(container)
        let waypoint = Waypoint(city: "Tromsø", nights: 3)
        context.insert(waypoint)
        try context.save()
        waypoint.nights = 4
        try context.save()
        #expect(log.events.last == "revised:Waypoint/r1 r2")

        let fetched = try ModelContext(container).fetch(FetchDescriptor<Waypoint>(predicate: #Predicate { $0.nights > 3 }))
        #expect(fetched.map(\.city) == ["Tromsø"])
        #expect(fetched.first?.nights == 4)
        #expect(fetched.first?.persistentModelID == waypoint.persistentModelID)
    }
}
