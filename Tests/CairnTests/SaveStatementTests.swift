@testable import Cairn
import Foundation
import Testing

/// The statements a save runs: the rows of a run of deletes of one entity go in
/// `DELETE … WHERE "id" IN (…)` batches, and what a delete must also do (join-table rows,
/// cascades, history with tombstones) still happens for every row; an UPDATE's text, rendered
/// once per store and shape, sets the columns each model changed, in the table it belongs to.
@Suite struct SaveStatementTests {
    /// The statements a save ran on the store of `entityName`.
    func statements(of container: ModelContainer, _ entityName: String, during save: () throws -> Void) throws -> [String] {
        let store = try container.store(for: entityName)
        let before = store.statementCount
        try save()
        return Array(store.executedStatements.suffix(store.statementCount - before))
    }

    @Test("deleting 1,101 scattered models runs three DELETEs of bound keys, and their join-table rows and cascades go too")
    func scatteredDeletesInBatches() throws {
        let container = try memoryContainer(for: Trip.self)
        let context = ModelContext(container)
        let beach = Tag(name: "beach")
        let trips = (0..<2_202).map { t in
            let trip = Trip(name: "Trip \(t)")
            trip.items = [Item(title: "\(t)")]
            trip.tags = [beach]
            context.insert(trip)
            return trip
        }
        try context.save()

        // Every other trip: no two deleted keys are consecutive.
        for trip in trips.enumerated().filter({ $0.offset.isMultiple(of: 2) }).map(\.element) { context.delete(trip) }
        let saved = try statements(of: container, "Trip") { try context.save() }

        let tripDeletes = saved.filter { $0.hasPrefix(#"DELETE FROM "Trip""#) }
        // Two full batches, then the 77 left padded to the next power of two.
        #expect(tripDeletes.map { $0.components(separatedBy: "?").count - 1 } == [512, 512, 128])
        #expect(tripDeletes.allSatisfy { $0.hasPrefix(#"DELETE FROM "Trip" WHERE "id" IN (?, ?"#) })
        #expect(saved.filter { $0.hasPrefix(#"DELETE FROM "Item""#) }.count == 3, "the cascaded items, batched as well")

        let fresh = ModelContext(container)
        let odd = (0..<1_101).map { "Trip \($0 * 2 + 1)" }
        #expect(try fresh.fetch(FetchDescriptor<Trip>()).map(\.name).sorted() == odd.sorted())
        #expect(try fresh.fetchCount(FetchDescriptor<Item>()) == 1_101)
        // The join table kept only the surviving trips' rows.
        #expect(try fresh.fetch(FetchDescriptor<Tag>()).first?.trips.map(\.name).sorted() == odd.sorted())
    }

    @Test("a run of consecutive keys is deleted with one BETWEEN, the rest by key, and the history lists every row with its preserved values")
    func consecutiveKeysAsOneRange() throws {
        let container = try memoryContainer(for: Visit.self)
        let context = ModelContext(container)
        let visits = (0..<600).map { Visit(place: "Place \($0)", code: $0) }
        for visit in visits { context.insert(visit) }
        try context.save()
        // Visits 100-399 (one run of keys, deleted last to first), then every other one after.
        let deleted = Array(visits[100..<400].reversed()) + visits[400...].enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element)
        let places = Dictionary(uniqueKeysWithValues: deleted.map { ($0.persistentModelID, $0.place) })
        for visit in deleted { context.delete(visit) }
        let saved = try statements(of: container, "Visit") { try context.save() }

        #expect(saved.filter { $0.hasPrefix(#"DELETE FROM "Visit""#) } == [
            #"DELETE FROM "Visit" WHERE "id" BETWEEN ? AND ?"#,
            #"DELETE FROM "Visit" WHERE "id" IN ("# + Array(repeating: "?", count: 128).joined(separator: ", ") + ")",
        ])
        let last = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last)
        let deletes = last.changes.compactMap { change -> DefaultHistoryDelete<Visit>? in
            if case .delete(let delete as DefaultHistoryDelete<Visit>) = change { delete } else { nil }
        }
        #expect(deletes.map(\.changedPersistentIdentifier) == deleted.map(\.persistentModelID))
        #expect(deletes.allSatisfy { $0.tombstone[\Visit.place] as? String == places[$0.changedPersistentIdentifier] })
        let left = try ModelContext(container).fetch(FetchDescriptor<Visit>(sortBy: [SortDescriptor(\.code)])).map(\.code)
        #expect(left == Array(0..<100) + (400..<600).filter { !$0.isMultiple(of: 2) })
    }

    @Test("saves one after another reuse each table's UPDATE for the columns changed, and only for those")
    func updateTemplatesAcrossSaves() throws {
        let container = try memoryContainer(for: Workout.self, Trip.self)
        let context = ModelContext(container)
        let run = Workout(title: "Run", startedAt: .now, minutes: 30, calories: 240)
        let rome = Trip(name: "Rome")
        context.insert(run)
        context.insert(rome)
        try context.save()

        var updates: [String] = []
        for round in 1...2 {
            updates += try statements(of: container, "Workout") {
                run.minutes += 1
                try context.save()
                run.title = "Run \(round)"
                run.minutes += 1
                try context.save()
                rome.name = "Roma \(round)"
                try context.save()
            }.filter { $0.hasPrefix("UPDATE") }
        }
        let minutes = #"UPDATE "Workout" SET "minutes" = ? WHERE "id" = ?"#
        let titleAndMinutes = #"UPDATE "Workout" SET "title" = ?, "minutes" = ? WHERE "id" = ?"#
        let name = #"UPDATE "Trip" SET "name" = ? WHERE "id" = ?"#
        #expect(updates == [minutes, titleAndMinutes, name, minutes, titleAndMinutes, name])

        let fresh = ModelContext(container)
        let workout = try #require(try fresh.fetch(FetchDescriptor<Workout>()).first)
        #expect(workout.title == "Run 2" && workout.minutes == 34)
        #expect(try fresh.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Roma 2"])
    }
}
