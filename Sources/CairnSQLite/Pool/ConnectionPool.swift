import Dispatch
import Foundation

/// Hands out connections, opening up to `maximumCount` on demand; when all are taken, callers
/// wait: a thread blocks on a semaphore in `acquire()`, a task suspends in `acquire() async`
/// without holding a thread. A connection is given to one caller at a time and comes back
/// through ``release(_:)``, or ``discard(_:)`` when it must not be reused (broken, left in a
/// transaction), which frees its place for a new one. SQLite's readers and PostgreSQL's
/// connections are pooled here.
package final class ConnectionPool<Connection: AnyObject>: Sendable {
    private let pool: AnyConnectionPool

    /// A pool of at most `maximumCount` connections, holding `opened` (already open) and
    /// opening more with `open`; `closedError` is thrown to callers once it is closed.
    package init(
        maximumCount: Int, opened: [Connection] = [], closedError: @escaping @Sendable () -> any Error,
        open: @escaping @Sendable () throws -> Connection
    ) {
        pool = AnyConnectionPool(maximumCount: maximumCount, opened: opened, closedError: closedError, open: open)
    }

    /// A connection, blocking the thread while all are taken.
    package func acquire() throws -> Connection { Self.typed(try pool.acquire()) }

    /// A connection, suspending the task (not blocking a thread) while all are taken.
    package func acquire() async throws -> Connection { Self.typed(try await pool.acquire()) }

    /// Puts a connection back, or hands it to the first waiter. After ``close()`` it is
    /// dropped instead.
    package func release(_ connection: Connection) { pool.release(connection) }

    /// Drops a connection that must not be used again; a waiter opens a new one in its place.
    package func discard(_ connection: Connection) { pool.discard(connection) }

    /// Closes the pool: waiters and later callers get `closedError`, connections released
    /// later are dropped. Returns every connection still open, idle or taken, for the caller
    /// to close as its kind of connection allows.
    package func close() -> (idle: [Connection], taken: [Connection]) {
        let (idle, taken) = pool.close()
        return (idle.map(Self.typed), taken.map(Self.typed))
    }

    /// The pool only ever holds what `opened` and `open` gave it and what ``release(_:)`` and
    /// ``discard(_:)`` took, all of them `Connection`s.
    private static func typed(_ connection: AnyObject) -> Connection {
        unsafeDowncast(connection, to: Connection.self)
    }
}

/// The pool itself, on connections of any class: not generic, so that a pool used from
/// another module (PostgreSQL's) runs code made for its types rather than generic code, which
/// looked up the metadata of `Optional<Grant>`, `Array<Connection>` and the rest on every
/// acquire and release (about 7,000 instructions a read, callgrind, PostgreSQL W5).
///
/// `@unchecked Sendable`: `idle`, `all`, `openedCount`, `waiters` and `isClosed` are only
/// touched under `lock`, and a connection is only ever held by one caller: handed over under
/// the lock, or through a waiter's semaphore or continuation, which order the handover before
/// its use. So a connection need not be `Sendable` itself.
private final class AnyConnectionPool: @unchecked Sendable {
    typealias Connection = AnyObject

    private let lock = NSLock()
    private var idle: [Connection] = []
    /// Every open connection, taken or idle, for ``close()``.
    private var all: [Connection] = []
    private var openedCount = 0
    private var waiters: [(Grant) -> Void] = []
    private var isClosed = false
    private let maximumCount: Int
    private let open: () throws -> Connection
    private let closedError: () -> any Error

    /// What a waiting caller is given.
    fileprivate enum Grant {
        /// A connection another caller released.
        case connection(Connection)
        /// A place for a new connection, which the caller opens outside the lock.
        case open
        /// The pool closed.
        case closed
    }

    init(
        maximumCount: Int, opened: [Connection] = [], closedError: @escaping @Sendable () -> any Error,
        open: @escaping @Sendable () throws -> Connection
    ) {
        self.maximumCount = max(1, maximumCount, opened.count)
        idle = opened
        all = opened
        openedCount = opened.count
        self.closedError = closedError
        self.open = open
    }

