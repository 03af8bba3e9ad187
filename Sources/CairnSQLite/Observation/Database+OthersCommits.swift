import CSQLite
import Dispatch
import Foundation

// SQLite's commit hook hears only the commits of its own connection. Another connection to the
// same file (another queue or pool, or another process) shows up as a change of
// `PRAGMA data_version`, which moves whenever a connection other than the asking one commits.
// Queues and pools with observers ask every `othersCommitsPollingInterval`.

extension Database {
    /// The names of the database's tables when another connection committed to it since this
    /// connection last asked; nil when none did. The first call records where things stand and
    /// returns nil.
    ///
    /// ```swift
    /// let db = try Database(path: "/tmp/app.sqlite")
    /// _ = db.tablesCommittedByOthers()            // nil: the starting point
    /// // … another process inserts a workout …
    /// db.tablesCommittedByOthers()                // ["workout", …]: refresh what you show
    /// ```
    ///
    /// Which tables the other connection wrote cannot be known, so every table is named. The
    /// check runs `PRAGMA data_version` (and, after a change, reads `sqlite_schema`); neither
    /// is traced. Call it outside a transaction: inside one, the connection keeps seeing its
    /// snapshot.
    public func tablesCommittedByOthers() -> Set<String>? {
        guard let handle = sqliteConnection else { return nil }
        isCheckingOthersCommits = true
        defer { isCheckingOthersCommits = false }
        guard let version = Self.firstColumns(handle, "PRAGMA data_version").first.flatMap(Int64.init) else { return nil }
        defer { lastDataVersion = version }
        guard let last = lastDataVersion, last != version else { return nil }
        return Set(Self.firstColumns(handle, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%'"))
    }

    /// The first column of every row of `sql`, as text, run straight on the handle: outside
    /// the statement cache and the statement list, so a check between two accesses leaves no
    /// trace. Empty when the statement fails (a busy or damaged file is seen on the next check).
    private static func firstColumns(_ handle: OpaquePointer, _ sql: String) -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return [] }
        defer { sqlite3_finalize(statement) }
        var values: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            if let text = sqlite3_column_text(statement, 0) { values.append(String(cString: text)) }
        }
        return values
    }
}

/// Calls `tick` every `interval` on a background queue until cancelled or released.
///
/// `@unchecked Sendable`: `timer` is set once in `init` and only cancelled afterwards
/// (`DispatchSourceTimer` is thread-safe).
package final class PeriodicCheck: @unchecked Sendable {
    private let timer: any DispatchSourceTimer

    /// Starts ticking. `tick` must not keep alive what owns this check (capture it weakly).
    package init(label: String, interval: Duration, tick: @escaping @Sendable () -> Void) {
        let (seconds, attoseconds) = interval.components
        let nanoseconds = max(1_000_000, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: label, qos: .utility))
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
                       leeway: .nanoseconds(nanoseconds / 10))
        timer.setEventHandler(handler: tick)
        timer.resume()
    }

    package func cancel() {
        timer.cancel()
    }

    deinit {
        timer.cancel()
    }
}
