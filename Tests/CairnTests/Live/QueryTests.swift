@testable import Cairn
import Observation
import Testing

@MainActor
@Suite("Query and ResultsObserver outside SwiftUI", .serialized)
struct QueryTests {
    func seeded(_ count: Int = 20) throws -> ModelContainer {
        let container = try memoryContainer(for: Workout.self, Memo.self)
        let context = ModelContext(container)
        for row in generatedSessions(count) {
            let workout = Workout(title: row.title, startedAt: row.start, minutes: row.minutes, calories: row.calories)
            workout.isFavorite = row.minutes > 90
            context.insert(workout)
        }
        try context.save()
        return container
    }

    @Test("the seed's query shapes give the filtered, sorted, limited results (default context from ModelEnvironment)")
    func shapes() throws {
        let container = try seeded()
        ModelEnvironment.modelContainer = container
        defer { ModelEnvironment.modelContainer = nil }
        let shapes = QueryShapes()
        let all = try ModelContext(container).fetch(FetchDescriptor<Workout>())
        #expect(shapes.all.count == 20)
        #expect(shapes.long.map(\.title) == all.filter { $0.minutes >= 30 }.sorted { $0.startedAt > $1.startedAt }.map(\.title))
        #expect(shapes.favorites.map(\.title).sorted() == all.filter(\.isFavorite).map(\.title).sorted())
        #expect(shapes.recent.count == 10)
        #expect(shapes.recent.first?.startedAt == all.map(\.startedAt).max())
        #expect(shapes.fetchErrorOfAll == nil)
        #expect(shapes.all.first?.modelContext === container.mainContext)
    }

    @Test("the runtime filter and the user-chosen sort key", arguments: WorkoutSortKey.allCases)
    func runtimeQueries(key: WorkoutSortKey) throws {
        let container = try seeded()
        ModelEnvironment.modelContainer = container
        defer { ModelEnvironment.modelContainer = nil }
        #expect(FilteredWorkouts(text: "Workout 1", favoritesOnly: false).workouts.count == 11)  // 1, 10…19
        let favorites = FilteredWorkouts(text: "", favoritesOnly: true).workouts
        #expect(!favorites.isEmpty && favorites.allSatisfy { $0.isFavorite })
        let sorted = SortedWorkouts(key: key, order: .forward).workouts
        switch key {
        case .date: #expect(sorted.map(\.startedAt) == sorted.map(\.startedAt).sorted())
        case .duration: #expect(sorted.map(\.minutes) == sorted.map(\.minutes).sorted())
        case .title: #expect(sorted.map(\.title) == sorted.map(\.title).sorted())
        }
    }

    @Test("a save on another actor updates the query, and withObservationTracking sees it")
    func updatesFromActor() async throws {
        let container = try seeded(5)
        let query = Query<Workout, [Workout]>(sort: \.title, modelContext: container.mainContext)
        #expect(query.wrappedValue.count == 5)
        let store = WorkoutStore(modelContainer: container)
        let fired = try await changeFires(of: { _ = query.wrappedValue }) {
            try await store.importSessions(generatedSessions(3)) { _ in }
        }
        #expect(fired)
        await drainMainActor()
        #expect(query.wrappedValue.count == 8)
    }

    @Test("a commit to an unrelated table does not fetch again; a related one does")
    func unrelatedTable() async throws {
        let container = try seeded(5)
        let query = Query<Workout, [Workout]>(modelContext: container.mainContext)
        _ = query.wrappedValue
        let fetches = query.live.fetchCount
        let other = ModelContext(container)
        let firedForMemo = await changeFires(limit: 300, of: { _ = query.wrappedValue }) {
            other.insert(Memo(text: "unrelated"))
            try? other.save()
        }
        #expect(!firedForMemo)
        #expect(query.live.fetchCount == fetches)
        let firedForWorkout = await changeFires(of: { _ = query.wrappedValue }) {
            other.insert(Workout(title: "New", startedAt: .now, minutes: 10, calories: 50))
            try? other.save()
        }
        #expect(firedForWorkout)
        #expect(query.live.fetchCount == fetches + 1)
        #expect(query.wrappedValue.count == 6)
    }

    @Test("a raw SQL write through the container updates the query and refreshes held models")
    func rawWrite() async throws {
        let container = try seeded(5)
        let query = Query<Workout, [Workout]>(sort: \.title, modelContext: container.mainContext)
        let first = try #require(query.wrappedValue.first)
        let fired = try await changeFires(of: { _ = query.wrappedValue }) {
            try container.write(for: Workout.self) { db in
                try db.execute(sql: #"UPDATE "Workout" SET "minutes" = ? WHERE "id" = ?"#,
                               arguments: [999, first.persistentModelID.primaryKey ?? 0])
            }
        }
        #expect(fired)
        await drainMainActor()
        #expect(first.minutes == 999)
    }

    @Test("a failing refetch sets fetchError and keeps the last good results; a good one clears it")
    func failingRefetch() async throws {
        let container = try seeded(4)
        let query = Query<Workout, [Workout]>(modelContext: container.mainContext)
        #expect(query.wrappedValue.count == 4)
        let fired = try await changeFires(of: { _ = query.fetchError }) {
            try container.write(for: Workout.self) { db in
                try db.execute(sql: #"ALTER TABLE "Workout" RENAME TO "Gone""#)
            }
        }
        #expect(fired)
        await drainMainActor()
        #expect(query.fetchError != nil)
        #expect(query.wrappedValue.count == 4)
        try container.write(for: Workout.self) { db in try db.execute(sql: #"ALTER TABLE "Gone" RENAME TO "Workout""#) }
        await drainMainActor()
        query.update()
        #expect(query.fetchError == nil)
        #expect(query.wrappedValue.count == 4)
    }

    @Test("a query without any context reports why instead of failing")
    func noContext() {
        ModelEnvironment.modelContainer = nil
        let query = Query<Workout, [Workout]>()
        #expect(query.wrappedValue.isEmpty)
        #expect(query.fetchError is QueryContextError)
        #expect("\(query.fetchError.map { "\($0)" } ?? "")".contains("ModelEnvironment.modelContainer"))
    }

    @Test("ResultsObserver: results, sections, index paths, and updates from other contexts")
    func resultsObserver() async throws {
        let container = try seeded(6)
        let observer = ResultsObserver(
            fetchDescriptor: FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.title)]),
            sectionBy: \Workout.isFavoriteLabel, modelContainer: container)
        #expect(observer.results.count == 6)
        let groups = try #require(observer.sections)
        #expect(groups.map(\.elements.count).reduce(0, +) == 6)
        #expect(Set(groups.sectionTitles).isSubset(of: ["Favorites", "Others"]))
        for section in groups { #expect(section.elements.allSatisfy { $0.isFavoriteLabel == section.title }) }
        let element = try #require(observer.results.last)
        let path = try #require(observer.indexPath(for: element))
        #expect(observer.element(at: path) === element)

        let fired = try await changeFires(of: { _ = observer.results }) {
            let other = ModelContext(container)
            other.delete(try #require(other.fetch(FetchDescriptor<Workout>()).first))
            try other.save()
        }
        #expect(fired)
        await drainMainActor()
        #expect(observer.results.count == 5)
        #expect(!observer.results.contains { $0.isDeleted })

        observer.fetchDescriptor.predicate = #Predicate { $0.minutes > 1_000 }
        #expect(observer.results.isEmpty)
    }
}

extension Workout {
    var isFavoriteLabel: String { isFavorite ? "Favorites" : "Others" }
}
