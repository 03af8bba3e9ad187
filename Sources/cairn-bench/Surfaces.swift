/// A way of doing the workloads through one of Cairn's surfaces.
protocol BenchSurface: Sendable {
    func run(directory: String) throws -> Measurements
}

/// Every surface measured, in report order.
let allSurfaces: [any BenchSurface] = [EngineSurface(), TypedSQLSurface(), SwiftDataSurface(), CoreDataSurface()]

/// W1-W6 of BENCHMARKS.md, and W7: W6's query with each of its 100 fetches returning a new
/// array, as `fetchAll` and `ModelContext.fetch` do. baseline.c's W6 fills one array it
/// allocated once; a loop of `fetchAll` calls also frees a 3.5 MB array per fetch, and glibc
/// then consolidates every small block freed since (malloc_consolidate), a cost the C loop never
/// pays. W7 is that loop on both sides, so each pattern is compared with its own C program.
/// W8 (typed SQL only) is W2's rows through a seven-column tuple `select`, against C's W2: the
/// same rows and checksum, decoded as a tuple instead of a `@Table` struct. W9 (typed SQL only)
/// is W7's fetches as a six-column tuple `select` across a join of `orders` to `shippers`,
/// against the same join in C: a joined tuple select's decoding. W10 is concurrent load
/// (ConcurrentLoad.swift): 4 reader threads running W3's query beside a writer. W11-W13 are
/// the writes a server runs (writes.c): an update of the rows of a key range, a delete by a
/// predicate, and a loop of requests that each fetch one row by key, change it and save.
let workloadCount = 13

/// The C workloads `--workloads` needs: W8 is compared with C's W2.
func cWorkloads(_ selected: Set<Int>) -> Set<Int> {
    Set(selected.map { $0 == 8 ? 2 : $0 }.filter { (1...workloadCount).contains($0) })
}

/// The workloads to time (`--workloads`); by default all of them. Unchecked
/// because main.swift writes it once, before any workload runs or any task starts.
nonisolated(unsafe) var selectedWorkloads: Set<Int> = Set(1...workloadCount)
