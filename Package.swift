// swift-tools-version:6.2
// Cairn: SwiftData, Core Data's predicate language and SQLiteData's typed SQL, on one SQLite
// engine, for Swift on Linux. The README lists the products; Docs/ holds the guides.
import CompilerPluginSupport
import Foundation
import PackageDescription

// MARK: - SwiftSyntax from the toolchain
//
// The machines reach no Swift package registry, so the macro plugin links the SwiftSyntax
// libraries that ship inside the toolchain, in `<toolchain>/usr/lib/swift/host`. They are found
// from the `swift` this manifest runs under (or `$SWIFT_HOST_LIBS`).

let syntaxLibraries = [
    "SwiftSyntax", "SwiftSyntaxMacros", "SwiftSyntaxBuilder", "SwiftDiagnostics", "SwiftParser",
    "SwiftParserDiagnostics", "SwiftBasicFormat", "SwiftOperators", "SwiftSyntaxMacroExpansion",
    "SwiftCompilerPluginMessageHandling", "SwiftIfConfig",
]

/// Every folder searched, in order, so a failure can say where it looked.
func hostLibraryCandidates() -> [String] {
    let env = ProcessInfo.processInfo.environment
    if let override = env["SWIFT_HOST_LIBS"], !override.isEmpty { return [override] }
    var candidates: [String] = []
    // The manifest is compiled and run by the toolchain's own swiftc; its path is the surest.
    let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
    let paths = [executable.path]
        + (env["PATH"] ?? "").split(separator: ":").map { "\($0)/swift" }
    for path in paths where FileManager.default.fileExists(atPath: path) {
        let bin = URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent()
        let host = bin.deletingLastPathComponent().appendingPathComponent("lib/swift/host").path
        if !candidates.contains(host) { candidates.append(host) }
    }
    candidates.append("/opt/swift/usr/lib/swift/host")
    return candidates
}

func findHostLibraries() -> String {
    let candidates = hostLibraryCandidates()
    let required = ["SwiftSyntax.swiftmodule", "SwiftCompilerPluginMessageHandling.swiftmodule"]
    for dir in candidates
    where required.allSatisfy({ FileManager.default.fileExists(atPath: dir + "/" + $0) }) {
        return dir
    }
    // A manifest cannot emit a diagnostic, so stop here with a message that names what is
    // missing and every place searched.
    fatalError("""
        Cairn's macros need the SwiftSyntax libraries shipped inside the Swift toolchain \
        (\(required.joined(separator: ", "))), but none of these folders has them: \
        \(candidates.joined(separator: ", ")). Install a Swift 6 toolchain from swift.org, or \
        set SWIFT_HOST_LIBS to its usr/lib/swift/host folder.
        """)
}

let host = findHostLibraries()
let hostCompilerFlags: [String] = ["-I", host]
let hostLinkerFlags: [String] = ["-L", host] + syntaxLibraries.map { "-l" + $0 }
    + ["-Xlinker", "-rpath", "-Xlinker", host]

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

// MARK: - Package

