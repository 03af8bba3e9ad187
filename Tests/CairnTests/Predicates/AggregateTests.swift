@testable import Cairn
import Foundation
import Testing

@Suite("Aggregates, sections and query plans")
struct AggregateTests {
    let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    func context() throws -> (ModelContext, [Workout]) {
        let context = ModelContext(try memoryContainer(for: Workout.self))
        let titles = ["Run", "Swim", "Run", "Row", "e\u{301}cole", "école", "Swim"]
        var made: [Workout] = []
        for (index, title) in titles.enumerated() {
            let workout = Workout(title: title, startedAt: start.addingTimeInterval(Double(index) * 60), minutes: 10 * index,
                                  calories: Double(index) * 1.5)
            workout.isFavorite = index.isMultiple(of: 2)
            context.insert(workout)
            made.append(workout)
        }
        try context.save()
        return (context, made)
    }

    func lastStatement(_ context: ModelContext) throws -> String? {
        try context.container.store(for: "Workout").executedStatements.last
    }

    @Test("sum, average, min and max run in SQL and equal Swift's answers")
    func aggregates() throws {
        let (context, all) = try context()
        let favorites = FetchDescriptor<Workout>(predicate: #Predicate { $0.isFavorite })
        let matching = all.filter(\.isFavorite)
        #expect(try context.fetchSum(favorites, of: \.minutes) == matching.reduce(0) { $0 + $1.minutes })
        #expect(try lastStatement(context) == "SELECT SUM(\"t0\".\"minutes\") FROM \"Workout\" AS \"t0\" WHERE \"t0\".\"isFavorite\"")
        #expect(try context.fetchSum(favorites, of: \.calories) == matching.reduce(0) { $0 + $1.calories })
        #expect(try lastStatement(context) == "SELECT TOTAL(\"t0\".\"calories\") FROM \"Workout\" AS \"t0\" WHERE \"t0\".\"isFavorite\"")
        let average = try context.fetchAverage(favorites, of: \.minutes)
        #expect(average == Double(matching.reduce(0) { $0 + $1.minutes }) / Double(matching.count))
        #expect(try context.fetchMinimum(FetchDescriptor<Workout>(), of: \.startedAt) == all.map(\.startedAt).min())
        #expect(try context.fetchMaximum(FetchDescriptor<Workout>(), of: \.title) == all.map(\.title).max())
        #expect(try lastStatement(context) == "SELECT MAX(\"t0\".\"title\" COLLATE cairn_swift) FROM \"Workout\" AS \"t0\"")
        let none = FetchDescriptor<Workout>(predicate: #Predicate { $0.minutes > 1000 })
        #expect(try context.fetchSum(none, of: \.minutes) == 0)
        #expect(try context.fetchAverage(none, of: \.minutes) == nil)
        #expect(try context.fetchMaximum(none, of: \.minutes) == nil)
    }

    @Test("aggregates include unsaved changes like fetch does")
    func aggregatesWithPendingChanges() throws {
        let (context, all) = try context()
        all[0].minutes = 500
        context.insert(Workout(title: "New", startedAt: start, minutes: 7, calories: 0))
        #expect(try context.fetchSum(FetchDescriptor<Workout>(), of: \.minutes) == all.reduce(0) { $0 + $1.minutes } + 7)
        #expect(try context.fetchMaximum(FetchDescriptor<Workout>(), of: \.minutes) == 500)
    }

    /// Each aggregate is asked before `save()` (computed from the unsaved models) and after
    /// (computed in SQL): both must give the same answer, or the same error.
    func beforeAndAfterSave<Value>(
        _ context: ModelContext, _ aggregate: (ModelContext) throws -> Value
    ) throws -> (unsaved: Result<Value, any Error>, saved: Result<Value, any Error>) {
        let unsaved = Result { try aggregate(context) }
        try context.save()
        return (unsaved, Result { try aggregate(context) })
    }

    @Test("a sum that does not fit its type throws, saved or not, instead of stopping the process")
    func sumsThatOverflow() throws {
        func expectOverflow<Value>(_ result: Result<Value, any Error>, _ property: String) {
            #expect(throws: ModelError.self) { try result.get() }
            if case .failure(let error as ModelError) = result {
                #expect(error.kind == .valueDecodingFailed)
                #expect(error.description.hasPrefix("The sum of '\(property)' over the matching \(error.entityName ?? "?") models does not fit"))
                #expect(error.entityName != nil)
            }
        }
        let small = ModelContext(try memoryContainer(for: Sample.self))
        small.insert(Sample())
        small.insert(Sample())  // two UInt8 of 255
        let bytes = try beforeAndAfterSave(small) { try $0.fetchSum(FetchDescriptor<Sample>(), of: \.uint8) }
        expectOverflow(bytes.unsaved, "uint8")
        expectOverflow(bytes.saved, "uint8")
        let large = ModelContext(try memoryContainer(for: Workout.self))
        large.insert(Workout(title: "a", startedAt: start, minutes: Int.max, calories: 0))
        large.insert(Workout(title: "b", startedAt: start, minutes: 1, calories: 0))
        let minutes = try beforeAndAfterSave(large) { try $0.fetchSum(FetchDescriptor<Workout>(), of: \.minutes) }
        expectOverflow(minutes.unsaved, "minutes")
        expectOverflow(minutes.saved, "minutes")
        // Beyond SQLite's 64-bit SUM but within UInt64: the exact total either way.
        let unsigned = ModelContext(try memoryContainer(for: Sample.self))
        unsigned.insert(Sample())
        unsigned.insert(Sample())  // two UInt64 of Int64.max
        let total = try beforeAndAfterSave(unsigned) { try $0.fetchSum(FetchDescriptor<Sample>(), of: \.uint64) }
        #expect(try total.unsaved.get() == UInt64(Int64.max) * 2)
        #expect(try total.saved.get() == UInt64(Int64.max) * 2)
    }

    @Test("infinities sum and average as Swift adds them: +inf and -inf give NaN, saved or not")
    func infiniteValues() throws {
        func context(_ calories: [Double]) -> ModelContext? {
            guard let container = try? memoryContainer(for: Workout.self) else { return nil }
            let context = ModelContext(container)
            for (index, value) in calories.enumerated() {
                context.insert(Workout(title: "\(index)", startedAt: start, minutes: index, calories: value))
            }
            return context
        }
        let both = try #require(context([1, .infinity, -.infinity]))
        let sum = try beforeAndAfterSave(both) { try $0.fetchSum(FetchDescriptor<Workout>(), of: \.calories) }
        #expect(try sum.unsaved.get().isNaN)
        #expect(try sum.saved.get().isNaN)
        #expect(try lastStatement(both) == "SELECT TOTAL(\"t0\".\"calories\") FROM \"Workout\" AS \"t0\"")
        #expect(try both.fetchAverage(FetchDescriptor<Workout>(), of: \.calories)?.isNaN == true)
        let none = FetchDescriptor<Workout>(predicate: #Predicate { $0.minutes > 10 })
        #expect(try both.fetchAverage(none, of: \.calories) == nil)
        #expect(try both.fetchSum(none, of: \.calories) == 0)

        let positive = try #require(context([1, .infinity]))
        let infinite = try beforeAndAfterSave(positive) { try $0.fetchSum(FetchDescriptor<Workout>(), of: \.calories) }
        #expect(try infinite.unsaved.get() == .infinity)
        #expect(try infinite.saved.get() == .infinity)
    }

    @Test("an aggregate whose SQL answer the property cannot hold names the entity, property and row")
    func undecodableAggregate() throws {
        let (context, _) = try context()
        // Only a row written outside Cairn can hold a REAL in an Int property's column.
        try context.container.store(for: "Workout").write { connection in
            try connection.sqliteDatabase(for: "the test").execute(sql: #"UPDATE "Workout" SET "minutes" = 1e300 WHERE "id" = 3"#)
        }
        let error = try #require(throws: ModelError.self) {
            try context.fetchSum(FetchDescriptor<Workout>(), of: \.minutes)
        }
        #expect(error.entityName == "Workout")
        #expect(error.propertyName == "minutes")
        #expect(error.column == #""Workout"."minutes""#)
        #expect(error.description.hasPrefix(
            "The sum of 'minutes' over the matching Workout models is 1e+300, which cannot be read as Int: "
                + #"row 3 stores 1e+300 in "Workout"."minutes""#))
        #expect(throws: ModelError.self) { try context.fetchMaximum(FetchDescriptor<Workout>(), of: \.minutes) }
    }

    @Test("Decimal sums and averages are exact, saved or not (SQL would add the stored text as doubles)")
    func decimalAggregates() throws {
        let context = ModelContext(try memoryContainer(for: Sample.self))
        let tiny = Sample()
        tiny.decimal = Decimal(string: "0.000000000000000000001") ?? 0
        context.insert(Sample())  // 12345.678901234567890123
        context.insert(tiny)
        let sum = try beforeAndAfterSave(context) { try $0.fetchSum(FetchDescriptor<Sample>(), of: \.decimal) }
        let exact = Decimal(string: "12345.678901234567890123001")
        #expect(try sum.unsaved.get() == exact)
        #expect(try sum.saved.get() == exact)
        let average = try context.fetchAverage(FetchDescriptor<Sample>(), of: \.decimal)
        #expect(average == Double("6172.8394506172839450615005"))
        let only = FetchDescriptor<Sample>(predicate: #Predicate { $0.uint8 > 0 })
        #expect(try context.fetchSum(only, of: \.decimal) == exact)
    }

    @Test("Float sums are added as doubles and rounded once, saved or not")
    func floatSums() throws {
        let context = ModelContext(try memoryContainer(for: Sample.self))
        for value in [Float(16_777_216), 1, 1] {
            let sample = Sample()
            sample.float = value
            context.insert(sample)
        }
        // In Float, 16,777,216 + 1 rounds back to 16,777,216 twice; in Double it is exact.
        let sum = try beforeAndAfterSave(context) { try $0.fetchSum(FetchDescriptor<Sample>(), of: \.float) }
        #expect(try sum.unsaved.get() == 16_777_218)
        #expect(try sum.saved.get() == 16_777_218)
    }

    @Test("grouped counts in the key's order; Swift's string equality groups é and e\u{301}")
    func groupedCounts() throws {
        let (context, _) = try context()
        let counts = try context.fetchCounts(FetchDescriptor<Workout>(), groupedBy: \.title)
        #expect(counts.map(\.key) == ["Row", "Run", "Swim", "école"])
        #expect(counts.map(\.count) == [1, 2, 2, 2])
        let favorites = try context.fetchCounts(FetchDescriptor<Workout>(), groupedBy: \.isFavorite)
        #expect(favorites.map(\.key) == [false, true])
        #expect(favorites.map(\.count) == [3, 4])
    }

    @Test("sections by a key, in SQL order, with the seed's shape")
    func sections() throws {
        let (context, _) = try context()
        let sections = try context.fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.startedAt, order: .reverse)]),
                                         sectionBy: \.title)
        #expect(sections.sectionTitles == ["Row", "Run", "Swim", "école"])
        #expect(sections[sectionTitle: "Run"]?.map(\.minutes) == [20, 0])
        #expect(sections.contains(sectionTitle: "Swim"))
        #expect(sections.index(ofSectionTitled: "Swim") == 2)
        #expect(try lastStatement(context)?.hasSuffix(
            "ORDER BY \"t0\".\"title\" COLLATE cairn_swift ASC, \"t0\".\"startedAt\" DESC, \"t0\".\"id\" ASC") == true)
    }

    @Test("explain returns the SQL and SQLite's plan")
    func explain() throws {
        let (context, _) = try context()
        let plan = try context.explain(FetchDescriptor<Workout>(predicate: #Predicate { $0.minutes >= 30 }))
        #expect(plan.sql.hasSuffix("FROM \"Workout\" AS \"t0\" WHERE \"t0\".\"minutes\" >= ?"))
        #expect(plan.arguments == [.integer(30)])
        #expect(plan.details.contains { $0.hasPrefix("SCAN t0") })
    }
}
