import Foundation

/// How a ``Database`` connection (and every connection of a ``DatabaseQueue`` or
/// ``DatabasePool``) is opened and set up.
///
/// ```swift
/// var configuration = Configuration()
/// configuration.busyTimeout = 10
/// configuration.publicStatementArguments = true   // show values in errors and traces
/// let db = try Database(path: "/tmp/app.sqlite", configuration: configuration)
/// // PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;
/// // PRAGMA trusted_schema = OFF   (plus SQLITE_DBCONFIG_DEFENSIVE and a busy timeout)
/// ```
public struct Configuration: Sendable {
    /// Opens read-only (`SQLITE_OPEN_READONLY`); writes fail with `SQLITE_READONLY`.
    public var readonly = false
    /// `PRAGMA foreign_keys = ON` (default true).
    public var foreignKeysEnabled = true
    /// How long a connection waits for a lock held by another connection, in seconds
    /// (`sqlite3_busy_timeout`; default 5).
    public var busyTimeout: TimeInterval = 5
    /// `PRAGMA journal_mode = WAL` for file databases (default true; needed by
    /// ``DatabasePool``).
    public var journalModeWAL = true
    /// `PRAGMA synchronous = NORMAL` (default). With WAL this loses no committed transaction
    /// on an application crash; only a power loss can roll back the last commits.
    public var synchronousNormal = true
    /// `SQLITE_DBCONFIG_DEFENSIVE` and `PRAGMA trusted_schema = OFF` (default true): a file
    /// a user did not create cannot corrupt itself through SQL or run functions from its schema.
    public var defensive = true
    /// `PRAGMA trusted_schema = ON`, even when ``defensive`` (default false). With the schema
    /// untrusted, SQLite refuses virtual tables that are not marked innocuous, FTS5 among
    /// them, inside triggers and views ("unsafe use of virtual table"); a trigger that keeps
    /// a full-text index needs this. Set it only for database files your app creates.
    public var trustedSchema = false
    /// Whether errors and traces show bound values (default false: they may hold personal
    /// data, so they are redacted).
    public var publicStatementArguments = false
    /// SQL functions registered on every connection.
    public var functions: [DatabaseFunction] = []
    /// Collations registered on every connection.
    public var collations: [DatabaseCollation] = []
    /// Called with every executed statement and its duration (see ``TraceEvent``). Tracing is
    /// also on when the environment has `CAIRN_SQL_TRACE=1` (printed to standard error).
    public var tracer: (@Sendable (TraceEvent) -> Void)?
    /// Runs on every new connection after Cairn's own setup (extra pragmas, functions).
    public var prepareDatabase: (@Sendable (Database) throws -> Void)?

    /// Adds `body` to what runs on every new connection, after what was added before: GRDB's
    /// spelling, which SQLiteData apps use (`configuration.prepareDatabase { db in … }`).
    public mutating func prepareDatabase(_ body: @escaping @Sendable (Database) throws -> Void) {
        let previous = prepareDatabase
        prepareDatabase = { db in
            try previous?(db)
            try body(db)
        }
    }
    /// The most readers a ``DatabasePool`` opens at once (default 5).
    public var maximumReaderCount = 5
    /// A name for the connections' dispatch queues and diagnostics.
    public var label = "Cairn"
    /// The SQLite VFS the connections open their file with, by its registered name
    /// (`sqlite3_vfs_register`); `nil` for SQLite's default. For storage of your own, or for
    /// tests that inject I/O faults (Docs/Engine.md, "Reliability").
    public var vfsName: String?

    /// How often a file-backed ``DatabaseQueue`` or ``DatabasePool`` with commit observers
    /// (``DatabaseReader/observeCommits(_:)``, and the live queries built on it) checks whether
    /// another connection committed to the same file: another queue or pool, or another
    /// process. Such a commit is reported to the observers with every table of the database,
    /// since which ones it wrote cannot be known. `nil` turns the check off. Default: 0.5 s.
    public var othersCommitsPollingInterval: Duration? = .milliseconds(500)

    /// The default configuration.
    public init() {}
}
