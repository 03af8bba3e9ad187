import Cairn
import Foundation

// `swift run workouts`: the seed's SwiftData queries on an embedded Cairn store, then the same
// store through Core Data's query language and typed SQL.

let options: Options
switch Options.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(let parsed): options = parsed
case .failure(let error):
    FileHandle.standardError.write(Data("workouts: \(error.message)\n\n\(Options.usage)\n".utf8))
    exit(2)
}
if options.showHelp {
    print(Options.usage)
    exit(0)
}

do {
    try await Demo(options: options).run()
} catch {
    FileHandle.standardError.write(Data("workouts: \(error)\n".utf8))
    exit(1)
}

@MainActor
struct Demo {
    let options: Options
    let now = Date()

    func run() async throws {
        let container = try openContainer()
        ModelEnvironment.modelContainer = container  // queries without a context use its mainContext
        let context = container.mainContext

        // 1. Import on a @ModelActor, saving every 500 rows, with a progress bar.
        let store = WorkoutStore(modelContainer: container)
        let rows = generateSessions(options.count, now: now)
        fflush(nil)  // the store path first, then the progress bar (standard error)
        let bar = ProgressBar(total: rows.count)
        let started = Date()
        try await store.importSessions(rows) { bar.report($0) }
        print("  imported \(formatted(rows.count)) sessions in \(formatted(Date().timeIntervalSince(started), digits: 2)) s"
            + (peakMemory().map { ", peak memory \($0)" } ?? ""))

        // Sessions that ended: a raw SQL write through the container (every context sees it).
        let finished = try container.write(for: Workout.self) { db in
            try db.execute(sql: #"UPDATE "Workout" SET "finishedAt" = "startedAt" + "minutes" * 60 WHERE "startedAt" < ?"#,
                           arguments: [now.addingTimeInterval(-6 * 3_600)])
            return db.changesCount
        }
        print("  marked \(formatted(finished)) sessions finished with raw SQL")

        try showShapes()
        try await showLive(store)
        try showPaging(context)
        showSorted()
        showSections()
        showSearch()
        try await showBackground(store, context)
        try showStatistics(context)
        try showEnumerate(context)
        try await showCoreData(context)
        try showTypedSQL(container)
    }

