@testable import Cairn
import CairnTestSupport
import Foundation
import Testing

/// A page whose last sort key is in `.reverse` order is read in the order of an index on that
/// key (ties by `"id" DESC`) when no rows tie, and with the stored-order tie-break when they do;
/// either way the rows are Foundation's.
@Suite("Pages read in index order")
struct IndexOrderFetchTests {
    let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// Workouts inserted in a shuffled order of `startedAt` (so stored order is not key order),
    /// with an index on `startedAt` as a model's `#Index` would make.
    func workouts(_ startedAt: [Double], seed: UInt64, titles: [String]? = nil) throws -> (ModelContext, [Workout]) {
        let container = try memoryContainer(for: Workout.self)
        try container.write(for: Workout.self) { db in
            try db.execute(sql: #"CREATE INDEX "Workout_startedAt" ON "Workout" ("startedAt")"#)
        }
        let context = ModelContext(container)
        var random = SeededRandom(seed: seed)
        let made = startedAt.shuffled(using: &random).enumerated().map { index, offset in
            Workout(
                title: titles.map { $0[index % $0.count] } ?? "w\(index)", startedAt: start.addingTimeInterval(offset),
                minutes: 10 * (index % 7), calories: 1)
        }
        return try savedInOrder(made, in: context)
    }

    func expected(_ descriptor: FetchDescriptor<Workout>, in models: [Workout]) throws -> [Workout] {
        try foundationAnswer(descriptor, over: models)
    }

    /// The statements `body` ran on the Workout store.
    func statements(_ context: ModelContext, _ body: () throws -> Void) throws -> [String] {
        let store = try context.container.store(for: "Workout")
        let before = store.executedStatements.count
        try body()
        return Array(store.executedStatements.dropFirst(before))
    }

    @Test("distinct keys: one SELECT that reads the index backwards, without a temporary B-tree")
    func distinctKeysReadTheIndex() throws {
        try TiedShapes.$current.withValue(TiedShapes()) {
            let (context, all) = try workouts((0..<40).map { Double($0) * 60 }, seed: 1)
            var descriptor = FetchDescriptor<Workout>(
                predicate: #Predicate { $0.minutes >= 30 }, sortBy: [SortDescriptor(\.startedAt, order: .reverse)])
            descriptor.fetchLimit = 5
            descriptor.fetchOffset = 2
            var fetched: [Workout] = []
            let executed = try statements(context) { fetched = try context.fetch(descriptor) }
            #expect(fetched == (try expected(descriptor, in: all)))
            #expect(executed.count == 1)
            #expect(executed.first?.hasSuffix(#"ORDER BY "t0"."startedAt" DESC, "t0"."id" DESC LIMIT ? OFFSET ?"#) == true)

            let plan = try context.explain(descriptor)
            #expect(plan.sql == executed.first)
            #expect(plan.arguments.suffix(2) == [.integer(7), .integer(1)])   // one row more on each side
            #expect(plan.details.contains { $0.contains("Workout_startedAt") })
            #expect(!plan.details.contains { $0.contains("TEMP B-TREE") })
            // What the stored-order tie-break costs: SQLite sorts each group of equal keys.
            let ordinary = try QueryCompiler.render(descriptor, selecting: .columns(["title"]), in: .sqlite)
            let ordinaryPlan = try context.container.store(for: "Workout").read { connection in
                try connection.rows(PreparedStatement(rendered: RenderedSQL(
                    sql: "EXPLAIN QUERY PLAN " + ordinary.sql, arguments: ordinary.arguments)))
            }
            #expect(ordinaryPlan.contains { $0.last == .text("USE TEMP B-TREE FOR RIGHT PART OF ORDER BY") })
        }
    }

    @Test("the rows read on either side of the page are not registered in the context")
    func neighboursAreNotRegistered() throws {
        try TiedShapes.$current.withValue(TiedShapes()) {
            let (saved, all) = try workouts((0..<20).map { Double($0) * 60 }, seed: 2)
            var descriptor = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.startedAt, order: .reverse)])
            descriptor.fetchLimit = 3
            descriptor.fetchOffset = 4
            let context = ModelContext(saved.container)
            let fetched = try context.fetch(descriptor)
            let ordered = try expected(FetchDescriptor(sortBy: descriptor.sortBy), in: all)
            #expect(fetched.map(\.persistentModelID) == ordered[4..<7].map(\.persistentModelID))
            let registered = ordered.map { context.registeredModel(for: $0.persistentModelID) as Workout? }
            #expect(registered.indices.filter { registered[$0] != nil } == [4, 5, 6])
        }
    }

    @Test("keys that tie in, before or after the page: Foundation's stable order, then the ordinary read for that shape",
          arguments: [(0, 3), (1, 3), (2, 2), (3, 4), (5, 1), (0, 40)])
    func tiesFallBackToStoredOrder(offset: Int, limit: Int) throws {
        try TiedShapes.$current.withValue(TiedShapes()) {
            // Groups of three equal keys.
            let (context, all) = try workouts((0..<24).map { Double($0 / 3) * 60 }, seed: UInt64(offset * 100 + limit))
            var descriptor = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.startedAt, order: .reverse)])
            descriptor.fetchLimit = limit
            descriptor.fetchOffset = offset
            var fetched: [Workout] = []
            let first = try statements(context) { fetched = try context.fetch(descriptor) }
            #expect(fetched == (try expected(descriptor, in: all)))
            #expect(first.count == 2)
            #expect(first.last?.contains(#""t0"."id" ASC"#) == true)
            // The shape tied once: read the ordinary way from then on.
            let second = try statements(context) { fetched = try context.fetch(descriptor) }
            #expect(fetched == (try expected(descriptor, in: all)))
            #expect(second.count == 1 && second.first == first.last)
        }
    }

    @Test("generated keys, descriptors and pages: always Foundation's rows; both reads are taken")
    func differential() throws {
        var random = SeededRandom(seed: 0x1D3E)
        var indexReads = 0
        var fallbacks = 0
        for round in 0..<60 {
            // From all-distinct keys to a handful of values.
            let distinct = [200, 40, 12, 3][round % 4]
            let keys = (0..<30).map { _ in Double(random.next() % UInt64(distinct)) * 60 }
            // Titles that tie as Swift's == says (a precomposed and a decomposed é), or not at all.
            let titles = round % 3 == 0 ? ["é", "e\u{301}", "E", "e", "f"] : nil
            let (context, all) = try workouts(keys, seed: random.next(), titles: titles)
            for _ in 0..<8 {
                var sortBy = [SortDescriptor(\Workout.startedAt, order: .reverse)]
                if random.next() % 3 == 0 { sortBy.insert(SortDescriptor(\Workout.minutes), at: 0) }
                if random.next() % 4 == 0 { sortBy.insert(SortDescriptor(\Workout.title, order: .reverse), at: 0) }
                var descriptor = FetchDescriptor<Workout>(sortBy: sortBy)
                if random.next() % 2 == 0 { descriptor.predicate = #Predicate { $0.minutes >= 20 } }
                descriptor.fetchLimit = Int(1 + random.next() % 12)
                if random.next() % 2 == 0 { descriptor.fetchOffset = Int(random.next() % 12) }
                try TiedShapes.$current.withValue(TiedShapes()) {
                    var fetched: [Workout] = []
                    let executed = try statements(context) { fetched = try context.fetch(descriptor) }
                    #expect(fetched == (try expected(descriptor, in: all)), "\(sortBy) \(descriptor.fetchOffset ?? 0) \(descriptor.fetchLimit ?? 0)")
                    if executed.count == 1 { indexReads += 1 } else { fallbacks += 1 }
                }
            }
        }
        #expect(indexReads > 50 && fallbacks > 50)
    }

    @Test("columns tie as ORDER BY sees them: numbers by value, text by Swift's ==, NULL with NULL")
    func tiesAsSQLSeesThem() {
        #expect(sqlTie(.integer(2), .real(2.0)) && sqlTie(.real(2.0), .integer(2)))
        #expect(sqlTie(.text("é"), .text("e\u{301}")))
        #expect(sqlTie(.null, .null))
        #expect(!sqlTie(.integer(2), .real(2.5)) && !sqlTie(.text("e"), .text("é")))
        #expect(!sqlTie(.null, .integer(0)) && !sqlTie(.integer(1), .text("1")))
    }

    @Test("other fetches keep the stored-order tie-break: a forward last key, no limit, propertiesToFetch")
    func otherFetchesAreUnchanged() throws {
        try TiedShapes.$current.withValue(TiedShapes()) {
            let (context, _) = try workouts((0..<10).map { Double($0) }, seed: 3)
            var forward = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.startedAt)])
            forward.fetchLimit = 3
            let unlimited = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.startedAt, order: .reverse)])
            var partial = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.startedAt, order: .reverse)])
            partial.fetchLimit = 3
            partial.propertiesToFetch = [\.title]
            for descriptor in [forward, unlimited, partial] {
                let executed = try statements(context) { _ = try context.fetch(descriptor) }
                #expect(executed.count == 1)
                #expect(executed.first?.contains(#""t0"."id" ASC"#) == true)
            }
        }
    }
}
