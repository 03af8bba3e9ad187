import CSQLite
import Foundation

/// One SQLite connection.
///
/// A `Database` is not `Sendable`: it is used on one thread at a time, inside the access
/// closures of a ``DatabaseQueue`` or ``DatabasePool`` (`read { db in }`, `write { db in }`),
/// or directly when a program owns it. Opening sets up WAL, `synchronous=NORMAL`, foreign
/// keys, a busy timeout and the defensive hardening described in ``Configuration``.
///
/// ```swift
/// let db = try Database(path: "/tmp/workouts.sqlite")     // created if missing
/// try db.execute(sql: "CREATE TABLE workout (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
/// try db.execute(sql: "INSERT INTO workout (title) VALUES (?)", arguments: ["Run"])
/// let titles = try db.fetchAll(sql: "SELECT title FROM workout") { try $0.decode(String.self, at: 0) }
/// try db.close()
/// ```
public final class Database {
    /// The file path, or `":memory:"`.
    public let path: String
    /// The configuration the connection was opened with.
    public let configuration: Configuration
    /// The raw connection (`sqlite3 *`), nil once closed. For calling SQLite directly.
    public private(set) var sqliteConnection: OpaquePointer?

    /// Prepared statements by SQL text (its bytes: see `SQLCacheKey`).
    var statementCache: [SQLCacheKey: Statement] = [:]
    /// The cached statement handed out last (see `idleCachedStatement(sql:)`).
    var recentStatement: Statement?
    /// Every statement prepared and not yet finalized, so `close()` can finalize them.
    var openStatements: [ObjectIdentifier: UnretainedStatement] = [:]
    /// Tables seen by the authorizer while a statement is being prepared.
    var authorizerRecorder: TableAccessRecorder?
    /// Tables written since the transaction began, and the commit bookkeeping.
    @exclusivity(unchecked) var changeTracker = ChangeTracker()
    /// Receives the tables each commit touched (set by queues and pools).
    var commitHandler: ((Set<String>) -> Void)?
    /// True while Cairn rolls back or restores state after a failure: those statements run
    /// even when the access was cancelled.
    @exclusivity(unchecked) var isCleaningUp = false
    /// The tables read by statements started inside ``recordingReadTables(_:)``.
    @exclusivity(unchecked) var readTablesRecorder: Set<String>?
    /// Savepoint nesting, for unique savepoint names.
    var savepointDepth = 0
    /// The trace sink and statement counters.
    var tracing: TraceState?
    /// `PRAGMA data_version` when ``tablesCommittedByOthers()`` last read it.
    var lastDataVersion: Int64?
    /// True while ``tablesCommittedByOthers()`` runs its own statements: they are not traced.
    var isCheckingOthersCommits = false
    /// A function registration or removal SQLite refused, thrown by the next prepared statement.
    var refusedRegistration: DatabaseError?
    /// Retains the function and collation boxes registered with SQLite.
    var registrations: [AnyObject] = []
    /// A `Sendable` handle other threads use to interrupt this connection's running
    /// statement (`sqlite3_interrupt`); the statement then throws `SQLITE_INTERRUPT`.
    ///
    /// ```swift
    /// let handle = db.interruptHandle
    /// DispatchQueue.global().asyncAfter(deadline: .now() + 1) { handle.interrupt() }
    /// ```
    public let interruptHandle = InterruptHandle()

    /// Opens (and creates when missing, unless read-only) the database at `path`; `":memory:"`
    /// opens a private in-memory database.
    ///
    /// - Throws: ``DatabaseError`` when the file cannot be opened or set up.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.path = path
        self.configuration = configuration
        var handle: OpaquePointer?
        let flags = (configuration.readonly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        let code = sqlite3_open_v2(path, &handle, flags, configuration.vfsName)
        guard code == SQLITE_OK, let handle else {
            let error = DatabaseError(connection: handle, code: code, sql: nil, arguments: nil, public: false)
            sqlite3_close(handle)
            throw DatabaseError(resultCode: error.extendedResultCode,
                                message: "cannot open database at \(path): \(error.message)", databasePath: path)
        }
        sqliteConnection = handle
        interruptHandle.attach(handle)
        do {
            try setUp(handle)
        } catch {
            try? close()
            throw error
        }
    }

