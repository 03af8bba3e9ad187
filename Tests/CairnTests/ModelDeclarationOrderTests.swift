import Cairn
import Foundation
import Testing

// The order of the two classes is the point of this file: the depot names its inverse with a
// key path into `Lorry`, and keeps its lorries in a `Set`, before `@Model final class Lorry`
// is declared (Core Data code keeps to-many relationships as sets).

@Model
final class Depot {
    var name: String
    @Relationship(inverse: \Lorry.depot) var lorries: Set<Lorry> = []
    init(name: String) { self.name = name }
}

@Model
final class Lorry {
    var plate: String
    var depot: Depot?
    init(plate: String) { self.plate = plate }
}

@Suite("A model keeps a Set of a model declared below it, naming the inverse itself")
struct ModelDeclarationOrderTests {
    @Test func setRelationshipWithInverseDeclaredAboveItsDestination() throws {
        let context = ModelContext(try ModelContainer(
            for: Depot.self, Lorry.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let depot = Depot(name: "North")
        context.insert(depot)
        let first = Lorry(plate: "N-1"), second = Lorry(plate: "N-2")
        depot.lorries = [first, second]
        #expect(first.depot === depot && second.depot === depot)
        try context.save()
        let fetched = try context.fetch(FetchDescriptor<Lorry>(predicate: #Predicate { $0.depot?.name == "North" }))
        #expect(Set(fetched.map(\.plate)) == ["N-1", "N-2"])
        second.depot = nil
        #expect(depot.lorries.map(\.plate) == ["N-1"])
    }
}
