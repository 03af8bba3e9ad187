@testable import Cairn
import CairnTestSupport
import Foundation
import Testing

/// Random sequences of relationship edits, from either side (append, remove, assign a whole
/// array, set or clear a to-one, save), checked after every step: both sides of each
/// relationship agree, and what a save stores is what the models hold. The inverse sync
/// compares arrays by identity and takes shortcuts for appends and removals
/// (RelationshipSync.swift); this is what keeps those shortcuts honest.
@Suite struct RelationshipSyncFuzzTests {
    struct Graph: Equatable {
        var tripOfItem: [String: String] = [:]
        var tagsOfTrip: [String: Set<String>] = [:]
    }

    /// What the models hold, by name; records an issue where the two sides disagree.
    static func graph(trips: [Trip], items: [Item], tags: [Tag], step: String) -> Graph {
        var graph = Graph()
        for item in items {
            if let trip = item.trip {
                graph.tripOfItem[item.title] = trip.name
                #expect(trip.items.filter { $0 === item }.count == 1, "\(step): \(trip.name).items lacks \(item.title)")
            }
        }
        for trip in trips {
            for item in trip.items {
                #expect(item.trip === trip, "\(step): \(item.title).trip is not \(trip.name)")
            }
            graph.tagsOfTrip[trip.name] = Set(trip.tags.map(\.name))
            for tag in trip.tags {
                #expect(tag.trips.filter { $0 === trip }.count == 1, "\(step): \(tag.name).trips lacks \(trip.name)")
            }
        }
        for tag in tags {
            for trip in tag.trips {
                #expect(trip.tags.contains { $0 === tag }, "\(step): \(trip.name).tags lacks \(tag.name)")
            }
        }
        return graph
    }

    @Test(arguments: 0..<24)
    func randomEditsKeepBothSidesAndTheStoreInAgreement(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let container = try memoryContainer(for: Trip.self, Item.self, Tag.self)
        let context = ModelContext(container)
        let trips = (0..<5).map { Trip(name: "trip\($0)") }
        let items = (0..<12).map { Item(title: "item\($0)") }
        let tags = (0..<4).map { Tag(name: "tag\($0)") }
        for trip in trips { context.insert(trip) }
        for item in items { context.insert(item) }
        for tag in tags { context.insert(tag) }
        func subset<T: AnyObject>(_ all: [T]) -> [T] { all.filter { _ in Bool.random(using: &random) }.shuffled(using: &random) }

        for step in 0..<80 {
            let trip = trips.randomElement(using: &random)!
            let item = items.randomElement(using: &random)!
            let tag = tags.randomElement(using: &random)!
            let label = "seed \(seed), step \(step)"
            switch Int.random(in: 0..<10, using: &random) {
            case 0: item.trip = Bool.random(using: &random) ? trip : nil
            case 1: if !trip.items.contains(where: { $0 === item }) { trip.items.append(item) }
            case 2: if !trip.items.isEmpty { trip.items.remove(at: Int.random(in: 0..<trip.items.count, using: &random)) }
            case 3: trip.items = subset(items)
            case 4: if !trip.tags.contains(where: { $0 === tag }) { trip.tags.append(tag) }
            case 5: if !tag.trips.isEmpty { tag.trips.remove(at: Int.random(in: 0..<tag.trips.count, using: &random)) }
            case 6: trip.tags = subset(tags)
            case 7: tag.trips = subset(trips)
            case 8: trip.items.insert(contentsOf: [item].filter { i in !trip.items.contains { $0 === i } }, at: 0)
            default: try context.save()
            }
            _ = Self.graph(trips: trips, items: items, tags: tags, step: label)
        }
        try context.save()
        let held = Self.graph(trips: trips, items: items, tags: tags, step: "seed \(seed), end")

        let fresh = ModelContext(container)
        let storedTrips = try fresh.fetch(FetchDescriptor<Trip>())
        let storedItems = try fresh.fetch(FetchDescriptor<Item>())
        let storedTags = try fresh.fetch(FetchDescriptor<Tag>())
        let stored = Self.graph(trips: storedTrips, items: storedItems, tags: storedTags, step: "seed \(seed), stored")
        #expect(stored == held, "seed \(seed): the store holds another graph than the models did")
    }
}

/// `enumerate` over random graphs, batch sizes and blocks that read and change related models:
/// every trip is visited once, in order; changes made in the block are saved; the context never
/// holds much more than a batch and what the block changed.
@Suite struct EnumerateFuzzTests {
    @Test(arguments: 0..<12)
    func randomBlocksOverRandomGraphs(seed: UInt64) throws {
        var random = SeededRandom(seed: seed &+ 1_000)
        let container = try memoryContainer(for: Trip.self, Item.self, Tag.self)
        let setup = ModelContext(container)
        let tags = (0..<3).map { Tag(name: "tag\($0)") }
        let tripCount = Int.random(in: 20...120, using: &random)
        for index in 0..<tripCount {
            let trip = Trip(name: String(format: "trip%03d", index))
            setup.insert(trip)
            for item in 0..<Int.random(in: 0...4, using: &random) { trip.items.append(Item(title: "\(trip.name).\(item)")) }
            trip.tags = tags.filter { _ in Bool.random(using: &random) }
        }
        try setup.save()

        let context = ModelContext(container)
        let batchSize = Int.random(in: 1...25, using: &random)
        var visited: [String] = []
        var renamed: Set<String> = []
        var tripsOfRenamed: Set<String> = []
        var largest = 0
        try context.enumerate(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]), batchSize: batchSize) { trip in
            visited.append(trip.name)
            if Bool.random(using: &random) {
                for item in trip.items {
                    #expect(item.trip === trip)
                    if Int.random(in: 0..<5, using: &random) == 0 {
                        item.title += "!"
                        renamed.insert(item.title)
                        tripsOfRenamed.insert(trip.name)
                    }
                }
            }
            if Bool.random(using: &random) { _ = trip.tags.map(\.name) }
            largest = max(largest, context.tracked.count)
        }
        #expect(visited == (0..<tripCount).map { String(format: "trip%03d", $0) })
        // A batch (up to four items per trip), the tags, and what the changed items keep alive:
        // each is kept for save(), it holds its trip, and the trip its up to four items. A
        // model still alive stays registered, so that a change made to it later is saved.
        #expect(largest <= batchSize * 5 + tags.count + tripsOfRenamed.count * 5 + 1,
                "seed \(seed): \(largest) registered")
        try context.save()
        let stored = Set(try ModelContext(container).fetch(FetchDescriptor<Item>()).map(\.title).filter { $0.hasSuffix("!") })
        #expect(stored == renamed)
    }
}