    /// Under `lock`: what a caller gets now, or `nil` to wait.
    private func grantNow() -> Grant? {
        if isClosed { return .closed }
        if let connection = idle.popLast() { return .connection(connection) }
        if openedCount < maximumCount {
            openedCount += 1
            return .open
        }
        return nil
    }

    private func take(_ grant: Grant) throws -> Connection {
        switch grant {
        case .connection(let connection): return connection
        case .closed: throw closedError()
        case .open:
            do {
                let connection = try open()
                lock.withLock { all.append(connection) }
                return connection
            } catch {
                freePlace()
                throw error
            }
        }
    }

    /// A connection, blocking the thread while all are taken. The semaphore and the handoff
    /// are made only to wait: a store's every read comes here.
    func acquire() throws -> Connection {
        let (granted, waiting) = lock.withLock { () -> (Grant?, (DispatchSemaphore, Handoff)?) in
            if let grant = grantNow() { return (grant, nil) }
            let semaphore = DispatchSemaphore(value: 0)
            let handoff = Handoff()
            waiters.append { grant in
                handoff.value = grant
                semaphore.signal()
            }
            return (nil, (semaphore, handoff))
        }
        if let granted { return try take(granted) }
        guard let (semaphore, handoff) = waiting else { throw closedError() }
        semaphore.wait()
        return try take(handoff.value ?? .closed)
    }

    /// A connection, suspending the task (not blocking a thread) while all are taken.
    func acquire() async throws -> Connection {
        let grant = await withCheckedContinuation { (continuation: CheckedContinuation<Handoff, Never>) in
            let granted: Grant? = lock.withLock {
                if let grant = grantNow() { return grant }
                waiters.append { grant in
                    let handoff = Handoff()
                    handoff.value = grant
                    continuation.resume(returning: handoff)
                }
                return nil
            }
            if let granted {
                let handoff = Handoff()
                handoff.value = granted
                continuation.resume(returning: handoff)
            }
        }
        return try take(grant.value ?? .closed)
    }

    /// Puts a connection back, or hands it to the first waiter. After ``close()`` it is
    /// dropped instead.
    func release(_ connection: Connection) {
        let waiter: ((Grant) -> Void)? = lock.withLock {
            if isClosed {
                forget(connection)
                return nil
            }
            if !waiters.isEmpty { return waiters.removeFirst() }
            idle.append(connection)
            return nil
        }
        waiter?(.connection(connection))
    }

    /// Drops a connection that must not be used again; a waiter opens a new one in its place.
    func discard(_ connection: Connection) {
        lock.withLock { forget(connection) }
        freePlace()
    }

    /// Under `lock`: the connection is no longer the pool's.
    private func forget(_ connection: Connection) {
        all.removeAll { $0 === connection }
    }

    /// A place for a connection is free: the first waiter opens one, else a later caller will.
    private func freePlace() {
        let waiter: ((Grant) -> Void)? = lock.withLock {
            openedCount -= 1
            guard !isClosed, !waiters.isEmpty else { return nil }
            openedCount += 1
            return waiters.removeFirst()
        }
        waiter?(.open)
    }

    /// Closes the pool: waiters and later callers get `closedError`, connections released
    /// later are dropped. Returns every connection still open, idle or taken, for the caller
    /// to close as its kind of connection allows.
    func close() -> (idle: [Connection], taken: [Connection]) {
        let (idle, all, pending) = lock.withLock {
            isClosed = true
            let result = (self.idle, self.all, waiters)
            self.idle = []
            self.all = []
            waiters = []
            return result
        }
        for waiter in pending { waiter(.closed) }
        let taken = all.filter { connection in !idle.contains { $0 === connection } }
        return (idle, taken)
    }
}

/// Carries a value from the thread that grants it to the waiting one; the semaphore or the
/// continuation orders the write before the read.
///
/// `@unchecked Sendable`: written once before the signal or resume, read once after.
private final class Handoff: @unchecked Sendable {
    var value: AnyConnectionPool.Grant?
}
