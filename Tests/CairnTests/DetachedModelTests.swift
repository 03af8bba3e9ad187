@testable import Cairn
import Testing

/// Models returned by a context that is gone by the time they are read, as in
/// `let trips = try ModelContext(container).fetch(…)`: what they had not loaded yet is read from
/// the store, not made up.
@Suite("Models that outlive their context")
struct DetachedModelTests {
    /// A container with Rome (items Passport and Tickets, tag city) and Oslo (no items).
    private func tripsContainer() throws -> ModelContainer {
        let container = try memoryContainer(for: Trip.self)
        let context = ModelContext(container)
        let rome = Trip(name: "Rome")
        rome.items = [Item(title: "Passport"), Item(title: "Tickets")]
        rome.tags = [Tag(name: "city")]
        context.insert(rome)
        context.insert(Trip(name: "Oslo"))
        try context.save()
        return container
    }

    /// The trips, sorted by name, from a context that is released before they are returned.
    private func tripsFromAGoneContext(_ container: ModelContainer, _ descriptor: FetchDescriptor<Trip>) throws -> [Trip] {
        try ModelContext(container).fetch(descriptor)
    }

    /// A storage holds its entity unowned (`ModelStorage.Fields.entity`), which is safe only
    /// while every storage names the one entity the process keeps for its type.
    @Test("new, fetched and placeholder models name their type's one entity, after their container is gone too")
    func storagesNameTheProcessEntity() throws {
        let entity = Schema.Entity.of(Workout.self)
        #expect(Workout(title: "New", startedAt: .now, minutes: 1, calories: 1)._storage?.entity === entity)
        var fetched: [Workout] = []
        var missing: (any PersistentModel)?
        do {
            let container = try memoryContainer(for: Workout.self)
            let context = ModelContext(container)
            let saved = Workout(title: "Saved", startedAt: .now, minutes: 1, calories: 1)
            context.insert(saved)
            try context.save()
            let id = saved.persistentModelID
            try context.delete(model: Workout.self)
            try context.save()
            missing = ModelContext(container).model(for: id)
            context.insert(Workout(title: "Again", startedAt: .now, minutes: 1, calories: 1))
            try context.save()
            fetched = try ModelContext(container).fetch(FetchDescriptor<Workout>())
        }
        #expect(fetched.map(\.title) == ["Again"])
        #expect(fetched.allSatisfy { $0._storage?.entity === entity })
        #expect((missing as? Workout)?._storage?.entity === entity)
        #expect((missing as? Workout)?.title == "")
    }

    @Test("to-many and many-to-many relationships load from the store after the context is gone")
    func toManyAfterContextIsGone() throws {
        let container = try tripsContainer()
        let trips = try tripsFromAGoneContext(container, FetchDescriptor(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Oslo", "Rome"])
        #expect(trips.allSatisfy { $0.modelContext == nil })
        #expect(trips[1].items.map(\.title).sorted() == ["Passport", "Tickets"])
        #expect(trips[1].tags.map(\.name) == ["city"])
        #expect(trips[0].items.isEmpty)
        // The related models loaded for models left behind are one instance per row, and know
        // their own trip.
        #expect(trips[1].items.allSatisfy { $0.trip?.name == "Rome" })
        #expect(trips[1].items[0] === trips[1].items[0])
    }

    @Test("a to-one relationship and a column left out by propertiesToFetch load after the context is gone")
    func toOneAndUnfetchedColumnAfterContextIsGone() throws {
        let container = try tripsContainer()
        let items = try ModelContext(container).fetch(FetchDescriptor<Item>(sortBy: [SortDescriptor(\.title)]))
        #expect(items.map { $0.trip?.name } == ["Rome", "Rome"])

        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        descriptor.propertiesToFetch = [\.tags]
        let trips = try tripsFromAGoneContext(container, descriptor)
        #expect(trips.map(\.name) == ["Oslo", "Rome"])
    }

    @Test("once the container is released too, the models keep its stores open: what they had not loaded still loads")
    func containerGone() throws {
        weak var gone: ModelContainer?
        let trips: [Trip] = try {
            let container = try tripsContainer()
            gone = container
            return try tripsFromAGoneContext(container, FetchDescriptor(sortBy: [SortDescriptor(\.name)]))
        }()
        #expect(gone == nil)
        #expect(trips.map(\.name) == ["Oslo", "Rome"])
        #expect(trips[1].items.map(\.title).sorted() == ["Passport", "Tickets"])
        #expect(trips[1].tags.map(\.name) == ["city"])
    }

    @Test("relationships loaded before the context and the container went read the same afterwards")
    func loadedRelationshipsAfterContainerIsGone() throws {
        weak var gone: ModelContainer?
        let rome: Trip = try {
            let container = try tripsContainer()
            gone = container
            let context = ModelContext(container)
            let rome = try #require(context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Rome" })).first)
            #expect(rome.items.count == 2)  // loaded while the context lives
            #expect(rome.items.allSatisfy { $0.trip === rome })
            return rome
        }()
        #expect(gone == nil)
        #expect(rome.items.map(\.title).sorted() == ["Passport", "Tickets"])
        #expect(rome.items.allSatisfy { $0.trip?.name == "Rome" })
    }

    @Test("a model left behind is adopted by the next context that inserts it, and saves there")
    func adoptedAfterContextIsGone() throws {
        let container = try tripsContainer()
        let trips = try tripsFromAGoneContext(container, FetchDescriptor(sortBy: [SortDescriptor(\.name)]))
        let context = ModelContext(container)
        context.insert(trips[0])
        #expect(trips[0].modelContext === context)
        trips[0].name = "Bergen"
        try context.save()
        let names = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["Bergen", "Rome"])
    }
}
