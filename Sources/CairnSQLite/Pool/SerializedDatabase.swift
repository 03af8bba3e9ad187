import Dispatch
import Foundation

/// One connection owned by one serial dispatch queue: every access to the `Database` runs on
/// that queue, one at a time.
///
/// `@unchecked Sendable`: `database` is only touched from blocks running on `queue` (a serial
/// queue), which is exactly the confinement `Database` requires; the other stored properties
/// are immutable or `Sendable`.
final class SerializedDatabase: @unchecked Sendable {
    let queue: DispatchQueue
    private let database: Database
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()
    let interruptHandle: InterruptHandle
    /// Tables of the commits of the current access, delivered after it.
    private var committed: [Set<String>] = []
    /// Called (on `queue`) with the tables of each commit, after the access that made it.
    let onCommit: (@Sendable (Set<String>) -> Void)?

    init(path: String, configuration: Configuration, label: String,
         onCommit: (@Sendable (Set<String>) -> Void)?, setUp: (Database) throws -> Void = { _ in }) throws {
        queue = DispatchQueue(label: label)
        database = try Database(path: path, configuration: configuration)
        interruptHandle = database.interruptHandle
        self.onCommit = onCommit
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
        try setUp(database)
        database.commitHandler = { [unowned self] tables in committed.append(tables) }
    }

    /// Whether the caller already runs on this connection's queue (a nested access would
    /// deadlock).
    var isOnQueue: Bool { DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self) }

    /// Runs `block` on the queue after the accesses already queued, without waiting for it.
    func schedule(_ block: @escaping @Sendable (Database) -> Void) {
        queue.async { [self] in block(database) }
    }

    /// Runs `block` on the queue and waits for it (blocking the caller's thread).
    func sync<T>(_ block: (Database) throws -> T) throws -> T {
        guard !isOnQueue else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE,
                                message: "reentrant database access: read/write called from inside an access to the same connection; use the Database you were given")
        }
        return try queue.sync {
            interruptHandle.clearCancellation()
            defer { deliverCommits() }
            return try block(database)
        }
    }

    /// Runs `block` on the queue without blocking a cooperative thread; task cancellation
    /// interrupts the running statement (`sqlite3_interrupt`) and throws `CancellationError`.
    func async<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let access = AccessState()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                queue.async { [self] in
                    guard access.start() else {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    interruptHandle.clearCancellation()
                    if access.isCancelled { interruptHandle.cancel() }
                    let result = Result { try block(database) }
                    access.finish()
                    interruptHandle.clearCancellation()
                    deliverCommits()
                    continuation.resume(with: result)
                }
            }
        } onCancel: {
            access.cancel { interruptHandle.cancel() }
        }
    }

    /// Closes the connection (on its queue; directly when already on it).
    func close() throws {
        if isOnQueue {
            try database.close()
        } else {
            try queue.sync { try database.close() }
        }
    }

    private func deliverCommits() {
        guard !committed.isEmpty else { return }
        let batches = committed
        committed = []
        guard let onCommit else { return }
        for tables in batches { onCommit(tables) }
    }
}

/// The life of one async access, shared by the block and the cancellation handler.
///
/// `@unchecked Sendable`: `state` is only read and written under `lock`.
final class AccessState: @unchecked Sendable {
    private enum State { case pending, running, finished }
    private let lock = NSLock()
    private var state = State.pending
    private var cancelled = false

    /// Marks the access running; false when it was cancelled before it started.
    func start() -> Bool {
        lock.withLock {
            if cancelled { return false }
            state = .running
            return true
        }
    }

    var isCancelled: Bool { lock.withLock { cancelled } }

    func finish() {
        lock.withLock { state = .finished }
    }

    /// Records the cancellation and, when the access is running, calls `interrupt` while
    /// holding the lock: never after `finish()`, so a later access is never interrupted.
    func cancel(interrupt: () -> Void) {
        lock.withLock {
            cancelled = true
            if state == .running { interrupt() }
        }
    }
}
