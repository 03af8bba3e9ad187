import CSQLite

/// An SQLite result code, primary (`SQLITE_CONSTRAINT`) or extended
/// (`SQLITE_CONSTRAINT_UNIQUE`), that can be matched in `catch` clauses and `switch`es.
///
/// A primary code pattern matches every extended code of its family, so one clause catches
/// every constraint violation:
///
/// ```swift
/// do {
///     try db.execute(sql: "INSERT INTO player (id) VALUES (?)", arguments: [1])
///     // INSERT INTO player (id) VALUES (?)  -- ?1 = 1, twice
/// } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
///     // a UNIQUE, NOT NULL, CHECK or FOREIGN KEY constraint failed
/// } catch ResultCode.SQLITE_BUSY {
///     // `~=` also matches any thrown DatabaseError by code
/// }
/// ```
public struct ResultCode: RawRepresentable, Sendable, Hashable {
    /// The integer SQLite returned.
    public let rawValue: Int32

    /// Wraps a raw SQLite result code.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary result code: the low 8 bits (`SQLITE_CONSTRAINT` for
    /// `SQLITE_CONSTRAINT_UNIQUE`).
    public var primaryResultCode: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    /// Whether this is a primary code (no extended bits).
    public var isPrimary: Bool { rawValue & ~0xFF == 0 }

    /// Pattern matching: a primary pattern matches every code of its family; an extended
    /// pattern matches only itself.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern.isPrimary ? pattern == code.primaryResultCode : pattern == code
    }

    /// Pattern matching against a thrown error: true when it is a ``DatabaseError`` whose
    /// extended code matches `pattern` (see `~=(ResultCode, ResultCode)`).
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return pattern ~= error.extendedResultCode
    }

    // MARK: Primary codes

    /// The operation succeeded.
    public static let SQLITE_OK = ResultCode(rawValue: 0)
    /// A generic error (an SQL syntax error, a missing table).
    public static let SQLITE_ERROR = ResultCode(rawValue: 1)
    /// An internal malfunction of SQLite.
    public static let SQLITE_INTERNAL = ResultCode(rawValue: 2)
    /// The requested access mode cannot be granted.
    public static let SQLITE_PERM = ResultCode(rawValue: 3)
    /// An operation was aborted before it completed (a rollback, a callback).
    public static let SQLITE_ABORT = ResultCode(rawValue: 4)
    /// Another connection holds a lock on the database file.
    public static let SQLITE_BUSY = ResultCode(rawValue: 5)
    /// A conflict inside this connection, or with a connection sharing its cache.
    public static let SQLITE_LOCKED = ResultCode(rawValue: 6)
    /// SQLite could not allocate the memory it needed.
    public static let SQLITE_NOMEM = ResultCode(rawValue: 7)
    /// A write to a database opened, or made, read-only.
    public static let SQLITE_READONLY = ResultCode(rawValue: 8)
    /// The operation was interrupted (`sqlite3_interrupt`, a cancelled task).
    public static let SQLITE_INTERRUPT = ResultCode(rawValue: 9)
    /// The operating system reported an I/O error.
    public static let SQLITE_IOERR = ResultCode(rawValue: 10)
    /// The database file is malformed.
    public static let SQLITE_CORRUPT = ResultCode(rawValue: 11)
    /// An unknown file-control opcode, or a missing system call.
    public static let SQLITE_NOTFOUND = ResultCode(rawValue: 12)
    /// The disk, or the database's page limit, is full.
    public static let SQLITE_FULL = ResultCode(rawValue: 13)
    /// The database file (or a journal) cannot be opened.
    public static let SQLITE_CANTOPEN = ResultCode(rawValue: 14)
    /// A problem with the file-locking protocol (WAL).
    public static let SQLITE_PROTOCOL = ResultCode(rawValue: 15)
    /// Not used by SQLite.
    public static let SQLITE_EMPTY = ResultCode(rawValue: 16)
    /// The schema changed while a statement was prepared.
    public static let SQLITE_SCHEMA = ResultCode(rawValue: 17)
    /// A string or blob is larger than SQLite's length limit.
    public static let SQLITE_TOOBIG = ResultCode(rawValue: 18)
    /// A constraint failed (`UNIQUE`, `NOT NULL`, `CHECK`, `FOREIGN KEY`, …).
    public static let SQLITE_CONSTRAINT = ResultCode(rawValue: 19)
    /// A datatype mismatch (a non-integer into an `INTEGER PRIMARY KEY`).
    public static let SQLITE_MISMATCH = ResultCode(rawValue: 20)
    /// The SQLite API was used incorrectly (a closed connection, a finalized statement).
    public static let SQLITE_MISUSE = ResultCode(rawValue: 21)
    /// Large files are not supported on this system.
    public static let SQLITE_NOLFS = ResultCode(rawValue: 22)
    /// The authorizer refused the statement.
    public static let SQLITE_AUTH = ResultCode(rawValue: 23)
    /// Not used by SQLite.
    public static let SQLITE_FORMAT = ResultCode(rawValue: 24)
    /// A parameter index out of range.
    public static let SQLITE_RANGE = ResultCode(rawValue: 25)
    /// The file is not an SQLite database.
    public static let SQLITE_NOTADB = ResultCode(rawValue: 26)
    /// A notice from `sqlite3_log`, never returned by a call.
    public static let SQLITE_NOTICE = ResultCode(rawValue: 27)
    /// A warning from `sqlite3_log`, never returned by a call.
    public static let SQLITE_WARNING = ResultCode(rawValue: 28)
    /// `sqlite3_step` has another row ready.
    public static let SQLITE_ROW = ResultCode(rawValue: 100)
    /// `sqlite3_step` has finished executing.
    public static let SQLITE_DONE = ResultCode(rawValue: 101)

    // MARK: Frequent extended codes

    /// A `CHECK` constraint failed.
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: 19 | (1 << 8))
    /// A foreign key constraint failed.
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: 19 | (3 << 8))
    /// A `NOT NULL` constraint failed.
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: 19 | (5 << 8))
    /// A `PRIMARY KEY` constraint failed.
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: 19 | (6 << 8))
    /// A trigger raised an error (`RAISE(ABORT, …)`).
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: 19 | (7 << 8))
    /// A `UNIQUE` constraint failed.
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: 19 | (8 << 8))
    /// A WAL read transaction cannot become a write: another connection wrote since it began.
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: 5 | (2 << 8))
    /// The database file was moved or removed while open, so it cannot be written.
    public static let SQLITE_READONLY_DBMOVED = ResultCode(rawValue: 8 | (4 << 8))
}

extension ResultCode: CustomStringConvertible {
    /// SQLite's English text for the code plus the number, e.g. `19 (constraint failed)`.
    public var description: String {
        let text = sqlite3_errstr(rawValue).map { String(cString: $0) } ?? "unknown error"
        return "\(rawValue) (\(text))"
    }
}
