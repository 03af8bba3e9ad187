import CairnSQLite
import Dispatch
import Foundation

/// A pool of connections to one PostgreSQL database: reads run concurrently, each in one
/// snapshot; writes run one at a time, each in one transaction.
///
/// With `import Cairn` it is a `QueryDatabase`, as `DatabaseQueue` and `DatabasePool` are, so
/// typed statements run on it unchanged, rendered in PostgreSQL's dialect:
///
/// ```swift
/// let titles = try database.read { db in
///     try Reminder.where { !$0.isCompleted }.order(by: \.dueDate).select(\.title).fetchAll(db)
/// }
/// // SELECT "reminders"."title" FROM "reminders" WHERE NOT "reminders"."isCompleted"
/// //   ORDER BY "reminders"."dueDate" ASC NULLS FIRST
/// ```
///
/// ```swift
/// let database = try PostgresDatabase(url: "postgresql://app@/shop?host=/var/run/postgresql")
/// try await database.write { db in
///     try db.execute(sql: "INSERT INTO item (title) VALUES ($1)", arguments: ["Tea"])
/// }
/// // BEGIN ISOLATION LEVEL READ COMMITTED; INSERT …; COMMIT
/// let rows = try await database.read { db in try db.fetchAll(sql: "SELECT title FROM item") }
/// // BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT …; COMMIT
/// ```
///
/// Connections open when first needed, up to ``maximumConnectionCount``; a call waits for a
/// free one beyond that. A connection that broke is dropped rather than reused.
///
/// - Warning: a block must not call the pool again (a `read` inside a `write`): with every
///   connection taken, it would wait forever.
///
/// `@unchecked Sendable`: the free list and counts are read and written only under
/// `condition`'s lock, and a connection is used by one call at a time (taken from the free list
/// under the lock and put back when the call ends), so no two threads touch one connection.
public final class PostgresDatabase: @unchecked Sendable {
    /// The most connections the pool opens at once.
    public let maximumConnectionCount: Int
    /// The isolation level of `write(_:)`'s transactions.
    public let writeIsolation: PostgresIsolationLevel
    let url: String
    /// The live observers of commits, and the listener that serves them once one comes.
    let commitObservers = PostgresCommitObservers()
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var openCount = 0
    private var closed = false
    /// Writes take this lock for their whole transaction, so the pool has one writer at a
    /// time, as a SQLite pool does: the layers above were built on that model (a save sees the
    /// previous save committed, commits are observed in order), and saves of one process never
    /// conflict with or deadlock on each other; conflicts with other processes remain, and
    /// transaction retries handle those.
    private let writeLock = NSLock()

    /// Creates a pool and opens its first connection, so that a wrong URL or an unreachable
    /// server fails here.
    ///
    /// - Parameters:
    ///   - url: a `postgresql://` or `postgres://` URL (see ``PostgresConnection/init(url:)``).
    ///   - maximumConnectionCount: the most connections open at once (at least 1).
    ///   - writeIsolation: the isolation level of writes (`READ COMMITTED` by default).
    /// - Throws: ``PostgresError`` when the connection cannot be opened.
    public init(url: String, maximumConnectionCount: Int = 8,
                writeIsolation: PostgresIsolationLevel = .readCommitted) throws {
        self.url = url
        self.maximumConnectionCount = max(1, maximumConnectionCount)
        self.writeIsolation = writeIsolation
        idle = [try PostgresConnection(url: url)]
        openCount = 1
    }

    // MARK: - Reading and writing

    /// Runs `block` in a read-only `REPEATABLE READ` transaction, so that all its statements
    /// see one snapshot, concurrently with other reads and writes, blocking the calling thread.
    /// Cancelling the calling task stops the statements `block` runs inside
    /// ``PostgresConnection/withTaskCancellation(_:)``, as on SQLite; others run to their end.
    ///
    /// - Throws: the error of `block`, or a ``PostgresError``.
    public func read<T>(_ block: (PostgresConnection) throws -> T) throws -> T {
        try withConnection { db in
            try db.inTransaction(isolation: .repeatableRead, readOnly: true) { try block(db) }
        }
    }

    /// Runs `block` in one transaction, one write at a time, blocking the calling thread: it
    /// commits when `block` returns and rolls back when it throws; on a serialization failure
    /// or deadlock the whole block runs again (see
    /// ``PostgresConnection/inTransaction(isolation:readOnly:maximumAttempts:_:)``).
    ///
    /// - Throws: the error of `block`, or a ``PostgresError``.
    public func write<T>(_ block: (PostgresConnection) throws -> T) throws -> T {
        let result = try writeLock.withLock {
            try withConnection { db in
                try db.inTransaction(isolation: writeIsolation) { try block(db) }
            }
        }
        commitObservers.ownWriteCommitted()
        return result
    }

