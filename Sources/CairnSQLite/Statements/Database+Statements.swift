import CSQLite
import Foundation

extension Database {
    /// The most statements the cache keeps before it is emptied (SQL shapes are finite when
    /// values are bound, so this only guards against SQL built with spliced values).
    static let statementCacheLimit = 512

    /// A prepared statement for `sql`, reused across calls with the same text.
    ///
    /// When the cached statement is busy (a cursor is iterating it), a fresh uncached one is
    /// returned instead, so nested uses never disturb each other.
    ///
    /// ```swift
    /// let lookup = try db.cachedStatement(sql: "SELECT title FROM workout WHERE id = ?")
    /// let title = try lookup.fetchOne(arguments: [7]) { try $0.decode(String.self, at: 0) }
    /// ```
    ///
    /// - Throws: ``DatabaseError`` when `sql` does not compile or holds more than one statement.
    public func cachedStatement(sql: String) throws -> Statement {
        if let statement = idleCachedStatement(sql: sql) { return statement }
        if let statement = statementCache[SQLCacheKey(sql)], statement.sqliteStatement != nil {
            // Busy: a cursor is iterating it.
            return try makeStatement(sql: sql)
        }
        let statement = try makeStatement(sql: sql)
        if statementCache.count >= Self.statementCacheLimit { statementCache.removeAll() }
        statementCache[SQLCacheKey(sql)] = statement
        recentStatement = statement
        return statement
    }

    /// The cached statement for `sql` if it is prepared and not in use.
    ///
    /// The statement handed out last is compared first: a loop's query is usually the very
    /// string it was the time before (the SQL a compiled-query cache keeps), which compares
    /// equal without reading it, while hashing a 180-byte SQL text for the dictionary cost about
    /// 1,300 instructions a lookup (callgrind, SwiftData W5).
    func idleCachedStatement(sql: String) -> Statement? {
        // A refused function registration is thrown by `prepare`, before any statement runs.
        guard refusedRegistration == nil else { return nil }
        if let recent = recentStatement, SQLCacheKey.sameText(recent.sql, sql) {
            return recent.isIdle ? recent : nil
        }
        guard let statement = statementCache[SQLCacheKey(sql)], statement.isIdle else { return nil }
        recentStatement = statement
        return statement
    }

