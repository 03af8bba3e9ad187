@testable import Cairn
import Foundation
import Testing

/// `ModelContext.fetch` with the seed's descriptors (000_e7396fd64d4b5600.txt), relationships
/// and unsaved changes: SQL's answer must be Foundation's.
@Suite("FetchDescriptor through SQL")
struct FetchDescriptorTests {
    let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    func workouts() throws -> (ModelContext, [Workout]) {
        let context = ModelContext(try memoryContainer(for: Workout.self))
        let titles = ["Run", "Café run", "swim", "Row", "cafe ride", "Yoga", "run", "Walk", "HIIT", "Run"]
        let made = titles.enumerated().map { index, title in
            let workout = Workout(
                title: title, startedAt: start.addingTimeInterval(Double(index % 4) * 3600), minutes: 15 * (index % 5),
                calories: Double(index * 37 % 11) * 20)
            workout.isFavorite = index % 3 == 0
            workout.finishedAt = index % 4 == 1 ? nil : start.addingTimeInterval(Double(index) * 900)
            return workout
        }
        return try savedInOrder(made, in: context)
    }

    /// Foundation's answer over the given models (in stored order).
    func expected(_ descriptor: FetchDescriptor<Workout>, in models: [Workout]) throws -> [Workout] {
        try foundationAnswer(descriptor, over: models)
    }

    func statements(_ context: ModelContext) throws -> [String] {
        try context.container.store(for: "Workout").executedStatements
    }

