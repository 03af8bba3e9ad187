import Cairn
import Foundation

// `cairn-bench --relationships`: how long the everyday relationship edits of `@Model` take as
// a relationship grows. BENCHMARKS.md has no such workload and C has no object graph to
// compare with, so these are times, not ratios: they exist to catch work that grows with the
// square of a relationship's length (Docs/Performance.md has the figures).

@Model
final class BenchTrip {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \BenchItem.trip) var items: [BenchItem] = []
    var tags: [BenchTag] = []

    init(name: String) { self.name = name }
}

@Model
final class BenchItem {
    var title: String
    var trip: BenchTrip?

    init(title: String) { self.title = title }
}

@Model
final class BenchTag {
    var name: String
    var trips: [BenchTrip] = []

    init(name: String) { self.name = name }
}

enum RelationshipTimings {
    /// Runs each edit once on an in-memory store and prints `relationships_<edit>_ms=…`.
    static func run() throws {
        let container = try ModelContainer(
            for: BenchTrip.self, BenchItem.self, BenchTag.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let tags = [BenchTag(name: "warm"), BenchTag(name: "city")]
        var trips: [BenchTrip] = []
        try report("many_to_many_1200_trips_two_tags_and_save") {
            for index in 0..<1_200 {
                let trip = BenchTrip(name: "t\(index)")
                context.insert(trip)
                trip.tags = tags
                trips.append(trip)
            }
            try context.save()
        }
        guard let first = trips.first else { return }
        try report("append_3000_items_one_at_a_time_and_save") {
            for index in 0..<3_000 { first.items.append(BenchItem(title: "i\(index)")) }
            try context.save()
        }
        try report("delete_1199_trips_nullify_tags_and_save") {
            for trip in trips.dropFirst() { context.delete(trip) }
            try context.save()
        }
        let other = ModelContext(container)
        for index in 0..<3_000 {
            let trip = BenchTrip(name: "r\(index)")
            other.insert(trip)
            trip.items = [BenchItem(title: "a"), BenchItem(title: "b")]
        }
        try other.save()
        try report("fetch_3001_trips_and_read_each_trips_items") {
            let reader = ModelContext(container)
            let count = try reader.fetch(FetchDescriptor<BenchTrip>()).reduce(0) { $0 + $1.items.count }
            guard count == 9_000 else { throw BenchError("read \(count) items, expected 9,000") }
        }
        // A fetch of an entity with a relationship by a context made for it, as a request
        // handler makes one: the W6 shape for a model with relationships.
        try report("fetch_9000_items_20_times_each_by_a_new_context") {
            var titles = 0
            for _ in 0..<20 {
                titles += try ModelContext(container).fetch(FetchDescriptor<BenchItem>()).reduce(0) { $0 + $1.title.utf8.count }
            }
            guard titles == 20 * 19_890 else { throw BenchError("read \(titles) bytes of titles, expected \(20 * 19_890)") }
        }
    }

    private static func report(_ name: String, _ body: () throws -> Void) rethrows {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
        print("relationships_\(name)_ms=" + String(format: "%.1f", elapsed))
    }
}
