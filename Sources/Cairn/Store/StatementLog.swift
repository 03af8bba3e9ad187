import Foundation

/// How many statements contexts ran on a store, and the SQL of the latest ones (tests count
/// queries and check SQL with it). Reads of several contexts record at the same time.
final class StatementLog: @unchecked Sendable {
    // @unchecked Sendable: `count` and `recent` are only touched while holding `lock`.
    private let lock = NSLock()
    private var count = 0
    private var recent: [String] = []

    /// The most statements ``statements`` keeps.
    static let limit = 4096

    func record(_ sql: String) {
        lock.withLock {
            count += 1
            if recent.count >= Self.limit { recent.removeFirst(Self.limit / 4) }
            recent.append(sql)
        }
    }

    /// How many statements were recorded.
    var statementCount: Int { lock.withLock { count } }

    /// The SQL of the latest statements, oldest first (at most ``limit``).
    var statements: [String] { lock.withLock { recent } }
}
