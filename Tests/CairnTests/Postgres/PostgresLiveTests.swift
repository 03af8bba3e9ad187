@testable import Cairn
import CairnTestSupport
import Foundation
import Testing

/// Saves through another container on the same server (as another process would make them)
/// reach this container's live queries and held models through `LISTEN`/`NOTIFY`.
@MainActor
@Suite("Live results on a PostgreSQL store", .enabled(if: PostgresTestSchema.serverURL != nil, PostgresTestSchema.skipMessage))
struct PostgresLiveTests {
    func container(_ url: String, polling interval: Duration?, triggers: Bool = true) throws -> ModelContainer {
        var configuration = ModelConfiguration(url: try #require(URL(string: url)))
        configuration.othersCommitsPollingInterval = interval
        configuration.tracksServerChangesWithTriggers = triggers
        return try ModelContainer(for: Schema([Workout.self]), configurations: [configuration])
    }

    func workout(_ title: String, minutes: Int) -> Workout {
        Workout(title: title, startedAt: Date(timeIntervalSinceReferenceDate: 0), minutes: minutes, calories: 0)
    }

    @Test func anotherContainersSaveReachesQueriesAndHeldModels() async throws {
        try await PostgresTestSchema.withSchema { url in
            let mine = try container(url, polling: .milliseconds(20))
            mine.mainContext.insert(workout("A", minutes: 10))
            mine.mainContext.insert(workout("B", minutes: 20))
            try mine.mainContext.save()
            let query = Query<Workout, [Workout]>(sort: \.title, modelContext: mine.mainContext)
            let held = try #require(query.wrappedValue.first)

            let otherContext = ModelContext(try container(url, polling: nil))
            otherContext.insert(workout("C", minutes: 30))
            let a = try #require(otherContext.fetch(FetchDescriptor<Workout>(predicate: #Predicate { $0.title == "A" })).first)
            a.minutes = 99
            try otherContext.save()

            try await pollUntil { query.wrappedValue.count == 3 }
            #expect(query.wrappedValue.map(\.title) == ["A", "B", "C"])
            #expect(held.minutes == 99)
            #expect(query.wrappedValue.first === held)
        }
    }

    /// The server's plan names the tables a fetch reads, so a live query on one entity does not
    /// refetch for saves of another.
    @Test func aFetchWatchesTheTablesTheServerPlansItToRead() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try ModelContainer(
                for: Schema([Workout.self, Memo.self]),
                configurations: [ModelConfiguration(url: try #require(URL(string: url)))])
            let context = container.mainContext
            #expect(context.tablesRead(by: FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.title)])) == ["Workout"])
            #expect(context.tablesRead(by: FetchDescriptor<Memo>(predicate: #Predicate { $0.text == "x" })) == ["Memo"])
        }
    }

    @Test func aWriteOfAnotherClientReachesQueries() async throws {
        try await PostgresTestSchema.withSchema { url in
            let mine = try container(url, polling: .milliseconds(20))
            mine.mainContext.insert(workout("A", minutes: 10))
            try mine.mainContext.save()
            let query = Query<Workout, [Workout]>(sort: \.title, modelContext: mine.mainContext)
            #expect(query.wrappedValue.count == 1)
            // Not Cairn: plain SQL, as psql or another program would write.
            let client = try PostgresConnection(url: url)
            try client.execute(sql: #"UPDATE "Workout" SET "title" = 'Z'"#)
            try await pollUntil { query.wrappedValue.first?.title == "Z" }
            #expect(query.wrappedValue.map(\.title) == ["Z"])
        }
    }

    /// Where the server has no triggers or `LISTEN` (CockroachDB), each save bumps a counter
    /// that other containers poll.
    @Test func withoutNotificationsAnotherContainersSaveArrivesByPolling() async throws {
        try await PostgresTestSchema.withSchema { url in
            let mine = try container(url, polling: .milliseconds(20), triggers: false)
            mine.mainContext.insert(workout("A", minutes: 10))
            try mine.mainContext.save()
            let query = Query<Workout, [Workout]>(sort: \.title, modelContext: mine.mainContext)
            #expect(query.wrappedValue.count == 1)
            let triggerCount = try PostgresConnection(url: url).fetchAll(
                sql: "SELECT count(*) FROM information_schema.triggers WHERE trigger_schema = current_schema()")
            #expect(triggerCount.rows == [[.integer(0)]])

            let otherContext = ModelContext(try container(url, polling: nil, triggers: false))
            otherContext.insert(workout("B", minutes: 20))
            try otherContext.save()
            try await pollUntil { query.wrappedValue.count == 2 }
            #expect(query.wrappedValue.map(\.title) == ["A", "B"])

            // This container's own save moves the counter by one: not reported as others'.
            let store = try mine.store(for: "Workout")
            store.checkOthersCommits()
            let seen = Collected<Set<String>>()
            store.observeOthersCommits { seen.append($0) }
            let own = ModelContext(mine)
            own.insert(workout("C", minutes: 30))
            try own.save()
            store.checkOthersCommits()
            #expect(seen.values.isEmpty)
        }
    }
}
