import Foundation
import Synchronization

/// A store file through the engine's ``DatabasePool``: WAL, one writer connection, and reader
/// connections (opened as reads need them, up to `Configuration.maximumReaderCount`), each
/// read in its own deferred transaction, so on its own snapshot.
///
/// Reads of different contexts run at the same time as each other and as a save; a save
/// waits only for the save before it.
final class PooledSQLiteBackend: StoreBackend {
    private let pool: DatabasePool
    private let log: StatementLog
    /// Held for every write and for a look at others' commits on the writer: the pool would
    /// queue the look behind a long save, and the look must not wait.
    private let writeLock = NSLock()
    /// The observations of ``observeCommits(_:)``, kept for the store's life.
    private let observations = Mutex<[CommitObservation]>([])

    init(path: String, configuration: Configuration, log: StatementLog) throws {
        pool = try DatabasePool(path: path, configuration: configuration)
        self.log = log
    }

    func migrate(layouts: [TableLayout], version: Schema.Version) throws {
        try writeLock.withLock {
            try pool.writeWithoutTransaction { db in
                // Its own log: the statements contexts run are counted from the container's start.
                try db.inTransaction(.immediate) {
                    try StoreMigrator(connection: StoreConnection(database: db, log: StatementLog()), layouts: layouts,
                                      version: version).run()
                }
            }
        }
    }

    func read<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        try pool.read { db in try run(body, on: db) }
    }

    /// One statement in SQLite's autocommit mode is its own read transaction: it reads the
    /// newest commit as of its first step and lets go of it when it finishes or is reset. A
    /// `BEGIN` and `COMMIT` around it add nothing but their cost, about 6,000 instructions a
    /// one-row fetch (callgrind, W5), and keep the statement cache from finding the fetch's
    /// statement as the one it handed out last.
    func readStatement<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        try pool.readWithoutTransaction { db in try run(body, on: db) }
    }

    private func run<T>(_ body: (StoreConnection) throws -> T, on db: Database) throws -> T {
        let connection = StoreConnection(database: db, log: log)
        // Inside a fetch, cancelling the task interrupts the statement (Concurrency/FetchCancellation.swift).
        if FetchCancellation.isActive { return try db.withTaskCancellation { try body(connection) } }
        return try body(connection)
    }

    func write<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        try writeLock.withLock {
            try pool.write { db in try body(StoreConnection(database: db, log: log)) }
        }
    }

    func observeCommits(_ handler: @escaping @Sendable (Set<String>) -> Void) {
        let observation = pool.observeCommits(handler)
        observations.withLock { $0.append(observation) }
    }

    func tablesCommittedByOthers() -> Set<String>? {
        // The writer asks: the pool's readers never commit, so its data version moves only
        // for others' commits.
        guard writeLock.try() else { return nil }
        defer { writeLock.unlock() }
        return (try? pool.writeWithoutTransaction { db in db.tablesCommittedByOthers() }) ?? nil
    }

    func close() {
        writeLock.withLock {
            observations.withLock { $0.removeAll() }
            try? pool.close()
        }
    }
}
