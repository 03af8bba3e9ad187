@testable import Cairn
import Foundation
import Synchronization
import Testing

/// A model whose Optionals have no initializer (Swift sets them to `nil` through the backing
/// data before `init(backingData:)`'s body runs), one with a declared default, and one that
/// an initializer overrides.
@Model
final class Jotting {
    var title: String
    var body: String?
    var pinnedAt: Date?
    var color: String? = "yellow"
    var priority: Int?

    init(title: String, color: String?, priority: Int? = nil) {
        self.title = title
        self.color = color
        self.priority = priority
    }
}

/// A model whose initializer sets no property: its backing data is made on first use.
@Model
final class Sticker {
    var label: String?
    var size: Int?
    init() {}
}

/// Attributes of one type on either side of properties that are not persisted: a getter that
/// read the wrong slot would show a neighbour's value.
@Model
final class Postcard {
    var from: String
    @Transient var draft = "unsent"
    var to: String
    var length: Int { from.count + to.count }
    var stamp: String?
    var note: String?
    init(from: String, to: String, stamp: String?, note: String?) {
        self.from = from
        self.to = to
        self.stamp = stamp
        self.note = note
    }
}

/// A second entity, so identifiers of two entities can share a primary key.
@Model
final class Binder {
    var name: String
    init(name: String) { self.name = name }
}

@Suite("Models made from rows")
struct FetchPathTests {
    /// A container holding one saved `Jotting` ("t", no color, priority 1), after `sql` ran on
    /// its store behind the model layer's back.
    private func savedJotting(then sql: String) throws -> ModelContainer {
        let container = try memoryContainer(for: Jotting.self)
        let context = ModelContext(container)
        context.insert(Jotting(title: "t", color: nil, priority: 1))
        try context.save()
        try container.write(for: Jotting.self) { db in try db.execute(sql: sql) }
        return container
    }

    @Test("a fetched model reads its stored values, has no changes, and is the same instance on the next fetch")
    func fetchedModelsAreClean() throws {
        let container = try memoryContainer(for: Jotting.self)
        let writer = ModelContext(container)
        writer.insert(Jotting(title: "a", color: nil, priority: 3))
        writer.insert(Jotting(title: "b", color: "red"))
        try writer.save()

        let reader = ModelContext(container)
        let notes = try reader.fetch(FetchDescriptor<Jotting>(sortBy: [SortDescriptor(\.title)]))
        #expect(notes.map(\.title) == ["a", "b"])
        #expect(notes.map(\.color) == [nil, "red"])
        #expect(notes.map(\.priority) == [3, nil])
        #expect(notes.map(\.body) == [nil, nil])
        #expect(notes.allSatisfy { !$0.hasChanges })
        #expect(!reader.hasChanges)
        let again = try reader.fetch(FetchDescriptor<Jotting>(sortBy: [SortDescriptor(\.title)]))
        #expect(zip(notes, again).allSatisfy { $0 === $1 })
    }

    // A fetch registers its new models after its last row; a row met twice must still be
    // one model, the first one made.
    @Test("a row that comes twice in one fetch's rows is one registered model")
    func rowTwiceInOneFetch() throws {
        let container = try memoryContainer(for: Jotting.self)
        let writer = ModelContext(container)
        writer.insert(Jotting(title: "a", color: nil, priority: 1))
        try writer.save()

        let context = ModelContext(container)
        let layout = try context.table(of: Jotting.self).layout
        let identifier = PersistentIdentifier.permanent(scope: layout.identifierScope, primaryKey: 1)
        func made() -> (Jotting, ModelStorage) {
            let storage = ModelStorage.stored(entity: layout.entity, identifier: identifier)
            storage.context = context
            return (Jotting._$makeFetched(_FetchedStorage(storage: storage)), storage)
        }
        let (first, firstStorage) = made()
        // The second model is dropped in favour of the first: the reference its entry took
        // must be given back, or it would never be freed.
        weak var dropped: Jotting?
        var models: [Jotting] = []
        do {
            let (second, secondStorage) = made()
            dropped = second
            models = [first, second]
            context.registerFetched(
                &models,
                [FreshModel(index: 0, storage: .passUnretained(firstStorage), primaryKey: 1, model: first),
                 FreshModel(index: 1, storage: .passUnretained(secondStorage), primaryKey: 1, model: second)],
                layout: layout)
            #expect(second.modelContext == nil)
        }
        #expect(models[0] === first && models[1] === first)
        #expect(dropped == nil, "the model dropped for the row's first one is freed")
        let registered: Jotting? = context.registeredModel(for: identifier)
        #expect(registered === first)
        #expect(try context.fetch(FetchDescriptor<Jotting>()).first === first)
        #expect(first.title == "a", "the unloaded model faults its row in")
    }

