@testable import Cairn
import Foundation
import Testing

/// Related models reference each other (a trip its items, each item its trip): once their
/// context lets them go, nothing else may keep them alive, and a model still held reads its
/// relationships as before.
@Suite struct RelationshipCycleTests {
    /// A container with trips "t0"…, each with `items` items and the tags "warm" and "city".
    func savedTrips(_ count: Int, items: Int) throws -> ModelContainer {
        let container = try memoryContainer(for: Trip.self, Item.self, Tag.self)
        let context = ModelContext(container)
        let tags = [Tag(name: "warm"), Tag(name: "city")]
        for index in 0..<count {
            let trip = Trip(name: "t\(index)")
            context.insert(trip)
            for item in 0..<items { trip.items.append(Item(title: "t\(index).\(item)")) }
            trip.tags = tags
        }
        try context.save()
        return container
    }

    @Test func modelsWhoseContextIsGoneDoNotKeepEachOtherAlive() throws {
        let container = try savedTrips(3, items: 2)
        weak var trip: Trip?
        weak var item: Item?
        weak var tag: Tag?
        weak var context: ModelContext?
        do {
            let made = ModelContext(container)
            context = made
            let trips = try made.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            trip = trips.first
            item = trips.first?.items.first
            tag = trips.first?.tags.first
            #expect(item?.trip === trip)                 // one-to-many, both sides loaded
            #expect(tag?.trips.contains { $0 === trip } == true)  // many-to-many, both sides loaded
        }
        #expect(context == nil)
        #expect(trip == nil)
        #expect(item == nil)
        #expect(tag == nil)
    }

    @Test func aModelKeptAfterItsContextReadsItsRelationshipsFromTheStore() throws {
        let container = try savedTrips(2, items: 3)
        let trip: Trip
        do {
            let context = ModelContext(container)
            let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            trip = try #require(trips.first)
            #expect(trip.items.count == 3)
            #expect(trip.tags.count == 2)
        }
        #expect(trip.modelContext == nil)
        #expect(trip.items.map(\.title).sorted() == ["t0.0", "t0.1", "t0.2"])
        #expect(trip.tags.map(\.name).sorted() == ["city", "warm"])
        #expect(trip.items.allSatisfy { $0.trip?.name == "t0" })
    }

    @Test func unsavedChangesStayWithTheModelsThatHoldThem() throws {
        let container = try savedTrips(1, items: 2)
        let trip: Trip
        let renamed: Item
        do {
            let context = ModelContext(container)
            trip = try #require(context.fetch(FetchDescriptor<Trip>()).first)
            renamed = try #require(trip.items.first)
            #expect(renamed.trip === trip)
            renamed.title = "renamed, not saved"
        }
        #expect(trip.items.contains { $0 === renamed })
        #expect(renamed.trip === trip)
    }

    @Test func anImportOfRelatedModelsSavingAsItGoesStaysFlat() throws {
        let context = ModelContext(try memoryContainer(for: Trip.self, Item.self, Tag.self))
        weak var early: Trip?
        var kept: Trip?
        for index in 0..<3_000 {
            let trip = Trip(name: "t\(index)")
            context.insert(trip)
            trip.items.append(Item(title: "t\(index).a"))
            trip.items.append(Item(title: "t\(index).b"))
            if index == 1 { early = trip }
            if index == 0 { kept = trip }
            if index % 500 == 499 { try context.save() }
        }
        try context.save()
        // Before, every trip and item stayed registered: 9,000 models, held by each other.
        #expect(context.tracked.count < 10)
        #expect(early == nil)
        // The one the caller kept reads its items from the store, and they point back at it.
        let first = try #require(kept)
        #expect(first.items.map(\.title).sorted() == ["t0.a", "t0.b"])
        #expect(first.items.allSatisfy { $0.trip === first })
        #expect(try context.fetchCount(FetchDescriptor<Item>()) == 6_000)
    }

    /// Models a context leaves holding each other (not saved, or with unsaved changes) may stay
    /// in memory, as Core Data's do; they must not keep the store's connection and files open.
    @Test func modelsLeftInACycleDoNotKeepTheStoresOpen() throws {
        weak var state: ContainerState?
        do {
            let container = try savedTrips(1, items: 1)
            state = container.state
            let context = ModelContext(container)
            let unsaved = Trip(name: "not saved")
            context.insert(unsaved)
            unsaved.items.append(Item(title: "not saved either"))
            let saved = try #require(context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "t0" })).first)
            saved.items.first?.title = "changed, not saved"
        }
        #expect(state == nil)
    }
}

/// What a walk over the trips of `savedTrips` in batches saw: the first trip and its first item
/// (held weakly, to check they were freed), the items counted, and the most models the context
/// held at once. Each trip's items point back at it, and it has its two tags.
final class BatchWalk {
    weak var firstTrip: Trip?
    weak var firstItem: Item?
    private(set) var itemCount = 0
    private(set) var largest = 0
    private var visited = 0

    func visit(_ trip: Trip, in context: ModelContext, sourceLocation: SourceLocation = #_sourceLocation) {
        if visited == 0 {
            firstTrip = trip
            firstItem = trip.items.first
        }
        visited += 1
        itemCount += trip.items.count
        #expect(trip.items.allSatisfy { $0.trip === trip }, sourceLocation: sourceLocation)
        #expect(trip.tags.count == 2, sourceLocation: sourceLocation)
        largest = max(largest, context.tracked.count)
    }
}

