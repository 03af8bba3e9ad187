import Foundation

/// One SQLite store of a container: the connection, the table layouts of its entities, and
/// the schema set-up done when it opens.
///
/// Contexts reach the connection through ``access(_:)``, which serializes users.
final class ModelStore: @unchecked Sendable {
    // @unchecked Sendable: `database` and `executed` are only touched while holding `lock`;
    // everything else is immutable after `init`.

    let configuration: ModelConfiguration
    /// The store identifier in permanent identifiers: the configuration's name.
    var identifier: String { configuration.name }
    /// The layouts of the entities this store holds, by entity name.
    let layouts: [String: TableLayout]

    private let database: Database
    private let lock = NSLock()
    /// How many statements contexts ran on this store, and the SQL of the latest ones.
    private var executedCount = 0
    private var recent: [String] = []
    /// Where other connections' commits go, once ``observeOthersCommits(_:)`` asked for them,
    /// and how often to look.
    private var othersCommits: (handler: @Sendable (Set<String>) -> Void, interval: Duration)?
    /// The timer that looks without being asked, once live results listen
    /// (``checkOthersCommitsPeriodically()``).
    private var othersCommitsTimer: PeriodicCheck?
    var looksForOthersCommitsOnATimer: Bool { lock.withLock { othersCommitsTimer != nil } }

    init(configuration: ModelConfiguration, entities: [Schema.Entity], version: Schema.Version) throws {
        self.configuration = configuration
        layouts = Dictionary(
            entities.map { ($0.name, TableLayout(entity: $0, storeIdentifier: configuration.name)) },
            uniquingKeysWith: { a, _ in a })
        var engineConfiguration = Configuration()
        engineConfiguration.addCairnPredicateSupport()
        engineConfiguration.foreignKeysEnabled = false
        // Format predicates and sort descriptors (NSPredicate, NSSortDescriptor) compile to
        // these functions and collations.
        engineConfiguration.functions += FormatSQLFunctions.functions
        engineConfiguration.collations += FormatSQLFunctions.collations
        engineConfiguration.readonly = !configuration.allowsSave && !configuration.isStoredInMemoryOnly
        engineConfiguration.vfsName = configuration.vfsName
        engineConfiguration.busyTimeout = configuration.busyTimeout
        let path: String
        if configuration.isStoredInMemoryOnly {
            path = ":memory:"
            engineConfiguration.journalModeWAL = false
        } else {
            path = configuration.url.path
            let folder = configuration.url.deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw SwiftDataError.loadIssueModelContainer.with(
                    reason: "Cannot create the store's folder \(folder.path): \(error.localizedDescription)")
            }
        }
        let failure = StoreOpenFailure(configuration: configuration)
        do {
            database = try Database(path: path, configuration: engineConfiguration)
        } catch {
            throw SwiftDataError.loadIssueModelContainer.with(reason: failure.reason(for: error, step: "open"))
        }
        if configuration.allowsSave || configuration.isStoredInMemoryOnly {
            do {
                try StoreMigrator(database: database, layouts: Array(layouts.values), version: version).run()
            } catch let error as DatabaseError where Self.concernsTheFile(error) {
                try? database.close()
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

    /// Runs `body` with the connection, one caller at a time.
    func access<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        // Inside a fetch, cancelling the task interrupts the statement (Concurrency/FetchCancellation.swift).
        if FetchCancellation.isActive { return try database.withTaskCancellation { try body(StoreConnection(database: database, store: self)) } }
        return try body(StoreConnection(database: database, store: self))
    }

    /// The most statements ``executedStatements`` keeps.
    static let statementLogLimit = 4096

    /// Called with `lock` held.
    fileprivate func record(_ sql: String) {
        executedCount += 1
        if recent.count >= Self.statementLogLimit { recent.removeFirst(Self.statementLogLimit / 4) }
        recent.append(sql)
    }

    /// How many statements contexts ran on this store (tests count queries with it).
    var statementCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return executedCount
    }