let package = Package(
    name: "Cairn",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Cairn", targets: ["Cairn"]),
        .library(name: "CairnCoreData", targets: ["CairnCoreData"]),
        // Linux only: `import CoreData` and `import SwiftData` for code written against Apple's
        // frameworks.
        .library(name: "CoreData", targets: ["CoreData"]),
        .library(name: "SwiftData", targets: ["SwiftData"]),
        // The module names code written for Point-Free's libraries imports.
        .library(name: "StructuredQueries", targets: ["StructuredQueries"]),
        .library(name: "StructuredQueriesSQLite", targets: ["StructuredQueriesSQLite"]),
        .library(name: "SQLiteData", targets: ["SQLiteData"]),
        .executable(name: "cairn-bench", targets: ["cairn-bench"]),
        .executable(name: "workouts", targets: ["workouts"]),
        .executable(name: "cairn-fuzz-format", targets: ["cairn-fuzz-format"]),
        // `cairn info|query|sql|import|export`: Cairn, Core Data and SwiftData stores from the shell.
        .executable(name: "cairn", targets: ["CairnCommand"]),
    ],
    targets: [
        // The system SQLite (Debian: libsqlite3-dev).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The engine: connections, statements, values, transactions, pools, observation.
        .target(name: "CairnSQLite", dependencies: ["CSQLite"], swiftSettings: strict),
        // The system libpq, PostgreSQL's client library (Debian: libpq-dev).
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // The PostgreSQL engine: connections, binary prepared statements, transactions with
        // retries, a pool, pipelined batches, cancellation, LISTEN/NOTIFY. Values are
        // CairnSQLite's, so both engines speak one `DatabaseValue`.
        .target(name: "CairnPostgres", dependencies: ["CLibPQ", "CairnSQLite"], swiftSettings: strict),
        // One query IR and the dialect that renders it to SQL + bound arguments.
        .target(name: "CairnQuery", dependencies: ["CairnSQLite"], swiftSettings: strict),
        // The compiler plugin: @Model, @Table, @Selection, #Unique, #Index, @ModelActor.
        .macro(
            name: "CairnMacros",
            swiftSettings: strict + [.unsafeFlags(hostCompilerFlags)],
            linkerSettings: [.unsafeFlags(hostLinkerFlags)]
        ),
        // The public surface: SwiftData's API and the typed SQL builder.
        .target(
            name: "Cairn",
            dependencies: ["CairnSQLite", "CairnQuery", "CairnPostgres", "CairnMacros"],
            swiftSettings: strict
        ),
        // Core Data's query language under Core Data's names.
        .target(name: "CairnCoreData", dependencies: ["Cairn"], swiftSettings: strict),
        .target(name: "CoreData", dependencies: ["CairnCoreData"], swiftSettings: strict),
        // The names other code imports, each re-exporting the Cairn module that implements it.
        .target(name: "SwiftData", dependencies: ["Cairn"], swiftSettings: strict),
        .target(name: "StructuredQueries", dependencies: ["Cairn"], swiftSettings: strict),
        .target(name: "StructuredQueriesSQLite", dependencies: ["Cairn", "StructuredQueries"], swiftSettings: strict),
        .target(name: "SQLiteData", dependencies: ["Cairn", "StructuredQueries"], swiftSettings: strict),

        // The raw-C baselines of the benchmark (SQLite, and libpq for `--store postgres`),
        // compiled into cairn-bench.
        .target(
            name: "CairnBenchBaseline",
            dependencies: ["CSQLite", "CLibPQ"],
            cSettings: [.unsafeFlags(["-O2"])]
        ),
        .executableTarget(
            name: "cairn-bench",
            dependencies: ["Cairn", "CairnCoreData", "CairnBenchBaseline"],
            swiftSettings: strict
        ),

        // libFuzzer target for the format-predicate parser (see its source for the command).
        .executableTarget(name: "cairn-fuzz-format", dependencies: ["CairnFormatCheck"], swiftSettings: strict),
        // The check that target makes on each input, which the corpus tests replay.
        .target(name: "CairnFormatCheck", dependencies: ["CairnCoreData"], swiftSettings: strict),

        // The demo: `swift run workouts`.
        .executableTarget(name: "workouts", dependencies: ["Cairn", "CoreData"], swiftSettings: strict),

        // The command-line tool: its logic in a library the tests call, and a thin executable
        // (the product `cairn`; its module is not named `cairn`, which would differ from `Cairn`
        // only in case).
        .target(name: "CairnTool", dependencies: ["Cairn", "CairnCoreData"], swiftSettings: strict),
        .executableTarget(name: "CairnCommand", dependencies: ["CairnTool"], swiftSettings: strict),

        // Test support: an SQLite VFS that fails the Nth write, for the I/O-error tests.
        .target(name: "CairnFaultyVFS", linkerSettings: [.linkedLibrary("sqlite3")]),
        // Test support: runs one test of the test binary in a child process (process-wide state).
        .target(name: "CairnTestSupport", dependencies: ["CairnPostgres"], swiftSettings: strict),
        .testTarget(
            name: "CairnSQLiteTests", dependencies: ["CairnSQLite", "CairnFaultyVFS", "CairnTestSupport"], swiftSettings: strict),
        // Run against a server with Scripts/with-postgres.sh; skipped without CAIRN_TEST_POSTGRES_URL.
        .testTarget(name: "CairnPostgresTests", dependencies: ["CairnPostgres", "CairnTestSupport"], swiftSettings: strict),
        .testTarget(name: "CairnQueryTests", dependencies: ["CairnQuery", "CairnTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "CairnMacrosTests",
            dependencies: ["CairnMacros"],
            swiftSettings: strict + [.unsafeFlags(hostCompilerFlags)],
            linkerSettings: [.unsafeFlags(hostLinkerFlags)]
        ),
        // Inheritance/ declares its hierarchy under `import SwiftData` (see SwiftData.Model).
        .testTarget(name: "CairnTests", dependencies: ["Cairn", "SwiftData", "CairnFaultyVFS", "CairnTestSupport"], swiftSettings: strict),
        // Typed SQL (@Table, the query builder): its own target, as its reminders schema
        // declares a `Tag` table beside the SwiftData fixtures' `Tag` model.
        .testTarget(name: "CairnTypedSQLTests", dependencies: ["Cairn", "CairnTestSupport"], swiftSettings: strict),
        // Files that import only `SwiftData`, `StructuredQueries`, `StructuredQueriesSQLite` or
        // `SQLiteData`, as code written for those libraries does.
        .testTarget(
            name: "DropInTests",
            dependencies: ["SwiftData", "StructuredQueries", "StructuredQueriesSQLite", "SQLiteData"],
            swiftSettings: strict),
        // An app target as Swift 6.2 makes it: every declaration main-actor isolated unless
        // marked otherwise, `@Model` classes included.
        .testTarget(
            name: "DefaultMainActorTests", dependencies: ["SwiftData"],
            swiftSettings: strict + [.defaultIsolation(MainActor.self)]),
        // Its end-to-end tests run the `cairn` binary `swift build --build-tests` puts beside the bundle.
        .testTarget(name: "CairnToolTests", dependencies: ["CairnTool", "Cairn", "CairnSQLite"], swiftSettings: strict),
        .testTarget(
            name: "CairnCoreDataTests", dependencies: ["CairnCoreData", "CoreData", "SwiftData", "CairnTestSupport", "CairnFormatCheck"],
            // The fuzz corpus is read from the source tree by FormatFuzzCorpusTests.
            exclude: ["FuzzCorpus"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
