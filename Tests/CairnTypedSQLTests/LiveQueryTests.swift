import Cairn
import Foundation
import Observation
import Testing

// The live wrappers of seed 003, in the seed's shapes, and their refresh behaviour.

@Observable
final class CountersListModel {
    @ObservationIgnored
    @FetchAll var counters: [Counter]
}

@Observable
final class SeedWrappersModel {
    @ObservationIgnored
    @FetchAll(
        Counter.order(by: \.id),
        animation: .default
    )
    var counters

    @ObservationIgnored
    @FetchAll(
        Reminder.where { !$0.isCompleted }
            .order(by: \.position)
    )
    var incompleteTasks

    @ObservationIgnored
    @FetchAll(
        RemindersList
            .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
            .select { list, reminder in
                ReminderListState.Columns(
                    remindersList: list,
                    remindersCount: reminder.id.count()
                )
            }
    )
    var remindersLists

    @ObservationIgnored
    @FetchOne(Fact.count(), animation: .default)
    var factsCount = 0

    @ObservationIgnored
    @FetchOne(
        Reminder.select {
            Stats.Columns(
                allCount: $0.count(filter: !$0.isCompleted),
                flaggedCount: $0.count(filter: $0.isFlagged && !$0.isCompleted),
                scheduledCount: $0.count(filter: $0.isScheduled),
                todayCount: $0.count(filter: $0.isToday)
            )
        }
    )
    var stats = Stats()
}

/// Counts how often it runs: two queries in one read, transformed.
struct ListCounts: FetchKeyRequest {
    struct Value: Sendable, Equatable { var lists = 0; var reminders = 0 }
    let runs: RunCounter

    func fetch(_ db: Database) throws -> Value {
        runs.increment()
        return Value(lists: try RemindersList.fetchCount(db), reminders: try Reminder.fetchCount(db))
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.runs === rhs.runs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(runs)) }
}

/// `@unchecked Sendable`: `count` is only touched under `lock`.
final class RunCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

/// A pool in a temporary folder, filled with the reminders fixture.
func makeReminderPool() throws -> any DatabaseWriter {
    let pool = try defaultDatabase()
    try pool.write { db in
        for statement in RemindersDatabase.schema.split(separator: ";") where !statement.allSatisfy(\.isWhitespace) {
            try db.execute(sql: String(statement))
        }
        try RemindersList.insert { RemindersDatabase.lists }.execute(db)
        try Reminder.insert { RemindersDatabase.reminders }.execute(db)
        try Fact.insert { RemindersDatabase.facts }.execute(db)
        try Counter.insert { Counter(id: 1, count: 3); Counter(id: 2, count: 5) }.execute(db)
    }
    return pool
}

/// Waits (at most ~10 s, then fails) until `condition` holds, woken by Observation changes
/// of what `condition` reads.
func waitUntil(
    _ condition: @escaping @Sendable () -> Bool, sourceLocation: SourceLocation = #_sourceLocation
) async {
    for _ in 0..<200 {
        if condition() { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumed = RunCounter()
            withObservationTracking { _ = condition() } onChange: {
                resumed.increment()
                if resumed.value == 1 { continuation.resume() }
            }
            // Also wake up after a short while, in case the change happened before tracking.
            Task {
                try? await Task.sleep(for: .milliseconds(50))
                resumed.increment()
                if resumed.value == 1 { continuation.resume() }
            }
        }
    }
    Issue.record("the live value did not reach the expected state", sourceLocation: sourceLocation)
}

@Suite("Typed SQL: live wrappers")
struct LiveQueryTests {
    @Test func seedShapesLoadFromTheDefaultDatabase() throws {
        let pool = try makeReminderPool()
        prepareDependencies { $0.defaultDatabase = pool }
        let model = SeedWrappersModel()
        let plain = CountersListModel()
        #expect(model.counters.map(\.count) == [3, 5])
        #expect(plain.counters.map(\.id) == [1, 2])
        #expect(model.incompleteTasks.map(\.id) == [1, 4, 3, 6])
        #expect(model.remindersLists.map(\.remindersCount) == [6])
        #expect(model.factsCount == 3)
        #expect(model.stats.allCount == 4)
        #expect(model.stats.todayCount == 2)
    }

    @Test func fetchAllRefreshesAfterAWriteFromAnotherConnection() async throws {
        let pool = try makeReminderPool()
        let flagged = FetchAll(Reminder.where(\.isFlagged).order(by: \.id), database: pool)
        #expect(flagged.wrappedValue.map(\.id) == [1, 3, 5])
        try await pool.write { db in try Reminder.find(4).update { $0.isFlagged = true }.execute(db) }
        await waitUntil { flagged.wrappedValue.map(\.id) == [1, 3, 4, 5] }
        #expect(flagged.loadError == nil)
    }

    /// Another pool on the same file (as another process would be) is seen by the check for
    /// other connections' commits (every 0.5 s by default), not by the pool's own hooks.
    @Test func fetchAllRefreshesAfterAWriteFromAnotherPoolOnTheFile() async throws {
        let pool = try makeReminderPool()
        let path = try #require((pool as? DatabasePool)?.path)
        let flagged = FetchAll(Reminder.where(\.isFlagged).order(by: \.id), database: pool)
        #expect(flagged.wrappedValue.map(\.id) == [1, 3, 5])
        let other = try DatabasePool(path: path)
        try await other.write { db in try Reminder.find(4).update { $0.isFlagged = true }.execute(db) }
        await waitUntil { flagged.wrappedValue.map(\.id) == [1, 3, 4, 5] }
        #expect(flagged.loadError == nil)
    }

