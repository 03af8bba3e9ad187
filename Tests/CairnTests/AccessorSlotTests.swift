@testable import Cairn
import Foundation
import Testing

/// A model with an Optional attribute of each type a slot keeps unboxed, and two whose
/// Optionals are boxed: its accessors take the `_ModelSlotPrimitive` overloads for the first
/// six and the general ones for the last two. Swift sets every Optional to nil through its
/// init accessor before the initializer's body runs, so the body's assignments are setter
/// calls; `name`, assigned first, makes the storage they write to. `unit`'s declared default
/// goes through the init accessor.
@Model
final class Gauge {
    var name: String
    var unit: String? = "mm"
    var count: Int64?
    var level: Int?
    var ratio: Double?
    var label: String?
    var isOn: Bool?
    var readAt: Date?
    var serial: UUID?
    var small: Int32?

    init(count: Int64?, level: Int?, ratio: Double?, label: String?, isOn: Bool?, readAt: Date?, serial: UUID?,
         small: Int32?) {
        name = "gauge"
        self.count = count
        self.level = level
        self.ratio = ratio
        self.label = label
        self.isOn = isOn
        self.readAt = readAt
        self.serial = serial
        self.small = small
    }
}

@Suite("A model's accessors reach their slots directly")
struct AccessorSlotTests {
    private struct Values: Equatable {
        var count: Int64?, level: Int?, ratio: Double?, label: String?, isOn: Bool?, readAt: Date?, serial: UUID?
        var small: Int32?
        init(_ gauge: Gauge) {
            count = gauge.count; level = gauge.level; ratio = gauge.ratio; label = gauge.label; isOn = gauge.isOn
            readAt = gauge.readAt; serial = gauge.serial; small = gauge.small
        }
        init(count: Int64?, level: Int?, ratio: Double?, label: String?, isOn: Bool?, readAt: Date?, serial: UUID?,
             small: Int32?) {
            self.count = count; self.level = level; self.ratio = ratio; self.label = label; self.isOn = isOn
            self.readAt = readAt; self.serial = serial; self.small = small
        }
        func write(to gauge: Gauge) {
            gauge.count = count; gauge.level = level; gauge.ratio = ratio; gauge.label = label; gauge.isOn = isOn
            gauge.readAt = readAt; gauge.serial = serial; gauge.small = small
        }
    }

    private static let full = Values(
        count: Int64.min, level: -7, ratio: 0.25, label: "ein längerer Text, der nicht klein ist", isOn: false,
        readAt: Date(timeIntervalSinceReferenceDate: 1234.5), serial: UUID(), small: 12)
    private static let empty = Values(
        count: nil, level: nil, ratio: nil, label: nil, isOn: nil, readAt: nil, serial: nil, small: nil)
    private static let other = Values(
        count: 42, level: nil, ratio: nil, label: "", isOn: true, readAt: nil, serial: nil, small: -1)

    private func fetchAll(_ container: ModelContainer) throws -> [Gauge] {
        try ModelContext(container).fetch(FetchDescriptor<Gauge>(sortBy: [SortDescriptor(\.level)]))
    }

    @Test("values set in an initializer and by setters read back the same, unsaved, saved and fetched")
    func roundTrips() throws {
        let container = try memoryContainer(for: Gauge.self)
        let context = ModelContext(container)
        let models = [Self.full, Self.empty, Self.other].map {
            Gauge(count: $0.count, level: $0.level, ratio: $0.ratio, label: $0.label, isOn: $0.isOn, readAt: $0.readAt,
                  serial: $0.serial, small: $0.small)
        }
        #expect(models.map(Values.init) == [Self.full, Self.empty, Self.other])
        models.forEach(context.insert)
        try context.save()
        // Sorted by `level`: nil first, then -7.
        #expect(try fetchAll(container).map(Values.init) == [Self.empty, Self.other, Self.full])

        // Setters on fetched models: every value to nil, every nil to a value.
        let editing = ModelContext(container)
        let fetched = try editing.fetch(FetchDescriptor<Gauge>(sortBy: [SortDescriptor(\.level)]))
        let edits = [Self.full, Self.other, Self.empty]
        for (model, values) in zip(fetched, edits) { values.write(to: model) }
        #expect(fetched.map(Values.init) == edits)
        try editing.save()
        let reread = try ModelContext(container).fetch(FetchDescriptor<Gauge>())
        #expect(Set(reread.map { "\(Values($0))" }) == Set(edits.map { "\($0)" }))
    }

