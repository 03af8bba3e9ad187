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

    public static let SQLITE_OK = ResultCode(rawValue: 0)
    public static let SQLITE_ERROR = ResultCode(rawValue: 1)
    public static let SQLITE_INTERNAL = ResultCode(rawValue: 2)
    public static let SQLITE_PERM = ResultCode(rawValue: 3)
    public static let SQLITE_ABORT = ResultCode(rawValue: 4)
    public static let SQLITE_BUSY = ResultCode(rawValue: 5)
    public static let SQLITE_LOCKED = ResultCode(rawValue: 6)
    public static let SQLITE_NOMEM = ResultCode(rawValue: 7)
    public static let SQLITE_READONLY = ResultCode(rawValue: 8)
    public static let SQLITE_INTERRUPT = ResultCode(rawValue: 9)
    public static let SQLITE_IOERR = ResultCode(rawValue: 10)
    public static let SQLITE_CORRUPT = ResultCode(rawValue: 11)
    public static let SQLITE_NOTFOUND = ResultCode(rawValue: 12)
    public static let SQLITE_FULL = ResultCode(rawValue: 13)
    public static let SQLITE_CANTOPEN = ResultCode(rawValue: 14)
    public static let SQLITE_PROTOCOL = ResultCode(rawValue: 15)
    public static let SQLITE_EMPTY = ResultCode(rawValue: 16)
    public static let SQLITE_SCHEMA = ResultCode(rawValue: 17)
    public static let SQLITE_TOOBIG = ResultCode(rawValue: 18)
    public static let SQLITE_CONSTRAINT = ResultCode(rawValue: 19)
    public static let SQLITE_MISMATCH = ResultCode(rawValue: 20)
    public static let SQLITE_MISUSE = ResultCode(rawValue: 21)
    public static let SQLITE_NOLFS = ResultCode(rawValue: 22)
    public static let SQLITE_AUTH = ResultCode(rawValue: 23)
    public static let SQLITE_FORMAT = ResultCode(rawValue: 24)
    public static let SQLITE_RANGE = ResultCode(rawValue: 25)
    public static let SQLITE_NOTADB = ResultCode(rawValue: 26)
    public static let SQLITE_NOTICE = ResultCode(rawValue: 27)
    public static let SQLITE_WARNING = ResultCode(rawValue: 28)
    public static let SQLITE_ROW = ResultCode(rawValue: 100)
    public static let SQLITE_DONE = ResultCode(rawValue: 101)

    // MARK: Frequent extended codes

    public static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: 19 | (1 << 8))
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: 19 | (3 << 8))
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: 19 | (5 << 8))
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: 19 | (6 << 8))
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: 19 | (7 << 8))
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: 19 | (8 << 8))
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: 5 | (2 << 8))
    public static let SQLITE_READONLY_DBMOVED = ResultCode(rawValue: 8 | (4 << 8))
}

extension ResultCode: CustomStringConvertible {
    /// SQLite's English text for the code plus the number, e.g. `19 (constraint failed)`.
    public var description: String {
        let text = sqlite3_errstr(rawValue).map { String(cString: $0) } ?? "unknown error"
        return "\(rawValue) (\(text))"
    }
}
