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
    public let configuration: Configuration
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

    public func read<T>(_ block: (Database) throws -> T) throws -> T {
        try connection.sync { db in try db.readOnlyTransaction { try block(db) } }
    }

    public func read<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await connection.async { db in try db.readOnlyTransaction { try block(db) } }
    }

    public func write<T>(_ block: (Database) throws -> T) throws -> T {
        try connection.sync { db in try db.inTransaction(.immediate) { try block(db) } }
    }

    public func write<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await connection.async { db in try db.inTransaction(.immediate) { try block(db) } }
    }

    public func writeWithoutTransaction<T>(_ block: (Database) throws -> T) throws -> T {
        try connection.sync(block)
    }

    public func observeCommits(_ observer: @escaping @Sendable (Set<String>) -> Void) -> CommitObservation {
        observers.add(observer)
    }

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
