import CairnSQLite
import Foundation

extension PostgresDatabase {
    /// Calls `observer` after each commit that changed one of `tables`, by this pool or any
    /// other client of the server, with the name of the table changed.
    ///
    /// ```swift
    /// let observation = try database.observeCommits(to: ["reminders"]) { tables in
    ///     Task { await reload() }
    /// }
    /// ```
    ///
    /// The first observation of a table installs the statement trigger that reports its
    /// changes (``PostgresChangeTriggers``), and the first observation of the pool opens one
    /// more connection that listens on the schema's channel. `observer` runs on that
    /// listener's thread, once per table a commit changed; it must not call the pool
    /// synchronously: hop to a task.
    ///
    /// With `tables` nil, `observer` runs after every commit any trigger of the schema reports,
    /// and after every `write` of this pool, with an empty set when the tables are not
    /// known: what a query whose tables are not known yet (it failed to load) waits for.
    ///
    /// Keep the returned token: releasing or cancelling it stops the observation.
    ///
    /// - Throws: ``PostgresError`` when the triggers cannot be installed (the role may not
    ///   create them) or the listener cannot connect.
    public func observeCommits(
        to tables: Set<String>?, _ observer: @escaping @Sendable (Set<String>) -> Void
    ) throws -> CommitObservation {
        if let tables { try commitObservers.installTriggers(on: tables, database: self) }
        try commitObservers.startListening(database: self)
        return commitObservers.add(tables: tables, observer)
    }
}

/// The observers of one ``PostgresDatabase`` and the listener that serves them.
///
/// `@unchecked Sendable`: `observers`, `nextID`, `listener`, `triggered` and `stopped` are
/// only read and written under `lock`.
final class PostgresCommitObservers: @unchecked Sendable {
    private struct Observer {
        let tables: Set<String>?
        let handler: @Sendable (Set<String>) -> Void
    }

    private let lock = NSLock()
    private var observers: [Int: Observer] = [:]
    private var nextID = 0
    private var listener: PostgresNotifications?
    /// Tables known to have their trigger (installed or found by this pool).
    private var triggered: Set<String> = []
    private var stopped = false

    func installTriggers(on tables: Set<String>, database: PostgresDatabase) throws {
        let unknown = lock.withLock { tables.subtracting(triggered) }
        guard !unknown.isEmpty else { return }
        // Looked up first, so that watching tables that have their triggers writes nothing.
        let missing = try database.read { try PostgresChangeTriggers.tablesWithoutTrigger(unknown, connection: $0) }
        if !missing.isEmpty {
            try database.write { try PostgresChangeTriggers.install(on: missing, connection: $0) }
        }
        lock.withLock { triggered.formUnion(unknown) }
    }

    func startListening(database: PostgresDatabase) throws {
        guard lock.withLock({ listener == nil && !stopped }) else { return }
        let channel = try database.read { try PostgresChangeTriggers.channel(connection: $0) }
        let started = try PostgresNotifications(url: database.url, channel: channel) { [weak self] notification in
            self?.deliver(changed: notification.payload)
        }
        let kept = lock.withLock { () -> Bool in
            guard listener == nil, !stopped else { return false }
            listener = started
            return true
        }
        if !kept { started.stop() }
    }

    func add(tables: Set<String>?, _ handler: @escaping @Sendable (Set<String>) -> Void) -> CommitObservation {
        let id = lock.withLock { () -> Int in
            nextID += 1
            observers[nextID] = Observer(tables: tables, handler: handler)
            return nextID
        }
        return CommitObservation { [weak self] in
            guard let self else { return }
            _ = self.lock.withLock { self.observers.removeValue(forKey: id) }
        }
    }

    /// A commit changed `table` (a notification from the server).
    private func deliver(changed table: String) {
        let handlers = lock.withLock { observers.values.filter { $0.tables?.contains(table) ?? true }.map(\.handler) }
        for handler in handlers { handler([table]) }
    }

    /// A write of this pool committed: observers of unknown tables hear it at once.
    func ownWriteCommitted() {
        let handlers = lock.withLock { observers.values.filter { $0.tables == nil }.map(\.handler) }
        for handler in handlers { handler([]) }
    }

    func stop() {
        let listener = lock.withLock { () -> PostgresNotifications? in
            stopped = true
            observers.removeAll()
            defer { self.listener = nil }
            return self.listener
        }
        listener?.stop()
    }
}

extension PostgresDatabase: LiveQueryDatabase {}
