@testable import Cairn
import Testing

@Suite("Relationships")
struct RelationshipTests {
    @Test("setting a to-one relationship updates the inverse to-many, and moving it updates both")
    func toOneInverse() {
        let rome = Trip(name: "Rome")
        let oslo = Trip(name: "Oslo")
        let passport = Item(title: "Passport")
        passport.trip = rome
        #expect(rome.items.map(\.title) == ["Passport"])
        passport.trip = oslo
        #expect(rome.items.isEmpty)
        #expect(oslo.items.map(\.title) == ["Passport"])
        passport.trip = nil
        #expect(oslo.items.isEmpty)
    }

    @Test("setting a to-many relationship sets each inverse to-one")
    func toManyInverse() {
        let rome = Trip(name: "Rome")
        let a = Item(title: "A")
        let b = Item(title: "B")
        rome.items = [a, b]
        #expect(a.trip === rome)
        #expect(b.trip === rome)
        rome.items = [b]
        #expect(a.trip == nil)
        #expect(b.trip === rome)
    }

    @Test("many-to-many relationships keep both sides")
    func manyToMany() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        do {
            let context = ModelContext(try store.container(for: Trip.self))
            let rome = Trip(name: "Rome")
            let oslo = Trip(name: "Oslo")
            let city = Tag(name: "city")
            let cold = Tag(name: "cold")
            rome.tags = [city]
            oslo.tags = [city, cold]
            #expect(Set(city.trips.map(\.name)) == ["Rome", "Oslo"])
            #expect(cold.trips.map(\.name) == ["Oslo"])
            context.insert(rome)
            context.insert(oslo)
            try context.save()
        }
        let context = ModelContext(try store.container(for: Trip.self))
        let tags = try context.fetch(FetchDescriptor<Tag>(sortBy: [SortDescriptor(\.name)]))
        #expect(tags.map(\.name) == ["city", "cold"])
        #expect(Set(tags[0].trips.map(\.name)) == ["Rome", "Oslo"])
        #expect(tags[1].trips.map(\.name) == ["Oslo"])
        let oslo = try #require(tags[1].trips.first)
        #expect(Set(oslo.tags.map(\.name)) == ["city", "cold"])
    }

    @Test("inserting a model inserts the new models it references, and relationships persist")
    func graphInsertAndReopen() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        do {
            let context = ModelContext(try store.container(for: Trip.self))
            let rome = Trip(name: "Rome")
            _ = Item(title: "Passport", trip: rome)
            rome.items.append(Item(title: "Tickets"))
            context.insert(rome)
            #expect(context.insertedModelsArray.count == 3, "the trip and both items")
            try context.save()
        }
        let context = ModelContext(try store.container(for: Trip.self))
        let items = try context.fetch(FetchDescriptor<Item>(sortBy: [SortDescriptor(\.title)]))
        #expect(items.map(\.title) == ["Passport", "Tickets"])
        let trip = try #require(items[0].trip)
        #expect(trip.name == "Rome")
        #expect(items[1].trip === trip, "one instance per row")
        #expect(Set(trip.items.map(\.title)) == ["Passport", "Tickets"])
    }

    @Test("one save of models of three entities inserted alternately: every row, key and link is written")
    func alternatingEntitiesInOneSave() throws {
        let container = try memoryContainer(for: Trip.self, Item.self, Tag.self)
        let context = ModelContext(container)
        var trips: [Trip] = []
        for index in 0..<4 {
            // Trip, Item, Tag, Item, Trip, …: each entity's models come in several runs, and
            // items point at trips inserted later in the same save.
            let trip = Trip(name: "T\(index)")
            let tag = Tag(name: "G\(index)")
            context.insert(Item(title: "I\(index)a", trip: trip))
            context.insert(trip)
            context.insert(tag)
            context.insert(Item(title: "I\(index)b"))
            trip.tags = [tag] + trips.map { $0.tags }.joined()
            trips.append(trip)
        }
        try context.save()
        #expect(Set(context.insertedModelsArray.map(\.persistentModelID)).isEmpty)

        let fresh = ModelContext(container)
        let items = try fresh.fetch(FetchDescriptor<Item>(sortBy: [SortDescriptor(\.title)]))
        #expect(items.map(\.title) == ["I0a", "I0b", "I1a", "I1b", "I2a", "I2b", "I3a", "I3b"])
        #expect(items.map { $0.trip?.name } == ["T0", nil, "T1", nil, "T2", nil, "T3", nil])
        let saved = try fresh.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(saved.map { $0.tags.map(\.name).sorted() } == [["G0"], ["G0", "G1"], ["G0", "G1", "G2"], ["G0", "G1", "G2", "G3"]])
        #expect(Set(items.map(\.persistentModelID)).count == 8)
        #expect(Set(saved.map(\.persistentModelID)) == Set(trips.map(\.persistentModelID)))
    }

    @Test("related models load lazily, with one query per relationship, not one per row")
    func lazyLoading() throws {
        let container = try memoryContainer(for: Trip.self)
        do {
            let context = ModelContext(container)
            for t in 0..<3 {
                let trip = Trip(name: "Trip \(t)")
                for i in 0..<4 { trip.items.append(Item(title: "Item \(t)-\(i)")) }
                context.insert(trip)
            }
            try context.save()
        }
        let store = try container.store(for: "Item")
        let context = ModelContext(container)
        let before = store.statementCount
        let items = try context.fetch(FetchDescriptor<Item>())
        #expect(items.count == 12)
        #expect(store.statementCount == before + 1)
        let names = Set(items.compactMap { $0.trip?.name })
        #expect(names == ["Trip 0", "Trip 1", "Trip 2"])
        #expect(store.statementCount == before + 2, "every trip came in one query")
        #expect(store.executedStatements.last?.contains(#""id" IN ("#) == true)
        let trip = try #require(items.first?.trip)
        #expect(trip.items.count == 4)
        #expect(store.statementCount == before + 3, "a to-many relationship is one query")
        #expect(store.executedStatements.last == #"SELECT "id", "title", "trip" FROM "Item" WHERE "trip" = ?"#)
    }

    @Test("cascade deletes the related models")
    func cascade() throws {
        let container = try memoryContainer(for: Trip.self)
        let context = ModelContext(container)
        let rome = Trip(name: "Rome")
        rome.items = [Item(title: "A"), Item(title: "B")]
        context.insert(rome)
        try context.save()
        context.delete(rome)
        try context.save()
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<Item>()).isEmpty)
        #expect(try fresh.fetch(FetchDescriptor<Trip>()).isEmpty)
    }

    @Test("one save of many deletes applies every cascade, deletes each row once, and keeps the rest")
    func manyDeletesWithCascades() throws {
        let container = try memoryContainer(for: Trip.self)
        let context = ModelContext(container)
        let trips = (0..<300).map { t in
            let trip = Trip(name: "Trip \(t)")
            trip.items = [Item(title: "\(t)-a"), Item(title: "\(t)-b")]
            context.insert(trip)
            return trip
        }
        try context.save()
        // An item deleted before its trip, then reached again by the trip's cascade.
        context.delete(trips[0].items[0])
        for trip in trips.dropLast() { context.delete(trip) }
        let store = try container.store(for: "Item")
        let before = store.statementCount
        try context.save()
        let saved = store.executedStatements.suffix(store.statementCount - before)
        // The trips' keys are one run, and so are the cascaded items' after the one deleted first.
        #expect(saved.filter { $0.hasPrefix(#"DELETE FROM "Trip""#) }.count == 1)
        #expect(saved.filter { $0.hasPrefix(#"DELETE FROM "Item""#) }.count == 2)
        // The history lists each deleted row once.
        let last = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last)
        let deleted = last.changes.compactMap { change -> PersistentIdentifier? in
            if case .delete(let delete) = change { delete.changedPersistentIdentifier } else { nil }
        }
        #expect(deleted.count == 299 + 598 && Set(deleted).count == deleted.count, "each row is deleted once")
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Trip 299"])
        #expect(try fresh.fetch(FetchDescriptor<Item>()).map(\.title).sorted() == ["299-a", "299-b"])
    }

    @Test("nullify (the default) takes the deleted model out of the inverse")
    func nullify() throws {
        let container = try memoryContainer(for: Trip.self)
        let context = ModelContext(container)
        let rome = Trip(name: "Rome")
        let passport = Item(title: "Passport", trip: rome)
        context.insert(rome)
        try context.save()
        context.delete(passport)
        try context.save()
        #expect(rome.items.isEmpty)
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<Trip>()).first?.items.isEmpty == true)

        // Deleting the to-one side's owner: an item of a deleted trip (cascade) is gone, and a
        // tag of a deleted trip (nullify) stays, without that trip.
        let oslo = Trip(name: "Oslo")
        let cold = Tag(name: "cold")
        oslo.tags = [cold]
        context.insert(oslo)
        try context.save()
        context.delete(oslo)
        try context.save()
        #expect(cold.trips.isEmpty)
        let tags = try ModelContext(container).fetch(FetchDescriptor<Tag>())
        #expect(tags.map(\.name) == ["cold"])
        #expect(tags.first?.trips.isEmpty == true)
    }

    @Test("deny refuses to delete a model with related models: save throws and nothing is written")
    func deny() throws {
        let container = try memoryContainer(for: Owner.self)
        let context = ModelContext(container)
        let ann = Owner(name: "Ann")
        _ = Pet(name: "Rex", owner: ann)
        context.insert(ann)
        try context.save()
        context.delete(ann)
        let error = try #require(throws: ModelError.self) { try context.save() }
        #expect(error.entityName == "Owner")
        #expect(error.propertyName == "pets")
        #expect(error.kind == .constraintViolation)
        #expect(try ModelContext(container).fetch(FetchDescriptor<Owner>()).count == 1)
        context.rollback()
        #expect(!ann.isDeleted)
    }

    @Test("noAction leaves the related models' references alone")
    func noAction() throws {
        let container = try memoryContainer(for: Folder.self)
        let context = ModelContext(container)
        let inbox = Folder(name: "Inbox")
        let note = Note(text: "hi", folder: inbox)
        context.insert(inbox)
        try context.save()
        context.delete(note)
        try context.save()
        #expect(inbox.notes.count == 1, "the folder still lists the deleted note: the app fixes that itself")
        #expect(inbox.notes.first?.isDeleted == true)
        let fresh = try ModelContext(container).fetch(FetchDescriptor<Folder>())
        #expect(fresh.first?.notes.isEmpty == true, "the note's row is gone")
    }
}

@Suite("Relationship counts")
struct RelationshipCountTests {
    @Test("minimumModelCount and maximumModelCount are checked when saving", arguments: [0, 1, 2, 3])
    func counts(players: Int) throws {
        let container = try memoryContainer(for: Team.self)
        let context = ModelContext(container)
        let team = Team(name: "Blue")
        team.players = (0..<players).map { Player(name: "P\($0)") }
        context.insert(team)
        if (1...2).contains(players) {
            try context.save()
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Player>()) == players)
        } else {
            let error = try #require(throws: ModelError.self) { try context.save() }
            #expect(error.entityName == "Team")
            #expect(error.propertyName == "players")
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Team>()) == 0)
        }
    }
}

@Suite("Relationship observation")
struct RelationshipObservationTests {
    @Test("observers of the inverse side hear a change made on the other side")
    func inverseObserved() {
        let rome = Trip(name: "Rome")
        let passport = Item(title: "Passport")
        _ = rome.items
        let fired = Flag()
        withObservationTracking { _ = rome.items } onChange: { fired.set() }
        passport.trip = rome
        #expect(fired.value)
        #expect(rome.items.map(\.title) == ["Passport"])
    }
}