    /// Opens a private in-memory database.
    ///
    /// ```swift
    /// let db = try Database.inMemory()
    /// ```
    public static func inMemory(configuration: Configuration = Configuration()) throws -> Database {
        try Database(path: ":memory:", configuration: configuration)
    }

    private func setUp(_ handle: OpaquePointer) throws {
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Int32(clamping: Int((configuration.busyTimeout * 1000).rounded())))
        if configuration.defensive {
            _ = cairn_db_config_int(handle, SQLITE_DBCONFIG_DEFENSIVE, 1)
        }
        installHooks(handle)
        try installTracing()
        try registerFunctionsAndCollations()
        if configuration.trustedSchema {
            // Explicitly: a SQLite built with SQLITE_TRUSTED_SCHEMA=0 starts with it off.
            try execute(sql: "PRAGMA trusted_schema = ON")
        } else if configuration.defensive {
            try execute(sql: "PRAGMA trusted_schema = OFF")
        }
        if configuration.foreignKeysEnabled {
            try execute(sql: "PRAGMA foreign_keys = ON")
        }
        if !configuration.readonly, path != ":memory:", !path.isEmpty {
            if configuration.journalModeWAL {
                let mode = try fetchValue(String.self, sql: "PRAGMA journal_mode = WAL")
                if mode?.lowercased() != "wal" {
                    throw DatabaseError(resultCode: .SQLITE_ERROR,
                                        message: "could not switch \(path) to WAL (journal_mode is \(mode ?? "unknown"))")
                }
            }
        }
        if configuration.synchronousNormal {
            try execute(sql: "PRAGMA synchronous = NORMAL")
        }
        try configuration.prepareDatabase?(self)
    }

    /// The open connection, or a `SQLITE_MISUSE` error once closed.
    func connection() throws -> OpaquePointer {
        guard let sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the database connection is closed")
        }
        return sqliteConnection
    }

    /// Whether ``close()`` ran.
    public var isClosed: Bool { sqliteConnection == nil }

    /// Finalizes every statement this connection prepared (cached, held by cursors, or
    /// retained by the caller) and closes the connection. Statements and rows used afterwards
    /// throw instead of touching freed memory. Calling it twice does nothing.
    ///
    /// - Throws: ``DatabaseError`` (`SQLITE_BUSY`) if a statement prepared outside Cairn,
    ///   through ``sqliteConnection``, is still open; the connection then stays open.
    public func close() throws {
        guard let handle = sqliteConnection else { return }
        finalizeAllStatements()
        interruptHandle.detach()
        let code = sqlite3_close(handle)
        guard code == SQLITE_OK else {
            throw DatabaseError(connection: handle, code: code, sql: nil, arguments: nil, public: false)
        }
        sqliteConnection = nil
        registrations.removeAll()
        tracing = nil
    }

    /// Finalizes every statement of this connection; used by ``close()``.
    func finalizeAllStatements() {
        // Finalized first, then released: a statement the cache held alone goes away in
        // `removeAll`, and its `deinit` reaches the connection (which may be in its own
        // `deinit`) only while the statement is still live.
        for entry in openStatements.values {
            entry.statement.finalize()
        }
        openStatements.removeAll()
        statementCache.removeAll()
        recentStatement = nil
        // Other statements SQLite lists on the connection belong to virtual tables (FTS5
        // prepares its own on its shadow tables) and are finalized by them as the connection
        // closes. Finalizing them here as well freed them twice (a crash on closing any
        // connection that had used an FTS5 table).
    }

    /// The SQL of every statement SQLite still has prepared on this connection
    /// (`sqlite3_next_stmt`): cached statements, live cursors. Empty once closed. For tests
    /// that check nothing is left behind.
    public func unfinalizedStatementSQL() -> [String] {
        guard let handle = sqliteConnection else { return [] }
        var result: [String] = []
        var current = sqlite3_next_stmt(handle, nil)
        while let statement = current {
            result.append(sqlite3_sql(statement).map { String(cString: $0) } ?? "")
            current = sqlite3_next_stmt(handle, statement)
        }
        return result
    }

    /// The number of rows the last `INSERT`, `UPDATE` or `DELETE` changed (`sqlite3_changes64`).
    public var changesCount: Int {
        sqliteConnection.map { Int(sqlite3_changes64($0)) } ?? 0
    }

    /// The rowid of the last successful `INSERT` (`sqlite3_last_insert_rowid`).
    public var lastInsertedRowID: Int64 {
        sqliteConnection.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// Whether a transaction is open (`sqlite3_get_autocommit` is false).
    public var isInsideTransaction: Bool {
        sqliteConnection.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// Makes a running statement of this connection stop with `SQLITE_INTERRUPT`
    /// (`sqlite3_interrupt`). Safe to call from any thread through ``interruptHandle``.
    public func interrupt() {
        interruptHandle.interrupt()
    }

    deinit {
        guard (try? close()) == nil, let handle = sqliteConnection else { return }
        // Something still holds a statement SQLite will not close under: let SQLite close the
        // connection once that is finalized rather than leak it. The hooks point at this
        // object, which is going away, so they are removed first.
        sqlite3_set_authorizer(handle, nil, nil)
        sqlite3_commit_hook(handle, nil, nil)
        sqlite3_rollback_hook(handle, nil, nil)
        sqlite3_progress_handler(handle, 0, nil, nil)
        sqlite3_trace_v2(handle, 0, nil, nil)
        sqlite3_close_v2(handle)
    }
}

/// `Database` is confined to one thread at a time; queues and pools own connections.
@available(*, unavailable)
extension Database: Sendable {}

/// An unretained reference to a statement, for the connection's registry. A live statement
/// removes itself in `deinit`, so every entry points to a live object. Not `weak`, for the
/// reason given on `Statement.connection`.
struct UnretainedStatement {
    private let reference: Unmanaged<Statement>
    init(statement: Statement) { reference = .passUnretained(statement) }
    var statement: Statement { reference.takeUnretainedValue() }
}

/// Lets another thread interrupt a connection safely even while it is being closed.
///
/// `@unchecked Sendable`: the handle is only read and written under `lock`, and
/// `sqlite3_interrupt` is documented as safe to call from any thread while the connection
/// is open; `detach()` runs before `sqlite3_close`, so it is never called on a closed handle.
/// The cancellation flag is an atomic int (C11 builtins), read on every statement start.
public final class InterruptHandle: @unchecked Sendable {
    private let lock = NSLock()
    private var handle: OpaquePointer?
    private let cancelledFlag: UnsafeMutablePointer<Int32>

    init() {
        cancelledFlag = .allocate(capacity: 1)
        cancelledFlag.initialize(to: 0)
    }

    deinit {
        cancelledFlag.deallocate()
    }

    func attach(_ handle: OpaquePointer) {
        lock.withLock { self.handle = handle }
    }

    func detach() {
        lock.withLock { handle = nil }
    }

    /// Interrupts the statement running on the connection, if any.
    public func interrupt() {
        lock.withLock {
            if let handle { sqlite3_interrupt(handle) }
        }
    }

    /// Interrupts because a task was cancelled: the interrupted statement, and any statement
    /// started before ``clearCancellation()``, throws `CancellationError`.
    func cancel() {
        cairn_atomic_store(cancelledFlag, 1)
        interrupt()
    }

    /// Whether ``cancel()`` ran since the last ``clearCancellation()``.
    @usableFromInline
    var wasCancelled: Bool { cairn_atomic_load(cancelledFlag) != 0 }

    /// Forgets a past cancellation, before a new access begins.
    func clearCancellation() {
        cairn_atomic_store(cancelledFlag, 0)
    }
}
