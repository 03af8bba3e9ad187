@testable import Cairn
import Testing

@Suite("Many actors at once, and cancellation")
struct ConcurrencyTests {
    @Test("eight actors import and read at once on a file store; every row arrives once, counts agree")
    func manyActors() async throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let container = try store.container(for: Workout.self)
        let perActor = 600
        let totals = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let actor = WorkoutStore(modelContainer: container)
                    if index.isMultiple(of: 2) {
                        let rows = generatedSessions(perActor).map {
                            SessionRow(title: "A\(index) \($0.title)", start: $0.start, minutes: $0.minutes, calories: $0.calories)
                        }
                        try await actor.importSessions(rows) { _ in }
                        return perActor
                    }
                    var seen = 0
                    for _ in 0..<20 {
                        let count = try await actor.count()
                        #expect(count >= seen)  // a reader never sees rows disappear
                        seen = count
                        _ = try await actor.summary(from: .distantPast)
                    }
                    return 0
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(totals == 4 * perActor)
        let reader = WorkoutStore(modelContainer: container)
        #expect(try await reader.count() == 4 * perActor)
        let titles = try ModelContext(container).fetch(FetchDescriptor<Workout>()).map(\.title)
        #expect(Set(titles).count == titles.count)
    }

    @Test("containers on one file (separate connections, as separate processes have) save at once; every save lands")
    func containersOnOneFile() async throws {
        let store = TemporaryStore()
        defer { store.remove() }
        _ = try store.container(for: Workout.self)  // creates the file and its table
        let saves = 150
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<3 {
                group.addTask {
                    // Each its own container: its own connection, contending for the file's
                    // write lock (BEGIN IMMEDIATE waits within the busy timeout).
                    let context = ModelContext(try store.container(for: Workout.self))
                    for index in 0..<saves {
                        context.insert(Workout(title: "c\(writer)-\(index)", startedAt: .distantPast, minutes: index, calories: 0))
                        try context.save()
                        if index.isMultiple(of: 10) { _ = try context.fetchCount(FetchDescriptor<Workout>()) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let titles = try ModelContext(try store.container(for: Workout.self)).fetch(FetchDescriptor<Workout>()).map(\.title)
        #expect(titles.count == 3 * saves)
        #expect(Set(titles).count == titles.count)
    }

    @Test("a fetch in a cancelled task throws CancellationError before reading; the store stays usable")
    func cancelledBeforeFetch() async throws {
        let container = try memoryContainer(for: Workout.self)
        let actor = WorkoutStore(modelContainer: container)
        try await actor.importSessions(generatedSessions(50)) { _ in }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await actor.favoriteCount()
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await actor.count() == 50)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Workout>()) == 50)
    }

    @Test("cancelling a task stops its long fetch with CancellationError; nothing is left locked")
    func cancelledDuringFetch() async throws {
        let container = try memoryContainer(for: Workout.self)
        let actor = WorkoutStore(modelContainer: container)
        try await actor.importSessions(generatedSessions(2_000)) { _ in }
        let started = FiredFlag()
        let task = Task { try await actor.slowCount(started: started) }
        while !started.value { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // The connection and the actor are free again: later fetches and saves work.
        #expect(try await actor.count() == 2_000)
        try await actor.importSessions(generatedSessions(1)) { _ in }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Workout>()) == 2_001)
    }
}

extension WorkoutStore {
    func count() throws -> Int {
        try modelContext.fetchCount(FetchDescriptor<Workout>())
    }

    /// A fetch whose predicate runs in memory on every row of a cross join (SQLite cannot
    /// answer it quickly): it runs until cancelled.
    func slowCount(started: FiredFlag) throws -> Int {
        started.set()
        return try modelContainer.read(for: Workout.self) { db in
            try db.withTaskCancellation {
                try db.fetchCount(sql: #"SELECT 1 FROM "Workout" a, "Workout" b, "Workout" c"#)
            }
        }
    }
}
