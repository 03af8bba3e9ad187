/// A way of doing the workloads through one of Cairn's surfaces.
protocol BenchSurface: Sendable {
    func run(directory: String) throws -> Measurements
}

/// Every surface measured, in report order.
let allSurfaces: [any BenchSurface] = [EngineSurface(), TypedSQLSurface(), SwiftDataSurface(), CoreDataSurface()]

/// The workloads to time (`--workloads`); the C baseline always runs all six. Unchecked
/// because main.swift writes it once, before any workload runs or any task starts.
nonisolated(unsafe) var selectedWorkloads: Set<Int> = Set(1...6)
