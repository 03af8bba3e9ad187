@testable import Cairn
import CairnTestSupport
import Foundation
import Testing

/// A server opens and drops databases and containers for as long as it runs: each one dropped
/// must give back its file descriptors (database, WAL and shared-memory files) and its
/// objects. Open descriptors are a process-wide count, which tests running in parallel would
/// disturb, so the loop runs in a child: this test binary re-executed with a filter that
/// selects `childOpensAndDropsRepeatedly` (as CrashRecoveryTests does).
@Suite struct ResourceLeakTests {
    static let folderVariable = "CAIRN_LEAK_CHILD_FOLDER"

    /// The process's open file descriptors.
    static func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }

    /// What one round leaves behind: weak references to everything it made.
    struct Leftovers {
        weak var pool: DatabasePool?
        weak var queue: DatabaseQueue?
        weak var container: ModelContainer?
        weak var context: ModelContext?
        weak var observer: ResultsObserver<Workout, Never>?
        weak var store: WorkoutStore?

        var allReleased: Bool {
            pool == nil && queue == nil && container == nil && context == nil && observer == nil && store == nil
        }
    }

    /// Opens a pool, a queue and a container on one file, uses each (writes, reads, a saved
    /// insert, fetches, a `@ModelActor`, live results of both surfaces), and drops them without
    /// closing anything.
    @MainActor
    static func round(_ url: URL, _ index: Int) async throws -> Leftovers {
        var leftovers = Leftovers()
        do {
            let container = try ModelContainer(for: Schema([Workout.self]), configurations: [ModelConfiguration(url: url)])
            let context = ModelContext(container)
            context.insert(Workout(title: "round \(index)", startedAt: .now, minutes: index, calories: 1))
            try context.save()
            #expect(try context.fetchCount(FetchDescriptor<Workout>()) == index + 1)
            let observer = ResultsObserver(fetchDescriptor: FetchDescriptor<Workout>(), modelContainer: container)
            #expect(observer.results.count == index + 1)
            let store = WorkoutStore(modelContainer: container)
            #expect(try await store.favoriteCount() == 0)
            var batched = FetchDescriptor<Workout>()
            batched.includePendingChanges = false
            #expect(try context.fetch(batched, batchSize: 2).count == index + 1)

            let pool = try DatabasePool(path: url.path)
            let titles = FetchAll(Workout.select { $0.title }, database: pool)
            #expect(titles.wrappedValue.count == index + 1)
            let count = FetchOne(wrappedValue: 0, Workout.count(), database: pool)
            #expect(count.wrappedValue == index + 1)
            try await pool.write { db in try db.execute(sql: "UPDATE workout SET minutes = minutes + 1") }
            #expect(try await pool.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM workout") } == index + 1)
            let queue = try DatabaseQueue(path: url.path)
            #expect(try await queue.read { db in try db.fetchValue(String.self, sql: "PRAGMA journal_mode") } == "wal")
            leftovers = Leftovers(
                pool: pool, queue: queue, container: container, context: context, observer: observer, store: store)
        }
        return leftovers
    }

    /// The child's entry point: runs only in the re-executed process.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[folderVariable] != nil))
    @MainActor
    func childOpensAndDropsRepeatedly() async throws {
        let folder = URL(fileURLWithPath: try #require(ProcessInfo.processInfo.environment[Self.folderVariable]))
        let url = folder.appendingPathComponent("leak.store")
        // Rounds first: what the process keeps for good (loaded libraries, the random-number
        // device, the executor's threads) is opened on first use.
        for index in 0..<3 { _ = try await Self.round(url, index) }
        try await Task.sleep(for: .milliseconds(50))
        let baseline = Self.openDescriptors()
        for index in 3..<43 {
            let leftovers = try await Self.round(url, index)
            // A live query's refetch after the round's write may still be running on another
            // thread, holding the pool for a moment: wait for it (bounded).
            try await pollUntil { leftovers.allReleased }
            #expect(leftovers.pool == nil, "round \(index): the DatabasePool was not released")
            #expect(leftovers.queue == nil, "round \(index): the DatabaseQueue was not released")
            #expect(leftovers.container == nil, "round \(index): the ModelContainer was not released")
            #expect(leftovers.context == nil, "round \(index): the ModelContext was not released")
            #expect(leftovers.observer == nil, "round \(index): the ResultsObserver was not released")
            #expect(leftovers.store == nil, "round \(index): the @ModelActor was not released")
        }
        // A leak costs two or three descriptors a round (database, WAL, shared memory): 80 or
        // more here. A worker thread the runtime starts meanwhile may hold one of its own.
        // A dropped pool closes its connections on their own queues, just after it goes:
        // give the last rounds' closes a moment (bounded) before counting.
        try await pollUntil { Self.openDescriptors() <= baseline + 2 }
        let after = Self.openDescriptors()
        #expect(after <= baseline + 2, "file descriptors before: \(baseline), after 40 rounds: \(after)")
    }

    @Test func droppedDatabasesAndContainersReleaseTheirFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-leak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, text) = try runChildTest(
            "ResourceLeakTests/childOpensAndDropsRepeatedly", environment: [Self.folderVariable: folder.path])
        #expect(status == 0, "\(text.suffix(3_000))")
        #expect(text.contains("childOpensAndDropsRepeatedly"), "the child ran no test: \(text.suffix(1_000))")
    }
}