    /// The SQL of the latest statements contexts ran on this store, oldest first (at most
    /// ``statementLogLimit``; tests read it to check the SQL and count queries).
    var executedStatements: [String] {
        lock.lock()
        defer { lock.unlock() }
        return recent
    }

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
        lock.withLock {
            _ = database.tablesCommittedByOthers()  // the starting point
            othersCommits = (handler, interval)
        }
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

    /// Looks for other connections' commits now. A store in use is looked at next time rather
    /// than waited for: a long fetch would otherwise hold the timer's thread, and the caller
    /// may hold the store.
    func checkOthersCommits() {
        guard lock.try() else { return }
        let committed = othersCommits.flatMap { othersCommits in
            database.tablesCommittedByOthers().map { (tables: $0, handler: othersCommits.handler) }
        }
        lock.unlock()
        if let committed { committed.handler(committed.tables) }
    }

    /// How often this store looks for other connections' commits; `nil` when it does not (in
    /// memory, or turned off).
    var othersCommitsPollingInterval: Duration? {
        configuration.isStoredInMemoryOnly ? nil : configuration.othersCommitsPollingInterval
    }

    func close() {
        lock.lock()
        defer { lock.unlock() }
        othersCommitsTimer?.cancel()
        try? database.close()
    }
}

/// The connection while a context holds it: runs IR statements and reads rows.
struct StoreConnection {
    let database: Database
    let store: ModelStore

    /// Executes a statement built with the query IR.
    func execute(_ statement: some SQLRenderable) throws {
        try execute(try statement.render())
    }

    /// Executes rendered SQL (a template rendered once and bound per row, for instance).
    func execute(_ rendered: RenderedSQL) throws {
        store.record(rendered.sql)
        try database.execute(sql: rendered.sql, arguments: StatementArguments(rendered.arguments))
    }

    /// The rows of a statement, each as its column values.
    func rows(_ statement: some SQLRenderable) throws -> [[DatabaseValue]] {
        try rows(try statement.render())
    }

    /// Runs an INSERT and returns the rowid of the row it inserted.
    func insertedRowID(_ rendered: RenderedSQL) throws -> Int64 {
        store.record(rendered.sql)
        try database.execute(sql: rendered.sql, arguments: StatementArguments(rendered.arguments))
        return database.lastInsertedRowID
    }

    /// The rows of rendered SQL, each as its column values.
    func rows(_ rendered: RenderedSQL) throws -> [[DatabaseValue]] {
        store.record(rendered.sql)
        return try database.fetchAll(sql: rendered.sql, arguments: StatementArguments(rendered.arguments)) { row in
            (0..<row.count).map { row.databaseValue(at: $0) }
        }
    }

    /// The rows of rendered SQL, each handed to `transform` while the statement is on it.
    func rows<T>(_ rendered: RenderedSQL, _ transform: (Row) throws -> T) throws -> [T] {
        store.record(rendered.sql)
        return try database.fetchAll(sql: rendered.sql, arguments: StatementArguments(rendered.arguments), transform)
    }

    /// The models of rendered SQL's rows, each made while the statement is on its row.
    ///
    /// They are collected as plain references (``ObjectCollector``) and cast once at the end:
    /// appending to a `[T]` in code that is generic over the model type looks up `Array<T>`'s
    /// type metadata on every row, which costs more than decoding a column.
    /// A row for which `make` returns `nil` is read but makes no model.
    func models<T: AnyObject>(
        _ rendered: RenderedSQL, expectedCount: Int = 0, _ make: (Row) throws -> T?
    ) throws -> [T] {
        store.record(rendered.sql)
        var made = ObjectCollector(capacity: expectedCount)
        try database.cachedStatement(sql: rendered.sql).forEachRow(arguments: StatementArguments(rendered.arguments)) { row in
            // Consumed: the model `make` returns goes into the buffer as it is; appended as a
            // copy, it cost a retain and a release a row.
            if let model = try make(row) { made.append(consume model) }
        }
        return made.array(of: T.self)
    }

    /// Runs `body` in one transaction: all of it is on disk, or none of it.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try database.inTransaction(.immediate, body)
    }
}
