import Foundation

/// The token of an observation started with ``DatabaseReader/observeCommits(_:)``. The
/// observation lasts until ``cancel()`` is called or the token is released.
public final class CommitObservation: Sendable {
    private let cancellation: @Sendable () -> Void

    package init(cancellation: @escaping @Sendable () -> Void) {
        self.cancellation = cancellation
    }

    /// Stops the observation; the observer is not called afterwards. Idempotent.
    public func cancel() {
        cancellation()
    }

    deinit {
        cancellation()
    }
}

/// The observers of one queue or pool.
///
/// `@unchecked Sendable`: `observers`, `nextID`, `startCheck`, `check` and `checkQueued` are
/// only accessed under `lock`.
final class CommitObservers: @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [Int: @Sendable (Set<String>) -> Void] = [:]
    private var nextID = 0
    /// Makes the check for other connections' commits, once the first observer comes: a
    /// timer starts threads, and a process with no one observing (a benchmark, a script)
    /// should stay as it was.
    private var startCheck: (() -> PeriodicCheck)?
    private var check: PeriodicCheck?
    /// Whether a check waits on the connection's queue: a long write holds the queue, and
    /// ticks meanwhile must not pile up behind it.
    private var checkQueued = false

    func add(_ observer: @escaping @Sendable (Set<String>) -> Void) -> CommitObservation {
        let id = lock.withLock {
            nextID += 1
            observers[nextID] = observer
            if check == nil, let startCheck {
                check = startCheck()
                self.startCheck = nil
            }
            return nextID
        }
        return CommitObservation { [weak self] in
            guard let self else { return }
            _ = self.lock.withLock { self.observers.removeValue(forKey: id) }
        }
    }

    var isEmpty: Bool { lock.withLock { observers.isEmpty } }

    /// Prepares the check of `connection` for commits of other connections, every
    /// `configuration.othersCommitsPollingInterval` from the first observer on, reported to
    /// the observers (Database+OthersCommits.swift); nothing for an in-memory database or
    /// when turned off. The starting point is taken now, so a commit made before the first
    /// observer came is reported at the first check, not missed.
    func prepareCheckingOthersCommits(of connection: SerializedDatabase, path: String, configuration: Configuration) {
        guard let interval = configuration.othersCommitsPollingInterval, !Self.isInMemory(path) else { return }
        _ = try? connection.sync { db in db.tablesCommittedByOthers() }
        let label = configuration.label + ".others-commits"
        lock.withLock {
            startCheck = { [weak self, weak connection] in
                PeriodicCheck(label: label, interval: interval) { [weak self, weak connection] in
                    guard let self, let connection else { return }
                    self.checkOthersCommits(of: connection)
                }
            }
        }
    }

    private func checkOthersCommits(of connection: SerializedDatabase) {
        let queueing = lock.withLock { () -> Bool in
            if checkQueued || observers.isEmpty { return false }
            checkQueued = true
            return true
        }
        guard queueing else { return }
        connection.schedule { db in
            self.lock.withLock { self.checkQueued = false }
            if let tables = db.tablesCommittedByOthers() { self.notify(tables) }
        }
    }

    /// Stops the check (when the queue or pool closes).
    func stopCheckingOthersCommits() {
        let stopped = lock.withLock { () -> PeriodicCheck? in
            defer { check = nil; startCheck = nil }
            return check
        }
        stopped?.cancel()
    }

    private static func isInMemory(_ path: String) -> Bool {
        path.isEmpty || path == ":memory:" || path.hasPrefix("file::memory:") || path.contains("mode=memory")
    }

    /// Calls every observer (outside the lock, so an observer may cancel itself).
    func notify(_ tables: Set<String>) {
        let current = lock.withLock { Array(observers.sorted { $0.key < $1.key }.map(\.value)) }
        for observer in current { observer(tables) }
    }
}
