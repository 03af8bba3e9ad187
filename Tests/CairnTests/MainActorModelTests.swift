import Cairn
import Foundation
import Testing

@MainActor @Model
final class MainActorTrip {
    nonisolated var name: String
    nonisolated var days: Int
    @Relationship(deleteRule: .cascade, inverse: \MainActorStop.trip) nonisolated var stops: [MainActorStop] = []

    init(name: String, days: Int) {
        self.name = name
        self.days = days
    }
}

@MainActor @Model
final class MainActorStop {
    nonisolated var place: String
    nonisolated var trip: MainActorTrip?

    init(place: String) { self.place = place }
}

/// Reads and changes main-actor models from its own actor: their persisted properties are
/// nonisolated, so only the class's own main-actor members (its `init`, methods, `@Transient`
/// properties) stay on the main actor.
@ModelActor
actor MainActorTripRenamer {
    func lengthen(by days: Int) throws -> [String] {
        let trips = try modelContext.fetch(FetchDescriptor<MainActorTrip>(sortBy: [SortDescriptor(\.name)]))
        for trip in trips { trip.days += days }
        try modelContext.save()
        return trips.map { "\($0.name) \($0.days)" }
    }
}

@MainActor
@Suite("Models isolated to the main actor")
struct MainActorModelTests {
    @Test func insertSaveAndFetchOnTheMainActor() throws {
        let container = try ModelContainer(
            for: MainActorTrip.self, MainActorStop.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = container.mainContext
        let rome = MainActorTrip(name: "Rome", days: 4)
        context.insert(rome)
        rome.stops = [MainActorStop(place: "Forum")]
        context.insert(MainActorTrip(name: "Oslo", days: 2))
        try context.save()

        let long = try context.fetch(FetchDescriptor<MainActorTrip>(predicate: #Predicate { $0.days > 3 }))
        #expect(long.map(\.name) == ["Rome"])
        #expect(long.first?.stops.map(\.place) == ["Forum"])
    }

    @Test func aModelActorFetchesAndSavesMainActorModels() async throws {
        let container = try ModelContainer(
            for: MainActorTrip.self, MainActorStop.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        container.mainContext.insert(MainActorTrip(name: "Rome", days: 4))
        container.mainContext.insert(MainActorTrip(name: "Oslo", days: 2))
        try container.mainContext.save()

        let changed = try await MainActorTripRenamer(modelContainer: container).lengthen(by: 1)
        #expect(changed == ["Oslo 3", "Rome 5"])
        let sorted = FetchDescriptor<MainActorTrip>(sortBy: [SortDescriptor(\.days, order: .reverse)])
        #expect(try ModelContext(container).fetch(sorted).map(\.days) == [5, 3])
    }
}
