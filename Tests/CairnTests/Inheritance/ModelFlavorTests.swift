import Cairn
import SwiftData
import Testing

// A file that imports both modules: `@Model` is SwiftData's, `@Cairn.Model` Cairn's.
@Cairn.Model
final class Thermometer {
    var reading: Int
    init(reading: Int) { self.reading = reading }
}

@Model
final class Barometer {
    var reading: Int
    init(reading: Int) { self.reading = reading }
}

@Suite("Which @Model a file gets")
struct ModelFlavorTests {
    @Test func cairnsModelIsATableAndSwiftDatasIsNot() throws {
        #expect((Thermometer.self as Any.Type) is any Table.Type)
        #expect(!((Barometer.self as Any.Type) is any Table.Type))
        #expect(try Thermometer.where { $0.reading.gt(3) }.select { $0.reading.sum() }.render().sql
            == #"SELECT SUM("Thermometer"."reading") FROM "Thermometer" WHERE "Thermometer"."reading" > ?"#)
    }
}
