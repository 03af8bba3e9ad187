@testable import Cairn
import Testing

@Suite("ModelContext basics")
struct ContextBasicsTests {
    let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    func workout(_ title: String, minutes: Int = 30) -> Workout {
        Workout(title: title, startedAt: start, minutes: minutes, calories: Double(minutes) * 8)
    }

    @Test("insert, save and fetch: the seed's model persists across reopening")
    func persistsAcrossReopening() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        do {
            let container = try store.container(for: Workout.self)
            let context = ModelContext(container)
            let run = workout("Run")
            run.finishedAt = start.addingTimeInterval(1800)
            context.insert(run)
            context.insert(workout("Swim", minutes: 45))
            #expect(run.persistentModelID.isTemporary)
            try context.save()
            #expect(!run.persistentModelID.isTemporary)
            #expect(run.persistentModelID.primaryKey == 1)
            #expect(run.persistentModelID.storeIdentifier == "default")
        }
        let container = try store.container(for: Workout.self)
        let context = ModelContext(container)
        let fetched = try context.fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.title)]))
        #expect(fetched.map(\.title) == ["Run", "Swim"])
        #expect(fetched[0].finishedAt == start.addingTimeInterval(1800))
        #expect(fetched[1].finishedAt == nil)
        #expect(fetched[1].minutes == 45)
        #expect(fetched[1].calories == 360)
        #expect(fetched[0].isFavorite == false)
        #expect(fetched[0].startedAt == start)
        #expect(!fetched[0].hasChanges)
        #expect(fetched[0].modelContext === context)
    }

    @Test("one instance per row per context")
    func uniquing() throws {
        let container = try memoryContainer(for: Workout.self)
        let context = ModelContext(container)
        let run = workout("Run")
        context.insert(run)
        try context.save()
        let first = try context.fetch(FetchDescriptor<Workout>())
        let second = try context.fetch(FetchDescriptor<Workout>())
        #expect(first.count == 1)
        #expect(first[0] === run)
        #expect(second[0] === run)
        #expect(context.registeredModel(for: run.persistentModelID) as Workout? === run)
        #expect(context.model(for: run.persistentModelID) as? Workout === run)

        let other = ModelContext(container)
        let elsewhere = try other.fetch(FetchDescriptor<Workout>())
        #expect(elsewhere[0] !== run, "another context has its own instance")
        #expect(elsewhere[0].persistentModelID == run.persistentModelID, "with the same identifier")
        #expect(other.model(for: run.persistentModelID) as? Workout === elsewhere[0])
    }

    @Test("hasChanges and the change arrays follow inserts, edits and deletes")
    func changeArrays() throws {
        let container = try memoryContainer(for: Workout.self)
        let context = ModelContext(container)
        #expect(!context.hasChanges)
        let run = workout("Run")
        let swim = workout("Swim")
        context.insert(run)
        context.insert(swim)
        #expect(context.hasChanges)
        #expect(context.insertedModelsArray.count == 2)
        #expect(context.insertedModelsArray.first as? Workout === run)
        try context.save()
        #expect(!context.hasChanges)
        #expect(context.insertedModelsArray.isEmpty)
        #expect(!run.hasChanges)

        run.minutes = 50
        #expect(context.hasChanges)
        #expect(run.hasChanges)
        #expect(run.changedPropertyNames == ["minutes"])
        #expect(context.changedModelsArray.count == 1)
        context.delete(swim)
        #expect(swim.isDeleted)
        #expect(context.deletedModelsArray.first as? Workout === swim)
        try context.save()
        #expect(!context.hasChanges)
        #expect(context.changedModelsArray.isEmpty)
        #expect(context.deletedModelsArray.isEmpty)
        #expect(swim.isDeleted)
        let reread = ModelContext(container)
        let rows = try reread.fetch(FetchDescriptor<Workout>())
        #expect(rows.map(\.title) == ["Run"])
        #expect(rows.map(\.minutes) == [50])
    }

    @Test("rollback drops inserts, restores deletes and saved values, and tells observers")
    func rollback() throws {
        let container = try memoryContainer(for: Workout.self)
        let context = ModelContext(container)
        let run = workout("Run")
        let swim = workout("Swim")
        context.insert(run)
        context.insert(swim)
        try context.save()

        run.title = "Changed"
        run.minutes = 99
        context.delete(swim)
        let unsaved = workout("Unsaved")
        context.insert(unsaved)
        let fired = Flag()
        withObservationTracking { _ = run.title } onChange: { fired.set() }

        context.rollback()
        #expect(run.title == "Run")
        #expect(run.minutes == 30)
        #expect(!run.hasChanges)
        #expect(fired.value, "observers hear the restored value")
        #expect(!swim.isDeleted)
        #expect(unsaved.modelContext == nil)
        #expect(!context.hasChanges)
        try context.save()
        let titles = try ModelContext(container).fetch(FetchDescriptor<Workout>()).map(\.title).sorted()
        #expect(titles == ["Run", "Swim"])
    }

    @Test("a fetched model is observable from its first read; a change before any read lands")
    func fetchedModelObservation() throws {
        let container = try memoryContainer(for: Workout.self)
        let setup = ModelContext(container)
        setup.insert(workout("Run"))
        setup.insert(workout("Swim"))
        try setup.save()

        let context = ModelContext(container)
        let fetched = try context.fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.title)]))
        try #require(fetched.count == 2)
        let run = fetched[0], swim = fetched[1]
        swim.minutes = 50
        #expect(swim.hasChanges)
        let fired = Flag(), swimFired = Flag()
        withObservationTracking { _ = run.title } onChange: { fired.set() }
        withObservationTracking { _ = swim.title } onChange: { swimFired.set() }
        run.minutes = 45
        #expect(!fired.value, "a property that was not read does not fire")
        run.title = "Long run"
        #expect(fired.value)
        #expect(!swimFired.value, "another model's observers do not hear it")
        try context.save()
        let saved = try ModelContext(container).fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.title)]))
        #expect(saved.map(\.title) == ["Long run", "Swim"])
        #expect(saved.map(\.minutes) == [45, 50])
    }

    @Test("deleting an unsaved model un-inserts it")
    func deleteUnsaved() throws {
        let context = ModelContext(try memoryContainer(for: Workout.self))
        let run = workout("Run")
        context.insert(run)
        context.delete(run)
        #expect(!context.hasChanges)
        #expect(run.modelContext == nil)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Workout>()).isEmpty)
    }

    @Test("fetch includes pending inserts and leaves out pending deletes unless told not to")
    func pendingChanges() throws {
        let context = ModelContext(try memoryContainer(for: Workout.self))
        let run = workout("Run")
        context.insert(run)
        try context.save()
        let swim = workout("Swim")
        context.insert(swim)
        context.delete(run)
        #expect(try context.fetch(FetchDescriptor<Workout>()).map(\.title) == ["Swim"])
        var stored = FetchDescriptor<Workout>()
        stored.includePendingChanges = false
        #expect(try context.fetch(stored).map(\.title) == ["Run"])
        #expect(try context.fetchCount(FetchDescriptor<Workout>()) == 1)
    }

    @Test("willSave and didSave carry the saved identifiers")
    func notifications() throws {
        let context = ModelContext(try memoryContainer(for: Workout.self))
        let run = workout("Run")
        let swim = workout("Swim")
        context.insert(run)
        context.insert(swim)
        try context.save()
        let recorder = NotificationRecorder([ModelContext.willSave, ModelContext.didSave], object: context)
        defer { recorder.stop() }
        run.minutes = 31
        context.delete(swim)
        let row = workout("Row")
        context.insert(row)
        try context.save()
        let notes = recorder.recorded
        #expect(notes.map(\.name) == [ModelContext.willSave, ModelContext.didSave])
        let info = notes.last?.userInfo ?? [:]
        typealias Key = ModelContext.NotificationKey
        #expect(info[Key.insertedIdentifiers.rawValue] as? [PersistentIdentifier] == [row.persistentModelID])
        #expect(info[Key.updatedIdentifiers.rawValue] as? [PersistentIdentifier] == [run.persistentModelID])
        #expect(info[Key.deletedIdentifiers.rawValue] as? [PersistentIdentifier] == [swim.persistentModelID])
    }

    @Test("one save of updates that change different columns, model by model, writes each model's own columns and values")
    func updatesOfMixedShapes() throws {
        let container = try memoryContainer(for: Workout.self, Trip.self)
        let context = ModelContext(container)
        let workouts = (0..<6).map { workout("W\($0)", minutes: 10 + $0) }
        for w in workouts { context.insert(w) }
        let trip = Trip(name: "Rome")
        context.insert(trip)
        try context.save()
        // Runs of one shape, a change of shape, a return to an earlier one, another table.
        workouts[0].minutes = 100
        workouts[1].minutes = 101
        workouts[2].title = "Renamed"
        workouts[3].minutes = 103
        trip.name = "Oslo"
        workouts[4].title = "Both"
        workouts[4].minutes = 104
        let store = try container.store(for: "Workout")
        let before = store.statementCount
        try context.save()
        let updates = store.executedStatements.suffix(store.statementCount - before).filter { $0.hasPrefix("UPDATE") }
        #expect(updates == [
            #"UPDATE "Workout" SET "minutes" = ? WHERE "id" = ?"#, #"UPDATE "Workout" SET "minutes" = ? WHERE "id" = ?"#,
            #"UPDATE "Workout" SET "title" = ? WHERE "id" = ?"#, #"UPDATE "Workout" SET "minutes" = ? WHERE "id" = ?"#,
            #"UPDATE "Trip" SET "name" = ? WHERE "id" = ?"#,
            #"UPDATE "Workout" SET "title" = ?, "minutes" = ? WHERE "id" = ?"#,
        ])
        let fresh = ModelContext(container)
        let saved = try fresh.fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.calories)]))
        #expect(saved.map(\.title) == ["W0", "W1", "Renamed", "W3", "Both", "W5"])
        #expect(saved.map(\.minutes) == [100, 101, 12, 103, 104, 15])
        #expect(try fresh.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Oslo"])
    }

    @Test("transaction(block:) saves what the block did")
    func transaction() throws {
        let container = try memoryContainer(for: Workout.self)
        let context = ModelContext(container)
        try context.transaction { context.insert(workout("Run")) }
        #expect(!context.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Workout>()) == 1)
    }

    @Test("identifiers are stable across contexts and reopening, and Codable")
    func identifiers() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let id: PersistentIdentifier
        do {
            let context = ModelContext(try store.container(for: Workout.self))
            let run = workout("Run")
            context.insert(run)
            try context.save()
            id = run.persistentModelID
        }
        let data = try JSONEncoder().encode(id)
        let decoded = try JSONDecoder().decode(PersistentIdentifier.self, from: data)
        #expect(decoded == id)
        #expect(decoded.hashValue == id.hashValue)
        #expect(decoded.entityName == "Workout" && decoded.primaryKey == 1 && decoded.storeIdentifier == id.storeIdentifier)
        // The encoded form names the entity, the store and the key.
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let fields = object?["id"] as? [String: Any]
        #expect(fields?["entityName"] as? String == "Workout")
        #expect(fields?["storeIdentifier"] as? String == id.storeIdentifier)
        #expect(fields?["key"] != nil)
        let context = ModelContext(try store.container(for: Workout.self))
        let model = context.model(for: decoded) as? Workout
        #expect(model?.title == "Run")
    }

    @Test("deleteAllData empties the store")
    func deleteAllData() throws {
        let container = try memoryContainer(for: Workout.self)
        let context = ModelContext(container)
        context.insert(workout("Run"))
        try context.save()
        container.deleteAllData()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Workout>()).isEmpty)
    }

    @Test("the tables are readable with sqlite3: one table per entity, one column per attribute")
    func storageLayout() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let container = try store.container(for: Workout.self)
        let context = ModelContext(container)
        context.insert(workout("Run"))
        try context.save()
        let database = try Database(path: store.url.path)
        defer { try? database.close() }
        let sql = try database.fetchAll(sql: "SELECT sql FROM sqlite_master WHERE name = 'Workout'") {
            $0.databaseValue(at: 0)
        }
        #expect(sql == [.text(#"CREATE TABLE "Workout" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "startedAt" REAL NOT NULL, "finishedAt" REAL, "minutes" INTEGER NOT NULL, "calories" REAL NOT NULL, "isFavorite" INTEGER NOT NULL)"#)])
        let row = try database.fetchAll(sql: #"SELECT "startedAt", "isFavorite", "finishedAt" FROM "Workout""#) {
            [$0.databaseValue(at: 0), $0.databaseValue(at: 1), $0.databaseValue(at: 2)]
        }
        #expect(row == [[.real(800_000_000), .integer(0), .null]])
    }

    @Test("a model inserted into a context that went away can be inserted into another")
    func reinsertAfterContextGone() throws {
        let container = try memoryContainer(for: Workout.self)
        let run = workout("Run")
        do {
            let gone = ModelContext(container)
            gone.insert(run)
        }
        #expect(run.modelContext == nil)
        let context = ModelContext(container)
        context.insert(run)
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Workout>()).map(\.title) == ["Run"])
    }
}