/// `enumerate` keeps memory flat when its block reads relationships: what a batch loads,
/// the batch's models and the related models the block reached, goes with the batch.
@Suite struct EnumerateRelationshipTests {
    @Test func relatedModelsTheBlockLoadsAreReleasedWithTheirBatch() throws {
        let container = try RelationshipCycleTests().savedTrips(600, items: 3)
        let context = ModelContext(container)
        let heldBefore = try #require(context.fetch(FetchDescriptor<Tag>(predicate: #Predicate { $0.name == "warm" })).first)
        let walk = BatchWalk()
        try context.enumerate(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]), batchSize: 100) { trip in
            if trip.name == "t7" { trip.items.first?.title = "changed in the block" }
            walk.visit(trip, in: context)
        }
        #expect(walk.itemCount == 1_800)
        // A batch holds 100 trips and their 300 items (and the two tags); before, every trip
        // and item stayed registered (2,400 models) and, holding each other, in memory.
        #expect(walk.largest <= 100 + 300 + 2 + 1)
        #expect(walk.firstTrip == nil)
        #expect(walk.firstItem == nil)
        // What the caller held before stays registered; the changed item waits for save().
        #expect(context.registeredModel(for: heldBefore.persistentModelID) as Tag? === heldBefore)
        #expect(context.hasChanges)
        try context.save()
        let check = ModelContext(container)
        let changed = try check.fetch(FetchDescriptor<Item>(predicate: #Predicate { $0.title == "changed in the block" }))
        #expect(changed.map { $0.trip?.name } == ["t7"])
    }
}

/// A to-many side read from the store takes in the context's unsaved changes of the inverse
/// to-one side: models moved in, moved out, and inserted.
@Suite struct UnsavedInverseTests {
    @Test func aToManyLoadedAfterUnsavedMovesShowsThem() throws {
        let container = try RelationshipCycleTests().savedTrips(3, items: 2)
        let context = ModelContext(container)
        let items = try context.fetch(FetchDescriptor<Item>(sortBy: [SortDescriptor(\.title)]))
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        // Read each item's trip first (loaded, unchanged: agrees with the store), then move one
        // and detach another, with no trip's items loaded yet.
        #expect(items.map { $0.trip?.name } == ["t0", "t0", "t1", "t1", "t2", "t2"])
        items[0].trip = trips[1]          // t0.0 moves to t1
        items[3].trip = nil               // t1.1 leaves
        let added = Item(title: "new", trip: trips[2])
        context.insert(added)
        #expect(trips[0].items.map(\.title).sorted() == ["t0.1"])
        #expect(trips[1].items.map(\.title).sorted() == ["t0.0", "t1.0"])
        #expect(trips[2].items.map(\.title).sorted() == ["new", "t2.0", "t2.1"])
        try context.save()
        let check = ModelContext(container)
        let stored = try check.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(stored.map { $0.items.map(\.title).sorted() } == [["t0.1"], ["t0.0", "t1.0"], ["new", "t2.0", "t2.1"]])
    }
}

/// A batched collection keeps about one batch in memory when the caller reads relationships
/// through it: moving to the next batch lets go of the last one and of what was reached from it.
@Suite struct BatchedCollectionRelationshipTests {
    @Test func relatedModelsReadThroughABatchGoWithIt() throws {
        let container = try RelationshipCycleTests().savedTrips(600, items: 3)
        let context = ModelContext(container)
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        descriptor.includePendingChanges = false
        let batched = try context.fetch(descriptor, batchSize: 100)
        let walk = BatchWalk()
        for trip in batched { walk.visit(trip, in: context) }
        #expect(walk.itemCount == 1_800)
        // One batch: 100 trips, their 300 items and the two tags. Before, each batch's trips were
        // forgotten but their items were not (1,902 registered at the end), and the two held
        // each other: all 2,400 trips and items stayed in memory.
        #expect(walk.largest <= 100 + 300 + 2)
        #expect(walk.firstTrip == nil)
        #expect(walk.firstItem == nil)
    }

    @Test func aModelTheCallerKeepsStaysTheSameInstance() throws {
        let container = try RelationshipCycleTests().savedTrips(30, items: 2)
        let context = ModelContext(container)
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        descriptor.includePendingChanges = false
        let batched = try context.fetch(descriptor, batchSize: 10)
        let kept = batched[0]
        let keptItem = try #require(kept.items.first)
        _ = batched[25]  // two batches later
        // Before, the first batch was forgotten even while held, and reading position 0 again
        // made a second instance of the same row.
        #expect(batched[0] === kept)
        #expect(context.registeredModel(for: kept.persistentModelID) as Trip? === kept)
        // Its items load again from the store; the item the caller held is still registered.
        #expect(kept.items.contains { $0 === keptItem })
        #expect(kept.items.map(\.title).sorted() == ["t0.0", "t0.1"])
    }

    @Test func modelsHeldBeforeTheCollectionKeepTheirLoadedRelationships() throws {
        let container = try RelationshipCycleTests().savedTrips(40, items: 1)
        let context = ModelContext(container)
        let warm = try #require(context.fetch(FetchDescriptor<Tag>(predicate: #Predicate { $0.name == "warm" })).first)
        #expect(warm.trips.count == 40)  // loaded before the collection
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        descriptor.includePendingChanges = false
        var tagged = 0
        for trip in try context.fetch(descriptor, batchSize: 10) where trip.tags.contains(where: { $0 === warm }) { tagged += 1 }
        #expect(tagged == 40)
        // Reading them again runs no statement: before, every batch detached the tag's trips
        // (reached from the batch through trip.tags), and each read loaded them again.
        let store = try container.store(for: "Trip")
        let before = store.statementCount
        #expect(warm.trips.count == 40)
        #expect(store.statementCount == before)
    }
}
