import SwiftData

// A model hierarchy, declared as SwiftData users declare one (under `import SwiftData`), for
// fetch requests on its entities.
@Model
class Vehicle {
    var name: String
    var wheels: Int

    init(name: String, wheels: Int) {
        self.name = name
        self.wheels = wheels
    }
}

@Model
class Truck: Vehicle {
    var payload: Double

    init(name: String, payload: Double) {
        self.payload = payload
        super.init(name: name, wheels: 6)
    }
}

@Model
class Bicycle: Vehicle {
    var gears: Int = 1

    init(name: String, gears: Int) {
        super.init(name: name, wheels: 2)
        self.gears = gears
    }
}
