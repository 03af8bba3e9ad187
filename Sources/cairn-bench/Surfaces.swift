/// A way of doing the workloads through one of Cairn's surfaces.
protocol BenchSurface: Sendable {
    func run(directory: String) throws -> Measurements
}

/// Every surface measured, in report order.
let surfaces: [any BenchSurface] = [EngineSurface(), TypedSQLSurface(), SwiftDataSurface(), CoreDataSurface()]
