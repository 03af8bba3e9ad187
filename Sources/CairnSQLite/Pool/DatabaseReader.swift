/// Something that runs reads on a consistent snapshot: a ``DatabaseQueue`` or a
/// ``DatabasePool``. Code above the engine takes `any DatabaseReader` (or
/// ``DatabaseWriter``) so it works with either.
///
/// ```swift
/// func titles(in reader: any DatabaseReader) async throws -> [String] {
///     try await reader.read { db in
///         try db.fetchValues(String.self, sql: "SELECT title FROM workout ORDER BY title")
///     }
/// }
/// // BEGIN DEFERRED TRANSACTION; SELECT title FROM workout ORDER BY title; COMMIT TRANSACTION
/// ```
public protocol DatabaseReader: LiveQueryDatabase {
    /// The database file's path (`":memory:"` for a private in-memory database), as GRDB's
    /// readers have it (`database.path` in logs).
    var path: String { get }

    /// The configuration every connection was opened with.
    var configuration: Configuration { get }

    /// Runs `block` in a read-only deferred transaction and returns its result, blocking the
    /// calling thread. Every statement in `block` sees the same snapshot.
    ///
    /// - Throws: the error of `block`, a ``DatabaseError``, or `SQLITE_MISUSE` when called from
    ///   inside another access to the same connection.
    func read<T>(_ block: (Database) throws -> T) throws -> T

    /// Runs `block` in a read-only deferred transaction on the connection's own dispatch
    /// queue, without blocking the cooperative thread pool. Cancelling the task interrupts the
    /// running statement and throws `CancellationError`.
    func read<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// Calls `observer` after every commit with the names of the tables it inserted into,
    /// updated or deleted from (triggers included), whichever connection committed. A
    /// rolled-back transaction notifies nothing. Keep the returned token: releasing or
    /// cancelling it stops the observation.
    ///
    /// ```swift
    /// let token = pool.observeCommits { tables in
    ///     if tables.contains("workout") { Task { await reload() } }
    /// }
    /// ```
    ///
    /// `observer` runs on the writer's dispatch queue right after the access that committed
    /// (before `write` returns); it must not access the database synchronously. Hop to a task
    /// or another queue instead.
    func observeCommits(_ observer: @escaping @Sendable (Set<String>) -> Void) -> CommitObservation

    /// Closes every connection; later accesses throw `SQLITE_MISUSE`.
    func close() throws
}

/// A ``DatabaseReader`` that can also write: ``DatabaseQueue`` and ``DatabasePool``. Writes
/// are serialized: one at a time, in the order they reach the writer.
///
/// ```swift
/// try await writer.write { db in
///     try db.execute(sql: "INSERT INTO workout (title) VALUES (?)", arguments: ["Run"])
/// }
/// // BEGIN IMMEDIATE TRANSACTION; INSERT INTO workout (title) VALUES (?); COMMIT TRANSACTION
/// ```
public protocol DatabaseWriter: DatabaseReader {
    /// Runs `block` in an immediate transaction: commits when it returns, rolls back
    /// everything when it throws. Blocks the calling thread.
    func write<T>(_ block: (Database) throws -> T) throws -> T

    /// Runs `block` in an immediate transaction on the writer's dispatch queue, without
    /// blocking the cooperative pool; cancellation interrupts it and rolls it back.
    func write<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// Runs `block` on the writer connection outside any transaction (for `VACUUM`, pragmas,
    /// or managing transactions by hand).
    func writeWithoutTransaction<T>(_ block: (Database) throws -> T) throws -> T
}
