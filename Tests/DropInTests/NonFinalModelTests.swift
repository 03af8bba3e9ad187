import Foundation
import SwiftData
import Testing

// Declared as Apple's Backyard Birds sample declares its models: a public, non-final class.
@Model
public class Bird {
    public var speciesName: String
    public var wingspan: Double
    public var lastSeen: Date?
    @Relationship(deleteRule: .cascade, inverse: \Sighting.bird) public var sightings: [Sighting] = []

    public init(speciesName: String, wingspan: Double) {
        self.speciesName = speciesName
        self.wingspan = wingspan
    }
}

@Model
public class Sighting {
    public var place: String
    public var bird: Bird?

    public init(place: String) { self.place = place }
}

@Suite("@Model on a non-final class")
struct NonFinalModelTests {
    @Test func nonFinalModelsSaveFetchAndRelate() throws {
        let container = try ModelContainer(for: Bird.self, Sighting.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let robin = Bird(speciesName: "Robin", wingspan: 0.3)
        let heron = Bird(speciesName: "Heron", wingspan: 1.8)
        context.insert(robin)
        context.insert(heron)
        robin.sightings = [Sighting(place: "Garden"), Sighting(place: "Park")]
        try context.save()

        let fresh = ModelContext(container)
        let wide = try fresh.fetch(FetchDescriptor<Bird>(
            predicate: #Predicate { $0.wingspan > 1 }, sortBy: [SortDescriptor(\.speciesName)]))
        #expect(wide.map(\.speciesName) == ["Heron"])
        let seen = try fresh.fetch(FetchDescriptor<Sighting>(
            predicate: #Predicate { $0.bird?.speciesName == "Robin" }, sortBy: [SortDescriptor(\.place)]))
        #expect(seen.map(\.place) == ["Garden", "Park"])
        #expect(seen.first?.bird?.sightings.count == 2)

        let robinAgain = try #require(try fresh.fetch(FetchDescriptor<Bird>(predicate: #Predicate { $0.speciesName == "Robin" })).first)
        fresh.delete(robinAgain)
        try fresh.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Sighting>()) == 0)
    }
}
