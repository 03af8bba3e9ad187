import Foundation

/// One writer connection and a pool of reader connections on a WAL database: reads run
/// concurrently with each other and with the write, each on a consistent snapshot; writes
/// are serialized.
///
/// ```swift
/// var configuration = Configuration()
/// configuration.maximumReaderCount = 4
/// let pool = try DatabasePool(path: "/tmp/app.sqlite", configuration: configuration)
/// try await pool.write { db in
///     try db.execute(sql: "INSERT INTO workout (title) VALUES (?)", arguments: ["Run"])
/// }
/// let titles = try await pool.read { db in
///     try db.fetchValues(String.self, sql: "SELECT title FROM workout")
/// }
/// ```
///
/// A reader never waits for the writer (WAL): it sees the database as of its transaction's
/// first read, and a write committing meanwhile is invisible to it until its next `read`.
public final class DatabasePool: DatabaseWriter {
    /// The configuration every connection was opened with.
    public let configuration: Configuration
    /// The file path.
    public let path: String
    private let writer: SerializedDatabase
    private let readers: ConnectionPool<SerializedDatabase>
    private let observers = CommitObservers()
    /// A folder made for this pool alone (`defaultDatabase()` without a path), removed with it.
    private let ownFolder: URL?

    /// Opens (creating when missing) the database at `path` in WAL mode.
    ///
    /// - Throws: ``DatabaseError`` when the file cannot be opened, is in-memory (readers need a
    ///   shared file), or cannot be switched to WAL.
    public convenience init(path: String, configuration: Configuration = Configuration()) throws {
        try self.init(path: path, configuration: configuration, ownFolder: nil)
    }

    /// A pool on `cairn.sqlite` in a new folder in the temporary directory, which the pool
    /// removes when it goes: when the last reference to it goes, its connections are closed,
    /// then the folder is removed. Nothing can be using the pool then (every call holds it
    /// for its duration). Made for `defaultDatabase()` without a path, used by tests and
    /// previews, which would otherwise leave the folder (database, WAL and shared-memory files)
    /// behind for good.
    package convenience init(inOwnTemporaryFolderWith configuration: Configuration) throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("cairn-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            try self.init(path: folder.appendingPathComponent("cairn.sqlite").path, configuration: configuration,
                          ownFolder: folder)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    private init(path: String, configuration: Configuration, ownFolder: URL?) throws {
        self.ownFolder = ownFolder
        guard path != ":memory:", !path.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE,
                                message: "a DatabasePool needs a database file (use DatabaseQueue for in-memory databases)")
        }
        var writerConfiguration = configuration
        writerConfiguration.journalModeWAL = true
        self.configuration = configuration
        self.path = path
        let observers = self.observers
        writer = try SerializedDatabase(path: path, configuration: writerConfiguration,
                                        label: configuration.label + ".writer",
                                        onCommit: { observers.notify($0) })
        var readerConfiguration = configuration
        readerConfiguration.journalModeWAL = false  // already WAL; readers must not switch modes
        let label = configuration.label
        let sharedReaderConfiguration = readerConfiguration
        readers = ConnectionPool(
            maximumCount: configuration.maximumReaderCount,
            closedError: { DatabaseError(resultCode: .SQLITE_MISUSE, message: "the database pool is closed") }
        ) {
            try SerializedDatabase(path: path, configuration: sharedReaderConfiguration, label: label + ".reader",
                                   onCommit: { observers.notify($0) },
                                   setUp: { db in try db.execute(sql: "PRAGMA query_only = 1") })
        }
        // The writer asks: commits of the pool's own connections do not move its data version
        // (readers never commit).
        observers.prepareCheckingOthersCommits(of: writer, path: path, configuration: configuration)
    }

    /// Runs `block` in a read-only deferred transaction on one of the pool's readers,
    /// concurrently with other reads and with the write, and returns its result, blocking the
    /// calling thread.
    ///
    /// ```swift
    /// let count = try pool.read { db in try db.fetchCount(sql: "SELECT * FROM workout") }
    /// // BEGIN DEFERRED TRANSACTION; SELECT COUNT(*) FROM (SELECT * FROM workout); COMMIT TRANSACTION
    /// ```
    ///
    /// - Throws: the error of `block`, or a ``DatabaseError``.
    public func read<T>(_ block: (Database) throws -> T) throws -> T {
        let reader = try readers.acquire()
        defer { readers.release(reader) }
        return try reader.sync { db in try db.inTransaction(.deferred) { try block(db) } }
    }

    /// Runs `block` on one of the pool's readers outside any transaction, concurrently with
    /// other reads and with the write, and returns its result, blocking the calling thread.
    ///
    /// Each statement `block` runs is then its own read transaction (SQLite's autocommit mode):
    /// it reads one snapshot, the newest commit when it starts, and releases it when it
    /// finishes or is reset. For a block that runs one statement that is the snapshot
    /// `read(_:)` gives, without its `BEGIN` and `COMMIT`; two statements may see different
    /// snapshots, so a block that runs more than one belongs in `read(_:)`.
    ///
    /// - Throws: the error of `block`, or a ``DatabaseError``.
    public func readWithoutTransaction<T>(_ block: (Database) throws -> T) throws -> T {
        let reader = try readers.acquire()
        defer { readers.release(reader) }
        return try reader.sync(block)
    }

    /// Runs `block` in a read-only deferred transaction on one of the pool's readers,
    /// concurrently with other reads and with the write, off the cooperative thread pool.
    /// Cancelling the task interrupts the running statement and throws `CancellationError`.
    public func read<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let reader = try await readers.acquire()
        defer { readers.release(reader) }
        return try await reader.async { db in try db.inTransaction(.deferred) { try block(db) } }
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
        try writer.sync { db in try db.inTransaction(.immediate) { try block(db) } }
    }

    /// Runs `block` in an immediate transaction on the writer's dispatch queue, off the cooperative
    /// thread pool; cancelling the task interrupts it and rolls it back.
    public func write<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.async { db in try db.inTransaction(.immediate) { try block(db) } }
    }

    /// Runs `block` on the writer connection outside any transaction, for statements SQLite refuses
    /// inside one (`VACUUM`, some pragmas).
    public func writeWithoutTransaction<T>(_ block: (Database) throws -> T) throws -> T {
        try writer.sync(block)
    }

    /// Calls `observer` after every commit with the names of the tables it changed; keep the
    /// returned token to keep observing (see ``DatabaseReader/observeCommits(_:)``).
    public func observeCommits(_ observer: @escaping @Sendable (Set<String>) -> Void) -> CommitObservation {
        observers.add(observer)
    }

    /// Closes the database's connections; later accesses throw `SQLITE_MISUSE`.
    public func close() throws {
        observers.stopCheckingOthersCommits()
        let (idle, taken) = readers.close()
        for reader in idle + taken { try reader.close() }
        try writer.close()
    }

    deinit {
        guard let ownFolder else { return }
        // Closed first, so that no connection writes to files that are gone. A failure here
        // has no one to report to: the files go anyway, and an open connection keeps its own
        // until it closes.
        try? close()
        try? FileManager.default.removeItem(at: ownFolder)
    }
}