    @Test("the seed's descriptors return Foundation's rows in Foundation's order, in one SELECT each")
    func seedDescriptors() throws {
        let (context, all) = try workouts()
        var lastTen = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.startedAt, order: .reverse)])
        lastTen.fetchLimit = 10
        var page = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.startedAt, order: .reverse), SortDescriptor(\.title)])
        page.fetchLimit = 3
        page.fetchOffset = 3
        let text = "CAFE"
        let favoritesOnly = false
        let begin = start.addingTimeInterval(3600)
        let descriptors: [FetchDescriptor<Workout>] = [
            FetchDescriptor(predicate: #Predicate { $0.minutes >= 30 }, sortBy: [SortDescriptor(\Workout.startedAt, order: .reverse)]),
            FetchDescriptor(predicate: #Predicate { $0.isFavorite }, sortBy: [SortDescriptor(\Workout.finishedAt, order: .forward)]),
            lastTen, page,
            FetchDescriptor(sortBy: [
                SortDescriptor(\Workout.calories, order: .reverse), SortDescriptor(\Workout.startedAt, order: .reverse),
                SortDescriptor(\Workout.title),
            ]),
            FetchDescriptor(
                predicate: #Predicate { (text.isEmpty || $0.title.localizedStandardContains(text)) && (!favoritesOnly || $0.isFavorite) },
                sortBy: [SortDescriptor(\.startedAt, order: .reverse)]),
            FetchDescriptor(predicate: #Predicate { $0.startedAt >= begin }, sortBy: [SortDescriptor(\.startedAt, order: .reverse)]),
            FetchDescriptor(predicate: #Predicate { $0.startedAt >= begin && $0.minutes >= 60 }, sortBy: [SortDescriptor(\.title)]),
        ]
        for descriptor in descriptors {
            let before = try statements(context).count
            let fetched = try context.fetch(descriptor)
            #expect(fetched == (try expected(descriptor, in: all)))
            let executed = try statements(context).dropFirst(before)
            // A page whose last key is in reverse order is read in index order first; rows that
            // tie (`lastTen`'s do) have it read again with the stored-order tie-break.
            let probes = executed.filter { $0.contains("\"t0\".\"id\" DESC LIMIT") }
            #expect(probes.count <= 1 && executed.count == 1 + probes.count)
            #expect(executed.allSatisfy { $0.hasPrefix("SELECT \"t0\".\"id\", \"t0\".\"title\"") })
        }
        let search = FetchDescriptor<Workout>(predicate: #Predicate { $0.title.localizedStandardContains(text) })
        #expect(Set(try context.fetch(search).map(\.title)) == ["Café run", "cafe ride"])
    }

    @Test("fetchCount is SELECT COUNT(*); fetchIdentifiers selects keys; persistentModelID == id")
    func countsAndIdentifiers() throws {
        let (context, all) = try workouts()
        let favorites = FetchDescriptor<Workout>(predicate: #Predicate { $0.isFavorite })
        let before = try statements(context).count
        #expect(try context.fetchCount(favorites) == all.filter(\.isFavorite).count)
        #expect(try statements(context).last
            == "SELECT COUNT(*) FROM \"Workout\" AS \"t0\" WHERE \"t0\".\"isFavorite\"")
        #expect(try statements(context).count == before + 1)
        let ids = try context.fetchIdentifiers(FetchDescriptor<Workout>(predicate: #Predicate { $0.minutes >= 60 }))
        #expect(Set(ids) == Set(all.filter { $0.minutes >= 60 }.map(\.persistentModelID)))
        let id = all[4].persistentModelID
        var byID = FetchDescriptor<Workout>(predicate: #Predicate { $0.persistentModelID == id })
        byID.fetchLimit = 1
        #expect(try context.fetch(byID).first === all[4])
        #expect(try statements(context).last
            == "SELECT \"t0\".\"id\", \"t0\".\"title\", \"t0\".\"startedAt\", \"t0\".\"finishedAt\", \"t0\".\"minutes\", "
            + "\"t0\".\"calories\", \"t0\".\"isFavorite\" FROM \"Workout\" AS \"t0\" WHERE \"t0\".\"id\" = ? LIMIT ?")
        var paged = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.title)])
        paged.fetchOffset = 8
        paged.fetchLimit = 5
        #expect(try context.fetchCount(paged) == 2)
    }

    @Test("unsaved inserts, edits and deletes are merged in SQL order; includePendingChanges = false ignores them")
    func pendingChanges() throws {
        let (context, all) = try workouts()
        all[2].minutes = 5          // leaves "minutes >= 30" (stored: 30)
        all[1].minutes = 90         // joins it (stored: 15)
        context.delete(all[4])      // was 60 minutes
        let fresh = Workout(title: "New", startedAt: start, minutes: 45, calories: 1)
        context.insert(fresh)
        var descriptor = FetchDescriptor<Workout>(
            predicate: #Predicate { $0.minutes >= 30 }, sortBy: [SortDescriptor(\.startedAt), SortDescriptor(\.minutes, order: .reverse)])
        let live = all.filter { $0 !== all[4] } + [fresh]
        #expect(try context.fetch(descriptor) == (try expected(descriptor, in: live)))
        #expect(try context.fetchCount(descriptor) == (try expected(descriptor, in: live)).count)
        descriptor.fetchLimit = 2
        descriptor.fetchOffset = 1
        #expect(try context.fetch(descriptor) == (try expected(descriptor, in: live)))
        descriptor.includePendingChanges = false
        descriptor.fetchLimit = nil
        descriptor.fetchOffset = nil
        let stored = try context.fetch(descriptor).map(\.persistentModelID)
        #expect(stored.contains(all[2].persistentModelID))
        #expect(stored.contains(all[4].persistentModelID))
        #expect(!stored.contains(all[1].persistentModelID))
    }

    @Test("unsupported predicates and sorts throw SwiftData's errors naming the construct")
    func unsupported() throws {
        let (context, _) = try workouts()
        // Twice: whether an expression type translates is worked out once and remembered.
        for _ in 0..<2 {
            do {
                _ = try context.fetch(FetchDescriptor<Workout>(predicate: #Predicate { $0.title.contains(/R.n/) }))
                Issue.record("a regex predicate must throw")
            } catch let error as SwiftDataError {
                #expect(error == .unsupportedPredicate)
                #expect(error.description.contains("String.contains(Regex)"))
            }
        }
        do {
            _ = try context.fetch(FetchDescriptor<Workout>(predicate: #Predicate { $0.startedAt.timeIntervalSinceNow < 0 }))
            Issue.record("timeIntervalSinceNow must throw")
        } catch let error as SwiftDataError {
            #expect(error == .unsupportedKeyPath)
        }
        do {
            _ = try context.fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.title.count)]))
            Issue.record("a computed sort key must throw")
        } catch let error as SwiftDataError {
            #expect(error == .unsupportedSortDescriptor)
            #expect(error.description.contains("Workout"))
        }
    }

    @Test("a computed property in a predicate or sort is named by its type, never by its getter's address")
    func computedPropertyErrors() throws {
        let (context, _) = try workouts()
        do {
            _ = try context.fetch(FetchDescriptor<Workout>(predicate: #Predicate { $0.hours > 1 }))
            Issue.record("a computed property must throw")
        } catch let error as SwiftDataError {
            #expect(error == .unsupportedKeyPath)
            #expect(error.reason.hasPrefix(
                #"The key path \Workout.<a computed property of type Int> does not name a stored property of Workout"#),
                "\(error)")
            #expect(error.reason.contains("store it in a property, or filter the fetched models in Swift"), "\(error)")
            #expect(!error.reason.contains("0x"), "\(error)")
        }
        do {
            _ = try context.fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.hours)]))
            Issue.record("a computed sort key must throw")
        } catch let error as SwiftDataError {
            #expect(error.reason.hasPrefix(#"The sort key \Workout.<a computed property of type Int> is not a stored"#),
                    "\(error)")
        }
        #expect(keyPathName(\Span.start) == #"\Span.start"#)
    }

    @Test("the same shape compiles once; new captured values only change the arguments")
    func compiledShapeCache() throws {
        let (context, all) = try workouts()
        func descriptor(_ minimum: Int) -> FetchDescriptor<Workout> {
            FetchDescriptor(predicate: #Predicate { $0.minutes >= minimum && $0.title != "x" }, sortBy: [SortDescriptor(\.title)])
        }
        // A cache of this test's own: other tests compile thousands of shapes concurrently.
        let cache = QueryCache()
        try QueryCache.$current.withValue(cache) {
            _ = try context.fetch(descriptor(0))
            let compiles = cache.compileCount
            #expect(compiles >= 1)
            for minimum in [15, 30, 45, 60] {
                let fetched = try context.fetch(descriptor(minimum))
                #expect(fetched == (try expected(descriptor(minimum), in: all)))
            }
            #expect(cache.compileCount == compiles)
        }
        let first = try QueryCompiler.render(descriptor(15), selecting: .identifiers, in: .sqlite)
        let second = try QueryCompiler.render(descriptor(45), selecting: .identifiers, in: .sqlite)
        #expect(first.sql == second.sql)
        #expect(first.arguments != second.arguments)
        // Selections of as many columns share a hash, never their SQL.
        try QueryCache.$current.withValue(QueryCache()) {
            for _ in 0..<2 {
                let title = try QueryCompiler.render(descriptor(15), selecting: .columns(["title"]), in: .sqlite)
                let minutes = try QueryCompiler.render(descriptor(15), selecting: .columns(["minutes"]), in: .sqlite)
                #expect(title.sql.hasPrefix(#"SELECT "t0"."id", "t0"."title" FROM"#))
                #expect(minutes.sql.hasPrefix(#"SELECT "t0"."id", "t0"."minutes" FROM"#))
            }
        }
    }

    @Test("a shape's key paths hash by their type, and compare as key paths")
    func keyPathTokens() {
        struct Pair { var first: Int; var second: Int }
        let first = ShapeToken.keyPath(\Pair.first)
        let second = ShapeToken.keyPath(\Pair.second)
        // Different key paths of one type share a hash, never equality: the cache then
        // compares them and finds the right SQL.
        #expect(first.hashValue == second.hashValue)
        #expect(first != second)
        // Equal key paths from two places in the code are equal, and hash equal.
        let again = ShapeToken.keyPath(\Pair.first)
        #expect(first == again)
        #expect(first.hashValue == again.hashValue)
        #expect(ShapeToken.keyPath(\Pair.first) != ShapeToken.keyPath(\Workout.minutes))
    }

    @Test("a descriptor changed after it is made, by assignment or in place, fetches what it then says")
    func changedDescriptors() throws {
        let (context, all) = try workouts()
        let store = try context.container.store(for: "Workout")
        var descriptor = FetchDescriptor<Workout>()
        descriptor.sortBy.append(SortDescriptor(\.minutes, order: .reverse))
        descriptor.fetchLimit = 4
        #expect(try context.fetch(descriptor) == (try expected(descriptor, in: all)))
        #expect(store.executedStatements.last?.contains(#"ORDER BY "t0"."minutes" DESC"#) == true)

        descriptor.sortBy = [SortDescriptor(\.title)]
        descriptor.predicate = #Predicate { $0.minutes >= 30 }
        #expect(try context.fetch(descriptor) == (try expected(descriptor, in: all)))
        #expect(store.executedStatements.last?.contains(#"WHERE "t0"."minutes" >= ?"#) == true)

        descriptor.sortBy.removeAll()
        descriptor.predicate = nil
        descriptor.fetchLimit = nil
        #expect(try context.fetch(descriptor) == all)
        #expect(store.executedStatements.last?.contains("ORDER BY") == false)
        #expect(store.executedStatements.last?.contains("WHERE") == false)

        descriptor.propertiesToFetch.append(\.calories)
        _ = try context.fetch(descriptor)
        #expect(store.executedStatements.last == #"SELECT "t0"."id", "t0"."calories" FROM "Workout" AS "t0""#)
        descriptor.propertiesToFetch.removeAll()
        _ = try context.fetch(descriptor)
        #expect(store.executedStatements.last?.contains(#""t0"."title""#) == true)

        let fresh = FetchDescriptor<Workout>(predicate: #Predicate { $0.isFavorite }, sortBy: [SortDescriptor(\.title)])
        #expect(try context.fetch(fresh) == (try expected(fresh, in: all)))
    }
}

/// Predicates through to-one and to-many relationships, stored by the context.
@Suite("Relationship predicates")
struct RelationshipPredicateTests {
    func tripsAndItems() throws -> (ModelContext, [Trip], [Item], [Tag]) {
        let context = ModelContext(try memoryContainer(for: Trip.self, Item.self, Tag.self))
        let trips = ["Paris", "Oslo", "Lima", "Rome"].map(Trip.init)
        let tags = ["food", "art", "sea"].map(Tag.init)
        let items = [
            Item(title: "map", trip: trips[0]), Item(title: "apple", trip: trips[0]), Item(title: "", trip: trips[1]),
            Item(title: "boots", trip: trips[1]), Item(title: "axe", trip: trips[1]), Item(title: "loose"),
        ]
        trips[0].tags = [tags[0], tags[1]]
        trips[2].tags = [tags[2]]
        for trip in trips { context.insert(trip) }
        for item in items { context.insert(item) }
        for tag in tags { context.insert(tag) }
        try context.save()
        return (context, trips, items, tags)
    }

    @Test("to-many: count, isEmpty, contains(where:), filter, allSatisfy, contains(model), many-to-many")
    func toMany() throws {
        let (context, trips, items, _) = try tripsAndItems()
        let axe = items[4].persistentModelID
        let predicates: [Predicate<Trip>] = [
            #Predicate { $0.items.count > 1 },
            #Predicate { $0.items.isEmpty },
            #Predicate { !$0.items.isEmpty },
            #Predicate { $0.items.contains { $0.title.starts(with: "a") } },
            #Predicate { $0.items.filter { $0.title != "" }.count >= 2 },
            #Predicate { $0.items.allSatisfy { $0.title != "" } },
            #Predicate { $0.items.contains { $0.persistentModelID == axe } },
            #Predicate { $0.tags.contains { $0.name == "art" } },
            #Predicate { !$0.tags.contains { $0.name == "sea" } && $0.name != "Rome" },
        ]
        for predicate in predicates {
            let fetched = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\Trip.name)]))
            let expected = try trips.filter { try predicate.evaluate($0) }.sorted(using: SortDescriptor(\Trip.name))
            #expect(fetched.map(\.name) == expected.map(\.name))
        }
        let rendered = try QueryCompiler.render(
            FetchDescriptor<Trip>(predicate: #Predicate { $0.items.contains { $0.title == "map" } }), selecting: .identifiers, in: .sqlite)
        #expect(rendered.sql == "SELECT \"t0\".\"id\" FROM \"Trip\" AS \"t0\" WHERE EXISTS (SELECT 1 FROM \"Item\" AS \"t1\" "
            + "WHERE \"t1\".\"trip\" = \"t0\".\"id\" AND \"t1\".\"title\" COLLATE cairn_swift = ?)")
    }

    @Test("sorting through a to-one relationship: nil first forward, last in reverse")
    func sortThroughToOne() throws {
        let (context, _, items, _) = try tripsAndItems()
        for order in [SortOrder.forward, .reverse] {
            let sort = [SortDescriptor(\Item.trip?.name, order: order), SortDescriptor(\Item.title)]
            let fetched = try context.fetch(FetchDescriptor(sortBy: sort))
            #expect(fetched.map(\.title) == items.sorted(using: sort).map(\.title))
        }
        let rendered = try QueryCompiler.render(
            FetchDescriptor<Item>(sortBy: [SortDescriptor(\Item.trip?.name)]), selecting: .identifiers, in: .sqlite)
        #expect(rendered.sql == "SELECT \"t0\".\"id\" FROM \"Item\" AS \"t0\" ORDER BY (SELECT \"name\" FROM \"Trip\" "
            + "WHERE \"id\" = \"t0\".\"trip\") COLLATE cairn_swift ASC, \"t0\".\"id\" ASC")
    }

    @Test("to-one: optional chaining, if let, comparing with a model")
    func toOne() throws {
        let (context, trips, items, _) = try tripsAndItems()
        let oslo = trips[1].persistentModelID
        let predicates: [Predicate<Item>] = [
            #Predicate { $0.trip?.name == "Paris" },
            #Predicate { $0.trip == nil },
            #Predicate { $0.trip?.persistentModelID == oslo },
            #Predicate { item in
                if let trip = item.trip { trip.name.starts(with: "O") } else { false }
            },
            #Predicate { ($0.trip?.items.count ?? 0) >= 2 },
        ]
        for predicate in predicates {
            let fetched = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\Item.title)]))
            let expected = try items.filter { try predicate.evaluate($0) }.sorted(using: SortDescriptor(\Item.title))
            #expect(fetched.map(\.title) == expected.map(\.title))
        }
    }
}