    /// A new, uncached prepared statement for exactly one SQL statement.
    ///
    /// - Throws: ``DatabaseError`` when `sql` does not compile, is empty, or holds more than
    ///   one statement (use ``execute(sql:arguments:)`` for scripts).
    public func makeStatement(sql: String) throws -> Statement {
        try sql.withCString { start in
            var tail: UnsafePointer<CChar>?
            guard let statement = try prepare(start, sql: sql, tail: &tail) else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the SQL holds no statement", sql: sql)
            }
            if let tail, !Self.isBlank(tail) {
                throw DatabaseError(resultCode: .SQLITE_MISUSE,
                                    message: "the SQL holds more than one statement; use execute(sql:) for scripts",
                                    sql: sql)
            }
            return statement
        }
    }

    /// Compiles one statement starting at `start`, recording the tables it reads and writes.
    /// Returns nil when only whitespace or comments remain.
    func prepare(_ start: UnsafePointer<CChar>, sql: String?, tail: inout UnsafePointer<CChar>?) throws -> Statement? {
        try throwRefusedRegistration()
        let handle = try connection()
        var raw: OpaquePointer?
        let recorder = TableAccessRecorder()
        authorizerRecorder = recorder
        let code = sqlite3_prepare_v3(handle, start, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, &tail)
        authorizerRecorder = nil
        guard code == SQLITE_OK else {
            // A cancellation can land while SQLite compiles: the compiler checks the interrupt
            // flag too. That is the task's cancellation, as it would be one step later.
            if code == SQLITE_INTERRUPT, interruptHandle.wasCancelled, !isCleaningUp { throw CancellationError() }
            let text = sql ?? String(cString: start)
            throw DatabaseError(connection: handle, code: code, sql: text, arguments: nil,
                                public: configuration.publicStatementArguments)
        }
        guard let raw else { return nil }
        let text = sql ?? sqlite3_sql(raw).map { String(cString: $0) } ?? ""
        let statement = Statement(database: self, handle: raw, sql: text, readTables: recorder.read,
                                  writtenTables: recorder.written)
        openStatements[ObjectIdentifier(statement)] = UnretainedStatement(statement: statement)
        return statement
    }

    static func isBlank(_ pointer: UnsafePointer<CChar>) -> Bool {
        var current = pointer
        while current.pointee != 0 {
            switch current.pointee {
            case 32, 9, 10, 13, 59: current += 1  // space, tab, newlines, ';'
            default: return false
            }
        }
        return true
    }

    // MARK: - Execute

    /// Runs one statement or a script of several, separated by `;`. `arguments` are consumed
    /// in order by each statement's parameters. A single statement is cached.
    ///
    /// ```swift
    /// try db.execute(sql: """
    ///     CREATE TABLE workout (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
    ///     INSERT INTO workout (title) VALUES (?);
    ///     """, arguments: ["Run"])
    /// ```
    ///
    /// - Throws: ``DatabaseError`` naming the failing statement; statements before it stay
    ///   executed (wrap in ``inTransaction(_:_:)`` for all-or-nothing).
    public func execute(sql: String, arguments: StatementArguments = []) throws {
        if let cached = idleCachedStatement(sql: sql) {
            try cached.execute(arguments: arguments)
            return
        }
        try sql.withCString { start in
            var current = start
            var consumed = 0
            var isFirst = true
            while true {
                var tail: UnsafePointer<CChar>?
                guard let statement = try prepare(current, sql: nil, tail: &tail) else { break }
                let next = tail ?? current
                let isWhole = isFirst && Self.isBlank(next)
                isFirst = false
                let needed = statement.parameterCount
                guard consumed + needed <= arguments.count else {
                    throw DatabaseError(resultCode: .SQLITE_RANGE,
                                        message: "not enough arguments: \(arguments.count) given, more needed by this statement",
                                        sql: statement.sql, arguments: arguments,
                                        publicStatementArguments: configuration.publicStatementArguments)
                }
                var slice = StatementArguments(Array(arguments.values[consumed..<(consumed + needed)]))
                slice.encodingFailure = arguments.encodingFailure
                consumed += needed
                try statement.execute(arguments: slice)
                if isWhole {
                    if statementCache.count >= Self.statementCacheLimit { statementCache.removeAll() }
                    statementCache[SQLCacheKey(sql)] = statement
                }
                current = next
                if current.pointee == 0 { break }
            }
            guard consumed == arguments.count else {
                throw DatabaseError(resultCode: .SQLITE_RANGE,
                                    message: "too many arguments: the SQL has \(consumed) parameters, got \(arguments.count)",
                                    sql: sql, arguments: arguments,
                                    publicStatementArguments: configuration.publicStatementArguments)
            }
        }
    }
}

/// SQL text as the statement cache keys it: by its UTF-8 bytes.
///
/// `String`'s own `==` and hash treat canonically equivalent text as equal (`"é"` written as one
/// scalar or as `e` and a combining accent), and SQLite does not: two queries differing only so
/// in a text literal would share one prepared statement, and the second would get the first's
/// rows.
struct SQLCacheKey: Hashable {
    let sql: String

    init(_ sql: String) { self.sql = sql }

    static func == (lhs: SQLCacheKey, rhs: SQLCacheKey) -> Bool { sameText(lhs.sql, rhs.sql) }

    func hash(into hasher: inout Hasher) {
        let hashed: Void? = sql.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil {
            for byte in sql.utf8 { hasher.combine(byte) }
        }
    }

    /// Whether two SQL texts are the same bytes; the same storage is known at once.
    static func sameText(_ first: String, _ second: String) -> Bool {
        guard first.utf8.count == second.utf8.count else { return false }
        let compared = first.utf8.withContiguousStorageIfAvailable { a in
            second.utf8.withContiguousStorageIfAvailable { b in
                guard let left = a.baseAddress, let right = b.baseAddress, left != right else { return true }
                return memcmp(left, right, a.count) == 0
            }
        }
        if case .some(.some(let same)) = compared { return same }
        return first.utf8.elementsEqual(second.utf8)
    }
}
