import Foundation
import SwiftData
import Testing

// The shape of Apple's "Create a custom data store with SwiftData" sample (WWDC24), minus
// SwiftUI: a configuration class, a store that keeps every snapshot in one JSON file and leaves
// filtering and sorting to the context, and a container opened with the configuration.

final class TripsStoreConfiguration: DataStoreConfiguration {
    typealias Store = TripsStore

    var name: String
    var schema: Schema?
    var fileURL: URL

    init(name: String, schema: Schema? = nil, fileURL: URL) {
        self.name = name
        self.schema = schema
        self.fileURL = fileURL
    }

    static func == (lhs: TripsStoreConfiguration, rhs: TripsStoreConfiguration) -> Bool {
        lhs.name == rhs.name
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(name)
    }
}

final class TripsStore: DataStore {
    typealias Configuration = TripsStoreConfiguration
    typealias Snapshot = DefaultSnapshot

    var configuration: TripsStoreConfiguration
    var name: String
    var schema: Schema
    var identifier: String

    init(_ configuration: TripsStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        name = configuration.name
        schema = configuration.schema ?? Schema([])
        identifier = configuration.fileURL.lastPathComponent
    }

    func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> where T: PersistentModel {
        if request.descriptor.predicate != nil {
            throw DataStoreError.preferInMemoryFilter
        } else if request.descriptor.sortBy.count > 0 {
            throw DataStoreError.preferInMemorySort
        }
        let snapshots = try read(entityName: String(describing: T.self))
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: Array(snapshots.values), relatedSnapshots: snapshots)
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        var remapped = [PersistentIdentifier: PersistentIdentifier]()
        var stored = try read()
        for snapshot in request.inserted {
            let permanent = try PersistentIdentifier.identifier(
                for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: UUID())
            stored[permanent] = snapshot.copy(persistentIdentifier: permanent)
            remapped[snapshot.persistentIdentifier] = permanent
        }
        for snapshot in request.updated { stored[snapshot.persistentIdentifier] = snapshot }
        for snapshot in request.deleted { stored[snapshot.persistentIdentifier] = nil }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(Array(stored.values)).write(to: configuration.fileURL)
        return DataStoreSaveChangesResult<DefaultSnapshot>(for: identifier, remappedIdentifiers: remapped)
    }

    func read(entityName: String? = nil) throws -> [PersistentIdentifier: DefaultSnapshot] {
        guard FileManager.default.fileExists(atPath: configuration.fileURL.path(percentEncoded: false)) else { return [:] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let snapshots = try decoder.decode([DefaultSnapshot].self, from: Data(contentsOf: configuration.fileURL))
        return snapshots.reduce(into: [:]) { result, snapshot in
            if entityName == nil || snapshot.persistentIdentifier.entityName == entityName {
                result[snapshot.persistentIdentifier] = snapshot
            }
        }
    }
}

@Model
final class Trip {
    var name: String
    var destination: String
    var startDate: Date

    init(name: String, destination: String, startDate: Date) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
    }
}

@Suite("import SwiftData: a custom data store")
struct CustomDataStoreImportTests {
    @Test func theSampleStoreRuns() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-trips-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fileURL = folder.appendingPathComponent("trips.json")
        let start = Date(timeIntervalSinceReferenceDate: 780_000_000)

        let container = try ModelContainer(
            for: Trip.self, configurations: TripsStoreConfiguration(name: "Trips", fileURL: fileURL))
        let context = ModelContext(container)
        context.insert(Trip(name: "Spring break", destination: "Lisbon", startDate: start + 86_400))
        context.insert(Trip(name: "Ski week", destination: "Zermatt", startDate: start))
        try context.save()

        let reopened = ModelContext(try ModelContainer(
            for: Trip.self, configurations: TripsStoreConfiguration(name: "Trips", fileURL: fileURL)))
        let trips = try reopened.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(trips.map(\.destination) == ["Zermatt", "Lisbon"])
        #expect(trips.first?.startDate == start)
        let lisbon = FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Lisbon" })
        #expect(try reopened.fetchCount(lisbon) == 1)
        #expect(trips.allSatisfy { $0.persistentModelID.storeIdentifier == "trips.json" })
    }
}
