import CairnCoreData
import Foundation

/// W1–W13 as Core Data code writes them (on the same `@Model`s as the SwiftData surface):
/// objects inserted into a context and saved once, then `NSFetchRequest`s with a format
/// predicate, sort descriptors and a fetch limit, `count(for:)`, and a lookup whose predicate
/// is parsed for each key, as `NSPredicate(format:)` code does; W11–W13 change or delete
/// fetched objects and save the context. As in the SwiftData surface, a
/// fetch returns new objects in a new array, so W6 and W7 run the same code. Also prints how
/// long parsing a typical format predicate and compiling it to SQL takes.
struct CoreDataSurface: BenchSurface {
    /// W3's request once: the sum of its ids plus its row count (what W3 and W10 add up).
    static func topHundred(_ context: ModelContext) throws -> Int64 {
        let request = NSFetchRequest<ModelWorkout>(entityName: "ModelWorkout")
        request.predicate = NSPredicate(format: "minutes >= %d", 30)
        request.sortDescriptors = [NSSortDescriptor(key: "startedAt", ascending: false)]
        request.fetchLimit = 100
        let rows = try context.fetch(request)
        return rows.reduce(0) { $0 + $1.id } + Int64(rows.count)
    }

    /// The object with a key, found as W5 and W13 find it.
    static func lookup(_ context: ModelContext, _ key: Int64) throws -> ModelWorkout? {
        let request = NSFetchRequest<ModelWorkout>(entityName: "ModelWorkout")
        request.predicate = NSPredicate(format: "id == %lld", key)
        request.fetchLimit = 1
        return try context.fetch(request).first
    }

    /// The objects of a key range, as W11 and W12 fetch them.
    static func fetchRange(_ context: ModelContext, _ keys: ClosedRange<Int64>) throws -> [ModelWorkout] {
        let request = NSFetchRequest<ModelWorkout>(entityName: "ModelWorkout")
        request.predicate = NSPredicate(format: "id >= %lld AND id <= %lld", keys.lowerBound, keys.upperBound)
        return try context.fetch(request)
    }

    func run(directory: String) throws -> Measurements {
        let url = URL(fileURLWithPath: directory + "/coredata.store")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        let container = try ModelContainer(
            for: Schema([ModelWorkout.self, ModelOrder.self]), configurations: [ModelConfiguration(url: url)])
        var m = Measurements(name: "Core Data (NSFetchRequest)", surfaceLabel: "coredata")
        let input = Workload.makeRows()

        try SwiftDataSurface.measureInserts(&m, container: container, rows: input)

        // As in the SwiftData surface, the context goes away after the clock, with its rows.
        try m.measure(2, {
            let context = ModelContext(container)
            return (context, try context.fetch(NSFetchRequest<ModelWorkout>(entityName: "ModelWorkout")))
        }, checksum: { Workload.checksumW2($0.1.map(SwiftDataSurface.row)) })

        try m.measure(3) {
            let context = ModelContext(container)
            var sum: Int64 = 0
            for _ in 0..<Workload.repeats { sum += try Self.topHundred(context) }
            return sum
        }

        try m.measure(4) {
            let context = ModelContext(container)
            var sum: Int64 = 0
            for _ in 0..<Workload.repeats {
                let request = NSFetchRequest<ModelWorkout>(entityName: "ModelWorkout")
                request.predicate = NSPredicate(format: "isFavorite == YES")
                sum += Int64(try context.count(for: request))
            }
            return sum
        }

        try SwiftDataSurface.measureLookups(&m, container: container, lookup: Self.lookup)

        try SwiftDataSurface.measureOrders(&m, container: container) {
            try $0.fetch(NSFetchRequest<ModelOrder>(entityName: "ModelOrder"))
        }
        try SwiftDataSurface.measureConcurrentLoad(&m, container: container, topHundred: Self.topHundred)
        try ModelWrites(
            fetchRange: Self.fetchRange, fetchOne: Self.lookup,
            deleteRange: { context, keys in
                for object in try Self.fetchRange(context, keys) { context.delete(object) }
            }
        ).measure(&m, container: container)

        print("format_parse_compile_us=" + String(format: "%.2f", try Self.parseAndCompileMicroseconds()))
        print("format_parse_only_us=" + String(format: "%.2f", Self.parseOnlyMicroseconds()))
        return m
    }

    /// Microseconds to parse the same predicate into `NSPredicate` without compiling it.
    static func parseOnlyMicroseconds() -> Double {
        let runs = 20_000
        var matches = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for i in 0..<runs {
            let predicate = NSPredicate(
                format: "name CONTAINS[cd] %@ AND amount > %f OR category IN %@", "coffee", Double(i), ["Food", "Travel"])
            if predicate.formatError == nil { matches += 1 }
        }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        return matches == runs ? Double(elapsed) / 1_000 / Double(runs) : -1
    }

    /// Microseconds to parse `name CONTAINS[cd] %@ AND amount > %f OR category IN %@` and
    /// compile it to SQL text with bound arguments, averaged over many runs.
    static func parseAndCompileMicroseconds() throws -> Double {
        let entity = FormatSQLEntity(
            name: "Expense", table: "Expense", primaryKey: "id",
            attributes: ["name": "name", "amount": "amount", "category": "category"], relationships: [:])
        let runs = 20_000
        var length = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for i in 0..<runs {
            let predicate = NSPredicate(
                format: "name CONTAINS[cd] %@ AND amount > %f OR category IN %@", "coffee", Double(i), ["Food", "Travel"])
            length += try predicate.formatPredicate.sqlCondition(for: entity).render().sql.utf8.count
        }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        guard length > 0 else { throw BenchError("the format predicate compiled to nothing") }
        return Double(elapsed) / 1_000 / Double(runs)
    }
}
