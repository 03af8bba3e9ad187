import CairnPostgres
import CairnSQLite
import Dispatch
import Foundation

/// Cancels a test's task while the server runs the statement the test means to stop, judged
/// from what the server's backends are doing (`pg_stat_activity`).
///
/// ```swift
/// let task = Task(executorPreference: BlockingTaskExecutor()) { try pool.read { db in … SELECT pg_sleep(30) … } }
/// PostgresActivity.cancel(task, whenRunning: { processID }, statementContaining: "pg_sleep")
/// await #expect(throws: CancellationError.self) { try await task.value }
/// ```
///
/// The watching runs on a thread of its own, not on the cooperative pool: when the whole test
/// suite keeps that pool busy, a test's own code may wait longer than the statement lasts, and
/// the cancellation would come after the statement ended.
public enum PostgresActivity {
    /// Cancels `task` once backend `processID()` (nil while not known yet) runs a statement
    /// whose text contains `text`.
    public static func cancel<Success: Sendable>(
        _ task: Task<Success, any Error>, whenRunning processID: @escaping @Sendable () -> Int32?,
        statementContaining text: String
    ) {
        cancel(task) {
            processID().map { id in
                ("SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND strpos(query, $2) > 0",
                 [Int64(id), text])
            }
        }
    }

    /// Cancels `task` once a statement waits for a lock that backend `processID` holds.
    public static func cancel<Success: Sendable>(_ task: Task<Success, any Error>, whenBlockedBy processID: Int32) {
        cancel(task) {
            ("SELECT count(*) FROM pg_stat_activity WHERE $1::int4 = ANY(pg_blocking_pids(pid))", [Int64(processID)])
        }
    }

    /// Checks `query`'s count every 10 ms on a thread of its own, and cancels `task` once it is
    /// positive. Gives up and cancels anyway 120 s after `query` first has something to ask,
    /// or after 10 minutes without: on a loaded machine a task can wait minutes for a
    /// cooperative thread before its block starts, and cancelling it then would test nothing.
    private static func cancel<Success: Sendable>(
        _ task: Task<Success, any Error>, when query: @escaping @Sendable () -> (String, StatementArguments)?
    ) {
        DispatchQueue(label: "cairn.test.postgres-activity").async {
            let observer = try? PostgresConnection(url: PostgresTestSchema.serverURL ?? "")
            var deadline = ContinuousClock.now + .seconds(600)
            var asking = false
            while ContinuousClock.now < deadline {
                if let observer, let (sql, arguments) = query() {
                    if !asking {
                        asking = true
                        deadline = ContinuousClock.now + .seconds(120)
                    }
                    if case .integer(let count)? = (try? observer.fetchAll(sql: sql, arguments: arguments))?.rows.first?.first,
                       count > 0 {
                        break
                    }
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
            task.cancel()
        }
    }
}
