import Cairn
import Foundation
import Testing

@Suite("Custom data store (JSON file)")
struct JSONDataStoreTests {
    static let day: TimeInterval = 86_400

    /// Three journeys saved through a fresh container.
    func saveJourneys(_ file: JourneyFile) throws {
        let context = ModelContext(try file.container())
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        context.insert(Journey(name: "Lisbon", startDate: start, budget: 1_200.5, photo: Data([0, 1, 2, 255])))
        context.insert(Journey(name: "Kyoto", startDate: start + 30 * Self.day, budget: 3_000))
        context.insert(Journey(name: "Oslo", startDate: start + 10 * Self.day, budget: 800))
        try context.save()
    }

    @Test func insertedModelsGetTheStoresIdentifiers() throws {
        let file = try JourneyFile()
        defer { file.remove() }
        let context = ModelContext(try file.container())
        let journey = Journey(name: "Lisbon", startDate: .now, budget: 100)
        context.insert(journey)
        #expect(journey.persistentModelID.isTemporary)
        try context.save()
        #expect(!journey.persistentModelID.isTemporary)
        #expect(journey.persistentModelID.storeIdentifier == "journeys.json")
        #expect(journey.persistentModelID.primaryKey == nil)  // a UUID, not a row id
        // The same instance comes back for the saved identifier.
        #expect(try context.fetch(FetchDescriptor<Journey>()).first === journey)
        #expect(context.model(for: journey.persistentModelID) === journey)
    }

