@testable import Cairn
import Testing

@Suite("Changes reach every context")
struct MergeTests {
    func saved(_ count: Int, in container: ModelContainer) throws {
        let context = ModelContext(container)
        for row in generatedSessions(count) {
            context.insert(Workout(title: row.title, startedAt: row.start, minutes: row.minutes, calories: row.calories))
        }
        try context.save()
    }

    @Test("a model held by one context takes the values another context saved, on its next fetch")
    func refreshed() throws {
        let container = try memoryContainer(for: Workout.self)
        try saved(3, in: container)
        let reader = ModelContext(container)
        let held = try #require(reader.fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.title)])).first)
        let writer = ModelContext(container)
        let same = try #require(writer.fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.title)])).first)
        same.minutes = 77
        same.title = "Renamed"
        try writer.save()
        #expect(held.minutes != 77)  // not yet merged: no fetch since
        _ = try reader.fetchCount(FetchDescriptor<Workout>())
        #expect(held.minutes == 77)
        #expect(held.title == "Renamed")
        #expect(!held.hasChanges)
    }

    @Test("unsaved changes win over another context's save, and are saved over it; other properties refresh")
    func localChangesWin() throws {
        let container = try memoryContainer(for: Workout.self)
        try saved(1, in: container)
        let mine = ModelContext(container)
        let held = try #require(mine.fetch(FetchDescriptor<Workout>()).first)
        held.minutes = 11
        let theirs = ModelContext(container)
        let other = try #require(theirs.fetch(FetchDescriptor<Workout>()).first)
        other.minutes = 99
        other.calories = 1_234
        try theirs.save()
        _ = try mine.fetch(FetchDescriptor<Workout>())
        #expect(held.minutes == 11)
        #expect(held.calories == 1_234)
        #expect(held.changedPropertyNames == ["minutes"])
        try mine.save()
        let check = try #require(ModelContext(container).fetch(FetchDescriptor<Workout>()).first)
        #expect(check.minutes == 11)
        #expect(check.calories == 1_234)
    }

    @Test("a row deleted elsewhere: the held model is marked deleted and the context lets it go")
    func deletedElsewhere() throws {
        let container = try memoryContainer(for: Workout.self)
        try saved(2, in: container)
        let reader = ModelContext(container)
        let held = try reader.fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.title)]))
        let id = held[0].persistentModelID
        let writer = ModelContext(container)
        writer.delete(try #require(writer.fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.title)])).first))
        try writer.save()
        let registered: Workout? = reader.registeredModel(for: id)
        #expect(registered == nil)
        #expect(held[0].isDeleted)
        #expect(try reader.fetch(FetchDescriptor<Workout>()).map(\.persistentModelID) == [held[1].persistentModelID])
    }

    @Test("a raw SQL write through the container reaches the models contexts hold")
    func rawWrite() throws {
        let container = try memoryContainer(for: Workout.self)
        try saved(2, in: container)
        let reader = ModelContext(container)
        let held = try reader.fetch(FetchDescriptor<Workout>())
        try container.write(for: Workout.self) { db in
            try db.execute(sql: #"UPDATE "Workout" SET "isFavorite" = 1"#)
            try db.execute(sql: #"DELETE FROM "Workout" WHERE "id" = ?"#, arguments: [held[1].persistentModelID.primaryKey ?? 0])
        }
        #expect(try reader.fetchCount(FetchDescriptor<Workout>()) == 1)
        #expect(held[0].isFavorite)
        #expect(held[1].isDeleted)
    }

    @Test("a context's own save is not merged back into it (its models keep their identity and values)")
    func ownSaveNotMerged() throws {
        let container = try memoryContainer(for: Workout.self)
        let context = ModelContext(container)
        let workout = Workout(title: "Run", startedAt: .now, minutes: 30, calories: 200)
        context.insert(workout)
        try context.save()
        #expect(context.changes.inbox(for: context).take().isEmpty)
        let other = ModelContext(container)
        _ = try other.fetch(FetchDescriptor<Workout>())
        workout.minutes = 31
        try context.save()
        #expect(container.changes.inbox(for: other).take() == ["Workout"])
    }

    @Test("a context that goes takes its inbox with it: a server's context per request leaves none behind")
    func goneContextsLeaveNoInbox() throws {
        let container = try memoryContainer(for: Workout.self)
        try saved(1, in: container)
        let kept = ModelContext(container)
        _ = try kept.fetch(FetchDescriptor<Workout>())
        for _ in 0..<50 {
            let request = ModelContext(container)
            let workout = try #require(try request.fetch(FetchDescriptor<Workout>()).first)
            workout.minutes += 1
            try request.save()
        }
        #expect(container.changes.inboxCount == 1)
        // The context that stayed still hears the others' saves.
        #expect(container.changes.inbox(for: kept).take() == ["Workout"])
    }

    @Test("a save that fails leaves no saving context behind: a later commit on the same thread reaches the context")
    func failedSaveLeavesNoSavingContext() throws {
        let container = try memoryContainer(for: Team.self, Player.self)
        let context = ModelContext(container)
        context.insert(Team(name: "Empty"))  // fewer players than its minimumModelCount
        #expect(throws: ModelError.self) { try context.save() }
        _ = context.changes.inbox(for: context).take()
        container.deleteAllData()
        #expect(context.changes.inbox(for: context).take().contains("Team"))
    }

    @Test("observers of a refreshed model hear the change")
    func observersHear() throws {
        let container = try memoryContainer(for: Workout.self)
        try saved(1, in: container)
        let reader = ModelContext(container)
        let held = try #require(reader.fetch(FetchDescriptor<Workout>()).first)
        let fired = FiredFlag()
        withObservationTracking { _ = held.minutes } onChange: { fired.set() }
        try container.write(for: Workout.self) { db in try db.execute(sql: #"UPDATE "Workout" SET "minutes" = 5"#) }
        _ = try reader.fetch(FetchDescriptor<Workout>())
        #expect(fired.value)
        #expect(held.minutes == 5)
    }
}

extension ModelContext {
    var changes: ContainerChanges { container.changes }
}
