@testable import Cairn
import CairnTestSupport
import Foundation
import Testing

/// Saves made through another container on the same file (or another process) reach this
/// container's live queries and the models its contexts hold, by the store's check for other
/// connections' commits.
@MainActor
@Suite struct OthersCommitsQueryTests {
    func container(_ store: TemporaryStore, polling interval: Duration?) throws -> ModelContainer {
        var configuration = ModelConfiguration(url: store.url)
        configuration.othersCommitsPollingInterval = interval
        return try ModelContainer(for: Schema([Workout.self]), configurations: [configuration])
    }

    func workout(_ title: String, minutes: Int) -> Workout {
        Workout(title: title, startedAt: Date(timeIntervalSinceReferenceDate: 0), minutes: minutes, calories: 0)
    }

    @Test func anotherContainersSaveReachesQueriesAndHeldModels() async throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let mine = try container(store, polling: .milliseconds(20))
        mine.mainContext.insert(workout("A", minutes: 10))
        mine.mainContext.insert(workout("B", minutes: 20))
        try mine.mainContext.save()
        let query = Query<Workout, [Workout]>(sort: \.title, modelContext: mine.mainContext)
        let held = try #require(query.wrappedValue.first)

        let other = try container(store, polling: nil)
        let otherContext = ModelContext(other)
        otherContext.insert(workout("C", minutes: 30))
        let a = try #require(otherContext.fetch(FetchDescriptor<Workout>(predicate: #Predicate { $0.title == "A" })).first)
        a.minutes = 99
        try otherContext.save()

        try await pollUntil { query.wrappedValue.count == 3 }
        #expect(query.wrappedValue.map(\.title) == ["A", "B", "C"])
        #expect(held.minutes == 99)  // the model the query already held, refreshed
        #expect(query.wrappedValue.first === held)
    }

    @Test func withTheCheckOffAnotherContainersSaveIsSeenOnlyWhenAsked() async throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let mine = try container(store, polling: nil)
        mine.mainContext.insert(workout("A", minutes: 10))
        try mine.mainContext.save()
        let query = Query<Workout, [Workout]>(sort: \.title, modelContext: mine.mainContext)
        #expect(query.wrappedValue.count == 1)
        let otherContext = ModelContext(try container(store, polling: nil))
        otherContext.insert(workout("B", minutes: 20))
        try otherContext.save()
        try await Task.sleep(for: .milliseconds(200))
        #expect(query.wrappedValue.count == 1)
        query.update()
        #expect(query.wrappedValue.count == 2)
    }

    @Test func aContextWithoutLiveResultsLooksWhenItFetchesAndStartsNoTimer() async throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let mine = try container(store, polling: .milliseconds(20))
        let context = ModelContext(mine)
        context.insert(workout("A", minutes: 10))
        try context.save()
        let held = try #require(context.fetch(FetchDescriptor<Workout>()).first)

        let otherContext = ModelContext(try container(store, polling: nil))
        let a = try #require(otherContext.fetch(FetchDescriptor<Workout>()).first)
        a.minutes = 99
        otherContext.insert(workout("B", minutes: 20))
        try otherContext.save()

        // No timer: the next fetch after the interval looks, and refreshes what the context holds.
        try await Task.sleep(for: .milliseconds(40))
        #expect(try context.fetchCount(FetchDescriptor<Workout>()) == 2)
        #expect(held.minutes == 99)
        let workoutStore = try mine.store(for: "Workout")
        // Before, every file-backed container started a timer (and its threads) when it opened.
        #expect(!workoutStore.looksForOthersCommitsOnATimer)
        let query = Query<Workout, [Workout]>(sort: \.title, modelContext: mine.mainContext)
        #expect(query.wrappedValue.count == 2)
        #expect(workoutStore.looksForOthersCommitsOnATimer)
    }
}
