import CairnCoreData
import Foundation
import Testing

/// `NSFetchRequest` on the entities of a `@Model` hierarchy: a subentity's request reads only
/// its rows of the shared table, in every result type, as its `FetchDescriptor` does.
@Suite("NSFetchRequest on a model hierarchy")
struct HierarchyFetchRequestTests {
    func context() throws -> ModelContext {
        let container = try ModelContainer(
            for: Schema([Vehicle.self, Truck.self, Bicycle.self]),
            configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        let context = ModelContext(container)
        context.insert(Vehicle(name: "cart", wheels: 4))
        context.insert(Truck(name: "hauler", payload: 12.5))
        context.insert(Bicycle(name: "racer", gears: 22))
        context.insert(Truck(name: "tipper", payload: 8))
        try context.save()
        return ModelContext(container)
    }

    @Test func aSubentityRequestReadsItsOwnRows() throws {
        let context = try context()
        let trucks = NSFetchRequest<Truck>(entityName: "Truck")
        trucks.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        #expect(try context.fetch(trucks).map(\.name) == ["hauler", "tipper"])
        #expect(try context.count(for: trucks) == 2)
        trucks.predicate = NSPredicate(format: "payload > %@ AND wheels == 6", NSNumber(value: 10))
        #expect(try context.fetch(trucks).map(\.payload) == [12.5])
        // Every result type keeps to the entity's rows.
        let identifiers = NSFetchRequest<NSManagedObjectID>(entityName: "Truck")
        identifiers.resultType = .managedObjectIDResultType
        #expect(try context.fetch(identifiers).count == 2)
        let names = NSFetchRequest<NSDictionary>(entityName: "Bicycle")
        names.resultType = .dictionaryResultType
        names.propertiesToFetch = ["name", "gears"]
        #expect(try context.fetch(names).map { $0["name"] as? String } == ["racer"])
    }

    @Test func theRootRequestReadsEveryRowAsItsOwnClass() throws {
        let context = try context()
        let vehicles = NSFetchRequest<Vehicle>(entityName: "Vehicle")
        vehicles.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let all = try context.fetch(vehicles)
        #expect(all.map(\.name) == ["cart", "hauler", "racer", "tipper"])
        #expect(all.map { "\(type(of: $0))" } == ["Vehicle", "Truck", "Bicycle", "Truck"])
        vehicles.predicate = NSPredicate(format: "wheels < 5")
        #expect(try context.fetch(vehicles).map(\.name) == ["cart", "racer"])
    }

    @Test func aSubentityRequestWithUnsavedChangesOrSwiftOnlyOptionsKeepsToItsRows() throws {
        let context = try context()
        context.insert(Bicycle(name: "Commuter", gears: 7))
        let bicycles = NSFetchRequest<Bicycle>(entityName: "Bicycle")
        bicycles.predicate = NSPredicate(format: "name BEGINSWITH[c] %@", "c")
        #expect(try context.fetch(bicycles).map(\.name) == ["Commuter"])
        bicycles.predicate = nil
        bicycles.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true, selector: Selector("caseInsensitiveCompare:"))]
        #expect(try context.fetch(bicycles).map(\.name) == ["Commuter", "racer"])
    }
}
