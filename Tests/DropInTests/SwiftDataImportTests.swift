import Foundation
import SwiftData
import Testing

// Written as SwiftData code is: `import SwiftData`, qualified names, a migration plan with its
// stage in a static constant, a @ModelActor.

@Model
final class Trail {
    var name: String
    var kilometres: Double
    init(name: String, kilometres: Double) {
        self.name = name
        self.kilometres = kilometres
    }
}

enum TrailsV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trail.self] }
}

enum TrailsPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [TrailsV1.self] }
    static var stages: [MigrationStage] { [] }
    static let firstStage = MigrationStage.lightweight(fromVersion: TrailsV1.self, toVersion: TrailsV1.self)
}

@ModelActor
actor TrailCounter {
    func longTrails(over kilometres: Double) throws -> Int {
        try modelContext.fetchCount(FetchDescriptor<Trail>(predicate: #Predicate { $0.kilometres > kilometres }))
    }
}

@Suite("import SwiftData")
struct SwiftDataImportTests {
    @Test func codeWrittenForSwiftDataRuns() async throws {
        let schema = SwiftData.Schema([Trail.self])
        let configuration = SwiftData.ModelConfiguration(schema: schema, isStoredInMemoryOnly: true)
        let container = try SwiftData.ModelContainer(for: schema, configurations: [configuration])
        let context = ModelContext(container)
        context.insert(Trail(name: "Ridge", kilometres: 12.5))
        context.insert(Trail(name: "Lake", kilometres: 4))
        try context.save()
        let sorted = try context.fetch(FetchDescriptor<Trail>(sortBy: [SortDescriptor(\.kilometres, order: .reverse)]))
        #expect(sorted.map(\.name) == ["Ridge", "Lake"])
        #expect(try await TrailCounter(modelContainer: container).longTrails(over: 5) == 1)
        #expect(TrailsPlan.schemas.count == 1)
    }
}
