import CairnPostgres
import Foundation
import Synchronization

/// A store on a PostgreSQL server, chosen by a `postgresql://` (or `postgres://`) URL in the
/// configuration: the same models, fetches and saves as a SQLite store, through a
/// ``PostgresDatabase`` pool.
///
/// - Reads run in `REPEATABLE READ READ ONLY` transactions, concurrently.
/// - Writes are one `READ COMMITTED` transaction each, one at a time in this process. A write
///   that fails with a serialization failure or a deadlock (`40001`, `40P01`) is retried as a
///   whole, as distributed engines that speak PostgreSQL's protocol require.
/// - Changes are tracked as ``PostgresChangeTracking`` describes: by triggers and `LISTEN`
///   where the server has them, else by a counter that each write bumps and others poll.
final class PostgresStoreBackend: StoreBackend {
    private let database: PostgresDatabase
    private let url: String
    private let log: StatementLog
    private let commitHandlers = Mutex<[@Sendable (Set<String>) -> Void]>([])
    /// The tables of the store's entities and their join tables.
    private let tables: Set<String>
    /// How changes are tracked, once known (set up by ``migrate(layouts:version:)``, or
    /// detected by a store that does not migrate).
    private let tracking = Mutex<PostgresChangeTracking.Mode?>(nil)
    /// The listener for others' commits and the tables they named since the last look;
    /// started by the first ``tablesCommittedByOthers()``.
    private let others = Mutex<(listener: PostgresNotifications?, tables: Set<String>)>((nil, []))
    /// The server processes of this pool's connections, whose notifications are this
    /// process's own commits (already told through ``observeCommits(_:)``).
    private let ownProcesses = Mutex<Set<Int32>>([])
    /// In polling mode: the change counter as of the last look, or after this process's own
    /// write when no other came between.
    private let seenCounter = Mutex<Int64?>(nil)
    /// Held by a write in polling mode from its start until it has noted its own move of the
    /// counter, so that a look in between does not take that move for another's.
    private let pollingGate = NSLock()
    /// Whether triggers may be installed (tests turn them off to exercise polling).
    private let usesTriggers: Bool

    init(url: String, tables: Set<String>, usesTriggers: Bool, log: StatementLog) throws {
        database = try PostgresDatabase(url: url)
        self.url = url
        self.tables = tables
        self.usesTriggers = usesTriggers
        self.log = log
    }

    func migrate(layouts: [TableLayout], version: Schema.Version) throws {
        let mode = try database.write { connection in
            let store = StoreConnection(postgres: connection, log: StatementLog())
            try StoreMigrator(connection: store, layouts: layouts, version: version).run()
            return try PostgresChangeTracking.install(on: tables, connection: connection, triggers: usesTriggers)
        }
        tracking.withLock { $0 = mode }
    }

    func read<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        try database.read { connection in try run(body, on: connection) }
    }

    /// One statement outside a transaction is its own snapshot on the server: `BEGIN` and
    /// `COMMIT` around it would add two round trips to a one-row fetch.
    func readStatement<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        try database.readWithoutTransaction { connection in try run(body, on: connection) }
    }

    private func run<T>(_ body: (StoreConnection) throws -> T, on connection: PostgresConnection) throws -> T {
        let store = StoreConnection(postgres: connection, log: log)
        // Inside a fetch, cancelling the task cancels the statement (Concurrency/FetchCancellation.swift).
        if FetchCancellation.isActive { return try connection.withTaskCancellation { try body(store) } }
        return try body(store)
    }

    func write<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        let mode = tracking.withLock { $0 }
        var gate: NSLock?
        if case .polling? = mode { gate = pollingGate }
        gate?.lock()
        defer { gate?.unlock() }
        let (result, changed, counter) = try database.write { connection in
            ownProcesses.withLock { _ = $0.insert(connection.serverProcessID) }
            let result = try body(StoreConnection(postgres: connection, log: log))
            switch mode {
            case .notifications?:
                return (result, try PostgresChangeTracking.tablesChanged(connection: connection), Int64?.none)
            case .polling?:
                return (result, self.tables, try PostgresChangeTracking.bumpCounter(connection: connection))
            case nil:
                return (result, Set<String>(), Int64?.none)
            }
        }
        if let counter {
            // Ours is the only change since the last look when the counter moved by one.
            seenCounter.withLock { seen in if let last = seen, counter == last + 1 { seen = counter } }
        }
        if !changed.isEmpty {
            for handler in commitHandlers.withLock({ $0 }) { handler(changed) }
        }
        return result
    }

    func observeCommits(_ handler: @escaping @Sendable (Set<String>) -> Void) {
        commitHandlers.withLock { $0.append(handler) }
    }

    func tablesCommittedByOthers() -> Set<String>? {
        guard let mode = currentTracking() else { return nil }
        switch mode {
        case .notifications(let channel):
            if others.withLock({ $0.listener == nil }) { startListening(on: channel) }
            let noted = others.withLock { state -> Set<String> in
                defer { state.tables = [] }
                return state.tables
            }
            return noted.isEmpty ? nil : noted
        case .polling:
            // A write in progress: the next look tells.
            guard pollingGate.try() else { return nil }
            defer { pollingGate.unlock() }
            guard let counter = try? database.read({ try PostgresChangeTracking.counter(connection: $0) }) else { return nil }
            let moved = seenCounter.withLock { seen -> Bool in
                defer { seen = counter }
                return seen.map { $0 != counter } ?? false
            }
            return moved ? tables : nil
        }
    }

    private func currentTracking() -> PostgresChangeTracking.Mode? {
        if let mode = tracking.withLock({ $0 }) { return mode }
        guard let detected = try? database.read({ try PostgresChangeTracking.detect(connection: $0) }) else { return nil }
        tracking.withLock { $0 = $0 ?? detected }
        return detected
    }

    private func startListening(on channel: String) {
        let listener = try? PostgresNotifications(url: url, channel: channel) { [weak self] notification in
            guard let self, !self.ownProcesses.withLock({ $0.contains(notification.senderProcessID) }) else { return }
            self.others.withLock { _ = $0.tables.insert(notification.payload) }
        }
        others.withLock { state in
            if state.listener == nil { state.listener = listener } else { listener?.stop() }
        }
    }

    func close() {
        let listener = others.withLock { state -> PostgresNotifications? in
            defer { state.listener = nil }
            return state.listener
        }
        listener?.stop()
        commitHandlers.withLock { $0.removeAll() }
        database.close()
    }
}
