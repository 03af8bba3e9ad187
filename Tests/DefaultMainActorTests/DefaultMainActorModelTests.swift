import Foundation
import SwiftData
import Testing

// Compiled with `.defaultIsolation(MainActor.self)`: the model is written as in an app target
// of Swift 6.2, with no isolation of its own.

@Model
final class Journey {
    var name: String
    var days: Int
    @Relationship(deleteRule: .cascade, inverse: \Leg.journey) var legs: [Leg] = []

    init(name: String, days: Int) {
        self.name = name
        self.days = days
    }
}

@Model
final class Leg {
    var from: String
    var journey: Journey?

    init(from: String) { self.from = from }
}

@Suite("@Model under default main-actor isolation")
struct DefaultMainActorModelTests {
    @Test func insertSaveAndFetchWithAPredicate() throws {
        let container = try ModelContainer(
            for: Journey.self, Leg.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = container.mainContext
        let rome = Journey(name: "Rome", days: 4)
        context.insert(rome)
        rome.legs = [Leg(from: "Milan")]
        context.insert(Journey(name: "Oslo", days: 2))
        try context.save()

        let descriptor = FetchDescriptor<Journey>(predicate: #Predicate { $0.days > 3 }, sortBy: [SortDescriptor(\.name)])
        let long = try context.fetch(descriptor)
        #expect(long.map(\.name) == ["Rome"])
        #expect(long.first?.legs.map(\.from) == ["Milan"])
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Journey>()) == 2)
    }
}
