import CairnSQLite
import Foundation
import Synchronization

/// One store of a container: its backend (where statements run), the table layouts of its
/// entities, the log of the statements contexts ran, and the watch for others' commits.
///
/// Contexts read through ``read(_:)`` and write through ``write(_:)``; a file store reads on
/// several connections at once (``PooledSQLiteBackend``), an in-memory one on its only
/// connection (``SingleConnectionSQLiteBackend``).
final class ModelStore: @unchecked Sendable {
    // @unchecked Sendable: `othersCommits` and `othersCommitsTimer` are only touched while
    // holding `lock`; everything else is immutable after `init` or `Sendable`.

    let configuration: ModelConfiguration
    /// The store identifier in permanent identifiers: the configuration's name.
    var identifier: String { configuration.name }
    /// The layouts of the entities this store holds, by entity name.
    let layouts: [String: TableLayout]

    /// The SQL the store speaks: model statements are rendered in it.
    let dialect: StoreDialect
    private let backend: any StoreBackend
    private let log: StatementLog
    private let lock = NSLock()
    /// The thread running a ``write(_:)`` body, so that a write (or, on a store of one
    /// connection, a read) started inside it fails instead of waiting for itself.
    private let writingThread = Mutex<ObjectIdentifier?>(nil)
    /// Where other connections' commits go, once ``observeOthersCommits(_:)`` asked for them,
    /// and how often to look.
    private var othersCommits: (handler: @Sendable (Set<String>) -> Void, interval: Duration)?
    /// The timer that looks without being asked, once live results listen
    /// (``checkOthersCommitsPeriodically()``).
    private var othersCommitsTimer: PeriodicCheck?
    var looksForOthersCommitsOnATimer: Bool { lock.withLock { othersCommitsTimer != nil } }
    /// The UPDATE statements saves rendered, by table and the columns they set, kept across
    /// saves: a request handler's save of one changed model otherwise rendered its UPDATE
    /// every time (about 9,000 instructions, callgrind W13). Emptied past
    /// ``updateTemplateLimit`` shapes.
    let updateTemplates = Mutex<[UpdateShape: RenderedSQL]>([:])
    static let updateTemplateLimit = 256

    init(configuration: ModelConfiguration, entities: [Schema.Entity], version: Schema.Version) throws {
        self.configuration = configuration
        layouts = try TableHierarchy.layouts(of: entities, storeIdentifier: configuration.name)
        let log = StatementLog()
        self.log = log
        let failure = StoreOpenFailure(configuration: configuration)
        dialect = configuration.serverURL == nil ? .sqlite : .postgres
        do {
            if let url = configuration.serverURL {
                backend = try PostgresStoreBackend(
                    url: url, tables: TableLayout.tables(of: Array(layouts.values)),
                    usesTriggers: configuration.tracksServerChangesWithTriggers, log: log)
            } else {
                backend = try SQLiteStore.open(configuration, log: log)
            }
        } catch let error as SwiftDataError {
            throw error
        } catch {
            throw SwiftDataError.loadIssueModelContainer.with(reason: failure.reason(for: error, step: "open"))
        }
        if configuration.allowsSave || configuration.isStoredInMemoryOnly {
            do {
                try backend.migrate(layouts: Array(layouts.values), version: version)
            } catch let error as DatabaseError where Self.concernsTheFile(error) {
                backend.close()
                throw SwiftDataError.loadIssueModelContainer.with(reason: failure.reason(for: error, step: "set up"))
            }
        }
    }

