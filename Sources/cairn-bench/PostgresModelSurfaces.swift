import CairnCoreData
import Foundation

/// W1–W6 and W10 through the model surfaces on a PostgreSQL store: a `ModelContainer` opened
/// with the server's URL, and the same code as the SQLite run's SwiftData and Core Data
/// surfaces (inserts saved once, `FetchDescriptor`s or `NSFetchRequest`s, lookups by key).
struct PostgresModelSurface: PostgresBenchSurface {
    let label: String
    let name: String
    let fetchAll: @Sendable (ModelContext) throws -> [ModelWorkout]
    let countFavorites: @Sendable (ModelContext) throws -> Int
    let topHundred: @Sendable (ModelContext) throws -> Int64
    let lookup: @Sendable (ModelContext, Int64) throws -> ModelWorkout?
    let fetchOrders: @Sendable (ModelContext) throws -> [ModelOrder]

    static let swiftData = PostgresModelSurface(
        label: "swiftdata", name: "SwiftData (@Model)",
        fetchAll: { try $0.fetch(FetchDescriptor<ModelWorkout>()) },
        countFavorites: { try $0.fetchCount(FetchDescriptor<ModelWorkout>(predicate: #Predicate { $0.isFavorite })) },
        topHundred: SwiftDataSurface.topHundred, lookup: SwiftDataSurface.lookup,
        fetchOrders: { try $0.fetch(FetchDescriptor<ModelOrder>()) })

    static let coreData = PostgresModelSurface(
        label: "coredata", name: "Core Data (NSFetchRequest)",
        fetchAll: { try $0.fetch(NSFetchRequest<ModelWorkout>(entityName: "ModelWorkout")) },
        countFavorites: { context in
            let request = NSFetchRequest<ModelWorkout>(entityName: "ModelWorkout")
            request.predicate = NSPredicate(format: "isFavorite == YES")
            return try context.count(for: request)
        },
        topHundred: CoreDataSurface.topHundred, lookup: CoreDataSurface.lookup,
        fetchOrders: { try $0.fetch(NSFetchRequest<ModelOrder>(entityName: "ModelOrder")) })

    func run(url: String) throws -> Measurements {
        // The container creates its tables; earlier runs' go first, as C drops its own.
        try PostgresConnection(url: url).execute(sql: """
            DROP TABLE IF EXISTS "ModelWorkout", "ModelOrder", "_CairnMetadata", "_CairnHistoryTransaction" CASCADE
            """)
        let container = try ModelContainer(
            for: Schema([ModelWorkout.self, ModelOrder.self]),
            configurations: [ModelConfiguration(url: try Self.serverURL(url))])
        var m = Measurements(name: name + " on PostgreSQL", surfaceLabel: label)
        let input = Workload.makeRows()

        try SwiftDataSurface.measureInserts(&m, container: container, rows: input)
        try PostgresWorkload.vacuum(#""ModelWorkout""#, url: url)

        try m.measure(2, {
            let context = ModelContext(container)
            return (context, try fetchAll(context))
        }, checksum: { Workload.checksumW2($0.1.map(SwiftDataSurface.row)) })
        m.peakRSSKiB = peakResidentKiB()

        try m.measure(3) {
            let context = ModelContext(container)
            var sum: Int64 = 0
            for _ in 0..<Workload.repeats { sum += try topHundred(context) }
            return sum
        }

        try m.measure(4) {
            let context = ModelContext(container)
            var sum: Int64 = 0
            for _ in 0..<Workload.repeats { sum += Int64(try countFavorites(context)) }
            return sum
        }

        try SwiftDataSurface.measureLookups(&m, container: container, lookup: lookup)
        try SwiftDataSurface.measureOrders(&m, container: container, fetch: fetchOrders)
        try SwiftDataSurface.measureConcurrentLoad(&m, container: container, topHundred: topHundred)
        return m
    }

    static func serverURL(_ url: String) throws -> URL {
        guard let parsed = URL(string: url) else {
            throw PostgresError(message: "not a URL: \(url.prefix(40))")
        }
        return parsed
    }
}