    /// A class value with a count of live instances, to see what a freed storage releases.
    final class Tracked {
        /// Only this test makes instances, on its own thread.
        nonisolated(unsafe) static var alive = 0
        init() { Self.alive += 1 }
        deinit { Self.alive -= 1 }
    }

    // A storage destroys its slots case by case (numbers and Bools cost nothing): every case
    // that holds a reference must still release it.
    @Test("a freed storage releases what each kind of slot holds, and leaves the others alone")
    func freedStorageReleasesItsSlots() throws {
        let entity = Schema.Entity.of(Jotting.self)
        let identifier = PersistentIdentifier.permanent(scope: IdentifierScope(entityName: "Jotting", storeIdentifier: nil), primaryKey: 1)
        Tracked.alive = 0
        weak var released: Tracked?
        var kept: [String] = []
        do {
            let storage = ModelStorage.stored(entity: entity, identifier: identifier)
            #expect(storage.slots.count >= 5)
            let object = Tracked()
            released = object
            let text = String(repeating: "long text that lives on the heap ", count: 4)
            kept.append(text)
            storage.slots[0] = .value(object)
            storage.slots[1] = .primitive(.string(text))
            storage.slots[2] = .primitive(.optionalString(text + "!"))
            storage.slots[3] = .primitive(.int64(42))
            storage.slots[4] = .raw(.text(text + "?"))
            #expect(Tracked.alive == 1)
        }
        #expect(released == nil, "a `.value` slot released its object")
        #expect(Tracked.alive == 0)
        #expect(kept[0].hasPrefix("long text"), "a string the storage shared stays intact")
    }

