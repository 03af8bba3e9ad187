import Cairn
import Foundation

/// The `workout` row of BENCHMARKS.md as a model, for the SwiftData and Core Data surfaces. It
/// keeps its own `id` so the checksums can use C's ids; the index on it is what a primary-key
/// lookup needs, the one on `startedAt` is the C baseline's `workout_startedAt`.
@Model
final class ModelWorkout {
    #Index<ModelWorkout>([\.id], [\.startedAt])
    var id: Int64
    var title: String
    var startedAt: Double
    var finishedAt: Double?
    var minutes: Int64
    var calories: Double
    var isFavorite: Bool

    init(_ row: WorkoutRow) {
        id = row.id
        title = row.title
        startedAt = row.startedAt
        finishedAt = row.finishedAt
        minutes = row.minutes
        calories = row.calories
        isFavorite = row.isFavorite
    }
}

/// The `orders` row of W6 as a SwiftData model.
@Model
final class ModelOrder {
    var orderID: Int64
    var customerID: String?
    var employeeID: Int64
    var orderDate: String?
    var requiredDate: String?
    var shippedDate: String?
    var shipVia: Int64
    var freight: Double
    var shipName: String?
    var shipAddress: String?
    var shipCity: String?
    var shipRegion: String?
    var shipPostalCode: String?
    var shipCountry: String?

    init(_ row: OrderRow) {
        orderID = row.id
        customerID = row.customerID
        employeeID = row.employeeID
        orderDate = row.orderDate
        requiredDate = row.requiredDate
        shippedDate = row.shippedDate
        shipVia = row.shipVia
        freight = row.freight
        shipName = row.shipName
        shipAddress = row.shipAddress
        shipCity = row.shipCity
        shipRegion = row.shipRegion
        shipPostalCode = row.shipPostalCode
        shipCountry = row.shipCountry
    }
}

