import CairnPostgres
import CairnSQLite

/// What the test server's backends are doing (`pg_stat_activity`), so that a test cancels a
/// statement while the server runs it, not before it starts.
///
/// ```swift
/// let task = Task { try pool.read { db in … SELECT pg_sleep(30) … } }
/// try await PostgresActivity.waitUntilRunning(processID: pid, statementContaining: "pg_sleep")
/// task.cancel()
/// ```
public enum PostgresActivity {
    /// Waits (at most 10 s) until backend `processID` runs a statement whose text contains
    /// `text`.
    public static func waitUntilRunning(processID: Int32, statementContaining text: String) async throws {
        try await waitUntil(
            sql: "SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND strpos(query, $2) > 0",
            arguments: [Int64(processID), text])
    }

    /// Waits (at most 10 s) until a statement waits for a lock that backend `processID` holds.
    public static func waitUntilBlocked(by processID: Int32) async throws {
        try await waitUntil(
            sql: "SELECT count(*) FROM pg_stat_activity WHERE $1::int4 = ANY(pg_blocking_pids(pid))",
            arguments: [Int64(processID)])
    }

    private static func waitUntil(sql: String, arguments: StatementArguments) async throws {
        let observer = try PostgresConnection(url: PostgresTestSchema.serverURL ?? "")
        try await pollUntil {
            let rows = try? observer.fetchAll(sql: sql, arguments: arguments)
            guard case .integer(let count)? = rows?.rows.first?.first else { return false }
            return count > 0
        }
    }
}