    @Test func loadRunsTheQueryAgainNowAndThrowsWhatItThrew() async throws {
        let pool = try makeReminderPool()
        let flagged = FetchAll(Reminder.where(\.isFlagged).order(by: \.id), database: pool)
        let count = FetchOne(wrappedValue: 0, Reminder.count(), database: pool)
        try await pool.write { db in try Reminder.find(4).update { $0.isFlagged = true }.execute(db) }
        // SQLiteData's `try await $reminders.load()`: current when it returns, no waiting.
        try await flagged.load()
        try await count.load()
        #expect(flagged.wrappedValue.map(\.id) == [1, 3, 4, 5])
        #expect(count.wrappedValue == 6)
        let facts = FetchAll(Fact.order(by: \.id), database: try defaultDatabase())  // no such table
        await #expect(throws: DatabaseError.self) { try await facts.load() }
        #expect(facts.loadError != nil)
    }

    @Test func aFetchWithoutARequestReadsNothingUntilLoaded() async throws {
        let pool = try makeReminderPool()
        let counts = Fetch(wrappedValue: ListCounts.Value(), database: pool)  // `@Fetch var counts = Value()`
        #expect(counts.wrappedValue == ListCounts.Value())
        #expect(counts.loadError == nil)  // nothing asked, nothing failed (no database needed)
        let runs = RunCounter()
        try await counts.load(ListCounts(runs: runs))
        #expect(counts.wrappedValue == ListCounts.Value(lists: 3, reminders: 6))
        #expect(runs.value == 1)
        #expect(Fetch(wrappedValue: 0).loadError == nil)  // no default database either: still no error
    }

    /// SQLiteData's observations stop for good after a failed fetch (sqlite-data#485: a
    /// screen left empty). Here a wrapper whose query failed keeps listening and loads on the
    /// next commit that makes it work.
    @Test func aFailedLoadRecoversOnALaterCommit() async throws {
        let pool = try defaultDatabase()
        let facts = FetchAll(Fact.order(by: \.id), database: pool)
        let count = FetchOne(wrappedValue: -1, Fact.count(), database: pool)
        #expect(facts.loadError != nil)  // no such table
        #expect(count.loadError != nil)
        #expect(facts.wrappedValue.isEmpty)
        try await pool.write { db in
            try db.execute(sql: #"CREATE TABLE "facts" ("id" INTEGER PRIMARY KEY, "body" TEXT NOT NULL)"#)
            try Fact.insert { Fact.Draft(body: "first") }.execute(db)
        }
        await waitUntil { facts.wrappedValue.map(\.body) == ["first"] && count.wrappedValue == 1 }
        #expect(facts.loadError == nil)
        #expect(count.loadError == nil)
        // And it watches the table it now reads.
        try await pool.write { db in try Fact.insert { Fact.Draft(body: "second") }.execute(db) }
        await waitUntil { facts.wrappedValue.map(\.body) == ["first", "second"] && count.wrappedValue == 2 }
    }

    @Test func fetchOneAggregateRefreshesAndObservationFires() async throws {
        let pool = try makeReminderPool()
        let count = FetchOne(wrappedValue: 0, Fact.count(), database: pool)
        #expect(count.wrappedValue == 3)
        let changed = RunCounter()
        withObservationTracking { _ = count.wrappedValue } onChange: { changed.increment() }
        try await pool.write { db in try Fact.insert { Fact.Draft(body: "new") }.execute(db) }
        await waitUntil { count.wrappedValue == 4 }
        #expect(changed.value == 1)
    }

    @Test func writesToOtherTablesDoNotRefetch() async throws {
        let pool = try makeReminderPool()
        let runs = RunCounter()
        let counts = Fetch(wrappedValue: ListCounts.Value(), ListCounts(runs: runs), database: pool)
        #expect(counts.wrappedValue == ListCounts.Value(lists: 3, reminders: 6))
        #expect(runs.value == 1)
        try await pool.write { db in try Fact.insert { Fact.Draft(body: "unrelated") }.execute(db) }
        try await pool.write { db in try Counter.update { $0.count = 0 }.execute(db) }
        try await pool.write { db in try RemindersList.insert { RemindersList.Draft(title: "New") }.execute(db) }
        await waitUntil { counts.wrappedValue.lists == 4 }
        #expect(runs.value == 2)
    }

    @Test func loadReplacesTheQuery() async throws {
        let pool = try makeReminderPool()
        let reminders = FetchAll(Reminder.where { $0.remindersListID.eq(1) }.select(\.title), database: pool)
        #expect(reminders.wrappedValue == ["Groceries", "Haircut", "Doctor appointment"])
        try await reminders.load(Reminder.where { $0.remindersListID.eq(2) }.select(\.title))
        #expect(reminders.wrappedValue == ["Take a walk", "Buy concert tickets", "Pick up kids"])
    }

    @Test func errorsAreReportedNotThrown() throws {
        let pool = try defaultDatabase()
        let missing = FetchAll(Reminder.all, database: pool)
        #expect(missing.wrappedValue.isEmpty)
        #expect(missing.loadError is DatabaseError)
        #expect(missing.isLoading == false)
    }
}
