import CairnSQLite
import CLibPQ

/// One connection to a PostgreSQL server (a libpq `PGconn`).
///
/// ```swift
/// let connection = try PostgresConnection(url: "postgresql://app@/shop?host=/var/run/postgresql")
/// try connection.execute(sql: "INSERT INTO item (title, price) VALUES ($1, $2)", arguments: ["Tea", 3.5])
/// let rows = try connection.fetchAll(sql: "SELECT title, price FROM item WHERE price < $1", arguments: [10])
/// // rows.columnNames == ["title", "price"], rows.rows == [[.text("Tea"), .real(3.5)]]
/// ```
///
/// Statements with arguments are prepared once per connection (a cache from SQL text to the
/// server-side statement) and run with binary parameters; parameters are `$1`, `$2`, … and
/// values are always bound, never spliced into the SQL.
///
/// A connection is not `Sendable`: use it on one thread at a time, as `PostgresDatabase` does.
public final class PostgresConnection {
    /// The libpq connection; closed in `deinit`.
    let handle: OpaquePointer
    /// Sends cancel requests for this connection from another thread.
    let cancelHandle: PostgresCancelHandle
    /// The prepared statements, by SQL text.
    var statements: [String: PreparedStatement] = [:]
    /// The number of statements prepared so far, which names the next (`cairn_<n>`).
    var preparedCount = 0
    /// The cancellation of the task this connection currently works for, checked before each
    /// statement (`PostgresDatabase`'s async `read` and `write` set it).
    var taskCancellation: PostgresTaskCancellation?
    /// Whether the current task's cancellation stops statements
    /// (``withTaskCancellation(_:)``).
    var watchesCurrentTask = false
    /// The numbers of the cursors open in the current transaction (`cairn_cursor_<n>`).
    var openCursors: Set<Int> = []
    /// The arrays each statement's parameters are encoded into (``sendPrepared(_:_:)``).
    let parameterBuffers = ParameterBuffers()

    /// Opens a connection.
    ///
    /// - Parameter url: a `postgresql://` or `postgres://` URL, as libpq reads it:
    ///   `postgresql://user:password@host:5432/database`, or a Unix socket folder as the
    ///   `host` query parameter: `postgresql://user@/database?host=/var/run/postgresql`. Other
    ///   libpq parameters (`sslmode`, `connect_timeout`, `application_name`) go in the query
    ///   too.
    /// - Throws: ``PostgresError`` with libpq's message when the URL has another scheme or the
    ///   server cannot be reached or refuses the connection.
    public init(url: String) throws {
        guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
            throw PostgresError(message: """
                not a PostgreSQL URL: expected postgresql://user@host/database \
                (or postgresql://user@/database?host=/socket/folder), got '\(url.prefix(40))'
                """)
        }
        guard let handle = PQconnectdb(url) else {
            throw PostgresError(message: "libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let error = PostgresError(result: nil, connection: handle, sql: nil, arguments: nil)
            PQfinish(handle)
            throw PostgresError(message: "cannot connect to PostgreSQL: \(error.message)")
        }
        // The server's notices (`NOTICE: table "x" does not exist, skipping`) would otherwise be
        // printed to standard error.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        guard PQsetClientEncoding(handle, "UTF8") == 0, let cancel = PQgetCancel(handle) else {
            let error = PostgresError(result: nil, connection: handle, sql: nil, arguments: nil)
            PQfinish(handle)
            throw PostgresError(message: "cannot set up the PostgreSQL connection: \(error.message)")
        }
        // Dates travel as SQLite's text (`2026-03-01 09:30:00.250`, which has no zone) and are
        // read back from the server's text: the session reads and writes that text in UTC, as
        // SQLite's date functions do, whatever time zone and date style the server defaults to.
        let settings = PQexec(handle, "SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'")
        defer { PQclear(settings) }
        guard PQresultStatus(settings) == PGRES_COMMAND_OK else {
            let error = PostgresError(result: settings, connection: handle, sql: nil, arguments: nil)
            PQfreeCancel(cancel)
            PQfinish(handle)
            throw PostgresError(message: "cannot set up the PostgreSQL connection: \(error.message)")
        }
        self.handle = handle
        self.cancelHandle = PostgresCancelHandle(cancel)
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the connection is still usable (libpq has not seen it break).
    public var isOpen: Bool { PQstatus(handle) == CONNECTION_OK }

