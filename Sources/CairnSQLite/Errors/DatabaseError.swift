import CSQLite

/// An error SQLite reported: its result codes, its message, the SQL that failed and the
/// arguments bound to it.
///
/// Arguments may hold personal data, so ``description`` leaves them out unless
/// ``publicStatementArguments`` is true (see ``Configuration/publicStatementArguments``);
/// ``arguments`` is always available to code.
///
/// ```swift
/// do {
///     try db.execute(sql: "INSERT INTO t (id) VALUES (?)", arguments: [1])
/// } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
///     print(error)
///     // SQLite error 19 (constraint failed), extended 1555: UNIQUE constraint failed: t.id
///     //   in: INSERT INTO t (id) VALUES (?)  -- arguments redacted
/// }
/// ```
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`).
    public let extendedResultCode: ResultCode
    /// SQLite's message (`sqlite3_errmsg`), or Cairn's own for misuse it detects.
    public let message: String
    /// The SQL being prepared or run, when there was one.
    public let sql: String?
    /// The arguments bound to ``sql``.
    public let arguments: StatementArguments?
    /// Whether ``description`` shows ``arguments``.
    public let publicStatementArguments: Bool
    /// The file of the database the failure happened in (`sqlite3_db_filename`); `nil` for an
    /// in-memory or temporary database and for errors made without a connection.
    /// ``description`` names it when the failure is about the file (not a database, corrupt,
    /// locked, busy, full, read-only, I/O, cannot open).
    public let databasePath: String?

    /// The primary result code (`SQLITE_CONSTRAINT`), for `==` comparisons in `catch` clauses.
    public var resultCode: ResultCode { extendedResultCode.primaryResultCode }

    /// Creates an error; Cairn throws these, tests and wrappers may build them too.
    public init(
        resultCode: ResultCode,
        message: String? = nil,
        sql: String? = nil,
        arguments: StatementArguments? = nil,
        publicStatementArguments: Bool = false,
        databasePath: String? = nil
    ) {
        self.extendedResultCode = resultCode
        self.message = message ?? sqlite3_errstr(resultCode.rawValue).map { String(cString: $0) } ?? "unknown error"
        self.sql = sql
        self.arguments = arguments
        self.publicStatementArguments = publicStatementArguments
        self.databasePath = databasePath.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Reads the code and message of the connection's last failure.
    init(connection: OpaquePointer?, code: Int32, sql: String?, arguments: StatementArguments?, public isPublic: Bool) {
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        // The extended code belongs to the same failure only if its family matches.
        let chosen = (extended & 0xFF) == (code & 0xFF) ? extended : code
        let text = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        let path = connection.flatMap { sqlite3_db_filename($0, "main") }.map { String(cString: $0) }
        self.init(resultCode: ResultCode(rawValue: chosen), message: text, sql: sql, arguments: arguments,
                  publicStatementArguments: isPublic, databasePath: path)
    }

    /// Whether the failure is about the database file rather than a statement's data.
    var concernsFile: Bool {
        switch resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_FULL, .SQLITE_READONLY, .SQLITE_IOERR,
             .SQLITE_CANTOPEN, .SQLITE_PERM:
            true
        default: false
        }
    }

    /// `SQLite error 19 (constraint failed), extended 2067: UNIQUE constraint failed: t.id
    /// in: <sql> -- arguments: [...]` with arguments redacted unless public. A statement over
    /// 500 characters shows its first 500 and its length (``sql`` has it whole).
    public var description: String {
        var text = "SQLite error \(resultCode.description)"
        if !extendedResultCode.isPrimary { text += ", extended \(extendedResultCode.rawValue)" }
        text += ": \(message)"
        if let sql {
            text += "\n  in: \(StatementExcerpt(sql).text)"
            if let arguments, !arguments.isEmpty {
                text += publicStatementArguments
                    ? "  -- arguments: \(arguments)" : "  -- arguments redacted (\(arguments.count))"
            }
        }
        if let databasePath, concernsFile { text += "\n  database: \(databasePath)" }
        return text
    }
}
