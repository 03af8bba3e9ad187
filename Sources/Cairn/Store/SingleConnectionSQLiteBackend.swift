import Foundation

/// An in-memory store: one connection (an in-memory database is private to the connection
/// that opened it), used by one caller at a time. Reads need no transaction: no write can
/// come between their statements.
final class SingleConnectionSQLiteBackend: StoreBackend, @unchecked Sendable {
    // @unchecked Sendable: `database` is only touched while holding `lock`.
    private let database: Database
    private let lock = NSLock()
    private let log: StatementLog

    init(path: String, configuration: Configuration, log: StatementLog) throws {
        database = try Database(path: path, configuration: configuration)
        self.log = log
    }

    func migrate(layouts: [TableLayout], version: Schema.Version) throws {
        try lock.withLock {
            // Its own log: the statements contexts run are counted from the container's start.
            try database.inTransaction(.immediate) {
                try StoreMigrator(connection: StoreConnection(database: database, log: StatementLog()), layouts: layouts,
                                  version: version).run()
            }
        }
    }

    func read<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        let connection = StoreConnection(database: database, log: log)
        // Inside a fetch, cancelling the task interrupts the statement (Concurrency/FetchCancellation.swift).
        if FetchCancellation.isActive { return try database.withTaskCancellation { try body(connection) } }
        return try body(connection)
    }

    func write<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try database.inTransaction(.immediate) { try body(StoreConnection(database: database, log: log)) }
    }

    func observeCommits(_ handler: @escaping @Sendable (Set<String>) -> Void) {
        lock.withLock { database.addCommitHandler(handler) }
    }

    func tablesCommittedByOthers() -> Set<String>? {
        // No one else can reach a private in-memory database.
        nil
    }

    func close() {
        lock.withLock { try? database.close() }
    }
}
