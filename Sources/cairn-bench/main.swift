// cairn-bench: the workloads of BENCHMARKS.md through Cairn's public API, beside the same
// workloads in plain C over the same SQLite, with the ratio per workload.
//
//   swift run -c release cairn-bench [--dir DIR] [--autocommit] [--runs N]
//   Scripts/with-postgres.sh .build/release/cairn-bench --store postgres
import CairnBenchBaseline
import Foundation

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
    print("""
        usage: cairn-bench [--dir DIR] [--autocommit] [--runs N] [--only SURFACE] [--workloads 2,6]
          [--cpu-time] [--format-only] [--relationships] [--store sqlite|postgres [--postgres-url URL]]
          Runs W1-W6 (../shared/BENCHMARKS.md), W7 (W6 with a new array per fetch, as
          fetchAll returns), W8 (typed SQL: W2's rows as a seven-column tuple select,
          against C's W2) and W9 (typed SQL: W7's fetches as a tuple select across a
          join), W10 (4 reader threads running W3's query while a writer inserts in
          transactions of 100), W11-W13 (writes: 10,000 rows of a key range fetched,
          changed and saved; 10,000 rows deleted by a predicate; 10,000 requests that
          each fetch one row by key, change it and save) in C and through each Cairn surface on fresh
          SQLite files in DIR (default: a temporary folder), prints NAME_ms lines, checksums
          and the ratio of each surface to C. Build with -c release for meaningful numbers.
          --runs N repeats everything N times (C and each surface interleaved) and keeps
          each workload's fastest time: on a shared machine, the least disturbed run.
          --only SURFACE runs C and one surface: engine, typedsql, swiftdata or coredata
          (for profiling one surface with perf or callgrind).
          --workloads LIST runs only those workloads, in C and in each surface (W1 always
          runs: it fills the table the others read).
          --cpu-time times C and Cairn on the process's CPU clock instead of the wall clock:
          on a busy machine, time spent waiting for a core is then not counted on either side
          (W10 then sums its threads' CPU time: it no longer shows whether they overlapped).
          --format-only prints only the parse (+ compile) time of a typical format predicate.
          --relationships prints only the times of growing @Model relationship edits
          (no C counterpart; see RelationshipTimings.swift).
          --store postgres runs W1-W6 and W10 on a PostgreSQL server (--postgres-url, else
          CAIRN_TEST_POSTGRES_URL, which Scripts/with-postgres.sh sets) against C on libpq
          (PostgresBench.swift), through the surfaces that run there.
        """)
    exit(0)
}
if arguments.contains("--format-only") {
    // Only the format-predicate figures (for profiling the parser and compiler).
    print("format_parse_only_us=" + String(format: "%.2f", CoreDataSurface.parseOnlyMicroseconds()))
    print("format_parse_compile_us=" + String(format: "%.2f", (try? CoreDataSurface.parseAndCompileMicroseconds()) ?? -1))
    exit(0)
}
if arguments.contains("--relationships") {
    do {
        try RelationshipTimings.run()
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("cairn-bench: \(error)\n".utf8))
        exit(1)
    }
}
var directory = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-bench-\(getpid())").path
if let i = arguments.firstIndex(of: "--dir"), arguments.index(after: i) < arguments.endIndex {
    directory = arguments[arguments.index(after: i)]
}
let autocommit = arguments.contains("--autocommit")
var runCount = 1
if let i = arguments.firstIndex(of: "--runs"), arguments.index(after: i) < arguments.endIndex,
   let n = Int(arguments[arguments.index(after: i)]), n > 0 {
    runCount = n
}

if let i = arguments.firstIndex(of: "--workloads"), arguments.index(after: i) < arguments.endIndex {
    selectedWorkloads = Set(arguments[arguments.index(after: i)].split(separator: ",").compactMap { Int($0) })
    cairn_baseline_select_workloads(Int32(cWorkloads(selectedWorkloads).reduce(0) { $0 | 1 << ($1 - 1) }))
}
if arguments.contains("--cpu-time") {
    usesCPUTime = true
    cairn_baseline_use_cpu_time(1)
}
if let i = arguments.firstIndex(of: "--store"), arguments.index(after: i) < arguments.endIndex {
    switch arguments[arguments.index(after: i)] {
    case "sqlite": break
    case "postgres": exit(PostgresBench.run(arguments, runs: runCount))
    case let other:
        FileHandle.standardError.write(Data("cairn-bench: no store named \(other) (sqlite, postgres)\n".utf8))
        exit(2)
    }
}
var surfaces = allSurfaces
if let i = arguments.firstIndex(of: "--only"), arguments.index(after: i) < arguments.endIndex {
    let wanted = arguments[arguments.index(after: i)].lowercased()
    surfaces = allSurfaces.filter { String(describing: type(of: $0)).lowercased() == wanted + "surface" }
    if surfaces.isEmpty {
        FileHandle.standardError.write(Data("cairn-bench: no surface named \(wanted) (engine, typedsql, swiftdata, coredata)\n".utf8))
        exit(2)
    }
}

do {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var c: Measurements?
    var fastest: [Measurements?] = Array(repeating: nil, count: surfaces.count)
    for round in 1...runCount {
        let (baseline, settings) = try Measurements.baseline(path: directory + "/c.sqlite", autocommit: autocommit)
        if round == 1 { print("impl=c \(settings)") }
        c = c.map { $0.fastest(with: baseline) } ?? baseline
        for (i, surface) in surfaces.enumerated() {
            let m = try surface.run(directory: directory)
            fastest[i] = fastest[i].map { $0.fastest(with: m) } ?? m
        }
    }
    guard let c else { throw BenchError("no run") }
    let runs = fastest.compactMap { $0 }
    Report(baseline: c, runs: runs).print()
    try? FileManager.default.removeItem(atPath: directory)
    if !Report(baseline: c, runs: runs).checksumsAgree {
        FileHandle.standardError.write(Data("checksum mismatch: a surface did different work than C\n".utf8))
        exit(1)
    }
} catch {
    FileHandle.standardError.write(Data("cairn-bench: \(error)\n".utf8))
    exit(1)
}
