/// One serialized connection: reads and writes run one at a time on its dispatch queue.
///
/// The simplest ``DatabaseWriter``; use ``DatabasePool`` when reads should run concurrently
/// with writes.
///
/// ```swift
/// let queue = try DatabaseQueue(path: "/tmp/app.sqlite")
/// try queue.write { db in
///     try db.execute(sql: "CREATE TABLE IF NOT EXISTS workout (id INTEGER PRIMARY KEY, title TEXT)")
///     try db.execute(sql: "INSERT INTO workout (title) VALUES (?)", arguments: ["Run"])
/// }
/// let count = try await queue.read { db in try db.fetchCount(sql: "SELECT * FROM workout") }
/// // SELECT COUNT(*) FROM (SELECT * FROM workout)
/// ```
public final class DatabaseQueue: DatabaseWriter {
    /// The configuration the connection was opened with.
    public let configuration: Configuration
    /// The database file's path (`":memory:"` for a private in-memory database).
    public let path: String
    private let connection: SerializedDatabase
    private let observers = CommitObservers()

    /// Opens the database at `path` (created when missing; `":memory:"` for a private
    /// in-memory database).
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        self.path = path
        let observers = self.observers
        connection = try SerializedDatabase(path: path, configuration: configuration,
                                            label: configuration.label + ".queue",
                                            onCommit: { observers.notify($0) })
        observers.prepareCheckingOthersCommits(of: connection, path: path, configuration: configuration)
    }

    /// A queue on a private in-memory database, as GRDB's and SQLiteData's `DatabaseQueue()`
    /// makes one (tests and previews).
    public convenience init(configuration: Configuration = Configuration()) throws {
        try self.init(path: ":memory:", configuration: configuration)
    }

    /// A queue on a private in-memory database.
    public static func inMemory(configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        try DatabaseQueue(path: ":memory:", configuration: configuration)
    }

    /// Runs `block` in a read-only deferred transaction on the queue's connection and returns
    /// its result, blocking the calling thread.
    ///
    /// ```swift
    /// let count = try queue.read { db in try db.fetchCount(sql: "SELECT * FROM workout") }
    /// // SELECT COUNT(*) FROM (SELECT * FROM workout), in a deferred transaction with
    /// // PRAGMA query_only on, so a stray write fails instead of committing
    /// ```
    ///
    /// - Throws: the error of `block`, or a ``DatabaseError``.
    public func read<T>(_ block: (Database) throws -> T) throws -> T {
        try connection.sync { db in try db.readOnlyTransaction { try block(db) } }
    }

    /// Runs `block` in a read-only deferred transaction on the queue's connection, off the
    /// cooperative thread pool. Cancelling the task interrupts the running statement and throws `CancellationError`.
    public func read<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await connection.async { db in try db.readOnlyTransaction { try block(db) } }
    }

    /// Runs `block` in an immediate transaction on the writer connection, blocking the calling
    /// thread: it commits when `block` returns and rolls everything back when it throws.
    ///
    /// ```swift
    /// try database.write { db in
    ///     try db.execute(sql: "INSERT INTO workout (title) VALUES (?)", arguments: ["Run"])
    /// }
    /// // BEGIN IMMEDIATE TRANSACTION; INSERT INTO workout (title) VALUES (?); COMMIT TRANSACTION
    /// ```
    public func write<T>(_ block: (Database) throws -> T) throws -> T {
        try connection.sync { db in try db.inTransaction(.immediate) { try block(db) } }
    }

    /// Runs `block` in an immediate transaction on the writer's dispatch queue, off the cooperative
    /// thread pool; cancelling the task interrupts it and rolls it back.
    public func write<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await connection.async { db in try db.inTransaction(.immediate) { try block(db) } }
    }

    /// Runs `block` on the writer connection outside any transaction, for statements SQLite refuses
    /// inside one (`VACUUM`, some pragmas).
    public func writeWithoutTransaction<T>(_ block: (Database) throws -> T) throws -> T {
        try connection.sync(block)
    }

    /// Calls `observer` after every commit with the names of the tables it changed; keep the
    /// returned token to keep observing (see ``DatabaseReader/observeCommits(_:)``).
    public func observeCommits(_ observer: @escaping @Sendable (Set<String>) -> Void) -> CommitObservation {
        observers.add(observer)
    }

    /// Closes the database's connections; later accesses throw `SQLITE_MISUSE`.
    public func close() throws {
        observers.stopCheckingOthersCommits()
        try connection.close()
    }
}

extension Database {
    /// Runs `body` in a deferred transaction with `PRAGMA query_only` on, so a stray write
    /// fails with `SQLITE_READONLY` instead of committing from a read.
    func readOnlyTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute(sql: "PRAGMA query_only = 1")
        defer { cleaningUp { try? execute(sql: "PRAGMA query_only = 0") } }
        return try inTransaction(.deferred) { try body() }
    }
}
