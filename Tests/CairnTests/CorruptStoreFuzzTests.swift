@testable import Cairn
import CairnTestSupport
import Foundation
import Testing

/// Stores with random bytes changed, read through every path a row takes into a model: a
/// damaged page is an error, and a readable row whose bytes changed (a column of another
/// type, a NULL where a value belongs, text that is not UTF-8, a dangling relationship key)
/// must be an error or a value, never a stopped process. Seeded: a failure reproduces.
@Suite struct CorruptStoreFuzzTests {
    static let mutants = 150

    /// A store file of specimens and trips with items, written and closed (no WAL left).
    static func pristineStore(at store: TemporaryStore) throws -> Data {
        var random = SeededRandom(seed: 41)
        do {
            let container = try store.container(for: Specimen.self, Trip.self, Item.self)
            let context = ModelContext(container)
            for specimen in DifferentialData.specimens(count: 120, random: &random) { context.insert(specimen) }
            for index in 0..<30 {
                let trip = Trip(name: "trip \(index)")
                context.insert(trip)
                for item in 0..<Int(random.next() % 4) { trip.items.append(Item(title: "item \(index).\(item)")) }
            }
            try context.save()
        }
        return try Data(contentsOf: store.url)
    }

    /// Every read a user makes of the store; errors are fine, stopping is not.
    static func readEverything(_ url: URL) {
        guard let container = try? ModelContainer(
            for: Schema([Specimen.self, Trip.self, Item.self]), configurations: [ModelConfiguration(url: url)])
        else { return }
        let context = ModelContext(container)
        if let specimens = try? context.fetch(FetchDescriptor<Specimen>(sortBy: [SortDescriptor(\.name)])) {
            for specimen in specimens {
                _ = (specimen.name, specimen.nickname, specimen.count, specimen.score, specimen.rank, specimen.flag)
                _ = (specimen.day, specimen.due, specimen.mood, specimen.token, specimen.tags)
            }
        }
        _ = try? context.fetch(FetchDescriptor<Specimen>(predicate: #Predicate { $0.count > 0 && $0.tags.contains("a") }))
        _ = try? context.fetchCount(FetchDescriptor<Specimen>(predicate: #Predicate { $0.nickname != nil }))
        _ = try? context.fetch(FetchDescriptor<Specimen>(), batchSize: 7).map(\.name)
        _ = try? context.fetchSum(FetchDescriptor<Specimen>(), of: \.score)
        var partial = FetchDescriptor<Specimen>()
        partial.propertiesToFetch = [\.name]
        if let specimens = try? context.fetch(partial) { for specimen in specimens { _ = (specimen.count, specimen.tags) } }
        if let trips = try? context.fetch(FetchDescriptor<Trip>()) {
            for trip in trips { _ = trip.items.map(\.title) }
        }
        if let items = try? context.fetch(FetchDescriptor<Item>()) { for item in items { _ = item.trip?.name } }
        _ = try? context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.items.count > 1 }))
        _ = try? container.read(for: Specimen.self) { db in try Specimen.all.fetchAll(db).map(\.name) }
    }

    @Test(arguments: [UInt64(1), 2])
    func changedBytesAreErrorsOrValues(seed: UInt64) throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let pristine = try Self.pristineStore(at: store)
        var random = SeededRandom(seed: seed)
        var readable = 0
        for _ in 0..<Self.mutants {
            var bytes = pristine
            // A few bytes anywhere past the header's first 100 (which only says "not a
            // database" when changed), most often in the record area of a page.
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let offset = 100 + Int(random.next() % UInt64(bytes.count - 100))
                bytes[offset] = UInt8(truncatingIfNeeded: random.next())
            }
            let mutant = TemporaryStore()
            defer { mutant.remove() }
            try FileManager.default.createDirectory(at: mutant.folder, withIntermediateDirectories: true)
            try bytes.write(to: mutant.url)
            Self.readEverything(mutant.url)
            if (try? ModelContext(mutant.container(for: Specimen.self, Trip.self, Item.self))
                .fetchCount(FetchDescriptor<Specimen>())) != nil
            {
                readable += 1
            }
        }
        // Most changes land in row data, which stays readable: the reads above exercised the
        // decoding of changed values, not only SQLite's corruption checks.
        #expect(readable > Self.mutants / 2)
    }
}
