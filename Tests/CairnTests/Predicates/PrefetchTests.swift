@testable import Cairn
import Foundation
import Testing

/// `FetchDescriptor.relationshipKeyPathsForPrefetching`: one extra query per relationship for
/// all fetched models, giving what the lazy load gives.
@Suite("Prefetching")
struct PrefetchTests {
    /// 5 trips (T4 without items), 18 items (two without a trip), 4 tags shared by the trips
    /// (each trip's tags assigned in reverse key order: the store gives them in key order).
    func seeded() throws -> ModelContainer {
        let container = try memoryContainer(for: Trip.self, Item.self, Tag.self)
        let setup = ModelContext(container)
        let tags = (0..<4).map { Tag(name: "G\($0)") }
        for tag in tags { setup.insert(tag) }
        let trips = (0..<5).map { Trip(name: "T\($0)") }
        for (index, trip) in trips.enumerated() {
            trip.tags = tags.enumerated().filter { (index + $0.offset) % 3 != 0 }.map(\.element).reversed()
            setup.insert(trip)
        }
        for index in 0..<18 { setup.insert(Item(title: "I\(index)", trip: index < 16 ? trips[index % 4] : nil)) }
        try setup.save()
        return container
    }

    func statementCount(_ container: ModelContainer) throws -> Int {
        try container.store(for: "Trip").executedStatements.count
    }

    /// Each trip's related names, read through the relationship (lazily when not prefetched).
    func tripsRelated(
        _ container: ModelContainer, prefetching keyPaths: [PartialKeyPath<Trip>], _ read: (Trip) -> [String]
    ) throws -> (related: [String: [String]], statements: Int) {
        let context = ModelContext(container)
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        descriptor.relationshipKeyPathsForPrefetching = keyPaths
        let before = try statementCount(container)
        let trips = try context.fetch(descriptor)
        var related: [String: [String]] = [:]
        for trip in trips { related[trip.name] = read(trip) }
        return (related, try statementCount(container) - before)
    }

    @Test("relationshipKeyPathsForPrefetching loads to-one relationships in one extra query, not one per row")
    func toOne() throws {
        let container = try memoryContainer(for: Trip.self, Item.self, Tag.self)
        let setup = ModelContext(container)
        let trips = (0..<5).map { Trip(name: "T\($0)") }
        for trip in trips { setup.insert(trip) }
        for index in 0..<20 { setup.insert(Item(title: "I\(index)", trip: trips[index % 5])) }
        try setup.save()
        let context = ModelContext(container)
        let store = try container.store(for: "Item")
        var descriptor = FetchDescriptor<Item>(sortBy: [SortDescriptor(\.title)])
        descriptor.relationshipKeyPathsForPrefetching.append(\.trip)   // changed in place, as `= [\.trip]` would
        let before = store.executedStatements.count
        let items = try context.fetch(descriptor)
        #expect(store.executedStatements.count - before == 2)
        let names = items.compactMap { $0.trip?.name }
        #expect(names.count == 20)
        #expect(store.executedStatements.count - before == 2)
    }

    @Test("a one-to-many with an inverse loads for every owner in one extra query, in the lazy load's order")
    func toManyInverse() throws {
        let container = try seeded()
        let read: (Trip) -> [String] = { $0.items.map(\.title) }
        let prefetched = try tripsRelated(container, prefetching: [\Trip.items], read)
        #expect(prefetched.statements == 2)
        let lazy = try tripsRelated(container, prefetching: [], read)
        #expect(lazy.statements == 6)
        #expect(prefetched.related == lazy.related)
        #expect(prefetched.related["T0"] == ["I0", "I4", "I8", "I12"])
        #expect(prefetched.related["T4"] == [])
        let sql = try container.store(for: "Trip").executedStatements
        #expect(sql.contains(
            #"SELECT "d"."id", "d"."title", "d"."trip", "d"."trip" FROM "Item" AS "d" "#
                + #"WHERE "d"."trip" IN (SELECT value FROM json_each(?)) ORDER BY "d"."id" ASC"#))
    }

