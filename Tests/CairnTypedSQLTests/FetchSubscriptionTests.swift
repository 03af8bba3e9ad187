import Cairn
import Testing

@Suite("Typed SQL: FetchSubscription, what load(_:) returns")
struct FetchSubscriptionTests {
    @Test func theRowsFollowTheDatabaseUntilTheTaskIsCancelled() async throws {
        let pool = try makeReminderPool()
        let family = Reminder.where { $0.remindersListID.eq(2) }.select(\.title)
        let reminders = FetchAll(Reminder.where { $0.remindersListID.eq(1) }.select(\.title), database: pool)
        let subscription = try await reminders.load(family)
        #expect(reminders.wrappedValue == ["Take a walk", "Buy concert tickets", "Pick up kids"])
        let waiting = Task { try await subscription.task }
        try await pool.write { try Reminder.insert { Reminder.Draft(remindersListID: 2, title: "Bake") }.execute($0) }
        await waitUntil { reminders.wrappedValue.count == 4 }

        waiting.cancel()
        let ended = await waiting.result
        #expect(throws: CancellationError.self) { try ended.get() }
        // A second wrapper on the same rows shows when the next commit has been delivered.
        let control = FetchAll(family, database: pool)
        try await pool.write { try Reminder.insert { Reminder.Draft(remindersListID: 2, title: "Swim") }.execute($0) }
        await waitUntil { control.wrappedValue.count == 5 }
        try await Task.sleep(for: .milliseconds(100))
        #expect(reminders.wrappedValue.count == 4)  // stopped: it keeps its last rows

        try await reminders.load()  // loading again resumes
        #expect(reminders.wrappedValue.count == 5)
        try await pool.write { try Reminder.find(4).delete().execute($0) }
        await waitUntil { reminders.wrappedValue.count == 4 }
    }

    @Test func cancelStopsTheObservationOfFetchOneAndFetch() async throws {
        let pool = try makeReminderPool()
        let count = FetchOne(wrappedValue: 0, Reminder.select { $0.id.count() }, database: pool)
        let subscription = try await count.load(Reminder.where(\.isFlagged).select { $0.id.count() }, default: 0)
        #expect(count.wrappedValue == 3)
        subscription.cancel()
        let counts = Fetch(wrappedValue: ListCounts.Value(), database: pool)
        let runs = RunCounter()
        try await counts.load(ListCounts(runs: runs)).cancel()
        #expect(counts.wrappedValue == ListCounts.Value(lists: 3, reminders: 6))
        // A wrapper still observing, made before the commit, shows when its notice went out.
        let control = FetchOne(wrappedValue: 0, Reminder.where(\.isFlagged).select { $0.id.count() }, database: pool)
        try await pool.write { try Reminder.where { $0.id.lte(2) }.update { $0.isFlagged = true }.execute($0) }
        await waitUntil { control.wrappedValue == 4 }
        try await Task.sleep(for: .milliseconds(100))
        #expect(count.wrappedValue == 3)
        #expect(runs.value == 1)  // the request did not run again
    }

    @Test func aTaskAwaitedAfterCancelEndsAtOnce() async throws {
        let pool = try makeReminderPool()
        let titles = FetchAll(Reminder.select(\.title), database: pool)
        let subscription = try await titles.load(Reminder.where(\.isFlagged).select(\.title))
        subscription.cancel()
        await #expect(throws: CancellationError.self) { try await subscription.task }
    }

    @Test func loadThrowsWhatTheFetchThrew() async throws {
        let pool = try makeReminderPool()
        let titles = FetchAll(Reminder.select(\.title), database: pool)
        await #expect(throws: DatabaseError.self) {
            try await titles.load(Reminder.where { _ in #sql("no_such_function()") }.select(\.title))
        }
        #expect(titles.loadError != nil)
        #expect(titles.wrappedValue.count == 6)  // the rows keep their last value
    }
}
