import Cairn
import CairnBenchBaseline
import Foundation

/// `cairn-bench --store postgres`: W1-W6 and W10 against a PostgreSQL server, through each
/// surface that runs on PostgreSQL, beside the libpq C baseline (postgres.c) on the same
/// server, with the same report and checksums as the SQLite run.
///
/// Each side drops and creates its tables (`workout`, `orders`) in the URL's database before
/// it runs, so the sides run one after another on the same server and the same data.
enum PostgresBench {
    /// The workloads that run on PostgreSQL.
    static let workloads: Set<Int> = [1, 2, 3, 4, 5, 6, 10]

    /// Every surface measured on PostgreSQL, in report order.
    static let surfaces: [any PostgresBenchSurface] = [
        PostgresEngineSurface(), PostgresTypedSQLSurface(), PostgresModelSurface.swiftData, PostgresModelSurface.coreData,
    ]

    /// The surfaces of the SQLite run that do not run here, and why (printed with the report).
    static let skipped: [(name: String, reason: String)] = []

    /// The server: `--postgres-url URL`, else `CAIRN_TEST_POSTGRES_URL` (which
    /// Scripts/with-postgres.sh sets).
    static func url(_ arguments: ArraySlice<String>) -> String? {
        if let i = arguments.firstIndex(of: "--postgres-url"), arguments.index(after: i) < arguments.endIndex {
            return arguments[arguments.index(after: i)]
        }
        return ProcessInfo.processInfo.environment["CAIRN_TEST_POSTGRES_URL"]
    }

    /// Runs the benchmark and returns the process's exit status.
    static func run(_ arguments: ArraySlice<String>, runs: Int) -> Int32 {
        guard let url = url(arguments) else {
            printError("""
                --store postgres needs a server: pass --postgres-url postgresql://user@host/db, or set \
                CAIRN_TEST_POSTGRES_URL (Scripts/with-postgres.sh starts a throwaway server and sets it)
                """)
            return 2
        }
        var surfaces = surfaces
        if let i = arguments.firstIndex(of: "--only"), arguments.index(after: i) < arguments.endIndex {
            let wanted = arguments[arguments.index(after: i)].lowercased()
            surfaces = surfaces.filter { $0.label == wanted }
            if surfaces.isEmpty {
                let names = Self.surfaces.map(\.label).joined(separator: ", ")
                printError("cairn-bench: no surface named \(wanted) runs on PostgreSQL (\(names))")
                return 2
            }
        }
        for surface in skipped { print("skipped \(surface.name): \(surface.reason)") }
        let skippedWorkloads = selectedWorkloads.subtracting(workloads).sorted()
        if !skippedWorkloads.isEmpty {
            print("skipped " + skippedWorkloads.map { "W\($0)" }.joined(separator: ",") + ": SQLite only")
        }
        selectedWorkloads.formIntersection(workloads)
        cairn_baseline_select_workloads(Int32(selectedWorkloads.reduce(0) { $0 | 1 << ($1 - 1) }))
        do {
            var c: Measurements?
            var fastest: [Measurements?] = Array(repeating: nil, count: surfaces.count)
            for round in 1...runs {
                let (baseline, versions) = try baseline(url: url)
                if round == 1 { print("impl=c \(versions)") }
                c = c.map { $0.fastest(with: baseline) } ?? baseline
                for (i, surface) in surfaces.enumerated() {
                    let m = try surface.run(url: url)
                    fastest[i] = fastest[i].map { $0.fastest(with: m) } ?? m
                }
            }
            guard let c else { throw BenchError("no run") }
            let report = Report(baseline: c, runs: fastest.compactMap { $0 }, baselineName: "libpq C on the same server")
            report.print()
            if !report.checksumsAgree {
                printError("checksum mismatch: a surface did different work than C")
                return 1
            }
            return 0
        } catch {
            printError("cairn-bench: \(error)")
            return 1
        }
    }

