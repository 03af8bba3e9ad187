import Dispatch
import Foundation
import Synchronization

/// One connection used by one access at a time: a blocking access runs on the caller's thread
/// while it holds `accessLock`; an async access runs on `queue`, a serial dispatch queue, and
/// holds the same lock.
///
/// A blocking access takes the lock rather than `queue.sync`: the connection is the caller's
/// alone while the lock is held, and `DispatchQueue.sync` costs a block copy, a queue-specific
/// lookup and generic metadata on every access (about 2,500 instructions, a third of what C
/// spends on a whole key lookup).
///
/// `@unchecked Sendable`: `database` and `committed` are only touched while `accessLock` is
/// held, which is exactly the confinement `Database` requires (one thread at a time); the
/// other stored properties are immutable or `Sendable`.
final class SerializedDatabase: @unchecked Sendable {
    private let queue: DispatchQueue
    private let database: Database
    private let accessLock = NSLock()
    /// The thread inside an access (0: none), to refuse a nested access, which would deadlock.
    /// Only the thread itself ever stores its own identifier, so a relaxed load that finds it
    /// is exact.
    private let accessingThread = Atomic<UInt>(0)
    let interruptHandle: InterruptHandle
    /// Tables of the commits of the current access, delivered after it.
    private var committed: [Set<String>] = []
    /// Called (inside the access, after its block) with the tables of each commit the access made.
    let onCommit: (@Sendable (Set<String>) -> Void)?

    init(path: String, configuration: Configuration, label: String,
         onCommit: (@Sendable (Set<String>) -> Void)?, setUp: (Database) throws -> Void = { _ in }) throws {
        queue = DispatchQueue(label: label)
        database = try Database(path: path, configuration: configuration)
        interruptHandle = database.interruptHandle
        self.onCommit = onCommit
        try setUp(database)
        database.commitHandler = { [unowned self] tables in committed.append(tables) }
    }

    /// Whether the calling thread is inside an access to this connection.
    private var isAccessingOnThisThread: Bool {
        accessingThread.load(ordering: .relaxed) == Self.currentThread
    }

    private static var currentThread: UInt {
        #if os(Linux)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    /// Runs `body` holding the connection, marked as this thread's access.
    private func withAccess<T>(_ body: (Database) throws -> T) rethrows -> T {
        accessLock.lock()
        accessingThread.store(Self.currentThread, ordering: .relaxed)
        defer {
            accessingThread.store(0, ordering: .relaxed)
            accessLock.unlock()
        }
        return try body(database)
    }

    /// Runs `block` on the queue, after the connection's current access, without waiting for it.
    func schedule(_ block: @escaping @Sendable (Database) -> Void) {
        queue.async { [self] in withAccess { database in block(database) } }
    }

    /// Runs `block` on the caller's thread once the connection is free, and waits for it.
    func sync<T>(_ block: (Database) throws -> T) throws -> T {
        guard !isAccessingOnThisThread else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE,
                                message: "reentrant database access: read/write called from inside an access to the same connection; use the Database you were given")
        }
        return try withAccess { database in
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
                    let result: Result<T, any Error> = withAccess { database in
                        guard access.start() else { return .failure(CancellationError()) }
                        interruptHandle.clearCancellation()
                        if access.isCancelled { interruptHandle.cancel() }
                        let result = Result { try block(database) }
                        access.finish()
                        interruptHandle.clearCancellation()
                        deliverCommits()
                        return result
                    }
                    continuation.resume(with: result)
                }
            }
        } onCancel: {
            access.cancel { interruptHandle.cancel() }
        }
    }

    /// Closes the connection (after the current access; directly when called inside one).
    func close() throws {
        if isAccessingOnThisThread {
            try database.close()
        } else {
            try withAccess { database in try database.close() }
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
