@testable import Cairn
import Foundation
import Testing

/// A fetch whose rows come in primary-key order leaves its models out of the context's
/// identity tables until something reads them (ModelContext+DeferredRegistration.swift).
/// Whatever reads them must find every model, as if the fetch had registered them itself.
@Suite("A fetch's models registered when the context's tables are first read")
struct DeferredRegistrationTests {
    /// A container with jottings titled "0" … "count - 1", saved in that order.
    private func jottings(_ count: Int) throws -> ModelContainer {
        let container = try memoryContainer(for: Jotting.self)
        let writer = ModelContext(container)
        for number in 0..<count { writer.insert(Jotting(title: "\(number)", color: nil, priority: number)) }
        try writer.save()
        return container
    }

    @Test("a fetch in key order defers, and model(for:) then finds each of its models")
    func modelForFindsDeferredModels() throws {
        let context = ModelContext(try jottings(3))
        let notes = try context.fetch(FetchDescriptor<Jotting>())
        #expect(notes.map(\.title) == ["0", "1", "2"])
        #expect(context.deferredRegistration?.fresh.count == 3)
        for note in notes {
            #expect(context.model(for: note.persistentModelID) as? Jotting === note)
        }
        #expect(context.deferredRegistration == nil)
        #expect(context.tracked.count == 3)
        #expect(context.byIdentifier.count == 3)
        let registered: Jotting? = context.registeredModel(for: notes[1].persistentModelID)
        #expect(registered === notes[1])
    }