    func openContainer() throws -> ModelContainer {
        if options.inMemory {
            print("Store: in memory")
            return try ModelContainer(for: Workout.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
        let url: URL
        if let path = options.path {
            url = URL(fileURLWithPath: path)
        } else {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-workouts/workouts.store")
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        }
        print("Store: \(url.path)")
        print("       (inspect it with: sqlite3 \(url.path) .schema)")
        return try ModelContainer(for: Workout.self, configurations: ModelConfiguration(url: url))
    }

    func row(_ workout: Workout) -> [String] {
        [workout.title, formatted(workout.startedAt), "\(workout.minutes)", formatted(workout.calories),
         workout.isFavorite ? "★" : ""]
    }
    let header = ["title", "started", "min", "kcal", "fav"]

    func showShapes() throws {
        let shapes = QueryShapes()
        printTable("@Query shapes", ["query", "results", "first"], [
            ["@Query var all", formatted(shapes.all.count), shapes.all.first?.title ?? "—"],
            ["filter minutes >= 30, sort startedAt desc", formatted(shapes.long.count), shapes.long.first?.title ?? "—"],
            ["filter isFavorite, sort finishedAt", formatted(shapes.favorites.count), shapes.favorites.first?.title ?? "—"],
            ["lastTen (fetchLimit 10)", formatted(shapes.recent.count), shapes.recent.first?.title ?? "—"],
        ])
    }

    func showPaging(_ context: ModelContext) throws {
        for index in 0..<2 {
            printTable("Page \(index + 1) (5 per page, startedAt desc, title)", header, try page(index, size: 5, in: context).map(row))
        }
        try showSQL(of: context.explain(pageDescriptor(1, size: 5)))
    }

    func showSorted() {
        let sorted = SortedWorkouts(key: options.sort, order: .reverse).workouts
        printTable("Sorted by \(options.sort.rawValue), reverse (--sort date|duration|title): first 8", header,
                   sorted.prefix(8).map(row))
    }

    func showSections() {
        let weeks = WorkoutsByWeek().weeks
        printTable("Weekly sections (first 6 of \(weeks.count) weeks)", ["week", "sessions", "minutes", "longest"],
                   weeks.prefix(6).map { week in
                       [week.label, "\(week.items.count)", formatted(week.items.reduce(0) { $0 + $1.minutes }),
                        "\(week.items.map(\.minutes).max() ?? 0)"]
                   })
        let workouts = WorkoutsByPhase().workouts
        let phases = WorkoutPhase.allCases.compactMap { phase -> [String]? in
            let items = workouts.filter { phase.includes($0, at: now) }
            guard !items.isEmpty else { return nil }
            return [String(describing: phase), formatted(items.count), items.first?.title ?? ""]
        }
        printTable("Phase sections (empty ones skipped)", ["phase", "sessions", "first"], phases)
    }

    func showSearch() {
        for favoritesOnly in [false, true] {
            let found = FilteredWorkouts(text: options.search, favoritesOnly: favoritesOnly).workouts
            printTable("Search \"\(options.search)\"\(favoritesOnly ? ", favorites only" : ""): \(formatted(found.count)) found, newest 5",
                       header, found.prefix(5).map(row))
        }
    }

    func showBackground(_ store: WorkoutStore, _ context: ModelContext) async throws {
        let weekAgo = now.addingTimeInterval(-7 * 86_400)
        let ids = try await store.idsOfLongWorkouts(since: weekAgo)
        let resolved = try resolve(ids, in: context)
        let favorites = try await store.favoriteCount()
        let summary = try await store.summary(from: weekAgo)
        printTable("Background actor (WorkoutStore): Sendable results only", ["question", "answer"], [
            ["favoriteCount()", formatted(favorites)],
            ["idsOfLongWorkouts(since: a week ago)", "\(ids.count) ids → \(resolved.count) models on the main context"],
            ["summary(from: a week ago).sessions", formatted(summary.sessions)],
            ["summary(from: a week ago).minutes", formatted(summary.minutes)],
            ["summary(from: a week ago).longest", "\(summary.longest)"],
        ])
    }

    func showStatistics(_ context: ModelContext) throws {
        let stats = try calorieStats(in: context)
        let all = FetchDescriptor<Workout>()
        let sum = try context.fetchSum(all, of: \.calories)
        let average = try context.fetchAverage(all, of: \.calories) ?? 0
        let peak = try context.fetchMaximum(all, of: \.calories)
        printTable("Calorie statistics", ["statistic", "seed (fetch + Swift)", "Cairn (SQL aggregate)"], [
            ["total", formatted(Int(stats.total.rounded())), formatted(Int(sum.rounded()))],
            ["average", formatted(stats.average), formatted(average)],
            ["peak", stats.peak.map { formatted($0) } ?? "—", peak.map { formatted($0) } ?? "—"],
        ])
    }

    func showEnumerate(_ context: ModelContext) throws {
        var visited = 0
        try context.enumerate(
            FetchDescriptor<Workout>(),
            batchSize: 1_000,
            allowEscapingMutations: false
        ) { workout in
            workout.calories = (workout.calories * 10).rounded() / 10
            visited += 1
        }
        try context.save()
        printTable("enumerate (batches of 1,000): calories rounded to 0.1", ["visited", "saved"],
                   [[formatted(visited), context.hasChanges ? "no" : "yes"]])
    }

    func showLive(_ store: WorkoutStore) async throws {
        let shapes = QueryShapes()
        let before = shapes.favorites.count
        let changed = FiredFlag()
        withObservationTracking { _ = shapes.favorites } onChange: { changed.set() }
        let marked = try await store.markFavorites(longerThan: 100)
        for _ in 0..<1_000 where !changed.value { await Task.yield() }
        for _ in 0..<100 { await Task.yield() }
        printTable("Live query: the actor marks sessions of 100+ minutes as favourites", ["", "favourites"], [
            ["before", formatted(before)],
            ["marked on the actor", formatted(marked)],
            ["after (Query updated itself)", formatted(shapes.favorites.count)],
            ["observation fired", changed.value ? "yes" : "no"],
        ])
    }
}

final class FiredFlag: @unchecked Sendable {
    // @unchecked Sendable: `storage` is only touched under `lock`.
    private let lock = NSLock()
    private var storage = false
    func set() { lock.withLock { storage = true } }
    var value: Bool { lock.withLock { storage } }
}

/// The process's peak resident memory (`VmHWM` in /proc/self/status), on Linux.
func peakMemory() -> String? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return "\(formatted(kilobytes / 1024)) MB"
}