    /// Whether a failure setting up the store's tables comes from the file (a lock, its
    /// permissions, damage) rather than from the schema, which the migrator explains itself.
    private static func concernsTheFile(_ error: DatabaseError) -> Bool {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_CORRUPT,
             .SQLITE_NOTADB:
            return true
        default:
            return false
        }
    }

    /// Runs `body` on a snapshot of the store, at the same time as other reads and the write
    /// when the store is a file. Fetches, counts, faulting, `explain` and raw reads.
    func read<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        try checkReadable()
        return try backend.read(body)
    }

    /// ``read(_:)`` for a body that runs exactly one statement (``StoreBackend/readStatement(_:)``).
    func readStatement<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        try checkReadable()
        return try backend.readStatement(body)
    }

    private func checkReadable() throws {
        if configuration.isStoredInMemoryOnly, isWritingOnThisThread {
            throw ModelError(
                .storeFailure, entityName: layouts.keys.sorted().first,
                message: "A fetch inside container.write(for:)'s block cannot run on an in-memory store, whose one connection "
                    + "the block holds: read through the block's Database, or fetch after the block returns")
        }
    }

    /// Runs `body` in one transaction on the store's writer, one write at a time: a save (with
    /// its unique-constraint checks and history), a raw write, a deletion of data or history.
    func write<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        let thread = ObjectIdentifier(Thread.current)
        if isWritingOnThisThread {
            throw ModelError(
                .storeFailure, entityName: layouts.keys.sorted().first,
                message: "A save (or another write) inside container.write(for:)'s block would wait for the block itself, "
                    + "which holds the store's only writer: write through the block's Database, or save after the block returns")
        }
        return try backend.write { connection in
            writingThread.withLock { $0 = thread }
            defer { writingThread.withLock { $0 = nil } }
            return try body(connection)
        }
    }

    private var isWritingOnThisThread: Bool {
        let thread = ObjectIdentifier(Thread.current)
        return writingThread.withLock { $0 == thread }
    }

    /// Calls `handler` with the tables of each of this store's own commits, on the writing
    /// thread before ``write(_:)`` returns.
    func observeCommits(_ handler: @escaping @Sendable (Set<String>) -> Void) {
        backend.observeCommits(handler)
    }

    /// The most statements ``executedStatements`` keeps.
    static var statementLogLimit: Int { StatementLog.limit }

    /// How many statements contexts ran on this store (tests count queries with it).
    var statementCount: Int { log.statementCount }

    /// The SQL of the latest statements contexts ran on this store, oldest first (at most
    /// ``statementLogLimit``; tests read it to check the SQL and count queries).
    var executedStatements: [String] { log.statements }

    func layout(for entityName: String) throws -> TableLayout {
        guard let layout = layouts[entityName] else {
            throw ModelError(.invalidSchema, entityName: entityName,
                             message: "The container's schema has no entity named '\(entityName)'; add the model type to ModelContainer(for:)")
        }
        return layout
    }

    /// Calls `handler` with every table of the store after another connection committed to
    /// its file: another container on the same file, or another process
    /// (Database+OthersCommits.swift in the engine). Looks at most every
    /// `configuration.othersCommitsPollingInterval`: when a context merges changes (at the start
    /// of a fetch) and, once ``checkOthersCommitsPeriodically()`` started it, on a timer.
    /// Nothing for an in-memory store.
    ///
    /// A timer from the start would make every program that opens a container multi-threaded,
    /// and glibc's `malloc` takes its locking path for the rest of the process once it is,
    /// which costs about 70 instructions a fetched row; a program with no live results has no one
    /// to tell between fetches.
    func observeOthersCommits(_ handler: @escaping @Sendable (Set<String>) -> Void) {
        guard let interval = othersCommitsPollingInterval else { return }
        _ = backend.tablesCommittedByOthers()  // the starting point
        lock.withLock { othersCommits = (handler, interval) }
    }

    /// Starts looking for other connections' commits on a timer (once; live results call it
    /// when they start listening).
    func checkOthersCommitsPeriodically() {
        lock.withLock {
            guard othersCommitsTimer == nil, let othersCommits else { return }
            othersCommitsTimer = PeriodicCheck(label: "Cairn.store.others-commits", interval: othersCommits.interval) {
                [weak self] in self?.checkOthersCommits()
            }
        }
    }

    /// Looks for other connections' commits now. A store busy writing is looked at next time
    /// rather than waited for (``StoreBackend/tablesCommittedByOthers()``): a long save would
    /// otherwise hold the timer's thread, and the caller may be the writer.
    func checkOthersCommits() {
        guard let handler = lock.withLock({ othersCommits?.handler }),
            let tables = backend.tablesCommittedByOthers()
        else { return }
        handler(tables)
    }

    /// How often this store looks for other connections' commits; `nil` when it does not (in
    /// memory, or turned off).
    var othersCommitsPollingInterval: Duration? {
        configuration.isStoredInMemoryOnly ? nil : configuration.othersCommitsPollingInterval
    }

    func close() {
        lock.withLock { othersCommitsTimer?.cancel() }
        backend.close()
    }
}

