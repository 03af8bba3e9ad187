import Cairn
import Foundation
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

/// A second entity, so identifiers of two entities can share a primary key.
@Model
final class Binder {
    var name: String
    init(name: String) { self.name = name }
}

@Suite("Models made from rows")
struct FetchPathTests {
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

    @Test("values set before a model has storage keep their order: an initializer's nil beats the declared default")
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
        let container = try memoryContainer(for: Jotting.self)
        let context = ModelContext(container)
        context.insert(Jotting(title: "t", color: nil, priority: 1))
        try context.save()
        try container.write(for: Jotting.self) { db in
            try db.execute(sql: #"UPDATE "Jotting" SET "priority" = x'00ff'"#)
        }
        #expect {
            _ = try ModelContext(container).fetch(FetchDescriptor<Jotting>())
        } throws: { error in
            "\(error)".contains("priority")
        }
    }
}

/// A model with an attribute whose type has no empty value: `Location` decodes from no JSON
/// short of its two required fields.
@Model
final class Pin {
    var name: String
    var spot: Location

    init(name: String, spot: Location) {
        self.name = name
        self.spot = spot
    }
}

@Suite("Properties a fetch never leaves unloaded")
struct AlwaysLoadedTests {
    @Test("propertiesToFetch still reads an attribute with no empty value, so a vanished row cannot leave it unreadable")
    func partialFetchReadsValuesWithoutPlaceholder() throws {
        let container = try memoryContainer(for: Pin.self)
        let writer = ModelContext(container)
        writer.insert(Pin(name: "harbour", spot: Location(latitude: 1.5, longitude: -2)))
        try writer.save()

        let reader = ModelContext(container)
        var descriptor = FetchDescriptor<Pin>()
        descriptor.propertiesToFetch = [\.name]
        let pins = try reader.fetch(descriptor)
        #expect(pins.count == 1)
        try container.write(for: Pin.self) { db in try db.execute(sql: #"DELETE FROM "Pin""#) }
        // Before, `spot` was unloaded here and its read stopped the program.
        #expect(pins.first?.spot == Location(latitude: 1.5, longitude: -2))
        #expect(pins.first?.name == "harbour")
    }
}
