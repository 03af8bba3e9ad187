import CairnPostgres
import CairnTestSupport
import Foundation
import Testing

@testable import Cairn

/// Fetches on a PostgreSQL store stop when their task is cancelled, as on SQLite: the server
/// cancels the running statement and the fetch throws `CancellationError`.
@Suite("Fetch cancellation on a PostgreSQL store", .enabled(if: PostgresTestSchema.serverURL != nil, PostgresTestSchema.skipMessage))
struct PostgresFetchCancellationTests {
    @Test("cancelling a task stops its sync fetch waiting on the server; the store serves the next fetch")
    func cancelRunningFetch() async throws {
        try await PostgresTestSchema.withSchema { url in
            let container = try PostgresStoreTests.container(url, Workout.self)
            let context = ModelContext(container)
            for workout in PostgresStoreTests.workouts() { context.insert(workout) }
            try context.save()
            // Another client holds the table, so the fetch's statement waits on the server
            // until it is cancelled. The server ends the holder's session after 5 minutes, which
            // would let an uncancelled fetch finish (and fail the test) instead of hanging; the
            // margin is wide because under a full parallel test run this code may wait a minute
            // for a thread before it releases the lock.
            let holder = try PostgresConnection(url: url)
            try holder.execute(sql: "SET idle_in_transaction_session_timeout = 300000")
            try holder.execute(sql: "BEGIN")
            try holder.execute(sql: #"LOCK TABLE "Workout" IN ACCESS EXCLUSIVE MODE"#)

            let fetching = Task(executorPreference: BlockingTaskExecutor()) {
                try ModelContext(container).fetch(FetchDescriptor<Workout>()).map(\.title)
            }
            PostgresActivity.cancel(fetching, whenBlockedBy: holder.serverProcessID)
            await #expect(throws: CancellationError.self) { try await fetching.value }

            // The holder's session is still there: the fetch ended while its statement waited.
            try holder.execute(sql: "ROLLBACK")
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Workout>()) == 5)
        }
    }

    @Test("in a cancelled task a fetch throws CancellationError and a save still commits, as on SQLite")
    func onlyFetchesAreCancelled() async throws {
        try await PostgresTestSchema.withSchema { url in
            let container = try PostgresStoreTests.container(url, Workout.self)
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                let context = ModelContext(container)
                context.insert(Workout(title: "Run", startedAt: PostgresStoreTests.day, minutes: 30, calories: 300))
                try context.save()
                return Result { try context.fetch(FetchDescriptor<Workout>()).count }
            }
            let fetched = try await task.value
            #expect(throws: CancellationError.self) { try fetched.get() }
            #expect(try ModelContext(container).fetch(FetchDescriptor<Workout>()).map(\.title) == ["Run"])
        }
    }
}
