@testable import Cairn
import Synchronization
import Testing

/// A commit source that is not a container: the test commits by hand and sees who listens.
final class HandCommits: CommitSource {
    typealias Failure = Never

    private struct State {
        var observers: [Int: @Sendable (Set<String>) -> Void] = [:]
        var nextID = 0
        /// The `tables` of each observation started, in order.
        var requests: [Set<String>?] = []
    }

    private let state = Mutex(State())

    func observeCommits(to tables: Set<String>?, _ observer: @escaping @Sendable (Set<String>) -> Void) -> CommitObservation {
        let id = state.withLock { state in
            state.nextID += 1
            state.observers[state.nextID] = observer
            state.requests.append(tables)
            return state.nextID
        }
        return CommitObservation { [weak self] in _ = self?.state.withLock { $0.observers.removeValue(forKey: id) } }
    }

    /// Reports a commit of `tables` to every observer, on the calling thread.
    func commit(_ tables: Set<String>) {
        for observer in state.withLock({ Array($0.observers.values) }) { observer(tables) }
    }

    var observerCount: Int { state.withLock { $0.observers.count } }
    var requests: [Set<String>?] { state.withLock { $0.requests } }
}

/// A source that cannot report some tables (as a server whose role may not create triggers).
struct RefusingCommits: CommitSource {
    struct Refusal: Error {}
    let commits = HandCommits()

    func observeCommits(to tables: Set<String>?, _ observer: @escaping @Sendable (Set<String>) -> Void) throws(Refusal) -> CommitObservation {
        if tables?.contains("Refused") ?? false { throw Refusal() }
        return commits.observeCommits(to: tables, observer)
    }
}

@MainActor
final class DeliveryCount {
    var value = 0
}

@MainActor
@Suite("CommitWatch: the observation core of live results")
struct CommitWatchTests {
    func mainActorWatch(_ source: HandCommits, _ count: DeliveryCount) -> CommitWatch<HandCommits> {
        CommitWatch(source: source, delivery: .mainActor { count.value += 1 })
    }

    @Test("a commit to a watched table delivers once; the watch reports its tables")
    func watchedTable() async {
        let source = HandCommits(), count = DeliveryCount()
        let watch = mainActorWatch(source, count)
        watch.watch(["Workout", "Tag"])
        #expect(watch.tables == ["Workout", "Tag"])
        source.commit(["Tag", "Other"])
        #expect(watch.isPending)
        await drainMainActor()
        #expect(count.value == 1)
        #expect(!watch.isPending)
    }

    @Test("a commit to tables nobody watches queues nothing")
    func unrelatedCommit() async {
        let source = HandCommits(), count = DeliveryCount()
        let watch = mainActorWatch(source, count)
        watch.watch(["Workout"])
        source.commit(["Memo"])
        source.commit([])
        #expect(!watch.isPending)
        await drainMainActor()
        #expect(count.value == 0)
        // Main-actor tasks run in order: a delivery queued by the unrelated commits would run
        // before this one.
        source.commit(["Workout"])
        await drainMainActor()
        #expect(count.value == 1)
    }

    @Test("with no known tables (nil), every commit delivers, an empty one included")
    func everyCommit() async {
        let source = HandCommits(), count = DeliveryCount()
        let watch = mainActorWatch(source, count)
        watch.watch(nil)
        source.commit([])
        await drainMainActor()
        #expect(count.value == 1)
        #expect(source.requests == [nil])
    }

    @Test("many commits before the main actor runs coalesce into one delivery")
    func coalescesOnTheMainActor() async {
        let source = HandCommits(), count = DeliveryCount()
        let watch = mainActorWatch(source, count)
        watch.watch(["Workout"])
        for _ in 0..<100 { source.commit(["Workout"]) }
        await drainMainActor()
        #expect(count.value == 1)
        source.commit(["Workout"])
        await drainMainActor()
        #expect(count.value == 2)
    }

