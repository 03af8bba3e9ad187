@testable import Cairn
import Foundation
import Testing

@Suite("Batched fetches and enumerate")
struct BatchFetchTests {
    let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    func context(rows: Int) throws -> ModelContext {
        let context = ModelContext(try memoryContainer(for: Workout.self))
        for index in 0..<rows {
            context.insert(Workout(title: "W\(index)", startedAt: start.addingTimeInterval(Double(index % 7)), minutes: index % 90,
                                   calories: Double(index)))
        }
        try context.save()
        return ModelContext(context.container)
    }

    @Test("fetch(_:batchSize:) throws while includePendingChanges is true")
    func pendingChangesThrow() throws {
        let context = try context(rows: 3)
        #expect(throws: SwiftDataError.includePendingChangesWithBatchSize) {
            _ = try context.fetch(FetchDescriptor<Workout>(), batchSize: 2)
        }
    }

    @Test("a batched collection has fetch's elements and reads one batch per SELECT")
    func batchedCollection() throws {
        let context = try context(rows: 250)
        var descriptor = FetchDescriptor<Workout>(predicate: #Predicate { $0.minutes >= 10 },
                                                  sortBy: [SortDescriptor(\.startedAt, order: .reverse)])
        descriptor.includePendingChanges = false
        let expected = try context.fetch(descriptor).map(\.title)
        let fresh = ModelContext(context.container)
        let before = try fresh.container.store(for: "Workout").executedStatements.count
        let batched = try fresh.fetch(descriptor, batchSize: 50)
        #expect(batched.count == expected.count)
        #expect(batched.map(\.title) == expected)
        let executed = try fresh.container.store(for: "Workout").executedStatements.count - before
        // The SELECT of the matching ids, then one SELECT of the entity's columns per batch.
        #expect(executed == 1 + (expected.count + 49) / 50)
        let ids = try fresh.fetchIdentifiers(descriptor, batchSize: 10)
        #expect(ids.count == expected.count)
    }

    @Test("enumerate visits every model once, releases unchanged ones, keeps changes for save()")
    func enumerateReleases() throws {
        let context = try context(rows: 1200)
        var seen = 0
        try context.enumerate(FetchDescriptor<Workout>(), batchSize: 100) { workout in
            seen += 1
            if workout.minutes == 0 { workout.calories = -1 }
        }
        #expect(seen == 1200)
        let changed = 1200 / 90 + 1
        #expect(context.tracked.count == changed)
        try context.save()
        let check = ModelContext(context.container)
        #expect(try check.fetchCount(FetchDescriptor<Workout>(predicate: #Predicate { $0.calories == -1 })) == changed)
        var kept = 0
        try check.enumerate(FetchDescriptor<Workout>(), batchSize: 100, allowEscapingMutations: true) { _ in kept += 1 }
        #expect(check.tracked.count == kept)
    }

    @Test("rows another context deletes during enumerate are skipped, not handed over as empty models")
    func enumerateSkipsRowsDeletedMeanwhile() throws {
        let context = try context(rows: 300)
        var titles: [String] = []
        try context.enumerate(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.calories)]), batchSize: 100) { workout in
            if titles.isEmpty {
                let other = ModelContext(context.container)
                try other.delete(model: Workout.self, where: #Predicate { $0.calories >= 250 })
                try other.save()
            }
            titles.append(workout.title)
        }
        #expect(titles == (0..<250).map { "W\($0)" })
    }

    @Test("a batch enumerate cannot read throws; before, its block got models with empty values")
    func enumerateThrowsWhenABatchCannotBeRead() throws {
        let context = try context(rows: 300)
        var seen = 0
        var empty = 0
        #expect(throws: (any Error).self) {
            try context.enumerate(FetchDescriptor<Workout>(), batchSize: 100) { workout in
                seen += 1
                if workout.title.isEmpty { empty += 1 }
                if seen == 1 {
                    try context.container.store(for: "Workout").write { connection in
                        try connection.sqliteDatabase(for: "the test").execute(sql: #"ALTER TABLE "Workout" RENAME COLUMN "minutes" TO "renamed""#)
                    }
                }
            }
        }
        #expect(seen == 100)
        #expect(empty == 0)
    }

    @Test("a batch a batched collection cannot read gives placeholders and says why")
    func batchedCollectionReportsAFailedRead() throws {
        let context = try context(rows: 300)
        var descriptor = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.calories)])
        descriptor.includePendingChanges = false
        let batched = try context.fetch(descriptor, batchSize: 100)
        #expect(batched[0].title == "W0")
        #expect(context.lastBatchReadError == nil)
        try context.container.store(for: "Workout").write { connection in
            try connection.sqliteDatabase(for: "the test").execute(sql: #"ALTER TABLE "Workout" RENAME COLUMN "minutes" TO "renamed""#)
        }
        #expect(batched[150].title == "")  // no way to throw from a subscript: a placeholder
        #expect(context.lastBatchReadError != nil)
    }

    @Test("a model kept out of enumerate's block stays registered: changing or deleting it later is saved")
    func enumerateKeepsHeldModels() throws {
        let context = try context(rows: 30)
        var kept: [Workout] = []
        try context.enumerate(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.calories)]), batchSize: 10) { workout in
            if Int(workout.calories) % 10 < 2 { kept.append(workout) }
        }
        // Those the block let go of are forgotten, as before; the six kept ones are not.
        #expect(context.tracked.count == kept.count)
        #expect(kept.map(\.title) == ["W0", "W1", "W10", "W11", "W20", "W21"])
        kept[0].calories = -5
        context.delete(kept[3])
        try context.save()

        let check = ModelContext(context.container)
        #expect(try check.fetchCount(FetchDescriptor<Workout>()) == 29)
        #expect(try check.fetch(FetchDescriptor<Workout>(predicate: #Predicate { $0.calories == -5 })).map(\.title) == ["W0"])
        #expect(try check.fetchCount(FetchDescriptor<Workout>(predicate: #Predicate { $0.title == "W11" })) == 0)
        // Reading a kept model again gives the same instance.
        let again = try context.fetch(FetchDescriptor<Workout>(predicate: #Predicate { $0.title == "W20" }))
        #expect(again.first === kept[4])
    }

    @Test("a model kept from an earlier batch of a batched collection is saved when changed or deleted")
    func collectionKeepsHeldModels() throws {
        let context = try context(rows: 30)
        var descriptor = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.calories)])
        descriptor.includePendingChanges = false
        let batched = try context.fetch(descriptor, batchSize: 10)
        let first = batched[0]
        let second = batched[1]
        _ = batched[25]  // two batches later
        first.calories = -5
        context.delete(second)
        try context.save()

        let check = ModelContext(context.container)
        #expect(try check.fetchCount(FetchDescriptor<Workout>()) == 29)
        #expect(try check.fetch(FetchDescriptor<Workout>(predicate: #Predicate { $0.calories == -5 })).map(\.title) == ["W0"])
    }
}