    /// Runs postgres.c against the server.
    static func baseline(url: String) throws -> (Measurements, String) {
        var result = CairnPostgresBaselineResult()
        guard cairn_baseline_postgres_run(url, &result) == 0 else {
            throw BenchError("the libpq C baseline failed (its error is above)")
        }
        var m = Measurements(name: "c (libpq)", surfaceLabel: "c")
        let ms = withUnsafeBytes(of: result.milliseconds) { Array($0.bindMemory(to: Double.self)) }
        let sums = withUnsafeBytes(of: result.checksum) { Array($0.bindMemory(to: Int64.self)) }
        m.milliseconds = ms.map { $0 < 0 ? nil : $0 }
        m.checksums = zip(ms, sums).enumerated().map { i, pair in i == 0 || pair.0 < 0 ? nil : pair.1 }
        func dotted(_ version: Int32) -> String { "\(version / 10_000).\(version % 10_000)" }
        return (m, "postgres=\(dotted(result.serverVersion)) libpq=\(dotted(result.libpqVersion))")
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

/// A way of doing the workloads through one of Cairn's surfaces on a PostgreSQL server.
protocol PostgresBenchSurface: Sendable {
    /// The name `--only` picks it by: "engine", "typedsql".
    var label: String { get }
    func run(url: String) throws -> Measurements
}

/// The tables and statements of the PostgreSQL workloads, as postgres_internal.h has them for C.
enum PostgresWorkload {
    static let columns = #"id, title, "startedAt", "finishedAt", minutes, calories, "isFavorite""#
    static let createWorkout = """
        CREATE TABLE workout (id bigint PRIMARY KEY, title text NOT NULL, "startedAt" double precision NOT NULL, \
        "finishedAt" double precision, minutes bigint NOT NULL, calories double precision NOT NULL, \
        "isFavorite" boolean NOT NULL)
        """
    static let createWorkoutIndex = #"CREATE INDEX workout_startedAt ON workout ("startedAt")"#
    static let insertWorkout = "INSERT INTO workout (\(columns)) VALUES ($1, $2, $3, $4, $5, $6, $7)"
    static let topHundred = #"SELECT \#(columns) FROM workout WHERE minutes >= $1 ORDER BY "startedAt" DESC LIMIT $2"#
    static let createOrders = """
        CREATE TABLE orders ("OrderID" bigint PRIMARY KEY, "CustomerID" text, "EmployeeID" bigint, \
        "OrderDate" text, "RequiredDate" text, "ShippedDate" text, "ShipVia" bigint, "Freight" double precision, \
        "ShipName" text, "ShipAddress" text, "ShipCity" text, "ShipRegion" text, "ShipPostalCode" text, \
        "ShipCountry" text)
        """
    static let selectOrders = """
        SELECT "OrderID", "CustomerID", "EmployeeID", "OrderDate", "RequiredDate", "ShippedDate", "ShipVia", \
        "Freight", "ShipName", "ShipAddress", "ShipCity", "ShipRegion", "ShipPostalCode", "ShipCountry" FROM orders
        """
}

extension PostgresWorkload {
    /// A pool on the server, with `workout` dropped and created empty (and `orders` dropped),
    /// as C starts.
    static func open(url: String) throws -> PostgresDatabase {
        let database = try PostgresDatabase(url: url)
        try database.write { db in
            try db.execute(sql: "DROP TABLE IF EXISTS workout, orders")
            try db.execute(sql: createWorkout)
            try db.execute(sql: createWorkoutIndex)
        }
        return database
    }

    /// `VACUUM ANALYZE table`, outside the clock as C runs it: no read workload then pays for
    /// setting hint bits or runs before the planner has statistics.
    static func vacuum(_ table: String, url: String) throws {
        try PostgresConnection(url: url).execute(sql: "VACUUM ANALYZE \(table)")
    }
}