    /// Runs `block` on a pooled connection outside any transaction, concurrently with other
    /// reads and writes, blocking the calling thread: each statement runs in its own
    /// transaction (autocommit) and sees its own snapshot. For one statement that is what
    /// `read` gives, without the round trips of `BEGIN` and `COMMIT` around it.
    ///
    /// ```swift
    /// let title = try database.readWithoutTransaction { db in
    ///     try db.fetchOne(sql: "SELECT title FROM item WHERE id = $1", arguments: [7]) { try $0.decode(String.self, at: 0) }
    /// }
    /// // SELECT title FROM item WHERE id = $1   (one round trip)
    /// ```
    ///
    /// Nothing makes the connection read-only here: `block` must only read. Several statements
    /// may each see a different commit; use `read` for those.
    ///
    /// - Throws: the error of `block`, or a ``PostgresError``.
    public func readWithoutTransaction<T>(_ block: (PostgresConnection) throws -> T) throws -> T {
        try withConnection { db in try block(db) }
    }

    /// `read(_:)` off the cooperative thread pool. Cancelling the task cancels the running
    /// statement on the server (`PQcancel`) and throws `CancellationError`, as does a
    /// statement the block starts afterwards.
    public func read<T: Sendable>(_ block: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await offCooperativePool { cancellation in
            try self.withConnection(cancellation: cancellation) { db in
                try db.inTransaction(isolation: .repeatableRead, readOnly: true) { try block(db) }
            }
        }
    }

    /// `write(_:)` off the cooperative thread pool; cancellation as in
    /// `read(_:)`, and the transaction rolls back.
    public func write<T: Sendable>(_ block: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        let result = try await offCooperativePool { cancellation in
            try self.writeLock.withLock {
                try self.withConnection(cancellation: cancellation) { db in
                    try db.inTransaction(isolation: self.writeIsolation) { try block(db) }
                }
            }
        }
        commitObservers.ownWriteCommitted()
        return result
    }

    /// Closes the idle connections and makes later calls throw; calls running now finish and
    /// close their connection when they end.
    public func close() {
        commitObservers.stop()
        condition.withLock {
            closed = true
            openCount -= idle.count
            idle.removeAll()
            condition.broadcast()
        }
    }

    // MARK: - Connections

    /// Runs `work` on a dispatch thread (libpq blocks), with the task's cancellation reaching
    /// the connection's statements.
    ///
    /// On a serial queue of its own, not a global queue: `work` blocks its thread for a free
    /// connection and for the server, and a global queue runs about one thread a core, adding
    /// more only when it notices its threads blocked, which under load can take seconds. A serial
    /// queue is served by a thread of its own when every other is busy.
    private func offCooperativePool<T: Sendable>(
        _ work: @escaping @Sendable (PostgresTaskCancellation) throws -> T
    ) async throws -> T {
        let cancellation = PostgresTaskCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue(label: "Cairn.PostgresDatabase.call").async {
                    continuation.resume(with: Result { try work(cancellation) })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Takes a connection for `body` and puts it back after.
    private func withConnection<T>(
        cancellation: PostgresTaskCancellation? = nil, _ body: (PostgresConnection) throws -> T
    ) throws -> T {
        if cancellation?.isCancelled == true { throw CancellationError() }
        let connection = try acquire()
        defer { release(connection) }
        guard let cancellation else { return try body(connection) }
        connection.taskCancellation = cancellation
        cancellation.attach(connection.cancelHandle)
        defer {
            cancellation.detach()
            connection.taskCancellation = nil
        }
        return try body(connection)
    }

    private func acquire() throws -> PostgresConnection {
        condition.lock()
        while !closed, idle.isEmpty, openCount >= maximumConnectionCount {
            condition.wait()
        }
        if closed {
            condition.unlock()
            throw PostgresError(message: "the PostgreSQL pool is closed")
        }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        openCount += 1
        condition.unlock()
        do {
            return try PostgresConnection(url: url)
        } catch {
            condition.withLock {
                openCount -= 1
                condition.signal()
            }
            throw error
        }
    }

    private func release(_ connection: PostgresConnection) {
        condition.withLock {
            // A broken connection, or one left in a transaction, is closed (by dropping it).
            if closed || !connection.isOpen || connection.isInTransaction {
                openCount -= 1
            } else {
                idle.append(connection)
            }
            condition.signal()
        }
    }
}
