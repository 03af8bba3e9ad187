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
/// A call that waits for a connection (or, for a write, for the write before it) blocks its
/// thread in the synchronous forms and suspends its task, holding no thread, in the `async`
/// ones.
public final class PostgresDatabase: Sendable {
    /// The most connections the pool opens at once.
    public let maximumConnectionCount: Int
    /// The isolation level of `write(_:)`'s transactions.
    public let writeIsolation: PostgresIsolationLevel
    let url: String
    /// The live observers of commits, and the listener that serves them once one comes.
    let commitObservers = PostgresCommitObservers()
    private let connections: ConnectionPool<PostgresConnection>
    /// Writes hold the one permit for their whole transaction, so the pool has one writer at a
    /// time, as a SQLite pool does: the layers above were built on that model (a save sees the
    /// previous save committed, commits are observed in order), and saves of one process never
    /// conflict with or deadlock on each other; conflicts with other processes remain, and
    /// transaction retries handle those.
    private let writePermit: ConnectionPool<WritePermit>

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
        connections = ConnectionPool(
            maximumCount: maximumConnectionCount, opened: [try PostgresConnection(url: url)],
            closedError: { PostgresError(message: "the PostgreSQL pool is closed") }
        ) { try PostgresConnection(url: url) }
        writePermit = ConnectionPool(
            maximumCount: 1, opened: [WritePermit()],
            closedError: { PostgresError(message: "the PostgreSQL pool is closed") }
        ) { WritePermit() }
    }

    // MARK: - Reading and writing

    /// Runs `block` in a read-only `REPEATABLE READ` transaction, so that all its statements
    /// see one snapshot, concurrently with other reads and writes, blocking the calling thread.
    /// Cancelling the calling task stops the statements `block` runs inside
    /// ``PostgresConnection/withTaskCancellation(_:)``, as on SQLite; others run to their end.
    ///
    /// - Throws: the error of `block`, or a ``PostgresError``.
    public func read<T>(_ block: (PostgresConnection) throws -> T) throws -> T {
        try withConnection(try connections.acquire()) { db in
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
        let permit = try writePermit.acquire()
        let result: T
        do {
            defer { writePermit.release(permit) }
            result = try withConnection(try connections.acquire()) { db in
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
        try withConnection(try connections.acquire()) { db in try block(db) }
    }

    /// `read(_:)` off the cooperative thread pool. Cancelling the task cancels the running
    /// statement on the server (`PQcancel`) and throws `CancellationError`, as does a
    /// statement the block starts afterwards.
    public func read<T: Sendable>(_ block: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        let connection = try await connections.acquire()
        return try await offCooperativePool(connection) { db in
            try db.inTransaction(isolation: .repeatableRead, readOnly: true) { try block(db) }
        }
    }

    /// `write(_:)` off the cooperative thread pool; cancellation as in
    /// `read(_:)`, and the transaction rolls back.
    public func write<T: Sendable>(_ block: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        let permit = try await writePermit.acquire()
        let result: T
        do {
            defer { writePermit.release(permit) }
            let connection = try await connections.acquire()
            let isolation = writeIsolation
            result = try await offCooperativePool(connection) { db in
                try db.inTransaction(isolation: isolation) { try block(db) }
            }
        }
        commitObservers.ownWriteCommitted()
        return result
    }

    /// Closes the idle connections and makes later calls throw; calls running now finish and
    /// close their connection when they end.
    public func close() {
        commitObservers.stop()
        _ = writePermit.close()
        // Dropping a connection closes it; the taken ones close when their calls end.
        _ = connections.close()
    }

    // MARK: - Connections

    /// Runs `work` with a connection taken from the pool on a dispatch thread (libpq blocks),
    /// with the task's cancellation reaching the connection's statements, and gives the
    /// connection back after.
    ///
    /// On a serial queue of its own, not a global queue: `work` blocks its thread for the
    /// server, and a global queue runs about one thread a core, adding more only when it
    /// notices its threads blocked, which under load can take seconds. A serial queue is
    /// served by a thread of its own when every other is busy.
    private func offCooperativePool<T: Sendable>(
        _ connection: PostgresConnection, _ work: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        let cancellation = PostgresTaskCancellation()
        let taken = TakenConnection(connection)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue(label: "Cairn.PostgresDatabase.call").async {
                    continuation.resume(with: Result {
                        try self.withConnection(taken.connection, cancellation: cancellation, work)
                    })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Runs `body` with a connection taken from the pool and gives it back after: to the pool,
    /// or dropped when it broke or was left in a transaction.
    private func withConnection<T>(
        _ connection: PostgresConnection, cancellation: PostgresTaskCancellation? = nil,
        _ body: (PostgresConnection) throws -> T
    ) throws -> T {
        defer {
            if !connection.isOpen || connection.isInTransaction {
                connections.discard(connection)
            } else {
                connections.release(connection)
            }
        }
        if cancellation?.isCancelled == true { throw CancellationError() }
        guard let cancellation else { return try body(connection) }
        connection.taskCancellation = cancellation
        cancellation.attach(connection.cancelHandle)
        defer {
            cancellation.detach()
            connection.taskCancellation = nil
        }
        return try body(connection)
    }
}

/// The right to write: the pool holds one.
private final class WritePermit {}

/// A connection on its way from the task that took it to the dispatch thread that uses it.
///
/// `@unchecked Sendable`: the pool gave the connection to this call alone; the task hands it
/// over without touching it again, and the dispatch queue orders the handover before its use.
private struct TakenConnection: @unchecked Sendable {
    let connection: PostgresConnection
    init(_ connection: PostgresConnection) { self.connection = connection }
}