/// W1–W7 as SwiftData code writes them: models inserted into a `ModelContext` and saved once,
/// then `FetchDescriptor`s with `#Predicate`, `SortDescriptor` and limits. A fetch that must
/// build models (W2, W6) uses a fresh context, so every row becomes a model as in an app's
/// first fetch. W11–W13 change fetched models and `save()`, and delete with
/// `delete(model:where:)` (SwiftData's spelling of "delete what matches", saved by `save()`).
struct SwiftDataSurface: BenchSurface {
    func run(directory: String) throws -> Measurements {
        let url = URL(fileURLWithPath: directory + "/swiftdata.store")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        let container = try ModelContainer(
            for: ModelWorkout.self, ModelOrder.self, configurations: ModelConfiguration(url: url))
        var m = Measurements(name: "SwiftData (@Model)", surfaceLabel: "swiftdata")
        let input = Workload.makeRows()

        try SwiftDataSurface.measureInserts(&m, container: container, rows: input)

        // The context goes away after the clock with the rows it holds, as C frees its rows
        // after timing; dropped inside, its identity map's teardown was timed too.
        try m.measure(2, {
            let context = ModelContext(container)
            return (context, try context.fetch(FetchDescriptor<ModelWorkout>()))
        }, checksum: { Workload.checksumW2($0.1.map(Self.row)) })
        m.peakRSSKiB = peakResidentKiB()

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
                sum += Int64(try context.fetchCount(FetchDescriptor<ModelWorkout>(predicate: #Predicate { $0.isFavorite })))
            }
            return sum
        }

        try Self.measureLookups(&m, container: container, lookup: Self.lookup)

        try Self.measureOrders(&m, container: container) { try $0.fetch(FetchDescriptor<ModelOrder>()) }
        try Self.measureConcurrentLoad(&m, container: container, topHundred: Self.topHundred)
        try ModelWrites(
            fetchRange: { context, keys in try context.fetch(ModelWrites.descriptor(keys)) },
            fetchOne: Self.lookup,
            deleteRange: { context, keys in
                let first = keys.lowerBound, last = keys.upperBound
                try context.delete(model: ModelWorkout.self, where: #Predicate { $0.id >= first && $0.id <= last })
            }
        ).measure(&m, container: container)
        return m
    }

    /// The model with a key, found as W5 and W13 find it.
    static func lookup(_ context: ModelContext, _ key: Int64) throws -> ModelWorkout? {
        var descriptor = FetchDescriptor<ModelWorkout>(predicate: #Predicate { $0.id == key })
        descriptor.fetchLimit = 1
        return try context.fetch(descriptor).first
    }

    /// W3's query once: the sum of its ids plus its row count (what W3 and W10 add up).
    static func topHundred(_ context: ModelContext) throws -> Int64 {
        let minimum: Int64 = 30
        var descriptor = FetchDescriptor<ModelWorkout>(
            predicate: #Predicate { $0.minutes >= minimum },
            sortBy: [SortDescriptor(\.startedAt, order: .reverse)])
        descriptor.fetchLimit = 100
        let rows = try context.fetch(descriptor)
        return rows.reduce(0) { $0 + $1.id } + Int64(rows.count)
    }

    /// Times W10: each reader thread fetches with its own context, as a server's requests do;
    /// the writer saves each batch of 100 new models from a new context.
    static func measureConcurrentLoad(
        _ m: inout Measurements, container: ModelContainer,
        topHundred: @escaping @Sendable (ModelContext) throws -> Int64
    ) throws {
        try ConcurrentLoad.measure(&m) { reads in
            let context = ModelContext(container)
            var sum: Int64 = 0
            for _ in 0..<reads { sum += try topHundred(context) }
            return sum
        } writeBatch: { first in
            let context = ModelContext(container)
            for k in first..<first + ConcurrentLoad.batch { context.insert(ModelWorkout(ConcurrentLoad.writtenRow(k))) }
            try context.save()
        }
    }

    /// Times W1: every row inserted as a model into one context and saved once, as an import would.
    static func measureInserts(_ m: inout Measurements, container: ModelContainer, rows: [WorkoutRow]) throws {
        try m.measure(1) {
            let context = ModelContext(container)
            for row in rows { context.insert(ModelWorkout(row)) }
            try context.save()
            return nil
        }
    }

    /// Times W5: 10,000 lookups by primary key in one context (`lookup` is the surface's: a
    /// `FetchDescriptor` or an `NSFetchRequest`).
    static func measureLookups(
        _ m: inout Measurements, container: ModelContainer, lookup: (ModelContext, Int64) throws -> ModelWorkout?
    ) throws {
        try m.measure(5) {
            let context = ModelContext(container)
            var sum: Int64 = 0
            for k in 0..<Workload.lookups {
                if let w = try lookup(context, Workload.lookupKey(k)) { sum += w.id + w.minutes }
            }
            return sum
        }
    }

    /// Saves the W6 orders, then times W6 and W7: 100 fetches of them, each by a new context
    /// (`fetch` is the surface's: a `FetchDescriptor` or an `NSFetchRequest`). A fetch returns
    /// new models in a new array, so W6 and W7 run the same code, and the table shows it
    /// against both C loops (one reused array; a new array per fetch).
    static func measureOrders(
        _ m: inout Measurements, container: ModelContainer, fetch: (ModelContext) throws -> [ModelOrder]
    ) throws {
        let orders = ModelContext(container)
        for row in Workload.makeOrders() { orders.insert(ModelOrder(row)) }
        try orders.save()
        for workload in [6, 7] {
            try m.measure(workload) {
                var sum: Int64 = 0
                for _ in 0..<Workload.orderRepeats {
                    let fetched = try fetch(ModelContext(container))
                    sum += fetched.reduce(0) { $0 + Workload.orderChecksum(id: $1.orderID, shippedDate: $1.shippedDate) }
                }
                return sum
            }
        }
    }

    static func row(_ w: ModelWorkout) -> WorkoutRow {
        WorkoutRow(id: w.id, title: w.title, startedAt: w.startedAt, finishedAt: w.finishedAt,
                   minutes: w.minutes, calories: w.calories, isFavorite: w.isFavorite)
    }
}
