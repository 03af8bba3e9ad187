import Cairn
import Testing

@Suite("@ModelActor and the seed's WorkoutStore")
struct ModelActorTests {
    @Test("importSessions saves every 500 rows and reports progress; counts and summaries match the data")
    func seedStore() async throws {
        try await Self.seedStoreFlow(on: try memoryContainer(for: Workout.self))
    }

    /// The seed's import, counts and summary on `container` (SQLite here, a server in
    /// `PostgresModelActorTests`).
    static func seedStoreFlow(on container: ModelContainer) async throws {
        let store = WorkoutStore(modelContainer: container)
        let rows = generatedSessions(1_234)
        let reports = ProgressLog()
        try await store.importSessions(rows) { reports.append($0) }
        #expect(reports.values == [500, 1_000, 1_234])

        let context = ModelContext(container)
        #expect(try context.fetchCount(FetchDescriptor<Workout>()) == 1_234)

        let start = rows[99].start
        let ids = try await store.idsOfLongWorkouts(since: start)
        let expected = rows.prefix(100).filter { $0.minutes >= 60 }.count
        #expect(ids.count == expected)
        #expect(ids.allSatisfy { !$0.isTemporary && $0.entityName == "Workout" })

        let summary = try await store.summary(from: start)
        #expect(summary.sessions == 100)
        #expect(summary.minutes == rows.prefix(100).reduce(0) { $0 + $1.minutes })
        #expect(summary.longest == rows.prefix(100).map(\.minutes).max())
        #expect(try await store.favoriteCount() == 0)
    }

    @MainActor
    @Test("identifiers from the actor resolve on the main context; a row deleted elsewhere resolves to nothing")
    func resolveOnMain() async throws {
        try await Self.resolveFlow(on: try memoryContainer(for: Workout.self))
    }

    /// The seed's `resolve(_:in:)` of the actor's identifiers on the main context.
    @MainActor
    static func resolveFlow(on container: ModelContainer) async throws {
        let store = WorkoutStore(modelContainer: container)
        try await store.importSessions(generatedSessions(10)) { _ in }
        let ids = try await store.idsOfLongWorkouts(since: .distantPast)
        let resolved = try resolve(ids, in: container.mainContext)
        #expect(resolved.map(\.persistentModelID) == ids)
        #expect(resolved.allSatisfy { $0.minutes >= 60 })

        // Delete one of them on another context: the main context forgets it.
        let other = ModelContext(container)
        let victim = try #require(other.fetch(FetchDescriptor<Workout>()).first { $0.persistentModelID == ids[0] })
        other.delete(victim)
        try other.save()
        let again = try resolve(ids, in: container.mainContext)
        #expect(again.map(\.persistentModelID) == Array(ids.dropFirst()))
        #expect(resolved[0].isDeleted)
    }

    @Test("the actor's subscript finds models by identifier, nil for a missing row")
    func subscriptByID() async throws {
        let container = try memoryContainer(for: Workout.self)
        let store = WorkoutStore(modelContainer: container)
        try await store.importSessions(generatedSessions(3)) { _ in }
        let ids = try await store.idsOfLongWorkouts(since: .distantPast)
        let title = await store.title(of: ids[0])
        #expect(title?.hasPrefix("Workout") == true)
        let missing = try PersistentIdentifier.identifier(for: "default", entityName: "Workout", primaryKey: 999)
        #expect(await store.title(of: missing) == nil)
    }

    @Test("the actor's context runs on its executor: isolated code sees one context")
    func executorOwnsContext() async throws {
        let container = try memoryContainer(for: Workout.self)
        let store = WorkoutStore(modelContainer: container)
        #expect(store.modelContainer === container)
        #expect(store.modelExecutor is DefaultSerialModelExecutor)
        #expect(await store.contextIsExecutors())
    }
}

extension WorkoutStore {
    func title(of id: PersistentIdentifier) -> String? {
        self[id, as: Workout.self]?.title
    }

    func contextIsExecutors() -> Bool {
        modelContext === modelExecutor.modelContext && modelContext.container === modelContainer
    }
}

/// Values reported from any thread, in order.
final class ProgressLog: @unchecked Sendable {
    // @unchecked Sendable: `storage` is only touched under `lock`.
    private let lock = NSLock()
    private var storage: [Int] = []
    func append(_ value: Int) { lock.withLock { storage.append(value) } }
    var values: [Int] { lock.withLock { storage } }
}