    @Test func predicatesAndSortsRunInMemoryWhenTheStorePrefers() throws {
        let file = try JourneyFile()
        defer { file.remove() }
        try saveJourneys(file)
        let context = ModelContext(try file.container())

        let byName = try context.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.name)]))
        #expect(byName.map(\.name) == ["Kyoto", "Lisbon", "Oslo"])

        let cheap = FetchDescriptor<Journey>(
            predicate: #Predicate { $0.budget < 2_000 }, sortBy: [SortDescriptor(\.startDate, order: .reverse)])
        #expect(try context.fetch(cheap).map(\.name) == ["Oslo", "Lisbon"])
        #expect(try context.fetchCount(cheap) == 2)

        var page = FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.budget, order: .reverse)])
        page.fetchOffset = 1
        page.fetchLimit = 1
        #expect(try context.fetch(page).map(\.name) == ["Lisbon"])
        // The store ignores paging when it has no predicate or sort to refuse: the context pages.
        var firstTwo = FetchDescriptor<Journey>()
        firstTwo.fetchLimit = 2
        #expect(try context.fetch(firstTwo).count == 2)
        #expect(try context.fetchCount(firstTwo) == 2)
        #expect(try context.fetchIdentifiers(firstTwo).count == 2)
        firstTwo.fetchOffset = 2
        #expect(try context.fetch(firstTwo).count == 1)
        #expect(try context.fetchCount(firstTwo) == 1)

        let named = FetchDescriptor<Journey>(predicate: #Predicate { $0.name.contains("o") })
        #expect(try context.fetchCount(named) == 3)
        #expect(try context.fetchCount(FetchDescriptor<Journey>()) == 3)  // the store's own count
        #expect(try context.fetchIdentifiers(cheap.withoutSort()).count == 2)
    }

    @Test func valuesSurviveANewContainerOnTheSameFile() throws {
        let file = try JourneyFile()
        defer { file.remove() }
        try saveJourneys(file)
        let context = ModelContext(try file.container())
        let lisbon = try #require(try context.fetch(FetchDescriptor<Journey>(predicate: #Predicate { $0.name == "Lisbon" })).first)
        #expect(lisbon.budget == 1_200.5)
        #expect(lisbon.startDate == Date(timeIntervalSinceReferenceDate: 800_000_000))
        #expect(lisbon.photo == Data([0, 1, 2, 255]))
        let kyoto = try #require(try context.fetch(FetchDescriptor<Journey>(predicate: #Predicate { $0.name == "Kyoto" })).first)
        #expect(kyoto.budget == 3_000)  // written as a whole number, read back as a Double
        #expect(kyoto.photo == nil)
        // The file holds the stored values under the property names.
        let text = try String(contentsOf: file.url, encoding: .utf8)
        #expect(text.contains("\"name\" : \"Lisbon\""))
        #expect(text.contains("\"budget\" : 1200.5"))
    }

    @Test func updatesAndDeletesReachTheFile() throws {
        let file = try JourneyFile()
        defer { file.remove() }
        try saveJourneys(file)
        let context = ModelContext(try file.container())
        for journey in try context.fetch(FetchDescriptor<Journey>()) {
            if journey.name == "Oslo" { journey.budget = 950 }
            if journey.name == "Kyoto" { context.delete(journey) }
        }
        try context.save()

        let reopened = ModelContext(try file.container())
        let all = try reopened.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.name)]))
        #expect(all.map(\.name) == ["Lisbon", "Oslo"])
        #expect(all.last?.budget == 950)
        #expect(try !String(contentsOf: file.url, encoding: .utf8).contains("Kyoto"))

        try reopened.delete(model: Journey.self, where: #Predicate { $0.budget > 1_000 })
        try reopened.save()
        #expect(try ModelContext(try file.container()).fetch(FetchDescriptor<Journey>()).map(\.name) == ["Oslo"])
    }

    @Test func unsavedChangesMergeIntoFetches() throws {
        let file = try JourneyFile()
        defer { file.remove() }
        try saveJourneys(file)
        let context = ModelContext(try file.container())
        context.insert(Journey(name: "Bergen", startDate: .now, budget: 10))
        let oslo = try #require(try context.fetch(FetchDescriptor<Journey>(predicate: #Predicate { $0.name == "Oslo" })).first)
        context.delete(oslo)
        let names = try context.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["Bergen", "Kyoto", "Lisbon"])
        #expect(try context.fetchCount(FetchDescriptor<Journey>()) == 3)
    }

    @Test func aFetchShowsWhatAnotherContextSaved() throws {
        let file = try JourneyFile()
        defer { file.remove() }
        try saveJourneys(file)
        let container = try file.container()
        let reader = ModelContext(container)
        let oslo = FetchDescriptor<Journey>(predicate: #Predicate { $0.name == "Oslo" })
        let held = try #require(try reader.fetch(oslo).first)
        let kyoto = try #require(try reader.fetch(FetchDescriptor<Journey>(predicate: #Predicate { $0.name == "Kyoto" })).first)
        kyoto.budget = 1  // unsaved here: stays

        let writer = ModelContext(container)
        for journey in try writer.fetch(FetchDescriptor<Journey>()) { journey.budget += 100 }
        try writer.save()

        #expect(try reader.fetch(oslo).first === held)
        #expect(held.budget == 900)
        _ = try reader.fetch(FetchDescriptor<Journey>())
        #expect(kyoto.budget == 1)
        #expect(reader.hasChanges)
    }

    @Test func batchedFetchesAndEnumerateReadTheStore() throws {
        let file = try JourneyFile()
        defer { file.remove() }
        try saveJourneys(file)
        let context = ModelContext(try file.container())
        var saved = FetchDescriptor<Journey>(predicate: #Predicate { $0.budget > 900 }, sortBy: [SortDescriptor(\.name)])
        saved.includePendingChanges = false
        #expect(try context.fetch(saved, batchSize: 1).map(\.name) == ["Kyoto", "Lisbon"])

        context.insert(Journey(name: "Bergen", startDate: .now, budget: 2_000))
        var names: [String] = []
        try context.enumerate(FetchDescriptor<Journey>(predicate: #Predicate { $0.budget > 900 }, sortBy: [SortDescriptor(\.name)])) {
            names.append($0.name)
        }
        #expect(names == ["Bergen", "Kyoto", "Lisbon"])
    }

    @Test func relationshipsRoundTrip() throws {
        let file = try JourneyFile()
        defer { file.remove() }
        do {
            let context = ModelContext(try file.container())
            let journey = Journey(name: "Alps", startDate: .now, budget: 500)
            context.insert(journey)
            for (city, nights) in [("Zermatt", 3), ("Chamonix", 2)] {
                let waypoint = Waypoint(city: city, nights: nights)
                context.insert(waypoint)
                waypoint.journey = journey
            }
            try context.save()
        }
        let context = ModelContext(try file.container())
        let journey = try #require(try context.fetch(FetchDescriptor<Journey>()).first)
        #expect(journey.waypoints.map(\.city).sorted() == ["Chamonix", "Zermatt"])
        let waypoints = try context.fetch(FetchDescriptor<Waypoint>(sortBy: [SortDescriptor(\.nights)]))
        #expect(waypoints.map(\.city) == ["Chamonix", "Zermatt"])
        #expect(waypoints.allSatisfy { $0.journey === journey })

        // Cascade: deleting the journey deletes its waypoints.
        context.delete(journey)
        try context.save()
        #expect(try ModelContext(try file.container()).fetchCount(FetchDescriptor<Waypoint>()) == 0)
    }

    @Test func modelForAnIdentifierFromAnotherContainer() throws {
        let file = try JourneyFile()
        defer { file.remove() }
        try saveJourneys(file)
        let identifiers = try ModelContext(try file.container()).fetchIdentifiers(FetchDescriptor<Journey>())
        #expect(identifiers.count == 3)
        let context = ModelContext(try file.container())
        let names = identifiers.compactMap { (context.model(for: $0) as? Journey)?.name }.sorted()
        #expect(names == ["Kyoto", "Lisbon", "Oslo"])
        // Identifiers survive Codable, as an app would keep them.
        let decoded = try JSONDecoder().decode([PersistentIdentifier].self, from: JSONEncoder().encode(identifiers))
        #expect(decoded == identifiers)
    }

    @Test func deleteAllDataErasesTheStore() throws {
        let file = try JourneyFile()
        defer { file.remove() }
        try saveJourneys(file)
        try file.container().deleteAllData()
        #expect(!FileManager.default.fileExists(atPath: file.url.path))
        #expect(try ModelContext(try file.container()).fetchCount(FetchDescriptor<Journey>()) == 0)
    }

    @Test func operationsOnlySQLStoresHaveSayWhy() throws {
        let file = try JourneyFile()
        defer { file.remove() }
        let context = ModelContext(try file.container())
        #expect {
            try context.explain(FetchDescriptor<Journey>())
        } throws: { error in
            "\(error)".contains("custom data store 'Journeys'")
        }
    }
}

extension FetchDescriptor {
    /// The same descriptor without its sort (``ModelContext/fetchIdentifiers(_:)`` refuses a
    /// sort with pending changes included).
    func withoutSort() -> FetchDescriptor {
        var copy = self
        copy.sortBy = []
        return copy
    }
}

@MainActor
@Suite("Custom data store: live results")
struct JSONDataStoreLiveTests {
    @Test func aResultsObserverRefetchesAfterASaveToTheStore() async throws {
        let file = try JourneyFile()
        defer { file.remove() }
        let container = try file.container()
        let observer = ResultsObserver(
            fetchDescriptor: FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.name)]), modelContainer: container)
        #expect(observer.results.isEmpty)
        let fired = try await changeFires(of: { _ = observer.results }) {
            let other = ModelContext(container)
            other.insert(Journey(name: "Lofoten", startDate: .now, budget: 700))
            try other.save()
        }
        #expect(fired)
        await drainMainActor()
        #expect(observer.results.map(\.name) == ["Lofoten"])
    }
}
