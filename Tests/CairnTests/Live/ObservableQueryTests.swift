@testable import Cairn
import Observation
import Testing

/// The spelling for an `@Observable` class: `@Query(…)` then `@ObservationIgnored` (see
/// QueryMacro.diagnoseObservation for why both, in this order). The context comes from
/// `ModelEnvironment`.
@MainActor @Observable
final class Feed {
    @Query(sort: \Workout.startedAt) @ObservationIgnored var workouts: [Workout]
    @Query(filter: #Predicate<Workout> { $0.isFavorite }, sort: \Workout.startedAt, order: .reverse)
    @ObservationIgnored var favorites: [Workout]
    var searchText = ""

    /// How many fetches the workouts query ran (the stored query is private to the class).
    var workoutFetches: Int { _workouts.live.fetchCount }
}

/// The same with the context given in `init` (the seed's "changing the query at runtime"
/// shape: `_name = Query(…)`).
@MainActor @Observable
final class SearchFeed {
    @Query @ObservationIgnored var matches: [Workout]

    init(text: String, modelContext: ModelContext) {
        _matches = Query(filter: #Predicate<Workout> { $0.title.contains(text) }, sort: \.startedAt,
                         modelContext: modelContext)
    }
}

@MainActor
@Suite("Query in an @Observable class")
struct ObservableQueryTests {
    /// A `Feed` bound to `container.mainContext` through `ModelEnvironment`. The context is
    /// looked up on the first read, which happens here before the environment is restored
    /// (other suites set it too; nothing suspends in between).
    func feed(in container: ModelContainer) -> Feed {
        let previous = ModelEnvironment.modelContainer
        ModelEnvironment.modelContainer = container
        defer { ModelEnvironment.modelContainer = previous }
        let feed = Feed()
        _ = feed.workouts
        _ = feed.favorites
        return feed
    }

    @Test("a save on another actor reaches feed.workouts, and withObservationTracking sees it")
    func saveOnActor() async throws {
        let container = try memoryContainer(for: Workout.self, Memo.self)
        let feed = feed(in: container)
        #expect(feed.workouts.isEmpty)
        let store = WorkoutStore(modelContainer: container)
        let fired = try await changeFires(of: { _ = feed.workouts }) {
            try await store.importSessions(generatedSessions(3)) { _ in }
        }
        #expect(fired)
        await drainMainActor()
        let rows = generatedSessions(3).sorted { $0.start < $1.start }
        #expect(feed.workouts.map(\.title) == rows.map(\.title))
        #expect(feed.workouts.allSatisfy { $0.modelContext === container.mainContext })
    }

    @Test("a save in another context fires the filtered query too")
    func saveInOtherContext() async throws {
        let container = try memoryContainer(for: Workout.self, Memo.self)
        let feed = feed(in: container)
        let fired = try await changeFires(of: { _ = feed.favorites }) {
            let other = ModelContext(container)
            let favorite = Workout(title: "Long ride", startedAt: .now, minutes: 120, calories: 900)
            favorite.isFavorite = true
            other.insert(favorite)
            other.insert(Workout(title: "Walk", startedAt: .now, minutes: 20, calories: 80))
            try other.save()
        }
        #expect(fired)
        await drainMainActor()
        #expect(feed.favorites.map(\.title) == ["Long ride"])
        #expect(feed.workouts.count == 2)
    }

    @Test("a commit to an unrelated table does not fire feed.workouts nor fetch again")
    func unrelatedTable() async throws {
        let container = try memoryContainer(for: Workout.self, Memo.self)
        let feed = feed(in: container)
        let fetches = feed.workoutFetches
        let fired = try await changeFires(limit: 300, of: { _ = feed.workouts }) {
            let other = ModelContext(container)
            other.insert(Memo(text: "not a workout"))
            try other.save()
        }
        #expect(!fired)
        #expect(feed.workoutFetches == fetches)
    }

    @Test("the class's own tracked properties still publish; the query does not fire for them")
    func ownProperties() async throws {
        let container = try memoryContainer(for: Workout.self, Memo.self)
        let feed = feed(in: container)
        let firedSearch = await changeFires(of: { _ = feed.searchText }) { feed.searchText = "row" }
        #expect(firedSearch)
        let firedWorkouts = await changeFires(limit: 300, of: { _ = feed.workouts }) { feed.searchText = "run" }
        #expect(!firedWorkouts)
    }

    @Test("a query set in init with an explicit context follows saves from an actor")
    func explicitContext() async throws {
        let container = try memoryContainer(for: Workout.self, Memo.self)
        let search = SearchFeed(text: "Workout 1", modelContext: container.mainContext)
        #expect(search.matches.isEmpty)
        let store = WorkoutStore(modelContainer: container)
        let fired = try await changeFires(of: { _ = search.matches }) {
            try await store.importSessions(generatedSessions(12)) { _ in }
        }
        #expect(fired)
        await drainMainActor()
        #expect(Set(search.matches.map(\.title)) == ["Workout 1", "Workout 10", "Workout 11"])
    }

    @Test("the hand-written form (stored Query, computed property) is tracked as well")
    func handWritten() async throws {
        let container = try memoryContainer(for: Workout.self, Memo.self)
        let history = WorkoutHistory(modelContext: container.mainContext)
        #expect(history.workouts.isEmpty)
        let store = WorkoutStore(modelContainer: container)
        let fired = try await changeFires(of: { _ = history.workouts }) {
            try await store.importSessions(generatedSessions(2)) { _ in }
        }
        #expect(fired)
        await drainMainActor()
        #expect(history.workouts.map(\.title) == ["Workout 0", "Workout 1"])
    }
}
