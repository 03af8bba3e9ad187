import Cairn
import Foundation
import Testing

@Model
final class Voyage {
    var name: String
    var departure: Date
    var isBooked: Bool
    @Relationship(deleteRule: .cascade, inverse: \Leg.voyage) var legs: [Leg] = []
    @Relationship(inverse: \Label.voyages) var labels: [Label] = []
    init(name: String, departure: Date, isBooked: Bool) {
        self.name = name
        self.departure = departure
        self.isBooked = isBooked
    }
}

@Model
final class Leg {
    var title: String
    var voyage: Voyage?
    init(title: String) { self.title = title }
}

@Model
final class Label {
    var name: String
    var voyages: [Voyage] = []
    init(name: String) { self.name = name }
}

/// A store Cairn wrote records what its columns mean, so `cairn` reads dates, Bools and every
/// kind of relationship without being told.
@Suite("cairn on a Cairn store with relationships, end to end")
struct CairnStoreSchemaTests {
    /// A store with two voyages: Lisbon (two legs, label "sea"), Oslo (one leg, no label).
    func voyages() throws -> String {
        let path = try Fixtures.write("", named: "placeholder")
        let store = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("voyages.store")
        let container = try ModelContainer(for: Voyage.self, Leg.self, Label.self, configurations: ModelConfiguration(url: store))
        let context = ModelContext(container)
        let lisbon = Voyage(name: "Lisbon", departure: Date(timeIntervalSince1970: 1_767_225_600), isBooked: true)
        let oslo = Voyage(name: "Oslo", departure: Date(timeIntervalSince1970: 1_767_312_000), isBooked: false)
        context.insert(lisbon)
        context.insert(oslo)
        lisbon.legs = [Leg(title: "Porto"), Leg(title: "Sintra")]
        oslo.legs = [Leg(title: "Bergen")]
        lisbon.labels = [Label(name: "sea")]
        try context.save()
        return store.path
    }

    @Test("info names attribute types and where each relationship's keys are")
    func info() throws {
        let store = try voyages()
        let run = try Binary.cairn("info", store)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("the schema the store records"))
        #expect(run.out.contains("departure"))
        #expect(run.out.contains("date"))
        #expect(run.out.contains("Label_voyages") || run.out.contains("Voyage_labels"))
        #expect(!run.out.contains("--types"))
    }

    @Test("query prints dates and Bools as the model has them and follows every relationship")
    func query() throws {
        let store = try voyages()
        let run = try Binary.cairn(
            "query", store, "Voyage", "--where", "ANY labels.name == 'sea' AND legs.@count == 2 AND departure < '2026-01-02'",
            "--keys", "name,departure,isBooked,legs.@count", "--format", "json")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "[\n  {\"name\": \"Lisbon\", \"departure\": \"2026-01-01T00:00:00Z\", \"isBooked\": true, \"legs.@count\": 2}\n]\n")
        let legs = try Binary.cairn("query", store, "Leg", "--where", "voyage.name == 'Oslo'", "--keys", "title", "--format", "csv")
        #expect(legs.out == "title\r\nBergen\r\n")
        let labels = try Binary.cairn("query", store, "Label", "--where", "voyages.@count > 0", "--keys", "name", "--format", "csv")
        #expect(labels.out == "name\r\nsea\r\n")
    }

    @Test("a container holding some of a file's entities keeps the others' recorded schema")
    func partialContainerKeepsTheRest() throws {
        let store = try voyages()
        do {
            let labelsOnly = try ModelContainer(for: Label.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: store)))
            let context = ModelContext(labelsOnly)
            context.insert(Label(name: "rail"))
            try context.save()
        }
        let run = try Binary.cairn("query", store, "Voyage", "--where", "departure > '2026-01-01T12:00:00Z'", "--keys", "name,isBooked",
                                   "--format", "csv")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "name,isBooked\r\nOslo,false\r\n")
    }

    @Test("import records its batches in the store's history, as a save's inserts")
    func importIsInTheHistory() throws {
        let store = try voyages()
        let url = URL(fileURLWithPath: store)
        let before = try ModelContext(ModelContainer(for: Voyage.self, Leg.self, Label.self, configurations: ModelConfiguration(url: url)))
            .fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).count
        let csv = try Fixtures.write("name,departure,isBooked\nRiga,2026-02-01,false\nTallinn,2026-02-02,true\nVilnius,2026-02-03,true\n",
                                     named: "more.csv")
        let run = try Binary.cairn("import", store, "Voyage", csv, "--batch", "2")
        #expect(run.status == 0, "\(run.err)")

        let context = ModelContext(try ModelContainer(for: Voyage.self, Leg.self, Label.self, configurations: ModelConfiguration(url: url)))
        let transactions = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        let imported = transactions.dropFirst(before)
        #expect(imported.map(\.author) == ["cairn import", "cairn import"])
        let inserted = imported.flatMap(\.changes).compactMap { change -> String? in
            guard case .insert = change, let voyage = context.model(for: change.changedPersistentIdentifier) as? Voyage else { return nil }
            return voyage.name
        }
        #expect(inserted == ["Riga", "Tallinn", "Vilnius"])
    }
}
