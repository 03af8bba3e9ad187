import Testing

/// Core Data declarations ported to `@Model` as written: implicitly unwrapped optionals, a
/// persisted `_name` beside `name`, and `Set` relationships.
@Suite("@Model expands Core Data spellings")
struct ModelSpellingMacroTests {
    @Test("an implicitly unwrapped optional is spelled as its Optional wherever a type argument or a cast needs one")
    func implicitlyUnwrappedOptionals() {
        let source = """
            @Model final class Car {
                var numberPlate: String!
                var mileage: Int! = 0
            }
            """
        assertExpansionContains(source, [
            "let numberPlate = Cairn.TableColumn<Car, String?>(\"numberPlate\", table: Car.tableName)",
            "let mileage = Cairn.TableColumn<Car, Int?>(\"mileage\", table: Car.tableName)",
            "Cairn.Schema.PropertyMetadata(name: \"mileage\", keypath: \\Car.mileage, defaultValue: (0) as Int?)",
            "nonisolated(unsafe) private static let _$keyPath_numberPlate: KeyPath<Car, String?> = \\Car.numberPlate",
            // Only a non-nil value is passed on, as for any Optional.
            "if initialValue != nil {\n            _$backingData.setValue(forKey: \\.numberPlate, to: initialValue, slot: 0)\n        }",
        ])
        assertExpansionLacks(source, ["String!>", "as Int!"])
    }

    @Test("a class's own _name moves the stored peer of name to _$name")
    func storagePeerBesideUnderscoredProperty() {
        let source = """
            @Model final class Car {
                var _notes: String = ""
                var notes: String = ""
                var plate: String = ""
            }
            """
        assertExpansionContains(source, [
            // `_notes` is a persisted property of its own, with the usual peer.
            "@storageRestrictions(accesses: _$backingData, initializes: __notes)",
            "private nonisolated(unsafe) var __notes: _SwiftDataNoType",
            // `notes` cannot take `_notes`: its peer is `_$notes`.
            "@storageRestrictions(accesses: _$backingData, initializes: _$notes)",
            "        _$notes = _SwiftDataNoType()\n    }",
            "private nonisolated(unsafe) var _$notes: _SwiftDataNoType",
            // The other properties keep SwiftData's naming.
            "private nonisolated(unsafe) var _plate: _SwiftDataNoType",
            "public nonisolated required init(backingData: any Cairn.BackingData<Car>) {\n        __notes = _SwiftDataNoType()\n"
                + "        _$notes = _SwiftDataNoType()\n        _plate = _SwiftDataNoType()\n",
        ])
        assertExpansionLacks(source, ["private nonisolated(unsafe) var _notes: _SwiftDataNoType", "initializes: _notes)"])
    }

    @Test("a Set of models is a relationship like an array of them")
    func setRelationship() {
        let source = """
            @Model final class Garage {
                var cars: Set<Car> = []
            }
            """
        assertExpansionContains(source, [
            "Cairn.Schema.PropertyMetadata(name: \"cars\", keypath: \\Garage.cars, defaultValue: ([]) as Set<Car>)",
            "return _$backingData.value(of: self, forKey: \\.cars, slot: 0)",
        ])
    }
}
