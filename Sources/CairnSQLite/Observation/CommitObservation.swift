import Foundation

/// The token of an observation started with ``DatabaseReader/observeCommits(_:)``. The
/// observation lasts until ``cancel()`` is called or the token is released.
public final class CommitObservation: Sendable {
    private let cancellation: @Sendable () -> Void

    init(cancellation: @escaping @Sendable () -> Void) {
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
/// `@unchecked Sendable`: `observers`, `nextID` and `checkQueued` are only accessed under
/// `lock`.
final class CommitObservers: @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [Int: @Sendable (Set<String>) -> Void] = [:]
    private var nextID = 0
    /// Whether a check for other connections' commits waits on the connection's queue: a
    /// long write holds the queue, and ticks meanwhile must not pile up behind it.
    private var checkQueued = false

    func add(_ observer: @escaping @Sendable (Set<String>) -> Void) -> CommitObservation {
        let id = lock.withLock {
            nextID += 1
            observers[nextID] = observer
            return nextID
        }
        return CommitObservation { [weak self] in
            guard let self else { return }
            _ = self.lock.withLock { self.observers.removeValue(forKey: id) }
        }
    }

    var isEmpty: Bool { lock.withLock { observers.isEmpty } }

    /// Checks `connection` for commits of other connections every
    /// `configuration.othersCommitsPollingInterval` while there are observers, and reports
    /// them (Database+OthersCommits.swift); nil for an in-memory database or when turned off.
    func checkingOthersCommits(
        of connection: SerializedDatabase, path: String, configuration: Configuration
    ) -> PeriodicCheck? {
        guard let interval = configuration.othersCommitsPollingInterval, !Self.isInMemory(path) else { return nil }
        connection.schedule { db in _ = db.tablesCommittedByOthers() }  // the starting point
        return PeriodicCheck(label: configuration.label + ".others-commits", interval: interval) { [weak self, weak connection] in
            guard let self, !self.isEmpty, let connection else { return }
            let queueing = self.lock.withLock { () -> Bool in
                if checkQueued { return false }
                checkQueued = true
                return true
            }
            guard queueing else { return }
            connection.schedule { db in
                self.lock.withLock { self.checkQueued = false }
                if let tables = db.tablesCommittedByOthers() { self.notify(tables) }
            }
        }
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
