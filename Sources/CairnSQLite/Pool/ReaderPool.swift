import Dispatch
import Foundation

/// Hands out reader connections, opening up to `maximumCount` on demand; when all are busy,
/// callers wait (a thread blocks on a semaphore for sync reads; an async read suspends).
///
/// `@unchecked Sendable`: `available`, `openedCount`, `waiters` and `isClosed` are only
/// accessed under `lock`; `makeReader` is a `@Sendable` closure.
final class ReaderPool: @unchecked Sendable {
    private let lock = NSLock()
    private var available: [SerializedDatabase] = []
    private var all: [SerializedDatabase] = []
    private var openedCount = 0
    private var waiters: [@Sendable (SerializedDatabase?) -> Void] = []
    private var isClosed = false
    private let maximumCount: Int
    private let makeReader: @Sendable () throws -> SerializedDatabase

    init(maximumCount: Int, makeReader: @escaping @Sendable () throws -> SerializedDatabase) {
        self.maximumCount = max(1, maximumCount)
        self.makeReader = makeReader
    }

    private enum Next {
        case reader(SerializedDatabase)
        case open
        case closed
        case wait
    }

    private func next() -> Next {
        if isClosed { return .closed }
        if let reader = available.popLast() { return .reader(reader) }
        if openedCount < maximumCount {
            openedCount += 1
            return .open
        }
        return .wait
    }

    private func open() throws -> SerializedDatabase {
        do {
            let reader = try makeReader()
            lock.withLock { all.append(reader) }
            return reader
        } catch {
            lock.withLock { openedCount -= 1 }
            throw error
        }
    }

    private static let closedError = DatabaseError(resultCode: .SQLITE_MISUSE, message: "the database pool is closed")

    /// A reader, blocking the thread while all are busy. The semaphore and the handoff are
    /// made only to wait: a store's every fetch comes here.
    func acquire() throws -> SerializedDatabase {
        let (decision, waiting) = lock.withLock { () -> (Next, (DispatchSemaphore, Handoff)?) in
            let decision = next()
            guard case .wait = decision else { return (decision, nil) }
            let semaphore = DispatchSemaphore(value: 0)
            let handoff = Handoff()
            waiters.append { reader in
                handoff.reader = reader
                semaphore.signal()
            }
            return (decision, (semaphore, handoff))
        }
        switch decision {
        case .reader(let reader): return reader
        case .open: return try open()
        case .closed: throw Self.closedError
        case .wait:
            guard let (semaphore, handoff) = waiting else { throw Self.closedError }
            semaphore.wait()
            guard let reader = handoff.reader else { throw Self.closedError }
            return reader
        }
    }

    /// A reader, suspending (not blocking) while all are busy.
    func acquire() async throws -> SerializedDatabase {
        let reader: SerializedDatabase? = await withCheckedContinuation { continuation in
            let decision: Next = lock.withLock {
                let decision = next()
                if case .wait = decision {
                    waiters.append { continuation.resume(returning: $0) }
                }
                return decision
            }
            switch decision {
            case .reader(let reader): continuation.resume(returning: reader)
            case .open: continuation.resume(returning: nil)  // opened below, outside the continuation
            case .closed: continuation.resume(returning: nil)
            case .wait: break
            }
        }
        if let reader { return reader }
        // nil means: open a new one (a slot was reserved) or the pool is closed.
        if lock.withLock({ isClosed }) { throw Self.closedError }
        return try open()
    }

    /// Returns a reader to the pool, or hands it to the first waiter.
    func release(_ reader: SerializedDatabase) {
        let waiter: (@Sendable (SerializedDatabase?) -> Void)? = lock.withLock {
            if !waiters.isEmpty { return waiters.removeFirst() }
            available.append(reader)
            return nil
        }
        waiter?(reader)
    }

    /// Closes every reader; waiters are woken with an error.
    func close() throws {
        let (readers, pending) = lock.withLock {
            isClosed = true
            let result = (all, waiters)
            waiters = []
            return result
        }
        for waiter in pending { waiter(nil) }
        for reader in readers { try reader.close() }
    }
}

/// Carries a reader from the releasing thread to a blocked one; the semaphore orders the
/// write before the read.
///
/// `@unchecked Sendable`: written once before `semaphore.signal()`, read after `wait()`.
private final class Handoff: @unchecked Sendable {
    var reader: SerializedDatabase?
}