    /// The process id of the server backend serving this connection (`pg_backend_pid()`): the
    /// ``PostgresNotification/senderProcessID`` of the notifications it sends.
    public var serverProcessID: Int32 { PQbackendPID(handle) }

    /// Whether a transaction is open (or failed and awaiting `ROLLBACK`).
    public var isInTransaction: Bool { PQtransactionStatus(handle) != PQTRANS_IDLE }

    // MARK: - Running statements

    /// Runs a statement and returns the number of rows it inserted, updated or deleted (0 for
    /// other statements).
    ///
    /// Without arguments the SQL runs as given and may hold several statements separated by
    /// semicolons (a schema script); with arguments it is one statement, prepared once per
    /// connection and run with binary parameters.
    ///
    /// - Throws: ``PostgresError`` with the server's SQLSTATE and the SQL.
    @discardableResult
    public func execute(sql: String, arguments: StatementArguments = []) throws -> Int {
        let result = arguments.isEmpty ? try runScript(sql) : try query(sql, arguments: arguments).1
        defer { PQclear(result) }
        return PQcmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0
    }

    /// Runs a query and returns its column names and every row, each value converted by its
    /// column's type: integers (`int2`, `int4`, `int8`) as `.integer`,
    /// `float4`, `float8` and `numeric` as `.real`, `bool` as the integer
    /// 0 or 1 (SQLite's representation), `bytea` as `.blob`, text and every
    /// other type as `.text` in PostgreSQL's text form, NULL as
    /// `.null`.
    ///
    /// - Throws: ``PostgresError`` with the server's SQLSTATE and the SQL.
    public func fetchAll(sql: String, arguments: StatementArguments = []) throws -> PostgresRows {
        let (statement, result) = try query(sql, arguments: arguments)
        defer { PQclear(result) }
        return PostgresRows(columnNames: statement.columnNames, rows: (0..<PQntuples(result)).map { row in
            (0..<statement.columnTypes.count).map { column in statement.value(result, row: row, column: column) }
        })
    }

    /// Sends a notification on `channel` with `payload` (`SELECT pg_notify($1, $2)`); inside a
    /// transaction it is delivered when the transaction commits. ``PostgresNotifications``
    /// receives it.
    public func notify(channel: String, payload: String = "") throws {
        _ = try fetchAll(sql: "SELECT pg_notify($1, $2)", arguments: [channel, payload])
    }

    /// Runs SQL text without parameters through the simple-query protocol (several statements
    /// allowed); returns the last statement's result.
    func runScript(_ sql: String) throws -> OpaquePointer {
        try exchange(sql: sql, arguments: nil) { PQsendQuery(handle, sql) }
    }

    /// Runs cleanup SQL (`ROLLBACK`) whose failure would hide the error being reported. It
    /// is not cancelled with the work it cleans up after.
    func runIgnoringFailure(_ sql: String) {
        if let result = PQexec(handle, sql) { PQclear(result) }
    }
}

/// The rows of a query: its column names and, per row, one value per column.
public struct PostgresRows: Sendable, Hashable {
    /// The column names, in order (`SELECT id, title AS name` → `["id", "name"]`).
    public var columnNames: [String]
    /// The rows, each with one value per column in ``columnNames``' order.
    public var rows: [[DatabaseValue]]

    /// Rows from already-converted values.
    public init(columnNames: [String], rows: [[DatabaseValue]]) {
        self.columnNames = columnNames
        self.rows = rows
    }
}
