import Cairn
import Foundation

// A custom store written as an app writes one against SwiftData's API: the whole file is read
// for every fetch and written for every save, it leaves filtering and sorting to the context,
// and it gives inserted models UUID keys.

struct JourneyStoreConfiguration: DataStoreConfiguration {
    typealias Store = JourneyJSONStore

    var name: String
    var schema: Schema?
    var fileURL: URL

    init(name: String, schema: Schema? = nil, fileURL: URL) {
        self.name = name
        self.schema = schema
        self.fileURL = fileURL
    }

    func validate() throws {
        guard fileURL.isFileURL else { throw CocoaError(.fileWriteUnsupportedScheme) }
    }
}

final class JourneyJSONStore: DataStore {
    typealias Configuration = JourneyStoreConfiguration
    typealias Snapshot = DefaultSnapshot

    let configuration: JourneyStoreConfiguration
    let identifier: String
    let schema: Schema

    init(_ configuration: JourneyStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        guard let schema = configuration.schema else { throw CocoaError(.coderValueNotFound) }
        self.configuration = configuration
        self.schema = schema
        identifier = configuration.fileURL.lastPathComponent
    }

    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        if request.descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
        if !request.descriptor.sortBy.isEmpty { throw DataStoreError.preferInMemorySort }
        let all = try read()
        let entityName = Schema.entityName(for: T.self)
        let fetched = all.values.filter { $0.persistentIdentifier.entityName == entityName }
            .sorted { $0.persistentIdentifier < $1.persistentIdentifier }
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: fetched, relatedSnapshots: all)
    }

    func fetchCount<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> Int {
        if request.descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
        let entityName = Schema.entityName(for: T.self)
        return try read().values.count { $0.persistentIdentifier.entityName == entityName }
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        var snapshots = try read()
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        for snapshot in request.inserted {
            let permanent = try PersistentIdentifier.identifier(
                for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: UUID())
            remapped[snapshot.persistentIdentifier] = permanent
            snapshots[permanent] = snapshot.copy(persistentIdentifier: permanent)
        }
        for snapshot in request.updated { snapshots[snapshot.persistentIdentifier] = snapshot }
        for snapshot in request.deleted { snapshots[snapshot.persistentIdentifier] = nil }
        // References between models inserted together still name their temporary identifiers.
        snapshots = snapshots.mapValues { $0.copy(persistentIdentifier: $0.persistentIdentifier, remappedIdentifiers: remapped) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(Array(snapshots.values)).write(to: configuration.fileURL)
        return DataStoreSaveChangesResult(for: identifier, remappedIdentifiers: remapped)
    }

    func erase() throws {
        try? FileManager.default.removeItem(at: configuration.fileURL)
    }

    private func read() throws -> [PersistentIdentifier: DefaultSnapshot] {
        guard FileManager.default.fileExists(atPath: configuration.fileURL.path) else { return [:] }
        let snapshots = try JSONDecoder().decode([DefaultSnapshot].self, from: Data(contentsOf: configuration.fileURL))
        return Dictionary(snapshots.map { ($0.persistentIdentifier, $0) }, uniquingKeysWith: { _, last in last })
    }
}

@Model
final class Journey {
    var name: String
    var startDate: Date
    var budget: Double
    var photo: Data?
    var tags: [String] = []
    @Relationship(deleteRule: .cascade, inverse: \Waypoint.journey) var waypoints: [Waypoint] = []

    init(name: String, startDate: Date, budget: Double, photo: Data? = nil) {
        self.name = name
        self.startDate = startDate
        self.budget = budget
        self.photo = photo
    }
}

@Model
final class Waypoint {
    var city: String
    var nights: Int
    var journey: Journey?

    init(city: String, nights: Int) {
        self.city = city
        self.nights = nights
    }
}

/// A JSON file in a temporary folder, and containers on it.
struct JourneyFile {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-json-\(UUID().uuidString)")
    var url: URL { folder.appendingPathComponent("journeys.json") }

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func container() throws -> ModelContainer {
        try ModelContainer(
            for: Journey.self, Waypoint.self, configurations: JourneyStoreConfiguration(name: "Journeys", fileURL: url))
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}