@Suite("propertiesToFetch")
struct PropertiesToFetchTests {
    @Test("only the listed columns are read; another attribute loads on first access")
    func partial() throws {
        let container = try memoryContainer(for: Workout.self)
        let setup = ModelContext(container)
        for index in 0..<3 {
            setup.insert(Workout(title: "W\(index)", startedAt: .init(timeIntervalSinceReferenceDate: 0), minutes: index,
                                 calories: Double(index) * 2))
        }
        try setup.save()
        let context = ModelContext(container)
        let store = try container.store(for: "Workout")
        var descriptor = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.minutes)])
        descriptor.propertiesToFetch = [\.calories]
        let before = store.executedStatements.count
        let workouts = try context.fetch(descriptor)
        #expect(store.executedStatements.last
            == "SELECT \"t0\".\"id\", \"t0\".\"calories\" FROM \"Workout\" AS \"t0\" ORDER BY \"t0\".\"minutes\" ASC, \"t0\".\"id\" ASC")
        #expect(workouts.map(\.calories) == [0, 2, 4])
        #expect(store.executedStatements.count == before + 1)
        #expect(workouts[1].title == "W1")
        #expect(store.executedStatements.count == before + 2)
        #expect(workouts[1].minutes == 1)
        #expect(store.executedStatements.count == before + 2)
    }
}

/// A plain struct, whose stored properties key paths print by name.
private struct Span { var start = 0 }

extension Workout {
    /// A computed property: not stored, so not usable in SQL.
    var hours: Int { minutes / 60 }
}