    // A storage names its model weakly (its model holds it), in its rare-fields box, once a
    // relationship edit or an insert names it: a model type without relationships never does.
    @Test("a storage's owner is held weakly, and an insert of a model without relationships names none")
    func ownerIsWeakAndOnlyNamedForRelationships() throws {
        let trip = Trip(name: "Lisbon")
        let item = Item(title: "tickets")
        let storage = try #require(item._storage)
        trip.items = [item]
        #expect(storage.owner === item && storage.ownerIsNamed)
        #expect(try #require(trip._storage).owner === trip)

        // The storage outlives the model it named: it reads nil, and keeps nothing alive.
        weak var weakItem: Item?
        let orphan: ModelStorage = try {
            let temporary = Item(title: "maps")
            weakItem = temporary
            let storage = try #require(temporary._storage)
            trip.items.append(temporary)
            #expect(storage.owner === temporary)
            trip.items.removeLast()
            return storage
        }()
        #expect(weakItem == nil, "the storage must not keep its named owner alive")
        #expect(orphan.owner == nil)

        let container = try memoryContainer(for: Jotting.self)
        let context = ModelContext(container)
        let jotting = Jotting(title: "plain", color: nil)
        context.insert(jotting)
        let jottingStorage = try #require(jotting._storage)
        #expect(!jottingStorage.ownerIsNamed)
        #expect(jottingStorage.owner === jotting, "found through the context instead")
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Jotting>()).first === jotting)
    }

    @Test("a fetched model's backing data, made when first asked for, is one object over the row's values")
    func fetchedBackingDataIsMadeOnce() throws {
        let container = try savedJotting(then: "SELECT 1")
        let context = ModelContext(container)
        let note = try #require(try context.fetch(FetchDescriptor<Jotting>()).first)
        let backingData = note.persistentBackingData
        #expect(backingData === note.persistentBackingData)
        #expect(backingData.persistentModelID == note.persistentModelID)
        #expect(note.persistentModelID.primaryKey == 1)
        #expect(backingData.getValue(forKey: \Jotting.title) == "t")
        // A write through the backing data and one through the accessor reach the same slot.
        backingData.setValue(forKey: \Jotting.title, to: "through backing data")
        #expect(note.title == "through backing data")
        note.priority = 9
        #expect(backingData.getValue(forKey: \Jotting.priority) == 9)
        #expect(context.hasChanges)
        try context.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<Jotting>())
        #expect(stored.map(\.title) == ["through backing data"])
        #expect(stored.map(\.priority) == [9])
    }

    @Test("a getter's cast of its slot gives what `as?` gives, for exact types and every other case")
    func slotCastMatchesDynamicCast() {
        class Base {}
        final class Derived: Base {}
        let derived = Derived()
        #expect(exactCast("x" as Any, to: String.self) == "x")
        #expect(exactCast(Int?.some(3) as Any, to: Int?.self) == .some(3))
        #expect(exactCast(Int?.none as Any, to: Int?.self) == .some(nil))
        // Not the exact type: through the dynamic cast, as before.
        #expect(exactCast(3 as Any, to: Int?.self) == .some(3))
        #expect(exactCast(derived as Any, to: Base.self) === derived)
        #expect(exactCast("x" as Any, to: Int.self) == nil)
        #expect(exactCast(Int?.none as Any, to: Int.self) == nil)
    }

    @Test("an unboxed slot value reads as its boxed form would, for every case and several property types")
    func primitiveSlotsReadAsBoxed() throws {
        let primitives: [ModelStorage.Primitive] = [
            .int64(7), .int(-3), .double(2.5), .string("ä long enough string to live on the heap"), .bool(true),
            .optionalInt64(7), .optionalInt64(nil), .optionalInt(nil), .optionalDouble(0.5), .optionalString("s"),
            .optionalString(nil), .optionalBool(false), .date(Date(timeIntervalSinceReferenceDate: 12.5)),
            .optionalDate(Date(timeIntervalSinceReferenceDate: -3)), .optionalDate(nil),
        ]
        func agrees<Value: Equatable>(_ type: Value.Type) -> [Bool] {
            primitives.map { $0.cast(to: Value.self) == ($0.boxed as? Value) }
        }
        #expect(agrees(Int64.self).allSatisfy { $0 })
        #expect(agrees(Int64?.self).allSatisfy { $0 })
        #expect(agrees(Int.self).allSatisfy { $0 })
        #expect(agrees(Double?.self).allSatisfy { $0 })
        #expect(agrees(String.self).allSatisfy { $0 })
        #expect(agrees(String?.self).allSatisfy { $0 })
        #expect(agrees(Bool?.self).allSatisfy { $0 })
        #expect(agrees(Date.self).allSatisfy { $0 })
        #expect(agrees(Date?.self).allSatisfy { $0 })
        // The boxed form has the property's exact type, as a `.value` slot held it.
        #expect(type(of: ModelStorage.Primitive.optionalString(nil).boxed) == String?.self)
        #expect(type(of: ModelStorage.Primitive.int64(1).boxed) == Int64.self)
        #expect(ModelStorage.Primitive.optionalInt64(nil).cast(to: Int64?.self) == .some(nil))
        #expect(ModelStorage.Primitive.optionalInt64(nil).cast(to: Int64.self) == nil)
        // Its column value is the one the attribute's codec makes of the boxed value.
        for primitive in primitives {
            let codec = try #require(AttributeCodec.make(for: type(of: primitive.boxed)))
            #expect(codec.representation == .primitive)
            #expect(try codec.encode(primitive.boxed) == primitive.databaseValue, "\(primitive)")
        }
        // A setter's value of one of these types is kept unboxed; any other type is boxed.
        #expect(ModelStorage.Primitive.make("x").map { $0.boxed as? String } == "x")
        #expect(ModelStorage.Primitive.make(Int?.none).map { type(of: $0.boxed) == Int?.self } == true)
        #expect(ModelStorage.Primitive.make(Int32(1)) == nil)
        #expect(ModelStorage.Primitive.make(UUID()) == nil)
        let now = Date.now
        #expect(ModelStorage.Primitive.make(now).map { $0.boxed as? Date } == now)
    }

    // A getter first reads the slot's case for its own type (`exactPrimitive`); a slot of
    // another case answers nil there and goes through the cast, so the two must agree
    // wherever the first answers.
    @Test("a getter's exact-case read answers what the cast answers, for every primitive case and type")
    func exactPrimitiveReadsAgreeWithTheCast() {
        let slots: [ModelStorage.Slot] = [
            .primitive(.int64(7)), .primitive(.int(-3)), .primitive(.double(2.5)),
            .primitive(.string("ä long enough string to live on the heap")), .primitive(.bool(true)),
            .primitive(.optionalInt64(7)), .primitive(.optionalInt64(nil)), .primitive(.optionalInt(4)),
            .primitive(.optionalInt(nil)), .primitive(.optionalDouble(0.5)), .primitive(.optionalDouble(nil)),
            .primitive(.optionalString("s")), .primitive(.optionalString(nil)), .primitive(.optionalBool(false)),
            .primitive(.optionalBool(nil)), .primitive(.date(Date(timeIntervalSinceReferenceDate: 12.5))),
            .primitive(.optionalDate(Date(timeIntervalSinceReferenceDate: -3))), .primitive(.optionalDate(nil)),
            .value("boxed text"), .unloaded, .raw(.integer(1)),
        ]
        func check<Value: Equatable>(_ type: Value.Type) -> (answered: Int, disagreed: [String]) {
            var answered = 0, disagreed: [String] = []
            for slot in slots {
                guard let exact = slot.exactPrimitive(Value.self) else { continue }
                answered += 1
                guard case .primitive(let primitive) = slot, primitive.cast(to: Value.self) == exact else {
                    disagreed.append("\(slot)")
                    continue
                }
            }
            return (answered, disagreed)
        }
        // Each type answers for its plain or its Optional case only (two Optional cases, nil and not).
        let expected: [(String, (answered: Int, disagreed: [String]))] = [
            ("Int64", check(Int64.self)), ("Int64?", check(Int64?.self)), ("Int", check(Int.self)),
            ("Int?", check(Int?.self)), ("Double", check(Double.self)), ("Double?", check(Double?.self)),
            ("String", check(String.self)), ("String?", check(String?.self)), ("Bool", check(Bool.self)),
            ("Bool?", check(Bool?.self)), ("Date", check(Date.self)), ("Date?", check(Date?.self)),
        ]
        for (name, result) in expected {
            #expect(result.disagreed.isEmpty, "\(name): \(result.disagreed)")
            #expect(result.answered == (name.hasSuffix("?") ? 2 : 1), "\(name)")
        }
        // Other types, and other cases, are left to the general path.
        #expect(ModelStorage.Slot.primitive(.int64(1)).exactPrimitive(Int32.self) == nil)
        #expect(ModelStorage.Slot.value("boxed text").exactPrimitive(String.self) == nil)
        #expect(ModelStorage.Slot.primitive(.optionalString("s")).exactPrimitive(String.self) == nil)
    }

    @Test("a slot is 24 bytes: values of other types are boxed, so the common ones stay small")
    func slotSize() {
        // A 14-property model's storage is 432 bytes (the object's 16, its 80-byte header,
        // then the slots), not 672 with an inline `Any`; the header stays at 80 bytes because
        // its rarely set fields live in a box (`ModelStorage.RareFields`).
        #expect(MemoryLayout<ModelStorage.Slot>.stride == 24)
        #expect(MemoryLayout<ModelStorage.Fields>.size == 80)
    }

    @Test("the fields most storages never set are boxed only when set: not by a fetch, an insert or a save")
    func rareFieldsAreMadeWhenSet() throws {
        let container = try memoryContainer(for: Jotting.self)
        let context = ModelContext(container)
        let inserted = Jotting(title: "plain", color: nil)
        context.insert(inserted)
        try context.save()
        let insertedStorage = try #require(inserted._storage)
        #expect(!insertedStorage.hasRareFields)

        let fetched = try #require(try ModelContext(container).fetch(FetchDescriptor<Jotting>()).first)
        let storage = try #require(fetched._storage)
        #expect(!storage.hasRareFields)
        #expect(storage.originals.isEmpty && storage.extra.isEmpty && !storage.ownerIsNamed)

        // An edit keeps the committed value (in the box it makes), and a rollback puts it back.
        let editing = try #require(context.registeredModel(for: inserted.persistentModelID) as Jotting?)
        editing.title = "edited"
        #expect(insertedStorage.hasRareFields)
        #expect(insertedStorage.originals.count == 1)
        context.rollback()
        #expect(editing.title == "plain")
        #expect(insertedStorage.originals.isEmpty)
    }

    @Test("a new model's values of the common types save, read back and roll back as before")
    func newModelPrimitiveSlotsSave() throws {
        let container = try memoryContainer(for: Jotting.self)
        let context = ModelContext(container)
        let note = Jotting(title: "new", color: nil, priority: 4)
        note.body = "text"
        #expect(note.title == "new" && note.priority == 4 && note.color == nil && note.body == "text")
        context.insert(note)
        try context.save()
        note.priority = nil
        note.title = "changed"
        context.rollback()
        #expect(note.title == "new" && note.priority == 4)
        let rows = try container.read(for: Jotting.self) { db in
            try db.fetchAll(sql: #"SELECT "title", "body", "color", "priority" FROM "Jotting""#) { row in
                [row.databaseValue(at: 0), row.databaseValue(at: 1), row.databaseValue(at: 2), row.databaseValue(at: 3)]
            }
        }
        #expect(rows == [[.text("new"), .text("text"), .null, .integer(4)]])
    }

    @Test("an initializer's nil beats the declared default, in memory and once saved")
    func initialValuesApplyInOrder() throws {
        let note = Jotting(title: "plain", color: nil)
        #expect(note.color == nil)
        #expect(Jotting(title: "x", color: "blue").color == "blue")

        let container = try memoryContainer(for: Jotting.self)
        let context = ModelContext(container)
        context.insert(note)
        try context.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<Jotting>())
        #expect(stored.map(\.color) == [nil])
        #expect(stored.map(\.title) == ["plain"])
    }

    @Test("a new model's Optionals without an initializer are nil and count as changed; a declared default and an initializer's value win")
    func newModelOptionals() {
        let note = Jotting(title: "x", color: "blue", priority: 2)
        #expect(note.body == nil)
        #expect(note.pinnedAt == nil)
        #expect(note.color == "blue")
        #expect(note.priority == 2)
        #expect(note.changedPropertyNames == ["title", "body", "pinnedAt", "color", "priority"])
        #expect(Jotting(title: "y", color: "green").priority == nil)
    }

    @Test("a model whose initializer sets nothing gets its backing data on first use, and saves its nils")
    func modelWithNothingSet() throws {
        let fresh = Sticker()
        #expect(fresh.persistentModelID.isTemporary)
        #expect(fresh.persistentBackingData === fresh.persistentBackingData)
        #expect(fresh.label == nil && fresh.size == nil)

        let container = try memoryContainer(for: Sticker.self)
        let context = ModelContext(container)
        let inserted = Sticker()
        context.insert(inserted)
        inserted.size = 4
        try context.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<Sticker>())
        #expect(stored.map(\.label) == [nil])
        #expect(stored.map(\.size) == [4])
        #expect(stored.first?.persistentModelID == inserted.persistentModelID)
    }

    @Test("a fetched model's accessors read and write each property's own slot, loaded, faulted in, or changed")
    func gettersReadTheirOwnSlots() throws {
        let container = try memoryContainer(for: Postcard.self)
        let writer = ModelContext(container)
        writer.insert(Postcard(from: "Ada", to: "Bob", stamp: nil, note: "hi"))
        try writer.save()

        let reader = ModelContext(container)
        let card = try #require(try reader.fetch(FetchDescriptor<Postcard>()).first)
        #expect([card.from, card.to] == ["Ada", "Bob"])
        #expect(card.stamp == nil && card.note == "hi")
        #expect(card.draft == "unsent" && card.length == 6)
        card.to = "Cy"
        card.stamp = "1c"
        #expect(card.to == "Cy" && card.stamp == "1c" && card.from == "Ada")
        // Written by slot, the change is recorded as through the key path: saved, or rolled back.
        #expect(card.changedPropertyNames == ["to", "stamp"] && reader.hasChanges)
        try reader.save()
        let saved = try #require(try ModelContext(container).fetch(FetchDescriptor<Postcard>()).first)
        #expect(saved.to == "Cy" && saved.stamp == "1c")
        card.note = nil
        reader.rollback()
        #expect(card.note == "hi" && !reader.hasChanges)

        // Only `from` read: the others load on first access, then read by slot.
        var partial = FetchDescriptor<Postcard>()
        partial.propertiesToFetch = [\.from]
        let partialReader = ModelContext(container)
        let other = try #require(try partialReader.fetch(partial).first)
        #expect(other.from == "Ada")
        #expect(other.note == "hi")
        #expect(other.to == "Cy")
        #expect(other.stamp == "1c")
    }

    @Test("a column holding another storage class than its property's natural one is converted as the codec does")
    func otherStorageClassesConvert() throws {
        // SQLite keeps what it is given: an integer in a TEXT column, text in an INTEGER one.
        let container = try savedJotting(then: #"UPDATE "Jotting" SET "title" = 42, "priority" = '7', "body" = 1.5, "color" = NULL"#)
        let fetched = try ModelContext(container).fetch(FetchDescriptor<Jotting>())
        #expect(fetched.map(\.title) == ["42"])
        #expect(fetched.map(\.priority) == [7])
        #expect(fetched.map(\.body) == ["1.5"])
        #expect(fetched.map(\.color) == [nil])
    }

    @Test("a Date column's REAL, INTEGER, numeric text and NULL read as the Date codec reads them")
    func dateColumnsReadAsTheCodec() throws {
        for (stored, expected) in [
            ("1.5", Date(timeIntervalSinceReferenceDate: 1.5)), ("-86400", Date(timeIntervalSinceReferenceDate: -86_400)),
            ("'2.25'", Date(timeIntervalSinceReferenceDate: 2.25)), ("NULL", nil),
        ] as [(String, Date?)] {
            let container = try savedJotting(then: #"UPDATE "Jotting" SET "pinnedAt" = "# + stored)
            let fetched = try ModelContext(container).fetch(FetchDescriptor<Jotting>())
            #expect(fetched.map(\.pinnedAt) == [expected], "pinnedAt = \(stored)")
        }
    }

    @Test("a NULL in a non-optional column is an error naming the column, not a default")
    func nullInRequiredColumnThrows() throws {
        let container = try memoryContainer(for: Binder.self)
        let context = ModelContext(container)
        context.insert(Binder(name: "f"))
        try context.save()
        try container.write(for: Binder.self) { db in
            try db.execute(sql: #"CREATE TABLE "Copy" AS SELECT * FROM "Binder""#)
            try db.execute(sql: #"DROP TABLE "Binder""#)
            try db.execute(sql: #"CREATE TABLE "Binder" ("id" INTEGER PRIMARY KEY, "name" TEXT)"#)
            try db.execute(sql: #"INSERT INTO "Binder" ("id", "name") SELECT "id", NULL FROM "Copy""#)
        }
        #expect {
            _ = try ModelContext(container).fetch(FetchDescriptor<Binder>())
        } throws: { error in
            "\(error)".contains(#""Binder"."name""#)
        }
    }

    @Test("identifiers of two entities with the same primary key stay distinct as keys")
    func identifiersOfTwoEntities() throws {
        let container = try memoryContainer(for: Jotting.self, Binder.self)
        let context = ModelContext(container)
        let note = Jotting(title: "n", color: nil)
        let folder = Binder(name: "f")
        context.insert(note)
        context.insert(folder)
        try context.save()
        #expect(note.persistentModelID.primaryKey == folder.persistentModelID.primaryKey)
        #expect(note.persistentModelID != folder.persistentModelID)

        let byID: [PersistentIdentifier: String] = [note.persistentModelID: "note", folder.persistentModelID: "folder"]
        #expect(byID.count == 2)
        #expect(byID[note.persistentModelID] == "note")
        #expect(byID[folder.persistentModelID] == "folder")

        let other = ModelContext(container)
        let fetchedNote: Jotting? = other.model(for: note.persistentModelID) as? Jotting
        let fetchedFolder: Binder? = other.model(for: folder.persistentModelID) as? Binder
        #expect(fetchedNote?.title == "n")
        #expect(fetchedFolder?.name == "f")
    }

    @Test("a stored value that cannot be read as the property's type is an error naming the column")
    func undecodableValueThrows() throws {
        let container = try savedJotting(then: #"UPDATE "Jotting" SET "priority" = x'00ff'"#)
        #expect {
            _ = try ModelContext(container).fetch(FetchDescriptor<Jotting>())
        } throws: { error in
            "\(error)".contains("priority")
        }
    }

    @Test("a fetch that fails on a later row leaves none of the models it made registered")
    func failedFetchRegistersNothing() throws {
        let container = try memoryContainer(for: Jotting.self)
        let writer = ModelContext(container)
        writer.insert(Jotting(title: "readable", color: nil, priority: 1))
        writer.insert(Jotting(title: "broken", color: nil, priority: 2))
        try writer.save()
        try container.write(for: Jotting.self) { db in
            try db.execute(sql: #"UPDATE "Jotting" SET "priority" = x'00ff' WHERE "title" = 'broken'"#)
        }
        let layout = try writer.table(of: Jotting.self).layout
        let context = ModelContext(container)
        #expect(throws: (any Error).self) {
            _ = try context.fetch(FetchDescriptor<Jotting>(sortBy: [SortDescriptor(\.priority)]))
        }
        let readable: Jotting? = context.registeredModel(
            for: PersistentIdentifier.permanent(scope: layout.identifierScope, primaryKey: 1))
        #expect(readable == nil)
    }

    // A fetch holds an extra reference to each model it makes until it registers them after
    // the last row; a fetch that throws before then must give those references back.
    @Test("a fetch that fails on a later row frees the models it made before it")
    func failedFetchFreesItsModels() throws {
        let container = try memoryContainer(for: Tally.self)
        let writer = ModelContext(container)
        for amount in 1...3 { writer.insert(Tally(amount: amount)) }
        try writer.save()
        try container.write(for: Tally.self) { db in
            try db.execute(sql: #"UPDATE "Tally" SET "amount" = x'00ff' WHERE "amount" = 3"#)
        }
        try withExtendedLifetime(writer) {
            let before = Tally.freed.load(ordering: .relaxed)
            #expect(throws: ModelError.self) {
                _ = try ModelContext(container).fetch(FetchDescriptor<Tally>(sortBy: [SortDescriptor(\.amount)]))
            }
            // Rows 1 and 2 became models before row 3 failed.
            #expect(Tally.freed.load(ordering: .relaxed) - before == 2)
            // The same fetch, once it succeeds, keeps its models alive in the context.
            try container.write(for: Tally.self) { db in
                try db.execute(sql: #"UPDATE "Tally" SET "amount" = 3 WHERE "id" = 3"#)
            }
            let context = ModelContext(container)
            let freedAfterTheFailure = before + 2
            _ = try context.fetch(FetchDescriptor<Tally>()).count
            #expect(Tally.freed.load(ordering: .relaxed) == freedAfterTheFailure)
            #expect(context.tracked.count == 3)
        }
    }
}

/// A model that counts its freed instances (only `failedFetchFreesItsModels` makes them).
@Model
final class Tally {
    static let freed = Atomic<Int>(0)
    var amount: Int

    init(amount: Int) {
        self.amount = amount
    }

    deinit { Self.freed.add(1, ordering: .relaxed) }
}

/// `Location` has no empty JSON form but an empty value field by field; `Shape` (an enum with
/// associated values) has none at all.
@Model
final class Pin {
    var name: String
    var spot: Location
    var shape: Shape

    init(name: String, spot: Location, shape: Shape) {
        self.name = name
        self.spot = spot
        self.shape = shape
    }
}

@Suite("Properties whose row is gone")
struct VanishedRowTests {
    @Test("propertiesToFetch still reads an attribute with no empty value; one with an empty value reads it after the row is gone")
    func partialFetchThenDelete() throws {
        let container = try memoryContainer(for: Pin.self)
        let writer = ModelContext(container)
        writer.insert(Pin(name: "harbour", spot: Location(latitude: 1.5, longitude: -2), shape: .circle(radius: 3)))
        try writer.save()

        let reader = ModelContext(container)
        var descriptor = FetchDescriptor<Pin>()
        descriptor.propertiesToFetch = [\.name]
        let pins = try reader.fetch(descriptor)
        #expect(pins.count == 1)
        try container.write(for: Pin.self) { db in try db.execute(sql: #"DELETE FROM "Pin""#) }
        // `shape` was read with the row although not asked for; before, it was left unloaded
        // and its read stopped the program.
        #expect(pins.first?.shape == .circle(radius: 3))
        #expect(pins.first?.name == "harbour")
        // `spot` was not read and its row is gone: its fields' empty values.
        #expect(pins.first?.spot == Location(latitude: 0, longitude: 0))
    }

    @Test("model(for:) of a row that does not exist reads empty values instead of stopping the program")
    func modelForMissingRow() throws {
        let container = try memoryContainer(for: Jotting.self)
        let context = ModelContext(container)
        let note = Jotting(title: "gone", color: "red", priority: 2)
        context.insert(note)
        try context.save()
        let id = note.persistentModelID
        context.delete(note)
        try context.save()

        let placeholder = ModelContext(container).model(for: id) as? Jotting
        #expect(placeholder?.persistentModelID == id)
        #expect(placeholder?.title == "")
        #expect(placeholder?.priority == nil)
        #expect(placeholder?.color == "yellow")  // the declared default
    }

    @Test("model(for:) of a missing row whose entity has a property with no empty value is no model of that entity")
    func modelForMissingRowWithoutEmptyValue() throws {
        let container = try memoryContainer(for: Pin.self)
        let context = ModelContext(container)
        let pin = Pin(name: "gone", spot: Location(latitude: 4, longitude: 5), shape: .square(side: 1))
        context.insert(pin)
        try context.save()
        let id = pin.persistentModelID
        context.delete(pin)
        try context.save()

        // A Pin would have to answer `shape`, and `Shape` has no empty value: reading it could
        // only stop the program. The answer keeps the identifier but is not a Pin.
        let answer = ModelContext(container).model(for: id)
        #expect(answer as? Pin == nil)
        #expect(answer.persistentModelID == id)
    }

    @Test("the empty value of a Decodable type, field by field")
    func emptyValues() {
        struct Nested: Codable, Equatable { var id: UUID; var tags: [String]; var note: String?; var when: Date }
        struct Outer: Codable, Equatable { var count: Int; var nested: Nested; var flag: Bool }
        enum Kind: String, Codable, CaseIterable { case first, second }
        let empty = Outer(count: 0, nested: Nested(id: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), tags: [],
                                                   note: nil, when: Date(timeIntervalSinceReferenceDate: 0)), flag: false)
        #expect(EmptyValueDecoder.make(Outer.self) == empty)
        #expect(EmptyValueDecoder.make(Kind.self) == .first)
        #expect(EmptyValueDecoder.make(Shape.self) == nil)
    }
}

/// A model written by hand whose `init(backingData:)` drops the backing data it is given
/// (SwiftData requires a model to keep it).
final class ForgetfulModel: PersistentModel {
    static var schemaMetadata: [Schema.PropertyMetadata] { [] }
    var persistentBackingData: any BackingData<ForgetfulModel>

    init(backingData: any BackingData<ForgetfulModel>) {
        persistentBackingData = DefaultBackingData<ForgetfulModel>(for: ForgetfulModel.self)
    }

    init() { persistentBackingData = DefaultBackingData<ForgetfulModel>(for: ForgetfulModel.self) }
}

@Suite("A model that drops its backing data")
struct ForgetfulModelTests {
    // The fetch hands a new row's storage to the model and keeps no other reference: a model
    // that does not keep it is an error naming the type, not a read of freed memory.
    @Test("fetching a model whose init(backingData:) drops its backing data throws an error that says so",
          arguments: [false, true])
    func fetchThrows(someProperties: Bool) throws {
        let container = try memoryContainer(for: ForgetfulModel.self)
        let writer = ModelContext(container)
        writer.insert(ForgetfulModel())
        try writer.save()
        var descriptor = FetchDescriptor<ForgetfulModel>()
        // `propertiesToFetch` takes a path of its own (the partial fetch).
        if someProperties { descriptor.propertiesToFetch = [\ForgetfulModel.persistentModelID] }
        let error = #expect(throws: ModelError.self) { try ModelContext(container).fetch(descriptor) }
        #expect(error?.kind == .invalidSchema)
        #expect(error?.description.contains("ForgetfulModel.init(backingData:) did not keep the backing data") == true)
    }
}
