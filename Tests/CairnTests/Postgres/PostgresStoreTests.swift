import CairnTestSupport
import Foundation
import Testing

@testable import Cairn

/// The SwiftData surface on a PostgreSQL store: the same models, fetches and saves as on a
/// SQLite file, answered the same way.
@Suite("Models on a PostgreSQL store", .enabled(if: PostgresTestSchema.serverURL != nil, PostgresTestSchema.skipMessage))
struct PostgresStoreTests {
    static func container(_ url: String, _ types: any PersistentModel.Type...) throws -> ModelContainer {
        try ModelContainer(for: Schema(types), configurations: [ModelConfiguration(url: try #require(URL(string: url)))])
    }

    static let day = Date(timeIntervalSinceReferenceDate: 700_000_000)

    static func workouts() -> [Workout] {
        [("Run", 30, 310.5, true), ("Swim", 45, 400, false), ("Ride", 90, 820.25, true), ("Walk", 20, 95, false),
         ("Row", 45, 380, false)].enumerated().map { index, row in
            let workout = Workout(title: row.0, startedAt: day.addingTimeInterval(Double(index) * 3600), minutes: row.1,
                                  calories: row.2)
            workout.isFavorite = row.3
            if index.isMultiple(of: 2) { workout.finishedAt = workout.startedAt.addingTimeInterval(Double(row.1) * 60) }
            return workout
        }
    }

    @Test("a postgresql:// URL opens a server store: its tables are typed for PostgreSQL")
    func createsTables() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try Self.container(url, Workout.self)
            let store = try container.store(for: "Workout")
            #expect(store.dialect == .postgres)
            let columns = try store.read { connection in
                try connection.rows(RenderedSQL(
                    sql: "SELECT column_name, data_type FROM information_schema.columns "
                        + "WHERE table_schema = current_schema() AND table_name = 'Workout' ORDER BY column_name",
                    arguments: []))
            }
            #expect(columns == [
                [.text("calories"), .text("double precision")], [.text("finishedAt"), .text("double precision")],
                [.text("id"), .text("bigint")], [.text("isFavorite"), .text("boolean")], [.text("minutes"), .text("bigint")],
                [.text("startedAt"), .text("double precision")], [.text("title"), .text("text")],
            ])
        }
    }

    @Test("inserted models save, fetch back with their values, and keep identity")
    func saveAndFetch() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try Self.container(url, Workout.self)
            let context = ModelContext(container)
            for workout in Self.workouts() { context.insert(workout) }
            try context.save()

            let fresh = ModelContext(container)
            let all = try fresh.fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.startedAt)]))
            #expect(all.map(\.title) == ["Run", "Swim", "Ride", "Walk", "Row"])
            #expect(all.map(\.minutes) == [30, 45, 90, 20, 45])
            #expect(all.map(\.calories) == [310.5, 400, 820.25, 95, 380])
            #expect(all.map(\.isFavorite) == [true, false, true, false, false])
            #expect(all.map(\.finishedAt) == Self.workouts().map(\.finishedAt))
            #expect(Set(all.map(\.persistentModelID)).count == 5)
            let again = try fresh.fetch(FetchDescriptor<Workout>(predicate: #Predicate { $0.title == "Ride" }))
            #expect(again.count == 1 && again.first === all[2])
        }
    }

    @Test("predicates, sorts, limits and counts answer as they do on SQLite")
    func queriesAgreeWithSQLite() throws {
        try PostgresTestSchema.withSchema { url in
            let server = ModelContext(try Self.container(url, Workout.self))
            let file = ModelContext(try ModelContainer(for: Workout.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
            for context in [server, file] {
                for workout in Self.workouts() { context.insert(workout) }
                try context.save()
            }
            let minimum = 30
            let descriptors: [FetchDescriptor<Workout>] = [
                FetchDescriptor(predicate: #Predicate { $0.minutes >= minimum }, sortBy: [SortDescriptor(\.title)]),
                FetchDescriptor(predicate: #Predicate { $0.isFavorite }, sortBy: [SortDescriptor(\.calories, order: .reverse)]),
                FetchDescriptor(predicate: #Predicate { !$0.isFavorite && $0.calories < 390 }),
                FetchDescriptor(predicate: #Predicate { $0.finishedAt == nil }, sortBy: [SortDescriptor(\.minutes), SortDescriptor(\.title)]),
                FetchDescriptor(predicate: #Predicate { $0.title.contains("w") || $0.title.starts(with: "R") }),
                FetchDescriptor(sortBy: [SortDescriptor(\.finishedAt, order: .reverse), SortDescriptor(\.title)]),
                FetchDescriptor(predicate: #Predicate { ["Run", "Row"].contains($0.title) }),
                // SQLite answers NULL for a zero divisor (the rows with 45 minutes), PostgreSQL would fail.
                FetchDescriptor(predicate: #Predicate { $0.minutes / ($0.minutes - 45) >= 1 }),
            ]
            for var descriptor in descriptors {
                #expect(try server.fetch(descriptor).map(\.title) == file.fetch(descriptor).map(\.title))
                #expect(try server.fetchCount(descriptor) == file.fetchCount(descriptor))
                descriptor.fetchLimit = 2
                descriptor.fetchOffset = 1
                #expect(try server.fetch(descriptor).map(\.title) == file.fetch(descriptor).map(\.title))
                #expect(try server.fetchCount(descriptor) == file.fetchCount(descriptor))
            }
        }
    }

    @Test("changes and deletes save in one transaction; a failed save changes nothing")
    func updateAndDelete() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try Self.container(url, Workout.self)
            let context = ModelContext(container)
            for workout in Self.workouts() { context.insert(workout) }
            try context.save()
            let walk = try #require(try context.fetch(FetchDescriptor<Workout>(predicate: #Predicate { $0.title == "Walk" })).first)
            walk.minutes = 25
            walk.isFavorite = true
            try context.delete(model: Workout.self, where: #Predicate { $0.minutes > 80 })
            try context.save()

            let fresh = ModelContext(container)
            let rows = try fresh.fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.title)]))
            #expect(rows.map(\.title) == ["Row", "Run", "Swim", "Walk"])
            #expect(rows.last?.minutes == 25 && rows.last?.isFavorite == true)
        }
    }

    /// Batches, enumerate and prefetching read rows by a list of keys, bound as one JSON array.
    @Test("batched fetches, enumerate and prefetched relationships read their rows by key on a server")
    func rowsByKey() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try Self.container(url, Trip.self, Item.self, Tag.self)
            let writer = ModelContext(container)
            for number in 0..<120 {
                let trip = Trip(name: "trip \(number)")
                writer.insert(trip)
                trip.items = [Item(title: "a\(number)"), Item(title: "b\(number)")]
                trip.tags = [Tag(name: "t\(number)")]
            }
            try writer.save()

            var all = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
            all.includePendingChanges = false
            let context = ModelContext(container)
            let plain = try context.fetch(all).map(\.name)
            #expect(try ModelContext(container).fetch(all, batchSize: 25).map(\.name) == plain)
            var visited: [String] = []
            try ModelContext(container).enumerate(all, batchSize: 25) { visited.append($0.name) }
            #expect(visited == plain)

            var prefetching = all
            prefetching.relationshipKeyPathsForPrefetching = [\.items, \.tags]
            let fresh = ModelContext(container)
            let trips = try fresh.fetch(prefetching)
            #expect(trips.count == 120)
            #expect(trips.allSatisfy { trip in
                let number = trip.name.dropFirst("trip ".count)
                return trip.items.map(\.title).sorted() == ["a\(number)", "b\(number)"] && trip.tags.map(\.name) == ["t\(number)"]
            })
        }
    }

    @Test("to-one, one-to-many and many-to-many relationships save and load")
    func relationships() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try Self.container(url, Trip.self, Item.self, Tag.self)
            let context = ModelContext(container)
            let trip = Trip(name: "Alps")
            let hiking = Tag(name: "hiking")
            context.insert(trip)
            trip.items = [Item(title: "boots"), Item(title: "map")]
            trip.tags = [hiking, Tag(name: "snow")]
            try context.save()

            let fresh = ModelContext(container)
            let trips = try fresh.fetch(FetchDescriptor<Trip>())
            #expect(trips.count == 1)
            #expect(trips.first?.items.map(\.title).sorted() == ["boots", "map"])
            #expect(trips.first?.tags.map(\.name).sorted() == ["hiking", "snow"])
            let withMap = try fresh.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.items.contains { $0.title == "map" } }))
            #expect(withMap.map(\.name) == ["Alps"])
            let boots = try fresh.fetch(FetchDescriptor<Item>(predicate: #Predicate { $0.trip?.name == "Alps" }))
            #expect(boots.count == 2)

            // Cascade: deleting the trip deletes its items.
            fresh.delete(try #require(trips.first))
            try fresh.save()
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Item>()) == 0)
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Tag>()) == 2)
        }
    }

    @Test("a save in one container reaches another container's contexts through LISTEN/NOTIFY")
    func othersCommitsArriveThroughNotifications() async throws {
        try await PostgresTestSchema.withSchema { url in
            let writer = try Self.container(url, Workout.self)
            let reader = try Self.container(url, Workout.self)
            let store = try reader.store(for: "Workout")
            let seen = Collected<Set<String>>()
            store.observeOthersCommits { seen.append($0) }
            let context = ModelContext(writer)
            context.insert(Self.workouts()[0])
            try context.save()
            try await pollUntil {
                store.checkOthersCommits()
                return !seen.values.isEmpty
            }
            #expect(seen.values.reduce(into: Set<String>()) { $0.formUnion($1) }.contains("Workout"))
            // This container's own saves are not reported as others'.
            let own = ModelContext(reader)
            own.insert(Self.workouts()[1])
            try own.save()
            let before = seen.values.count
            try await Task.sleep(for: .milliseconds(300))
            store.checkOthersCommits()
            #expect(seen.values.count == before)
        }
    }

    /// The seed's search, `localizedStandardContains`, has no PostgreSQL form that answers as
    /// Swift does: the server reads the rows with what it can express and Swift filters them.
    @Test("a predicate with no PostgreSQL form runs in Swift on the rows the server reads, with Foundation's answers")
    func predicateWithoutAServerForm() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try Self.container(url, Workout.self)
            let writer = ModelContext(container)
            for (title, minutes) in [("Évening Run", 40), ("morning run", 20), ("Swim", 50), ("RUN club", 70), ("Ride", 90)] {
                writer.insert(Workout(title: title, startedAt: Date(timeIntervalSinceReferenceDate: 0), minutes: minutes, calories: 0))
            }
            try writer.save()
            let context = ModelContext(container)
            let store = try container.store(for: "Workout")
            let text = "run"
            let search = FetchDescriptor<Workout>(
                predicate: #Predicate { text.isEmpty || $0.title.localizedStandardContains(text) },
                sortBy: [SortDescriptor(\.minutes, order: .reverse)])
            #expect(try context.fetch(search).map(\.title) == ["RUN club", "Évening Run", "morning run"])
            // The server sorted; the predicate ran in Swift.
            #expect(store.executedStatements.last?.contains("WHERE") == false)
            #expect(store.executedStatements.last?.hasSuffix(#"ORDER BY "t0"."minutes" DESC, "t0"."id" ASC"#) == true)
            #expect(try context.fetchCount(search) == 3)
            var identifiers = search
            identifiers.includePendingChanges = false
            #expect(try context.fetchIdentifiers(identifiers) == (try context.fetch(search).map(\.persistentModelID)))
            // Aggregates of such a fetch run over its models.
            #expect(try context.fetchSum(search, of: \.minutes) == 130)
            #expect(try context.fetchMaximum(search, of: \.minutes) == 70)
            #expect(try context.fetchCounts(search, groupedBy: \.minutes).map(\.count) == [1, 1, 1])
            var page = search
            page.fetchOffset = 1
            page.fetchLimit = 1
            #expect(try context.fetch(page).map(\.title) == ["Évening Run"])
            // A sort with a comparator the server lacks runs in Swift too, after the server's filter.
            let sorted = FetchDescriptor<Workout>(
                predicate: #Predicate { $0.minutes >= 40 }, sortBy: [SortDescriptor(\.title, comparator: .lexical)])
            let expected = try foundationAnswer(sorted, over: try context.fetch(FetchDescriptor<Workout>()))
            #expect(try context.fetch(sorted).map(\.title) == expected.map(\.title))
            #expect(store.executedStatements.last?.contains(#"WHERE "t0"."minutes" >= $1"#) == true)
        }
    }

    @Test("a server that cannot be reached is a load error naming it, without its password")
    func unreachableServer() throws {
        let url = try #require(URL(string: "postgresql://someone:secret@127.0.0.1:1/none?connect_timeout=2"))
        let error = #expect(throws: SwiftDataError.self) {
            _ = try ModelContainer(for: Workout.self, configurations: ModelConfiguration(url: url))
        }
        let text = "\(error.map { "\($0)" } ?? "")"
        #expect(text.contains("PostgreSQL server"))
        #expect(!text.contains("secret"))
    }
}