    @Test("commits from other threads during a task delivery run it once more, never twice at once")
    func coalescesOffTheMainActor() async throws {
        struct Runs { var started = 0, running = 0, overlapped = false }
        let source = HandCommits()
        let runs = Mutex(Runs())
        let gate = Atomic<Bool>(false)
        let watch = CommitWatch(source: source, delivery: .task {
            let first = runs.withLock { runs -> Bool in
                runs.started += 1
                runs.running += 1
                if runs.running > 1 { runs.overlapped = true }
                return runs.started == 1
            }
            while first, !gate.load(ordering: .acquiring) { try? await Task.sleep(for: .milliseconds(1)) }
            runs.withLock { $0.running -= 1 }
        })
        watch.watch(["Workout"])
        source.commit(["Workout"])
        while runs.withLock({ $0.started }) == 0 { try await Task.sleep(for: .milliseconds(1)) }
        // The first delivery is running: these only mark the watch pending.
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { for _ in 0..<25 { source.commit(["Workout"]) } } }
        }
        #expect(runs.withLock { $0.started } == 1)
        gate.store(true, ordering: .releasing)
        while runs.withLock({ $0.started < 2 || $0.running > 0 }) { try await Task.sleep(for: .milliseconds(1)) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(runs.withLock { $0.started } == 2)
        #expect(!runs.withLock { $0.overlapped })
        #expect(!watch.isPending)
    }

    @Test("deliverIfPending runs the action at once; the queued task then finds nothing to do")
    func deliverIfPendingAnswersNow() async {
        let source = HandCommits(), count = DeliveryCount()
        let watch = mainActorWatch(source, count)
        watch.watch(["Workout"])
        watch.deliverIfPending()
        #expect(count.value == 0)
        source.commit(["Workout"])
        watch.deliverIfPending()
        #expect(count.value == 1)
        await drainMainActor()
        #expect(count.value == 1)
    }

    @Test("clear forgets a waiting commit: its queued delivery does nothing")
    func clearForgets() async {
        let source = HandCommits(), count = DeliveryCount()
        let watch = mainActorWatch(source, count)
        watch.watch(["Workout"])
        source.commit(["Workout"])
        watch.clear()
        await drainMainActor()
        #expect(count.value == 0)
    }

    @Test("cancel stops delivery, a queued one included, and ends the source's observation")
    func cancelStops() async {
        let source = HandCommits(), count = DeliveryCount()
        let watch = mainActorWatch(source, count)
        watch.watch(["Workout"])
        #expect(source.observerCount == 1)
        source.commit(["Workout"])
        watch.cancel()
        #expect(source.observerCount == 0)
        await drainMainActor()
        #expect(count.value == 0)
        watch.watch(["Memo"])
        #expect(source.observerCount == 0)
    }

    @Test("releasing the watch ends the source's observation")
    func releaseStops() {
        let source = HandCommits(), count = DeliveryCount()
        var watch: CommitWatch<HandCommits>? = mainActorWatch(source, count)
        watch?.watch(["Workout"])
        #expect(source.observerCount == 1)
        watch = nil
        #expect(source.observerCount == 0)
    }

    @Test("the source is observed again only when the tables change, with the new tables")
    func observesAgainOnNewTables() {
        let source = HandCommits(), count = DeliveryCount()
        let watch = mainActorWatch(source, count)
        watch.watch(["Workout"])
        watch.watch(["Workout"])
        watch.watch(["Workout", "Tag"])
        #expect(source.requests == [["Workout"], ["Workout", "Tag"]])
        #expect(source.observerCount == 1)
    }

    @Test("tables the source refuses to report: the error is thrown and the old tables stay watched")
    func refusedTables() async throws {
        let source = RefusingCommits(), count = DeliveryCount()
        let watch = CommitWatch(source: source, delivery: .mainActor { count.value += 1 })
        try watch.watch(["Workout"])
        #expect(throws: RefusingCommits.Refusal.self) { try watch.watch(["Workout", "Refused"]) }
        #expect(watch.tables == ["Workout"])
        #expect(source.commits.observerCount == 1)
        source.commits.commit(["Workout"])
        await drainMainActor()
        #expect(count.value == 1)
    }

    @Test("a container's saves from another context reach the watch; a save of another table does not")
    func containerSource() async throws {
        let container = try memoryContainer(for: Workout.self, Memo.self)
        let count = DeliveryCount()
        let watch = CommitWatch(source: container.changes, delivery: .mainActor { count.value += 1 })
        watch.watch(["Workout"])
        let writer = ModelContext(container)
        writer.insert(Memo(text: "unrelated"))
        try writer.save()
        await drainMainActor()
        #expect(count.value == 0)
        writer.insert(Workout(title: "Run", startedAt: .now, minutes: 30, calories: 300))
        try writer.save()
        await drainMainActor()
        #expect(count.value == 1)
    }

    @Test("a typed-SQL database is a source too: a queue's commits to a watched table deliver")
    func databaseSource() async throws {
        let queue = try DatabaseQueue()
        try await queue.write { db in
            try db.execute(sql: "CREATE TABLE watched (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "CREATE TABLE other (id INTEGER PRIMARY KEY)")
        }
        let count = DeliveryCount()
        let watch = CommitWatch(source: try LiveQuerySource(queue), delivery: .mainActor { count.value += 1 })
        try watch.watch(["watched"])
        try await queue.write { db in try db.execute(sql: "INSERT INTO other DEFAULT VALUES") }
        await drainMainActor()
        #expect(count.value == 0)
        try await queue.write { db in try db.execute(sql: "INSERT INTO watched DEFAULT VALUES") }
        await drainMainActor()
        #expect(count.value == 1)
    }
}
