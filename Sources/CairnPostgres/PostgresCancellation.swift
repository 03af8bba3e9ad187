import CLibPQ
import Foundation

/// A libpq cancel handle (`PGcancel`), which asks the server to stop the statement its
/// connection is running.
///
/// `@unchecked Sendable`: libpq documents `PQcancel` as safe to call from any thread while
/// the connection is in use elsewhere (it opens its own socket to the server), and the handle
/// is immutable after `PQgetCancel` and freed only in `deinit`, when no one holds it.
final class PostgresCancelHandle: @unchecked Sendable {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQfreeCancel(handle)
    }

    /// Asks the server to cancel the running statement, which then fails with SQLSTATE
    /// `57014`. Does nothing when no statement runs. A failure to send is ignored: the
    /// statement then finishes normally.
    func cancel() {
        var message = [CChar](repeating: 0, count: 256)
        _ = PQcancel(handle, &message, Int32(message.count))
    }
}

/// The cancellation of one task's use of a connection: the task's cancellation handler marks
/// it and cancels the statement running then; the connection checks it before each statement
/// and while it waits for one (`PostgresConnection.nextResult(cancelSent:)`).
///
/// `@unchecked Sendable`: its state is read and written only under `lock`.
final class PostgresTaskCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var connection: PostgresCancelHandle?

    var isCancelled: Bool { lock.withLock { cancelled } }

    /// Called from the task's cancellation handler, on any thread.
    func cancel() {
        lock.withLock {
            cancelled = true
            connection?.cancel()
        }
    }

    /// Starts cancelling `handle`'s statements on cancellation.
    func attach(_ handle: PostgresCancelHandle) {
        lock.withLock { connection = handle }
    }

    /// Stops, before the connection goes back to the pool for other work.
    func detach() {
        lock.withLock { connection = nil }
    }
}