    @Test("the next fetch returns the instances the deferred fetch made, in its own order")
    func nextFetchReturnsTheSameInstances() throws {
        let context = ModelContext(try jottings(4))
        let first = try context.fetch(FetchDescriptor<Jotting>())
        let reversed = try context.fetch(FetchDescriptor<Jotting>(sortBy: [SortDescriptor(\.title, order: .reverse)]))
        #expect(reversed.map(\.title) == ["3", "2", "1", "0"])
        #expect(zip(first.reversed(), reversed).allSatisfy { $0 === $1 })
        let filtered = try context.fetch(FetchDescriptor<Jotting>(predicate: #Predicate { $0.title == "2" }))
        #expect(filtered.count == 1 && filtered.first === first[2])
    }

    @Test("edits and deletes of deferred models are changes, and save writes them")
    func editsAndDeletesAreSaved() throws {
        let container = try jottings(3)
        let context = ModelContext(container)
        let notes = try context.fetch(FetchDescriptor<Jotting>())
        #expect(context.deferredRegistration != nil)
        notes[0].title = "edited"
        context.delete(notes[1])
        #expect(context.hasChanges)
        #expect(context.changedModelsArray.count == 1 && context.changedModelsArray.first as? Jotting === notes[0])
        #expect(context.deletedModelsArray.count == 1 && context.deletedModelsArray.first as? Jotting === notes[1])
        try context.save()
        #expect(!context.hasChanges)

        let saved = try ModelContext(container).fetch(FetchDescriptor<Jotting>())
        #expect(saved.map(\.title) == ["edited", "2"])
    }

    @Test("an insert after a deferred fetch is fetched beside the deferred models")
    func insertAfterDeferredFetch() throws {
        let context = ModelContext(try jottings(2))
        let notes = try context.fetch(FetchDescriptor<Jotting>())
        let added = Jotting(title: "new", color: nil)
        context.insert(added)
        let all = try context.fetch(FetchDescriptor<Jotting>(sortBy: [SortDescriptor(\.title)]))
        #expect(all.map(\.title) == ["0", "1", "new"])
        #expect(all[0] === notes[0] && all[1] === notes[1] && all[2] === added)
    }

    @Test("a fetch out of key order registers at once")
    func outOfKeyOrderRegistersAtOnce() throws {
        let sorted = ModelContext(try jottings(3))
        let notes = try sorted.fetch(FetchDescriptor<Jotting>(sortBy: [SortDescriptor(\.title, order: .reverse)]))
        #expect(notes.count == 3)
        #expect(sorted.deferredRegistration == nil)
        #expect(sorted.trackedTable.count == 3)
    }

    /// Lisbon with items a and b, and Porto with none, saved.
    private func trips() throws -> ModelContainer {
        let container = try memoryContainer(for: Trip.self, Item.self, Tag.self)
        let writer = ModelContext(container)
        let lisbon = Trip(name: "Lisbon")
        writer.insert(lisbon)
        writer.insert(Trip(name: "Porto"))
        lisbon.items = [Item(title: "a"), Item(title: "b")]
        try writer.save()
        return container
    }

    @Test("deferred models of entities with relationships resolve them to the registered instances")
    func relationshipsResolveToDeferredModels() throws {
        let context = ModelContext(try trips())
        let items = try context.fetch(FetchDescriptor<Item>())
        #expect(context.deferredRegistration?.fresh.count == 2)
        let trips = try context.fetch(FetchDescriptor<Trip>())
        #expect(context.deferredRegistration?.fresh.count == 2)
        #expect(trips.map(\.name) == ["Lisbon", "Porto"])
        #expect(items.allSatisfy { $0.trip === trips[0] })
        #expect(Set(trips[0].items.map(ObjectIdentifier.init)) == Set(items.map(ObjectIdentifier.init)))
        #expect(trips[1].items.isEmpty)
        items[1].trip = trips[1]
        try context.save()
        let saved = try ModelContext(context.container).fetch(FetchDescriptor<Item>(sortBy: [SortDescriptor(\.title)]))
        #expect(saved.map { $0.trip?.name } == ["Lisbon", "Porto"])
    }

    @Test("a context dropped with deferred models of an entity with relationships lets go of them")
    func droppedContextFreesDeferredRelatedModels() throws {
        let container = try trips()
        weak var trip: Trip?
        weak var item: Item?
        do {
            let context = ModelContext(container)
            let trips = try context.fetch(FetchDescriptor<Trip>())
            let items = try context.fetch(FetchDescriptor<Item>())
            #expect(items[0].trip === trips[0])  // registers both fetches, and holds a relationship
            let more = ModelContext(container)
            let deferred = try more.fetch(FetchDescriptor<Trip>())
            #expect(more.deferredRegistration?.fresh.count == 2)
            (trip, item) = (deferred[0], items[0])
        }
        #expect(trip == nil)
        #expect(item == nil)
    }

    @Test("a context dropped with deferred models lets go of them; a model kept outlives it")
    func droppedContextFreesDeferredModels() throws {
        let container = try jottings(3)
        weak var dropped: Jotting?
        var kept: Jotting?
        do {
            let context = ModelContext(container)
            let notes = try context.fetch(FetchDescriptor<Jotting>())
            #expect(context.deferredRegistration != nil)
            dropped = notes[0]
            kept = notes[2]
        }
        #expect(dropped == nil)
        #expect(kept?.title == "2")
        #expect(kept?.priority == 2)
        #expect(kept?.modelContext == nil)
    }

    @Test("a second deferring fetch registers the first fetch's models before its own rows")
    func secondFetchRegistersTheFirst() throws {
        let container = try jottings(2)
        let context = ModelContext(container)
        let firstNotes = try context.fetch(FetchDescriptor<Jotting>())
        let writer = ModelContext(container)
        writer.insert(Jotting(title: "later", color: nil))
        try writer.save()
        let secondNotes = try context.fetch(FetchDescriptor<Jotting>())
        #expect(secondNotes.map(\.title) == ["0", "1", "later"])
        #expect(secondNotes[0] === firstNotes[0] && secondNotes[1] === firstNotes[1])
        // The second fetch made one model (the new row) and deferred it.
        #expect(context.deferredRegistration?.fresh.count == 1)
        #expect(context.tracked.count == 3)
    }
}

/// Two `@Model` classes of one entity name ("Memo"): a fetch of one finds rows registered as
/// the other, which it cannot return, and makes its own models for them.
enum MemosA {
    @Model
    final class Memo {
        var text: String
        init(text: String) { self.text = text }
    }
}

enum MemosB {
    @Model
    final class Memo {
        var text: String
        init(text: String) { self.text = text }
    }
}

extension DeferredRegistrationTests {
    @Test("a deferred fetch of rows registered as another class of the entity's name takes their identifiers, as an immediate one does")
    func otherClassOfTheEntityName() throws {
        let container = try memoryContainer(for: MemosA.Memo.self)
        let writer = ModelContext(container)
        writer.insert(MemosA.Memo(text: "one"))
        writer.insert(MemosA.Memo(text: "two"))
        try writer.save()

        let context = ModelContext(container)
        let asA = try context.fetch(FetchDescriptor<MemosA.Memo>())
        let asB = try context.fetch(FetchDescriptor<MemosB.Memo>())
        #expect(asB.map(\.text) == ["one", "two"])
        #expect(context.deferredRegistration?.fresh.count == 2)
        // Registered, the B models hold the identifiers, and the next fetch of B returns them.
        #expect(context.model(for: asB[0].persistentModelID) as? MemosB.Memo === asB[0])
        let again = try context.fetch(FetchDescriptor<MemosB.Memo>())
        #expect(zip(asB, again).allSatisfy { $0 === $1 })
        #expect(context.tracked.count == 4)
        #expect(context.byIdentifier.count == 2)
        #expect(asA.count == 2)
    }
}

extension DeferredRegistrationTests {
    @Test("a context dropped after a deferred model took new backing data walks the model's current storage")
    func deferredModelWithNewBackingData() throws {
        let container = try trips()
        weak var dropped: Trip?
        var kept: Trip?
        do {
            let context = ModelContext(container)
            let fetched = try context.fetch(FetchDescriptor<Trip>())
            #expect(context.deferredRegistration?.fresh.count == 2)
            // The model lets go of its fetched storage: the context must walk the model's new
            // one when it goes. (The old one is kept alive through the check, so that the new
            // one cannot take its address.)
            let original = fetched[1].persistentBackingData
            fetched[1].persistentBackingData = Trip.createBackingData()
            fetched[1].name = "Faro"
            let current = try #require(fetched[1]._storage)
            withExtendedLifetime(original) {
                #expect(context.deferredRegistration?.storages.contains { $0 === current } == true)
            }
            (dropped, kept) = (fetched[0], fetched[1])
        }
        #expect(dropped == nil)
        #expect(kept?.name == "Faro")
    }

    @Test("a deferred model given a relationship keeps it, read the same, after the context goes")
    func deferredModelGivenARelationship() throws {
        let container = try memoryContainer(for: Trip.self, Item.self, Tag.self)
        let writer = ModelContext(container)
        writer.insert(Item(title: "loose"))
        try writer.save()
        var item: Item?
        var trip: Trip?
        do {
            let context = ModelContext(container)
            let items = try context.fetch(FetchDescriptor<Item>())
            #expect(context.deferredRegistration?.fresh.count == 1)
            let newTrip = Trip(name: "New")
            items[0].trip = newTrip
            (item, trip) = (items[0], newTrip)
        }
        #expect(item?.modelContext == nil)
        #expect(item?.trip === trip)
        #expect(trip?.items.map(\.title) == ["loose"])
    }
}