    @Test("the six unboxed types keep their Optional case in the slot, set by an initializer, a fetch or a setter")
    func slotsHoldTheExactCase() throws {
        let container = try memoryContainer(for: Gauge.self)
        let context = ModelContext(container)
        let made = Self.full
        let gauge = Gauge(count: made.count, level: made.level, ratio: made.ratio, label: made.label, isOn: made.isOn,
                          readAt: made.readAt, serial: made.serial, small: made.small)
        context.insert(gauge)
        try context.save()
        let reading = ModelContext(container)
        let fetched = try #require(try reading.fetch(FetchDescriptor<Gauge>()).first)
        let edited = try #require(try ModelContext(container).fetch(FetchDescriptor<Gauge>()).first)
        Self.other.write(to: edited)
        for (model, values) in [(gauge, Self.full), (fetched, Self.full), (edited, Self.other)] {
            let storage = try #require(model._storage)
            func slot(_ name: String) throws -> ModelStorage.Slot {
                storage.slots[try #require(storage.entity.properties.firstIndex { $0.name == name })]
            }
            func primitive(_ name: String) throws -> String {
                if case .primitive(let primitive) = try slot(name) { return "\(primitive)" }
                return "not unboxed: \(try slot(name))"
            }
            #expect(try primitive("unit") == "\(ModelStorage.Primitive.optionalString("mm"))")
            #expect(try primitive("count") == "\(ModelStorage.Primitive.optionalInt64(values.count))")
            #expect(try primitive("level") == "\(ModelStorage.Primitive.optionalInt(values.level))")
            #expect(try primitive("ratio") == "\(ModelStorage.Primitive.optionalDouble(values.ratio))")
            #expect(try primitive("label") == "\(ModelStorage.Primitive.optionalString(values.label))")
            #expect(try primitive("isOn") == "\(ModelStorage.Primitive.optionalBool(values.isOn))")
            #expect(try primitive("readAt") == "\(ModelStorage.Primitive.optionalDate(values.readAt))")
            // Types a slot does not keep unboxed take the general path.
            if case .value(let boxed) = try slot("small") { #expect(boxed as? Int32? == values.small) } else {
                Issue.record("small is not boxed: \(try slot("small"))")
            }
        }
    }

    // A getter of an Optional of an unboxed type reads `exactOptionalPrimitive`, a setter makes
    // its case with `make(optional:)`: each must answer what the general path answers.
    @Test("the Optional exact-case read and make agree with the general ones, for every case and type")
    func optionalPathsAgreeWithTheGeneralOnes() {
        let slots: [ModelStorage.Slot] = [
            .primitive(.int64(7)), .primitive(.int(-3)), .primitive(.double(2.5)), .primitive(.string("text")),
            .primitive(.bool(true)), .primitive(.date(Date(timeIntervalSinceReferenceDate: 1))),
            .primitive(.optionalInt64(7)), .primitive(.optionalInt64(nil)), .primitive(.optionalInt(4)),
            .primitive(.optionalInt(nil)), .primitive(.optionalDouble(0.5)), .primitive(.optionalDouble(nil)),
            .primitive(.optionalString("s")), .primitive(.optionalString(nil)), .primitive(.optionalBool(false)),
            .primitive(.optionalBool(nil)), .primitive(.optionalDate(Date(timeIntervalSinceReferenceDate: -3))),
            .primitive(.optionalDate(nil)), .value(Optional("boxed") as Any), .unloaded, .raw(.integer(1)),
        ]
        func check<Wrapped: _ModelSlotPrimitive & Equatable>(_: Wrapped.Type, _ sample: Wrapped) -> Int {
            var answered = 0
            for slot in slots {
                let exact = slot.exactOptionalPrimitive(Wrapped.self)
                #expect(exact == slot.exactPrimitive(Wrapped?.self), "\(Wrapped.self)? in \(slot)")
                if exact != nil { answered += 1 }
            }
            for value in [sample, nil] as [Wrapped?] {
                let optional = ModelStorage.Primitive.make(optional: value)
                let general = ModelStorage.Primitive.make(value)
                #expect(optional.map { "\($0)" } == general.map { "\($0)" }, "\(Wrapped.self)?: \(String(describing: value))")
                #expect(optional.map { type(of: $0.boxed) == Wrapped?.self } == true)
            }
            return answered
        }
        // Each type answers for its Optional case only, nil or not.
        #expect(check(Int64.self, 1) == 2)
        #expect(check(Int.self, 2) == 2)
        #expect(check(Double.self, 3.5) == 2)
        #expect(check(String.self, "four") == 2)
        #expect(check(Bool.self, true) == 2)
        #expect(check(Date.self, Date(timeIntervalSinceReferenceDate: 5)) == 2)
    }

    // A getter reads through the slot's unretained reference (no retain and release a read);
    // it must name the storage the slot holds strongly, however the slot came by it.
    @Test("a backing-data slot's unretained reference names the storage it holds")
    func unretainedReferenceFollowsTheStorage() throws {
        func check(_ slot: _ModelBackingDataSlot<Gauge>, _ how: String) {
            #expect(slot.storage != nil, "\(how)")
            #expect(slot.unretained?.takeUnretainedValue() === slot.storage?.storage, "\(how)")
        }
        var empty = _ModelBackingDataSlot<Gauge>()
        #expect(empty.storage == nil && empty.unretained == nil)
        // An init accessor's first write makes the storage.
        let nameSlot = try #require(Schema.Entity.of(Gauge.self).properties.firstIndex { $0.name == "name" })
        empty.setValue(forKey: \.name, to: "made", slot: nameSlot)
        check(empty, "made by an init accessor")
        let storage = ModelStorage.stored(
            entity: Schema.Entity.of(Gauge.self), identifier: .permanent(entityName: "Gauge", storeIdentifier: nil, primaryKey: 1))
        check(_ModelBackingDataSlot<Gauge>(fetched: _FetchedStorage(storage: storage)), "a fetched row's")
        check(_ModelBackingDataSlot<Gauge>(DefaultBackingData<Gauge>(fetched: _FetchedStorage(storage: storage))),
              "assigned backing data")
        // A model's getters read what the slot holds, with no context around it.
        let gauge = Gauge(count: 3, level: nil, ratio: nil, label: "l", isOn: nil, readAt: nil, serial: nil, small: nil)
        #expect(gauge.name == "gauge" && gauge.count == 3 && gauge.label == "l" && gauge.unit == "mm")
    }

    // A model whose initializer sets no property makes its backing data on the first write,
    // which goes through the model. Its later reads and writes must reach the storage by slot
    // too: before, the slot never learned of the storage, and every access of such a model
    // took the general path (a key-path lookup, about 2,500 instructions a read).
    @Test("a model whose initializer sets nothing reaches its slots directly after its first write")
    func modelWithoutInitialValuesReachesItsSlots() throws {
        let sticker = Sticker()
        sticker.label = "first"
        sticker.label = "second"
        sticker.size = 3
        let storage = try #require(sticker._storage)
        func slot(_ name: String) throws -> String {
            "\(storage.slots[try #require(storage.entity.properties.firstIndex { $0.name == name })])"
        }
        #expect(try slot("label") == "\(ModelStorage.Slot.primitive(.optionalString("second")))")
        #expect(try slot("size") == "\(ModelStorage.Slot.primitive(.optionalInt(3)))")
        #expect(sticker.label == "second" && sticker.size == 3)
    }
}