    @Test("a many-to-many loads from either side in one extra query, in the lazy load's order")
    func manyToMany() throws {
        let container = try seeded()
        let read: (Trip) -> [String] = { $0.tags.map(\.name) }
        let prefetched = try tripsRelated(container, prefetching: [\Trip.tags], read)
        #expect(prefetched.statements == 2)
        let lazy = try tripsRelated(container, prefetching: [], read)
        #expect(prefetched.related == lazy.related)
        #expect(prefetched.related["T0"] == ["G1", "G2"])
        #expect(prefetched.related["T1"] == ["G0", "G1", "G3"])
        #expect(try container.store(for: "Trip").executedStatements.contains(
            #"SELECT "d"."id", "d"."name", "j"."target" FROM "Tag" AS "d" JOIN "Tag_trips" AS "j" ON "j"."source" = "d"."id" "#
                + #"WHERE "j"."target" IN (SELECT value FROM json_each(?)) ORDER BY "d"."id" ASC"#))

        // The other side reads the same join table with source and target swapped.
        let context = ModelContext(container)
        var descriptor = FetchDescriptor<Tag>(sortBy: [SortDescriptor(\.name)])
        descriptor.relationshipKeyPathsForPrefetching = [\.trips]
        let before = try statementCount(container)
        let tags = try context.fetch(descriptor)
        let trips = tags.map { $0.trips.map(\.name) }
        #expect(try statementCount(container) - before == 2)
        let lazyContext = ModelContext(container)
        let lazyTrips = try lazyContext.fetch(FetchDescriptor<Tag>(sortBy: [SortDescriptor(\.name)])).map { $0.trips.map(\.name) }
        #expect(trips == lazyTrips)
        #expect(trips[0] == ["T1", "T2", "T4"])
    }

    @Test("several to-many relationships: one extra query each; related models are the registered instances")
    func uniquingAndSeveral() throws {
        let container = try seeded()
        let context = ModelContext(container)
        let registered = try context.fetch(FetchDescriptor<Item>(predicate: #Predicate { $0.title == "I5" }))
        let tag = try context.fetch(FetchDescriptor<Tag>(predicate: #Predicate { $0.name == "G3" }))
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        descriptor.relationshipKeyPathsForPrefetching = [\.items, \.tags]
        let before = try statementCount(container)
        let trips = try context.fetch(descriptor)
        let t1 = try #require(trips.first(where: { $0.name == "T1" }))
        #expect(t1.items.contains { $0 === registered.first })
        #expect(t1.tags.contains { $0 === tag.first })
        // The same Tag instance is shared by every trip that holds it.
        let g3 = trips.flatMap(\.tags).filter { $0.name == "G3" }
        #expect(!g3.isEmpty && g3.allSatisfy { $0 === tag.first })
        _ = trips.map { ($0.items.count, $0.tags.count) }
        #expect(try statementCount(container) - before == 3)
    }

    @Test("unsaved moves of the inverse win over the store, as in the lazy load")
    func unsavedInverse() throws {
        let container = try seeded()
        func related(prefetching: Bool) throws -> [String: [String]] {
            let context = ModelContext(container)
            let item = try #require(try context.fetch(FetchDescriptor<Item>(predicate: #Predicate { $0.title == "I0" })).first)
            let t3 = try #require(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "T3" })).first)
            item.trip = t3
            context.insert(Item(title: "new", trip: t3))
            var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
            if prefetching { descriptor.relationshipKeyPathsForPrefetching = [\.items] }
            return Dictionary(uniqueKeysWithValues: try context.fetch(descriptor).map { ($0.name, $0.items.map(\.title)) })
        }
        let prefetched = try related(prefetching: true)
        let lazy = try related(prefetching: false)
        // Unsaved additions follow the stored rows in registration order, which can differ
        // between two contexts: compare T3 as a set.
        #expect(prefetched.mapValues { Set($0) } == lazy.mapValues { Set($0) })
        for name in ["T0", "T1", "T2", "T4"] { #expect(prefetched[name] == lazy[name]) }
        #expect(prefetched["T0"] == ["I4", "I8", "I12"])
        #expect(prefetched["T3"]?.contains("I0") == true)
        #expect(prefetched["T3"]?.contains("new") == true)
    }
}
