import CSQLite
import Foundation

/// One executed statement, as reported to a tracer.
///
/// ```swift
/// var configuration = Configuration()
/// configuration.tracer = { event in print(event) }
/// // 0.042 ms  SELECT title FROM workout WHERE id = ?
/// ```
public struct TraceEvent: Sendable, CustomStringConvertible {
    /// The SQL as written, with `?` placeholders.
    public let sql: String
    /// The SQL with bound values substituted (`sqlite3_expanded_sql`) when
    /// ``Configuration/publicStatementArguments`` is true; nil otherwise (values redacted).
    public let expandedSQL: String?
    /// How long the statement ran, from its first step to its reset.
    public let duration: Duration

    /// Milliseconds with three decimals, then the SQL (expanded when allowed).
    public var description: String {
        let nanoseconds = duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
        let milliseconds = Double(nanoseconds) / 1_000_000
        return String(format: "%.3f ms  ", milliseconds) + (expandedSQL ?? sql)
    }
}

/// What a connection traces to.
final class TraceState {
    var tracers: [(TraceEvent) -> Void] = []
    let expandValues: Bool

    init(expandValues: Bool) {
        self.expandValues = expandValues
    }
}

extension Database {
    /// Whether `CAIRN_SQL_TRACE=1` is set in the environment.
    static let environmentTracing: Bool = ProcessInfo.processInfo.environment["CAIRN_SQL_TRACE"] == "1"

    func installTracing() throws {
        if let tracer = configuration.tracer { add(tracer: tracer) }
        if Self.environmentTracing {
            add { event in writeDiagnostic(event.description) }
        }
    }

    /// Calls `tracer` after every statement this connection runs, with its SQL and duration
    /// (`sqlite3_trace_v2`, `SQLITE_TRACE_PROFILE`). Values are redacted unless
    /// ``Configuration/publicStatementArguments`` is true. Tests count statements with it:
    ///
    /// ```swift
    /// var statements: [String] = []
    /// db.add { statements.append($0.sql) }
    /// _ = try db.fetchAll(sql: "SELECT * FROM workout") { _ in () }
    /// #expect(statements == ["SELECT * FROM workout"])
    /// ```
    public func add(tracer: @escaping (TraceEvent) -> Void) {
        guard let handle = sqliteConnection else { return }
        if tracing == nil {
            tracing = TraceState(expandValues: configuration.publicStatementArguments)
            let context = Unmanaged.passUnretained(self).toOpaque()
            sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_PROFILE), { _, context, statement, elapsed in
                guard let context, let statement, let elapsed else { return 0 }
                let database = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
                guard let state = database.tracing, !state.tracers.isEmpty, !database.isCheckingOthersCommits else { return 0 }
                let handle = OpaquePointer(statement)
                let sql = sqlite3_sql(handle).map { String(cString: $0) } ?? ""
                var expanded: String?
                if state.expandValues, let text = sqlite3_expanded_sql(handle) {
                    expanded = String(cString: text)
                    sqlite3_free(text)
                }
                let nanoseconds = elapsed.load(as: Int64.self)
                let event = TraceEvent(sql: sql, expandedSQL: expanded, duration: .nanoseconds(nanoseconds))
                for tracer in state.tracers { tracer(event) }
                return 0
            }, context)
        }
        tracing?.tracers.append(tracer)
    }

    /// Stops every tracer added with ``add(tracer:)`` (the environment's included).
    public func removeAllTracers() {
        tracing?.tracers.removeAll()
    }
}

/// Writes `[cairn] <message>` as a line to standard error: for what a program should hear of
/// but no caller can catch (a failed autosave, a batch a collection could not read) and for
/// `CAIRN_SQL_TRACE=1`.
package func writeDiagnostic(_ message: String) {
    FileHandle.standardError.write(Data(("[cairn] " + message + "\n").utf8))
}
