import Cairn
import Foundation
import Testing

/// A garage lists its cars in a `Set` (Core Data's `NSSet`), and is declared before the car
/// model it names.
@Model
final class Garage {
    var name: String
    var cars: Set<Car> = []
    init(name: String) { self.name = name }
}

/// Core Data code keeps a plate as `String!`, and a persisted `_notes` beside `notes`.
@Model
final class Car {
    var numberPlate: String!
    var mileage: Int! = 0
    var _notes: String = ""
    var notes: String = ""
    @Relationship(inverse: \Garage.cars) var garage: Garage?
    init(numberPlate: String) { self.numberPlate = numberPlate }
}

@Suite("@Model accepts Core Data spellings: implicitly unwrapped optionals, _name beside name, Set relationships")
struct ModelSpellingTests {
    func container(_ url: URL? = nil) throws -> ModelContainer {
        let configuration = url.map { ModelConfiguration(url: $0) } ?? ModelConfiguration(isStoredInMemoryOnly: true)
        return try ModelContainer(for: Garage.self, Car.self, configurations: configuration)
    }

    @Test func savedAndFetchedBack() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-spelling-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("cars.store")
        do {
            let context = ModelContext(try container(url))
            let garage = Garage(name: "North")
            context.insert(garage)
            let beetle = Car(numberPlate: "B-EE 7")
            beetle._notes = "private"
            beetle.notes = "public"
            beetle.mileage = 120_000
            let golf = Car(numberPlate: "G-OL 1")
            golf.mileage = nil
            garage.cars = [beetle, golf]
            #expect(beetle.garage === garage)          // the inverse follows the set
            try context.save()
        }
        let context = ModelContext(try container(url))
        let garages = try context.fetch(FetchDescriptor<Garage>())
        #expect(garages.map(\.name) == ["North"])
        let cars = try #require(garages.first?.cars)
        #expect(Set(cars.map(\.numberPlate)) == ["B-EE 7", "G-OL 1"])
        let beetle = try #require(cars.first { $0.numberPlate == "B-EE 7" })
        #expect(beetle._notes == "private" && beetle.notes == "public")
        #expect(beetle.mileage == 120_000)
        #expect(cars.first { $0.numberPlate == "G-OL 1" }?.mileage == nil)
        let byPlate = try context.fetch(FetchDescriptor<Car>(predicate: #Predicate { $0.numberPlate == "G-OL 1" }))
        #expect(byPlate.first?.garage?.name == "North")
    }

    @Test func removingFromTheSetClearsTheInverse() throws {
        let context = ModelContext(try container())
        let garage = Garage(name: "South")
        let car = Car(numberPlate: "S-1")
        context.insert(garage)
        garage.cars.insert(car)
        #expect(car.garage === garage)
        try context.save()
        garage.cars.remove(car)
        #expect(car.garage == nil)
        try context.save()
        let fetched = try context.fetch(FetchDescriptor<Car>())
        #expect(fetched.first?.garage == nil)
        #expect(try context.fetch(FetchDescriptor<Garage>()).first?.cars.isEmpty == true)
    }
}
