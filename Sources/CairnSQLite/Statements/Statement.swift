import CSQLite

/// A prepared statement (`sqlite3_stmt`) of one ``Database``.
///
/// Prepare once and run many times; ``Database/cachedStatement(sql:)`` keeps one per SQL text.
/// Parameters are 1-based (`?1`), as in SQLite; row columns are 0-based.
///
/// ```swift
/// let insert = try db.cachedStatement(sql: "INSERT INTO workout (id, title) VALUES (?, ?)")
/// for workout in workouts {
///     try insert.bind(values: workout.id, workout.title)   // no boxing, no array
///     try insert.execute()
/// }
/// let select = try db.cachedStatement(sql: "SELECT id, title FROM workout WHERE minutes >= ?")
/// let rows = try select.fetchAll(arguments: [30]) { row in
///     (try row.decode(Int64.self, at: 0), try row.decode(String.self, column: "title"))
/// }
/// ```
///
/// Not `Sendable`; it belongs to its connection. After the connection closes every method
/// throws `SQLITE_MISUSE`.
///
/// `import Cairn` brings the engine's other types but not this name, which code written for
/// swift-structured-queries and SQLiteData uses for the protocol of whole statements
/// (`some Statement<Row>`): `import CairnSQLite` to name it, or write `CairnSQLite.Statement`.
public final class Statement {
    /// The SQL text, as prepared.
    public let sql: String
    /// The raw handle, nil once finalized.
    ///
    /// `@exclusivity(unchecked)` here and on the other hot fields: a statement is confined to
    /// its connection's thread, and dynamic exclusivity checks on every column read cost
    /// about a sixth of the decoding time.
    @exclusivity(unchecked) public private(set) var sqliteStatement: SQLiteStatement?
    /// The number of result columns. SQLite prepares a statement again when the schema
    /// changes (`SELECT *` after `ALTER TABLE … ADD COLUMN` gains a column); the first row of
    /// each run checks for that and reads the columns afresh (see ``step()``).
    @exclusivity(unchecked) public private(set) var columnCount: Int
    /// `SQLITE_STMTSTATUS_REPREPARE` when the columns were last read.
    @exclusivity(unchecked) @usableFromInline var reprepareCount: Int32 = 0
    /// The number of `?` parameters.
    public let parameterCount: Int
    /// Whether the statement leaves the database unchanged (`sqlite3_stmt_readonly`).
    public let isReadOnly: Bool
    /// The tables this statement reads, as SQLite's authorizer reported them while preparing
    /// (through views and subqueries). Live queries observe these.
    public let readTables: Set<String>
    /// The tables this statement inserts into, updates or deletes from, triggers included.
    public let writtenTables: Set<String>

    /// The connection that prepared the statement. `unowned`, checked by the runtime: the
    /// connection may go first, but it finalizes every statement it registered as it goes
    /// (`close()`, `deinit`), and a finalized statement reads the connection only through
    /// ``database``, which is then nil. Not `weak`: a weak reference gives both objects a side
    /// table, and every retain and release of either then takes the runtime's slow path
    /// (callgrind put that at a tenth of the engine's per-row cost in an insert loop).
    /// nil for a statement that stands for ``BufferedRows``.
    private unowned let connection: Database?
    /// The connection while the statement is live; nil once finalized.
    var database: Database? { sqliteStatement == nil ? nil : connection }
    /// The rows another database returned, when this statement stands for ``BufferedRows``;
    /// nil for an SQLite statement. ``Row`` looks here only when the statement has no SQLite
    /// handle, so SQLite's column reads pay nothing for it.
    @exclusivity(unchecked) @usableFromInline var buffer: RowBuffer?
    /// The arguments last bound through ``bind(_:)``, for error messages.
    var boundArguments: StatementArguments?
    /// True between the first `SQLITE_ROW` and the reset: a cursor is iterating.
    @exclusivity(unchecked) @usableFromInline var isStepping = false
    /// How many rows `fetchAll` returned last time (capped), to reserve the array up front.
    @exclusivity(unchecked) @usableFromInline var rowCountHint = 0
    /// True while a cursor owns the statement, so the cache hands out another one.
    @exclusivity(unchecked) var isReserved = false
    /// Prepared and not in use: the cache may hand it out.
    var isIdle: Bool { sqliteStatement != nil && !isStepping && !isReserved }
    /// The change-tracker generation in which ``writtenTables`` were recorded.
    @exclusivity(unchecked) var recordedChangeGeneration = -1
    /// Column name → index, built on the first lookup by name.
    private var columnIndexes: [String: Int]?
    /// The column names, built on first use.
    private var cachedColumnNames: [String]?
    /// The buffers `bind(values:)` copies text into, made on its first text.
    @exclusivity(unchecked) @usableFromInline var boundTextBuffers: BoundTextBuffers?

    init(database: Database, handle: SQLiteStatement, sql: String, readTables: Set<String>, writtenTables: Set<String>) {
        self.connection = database
        self.sqliteStatement = handle
        self.sql = sql
        self.columnCount = Int(sqlite3_column_count(handle))
        self.parameterCount = Int(sqlite3_bind_parameter_count(handle))
        self.isReadOnly = sqlite3_stmt_readonly(handle) != 0
        self.readTables = readTables
        self.writtenTables = writtenTables
    }

    /// A statement with no SQLite handle that stands for rows already read from another
    /// database: ``Row`` reads them from `buffer`.
    init(buffer: RowBuffer, sql: String) {
        self.connection = nil
        self.sqliteStatement = nil
        self.sql = sql
        self.columnCount = buffer.columnNames.count
        self.parameterCount = 0
        self.isReadOnly = true
        self.readTables = []
        self.writtenTables = []
        self.cachedColumnNames = buffer.columnNames
        self.buffer = buffer
    }

    deinit {
        if let sqliteStatement {
            sqlite3_finalize(sqliteStatement)
            connection?.openStatements[ObjectIdentifier(self)] = nil
        }
    }

    /// Reads the columns afresh when SQLite prepared the statement again since they were read
    /// (a schema change): the count, and the names and indexes built from them on demand.
    @usableFromInline
    func refreshColumnsIfReprepared(_ handle: SQLiteStatement) {
        let count = sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
        guard count != reprepareCount else { return }
        reprepareCount = count
        columnCount = Int(sqlite3_column_count(handle))
        cachedColumnNames = nil
        columnIndexes = nil
    }

    /// Releases SQLite's statement; later use throws.
    func finalize() {
        guard let handle = sqliteStatement else { return }
        sqlite3_finalize(handle)
        sqliteStatement = nil
    }

    // MARK: - Columns

    /// The names of the result columns (`sqlite3_column_name`).
    public var columnNames: [String] {
        if let cachedColumnNames { return cachedColumnNames }
        var names: [String] = []
        if let handle = sqliteStatement {
            for index in 0..<Int32(columnCount) {
                names.append(sqlite3_column_name(handle, index).map { String(cString: $0) } ?? "")
            }
        }
        cachedColumnNames = names
        return names
    }

    /// The index of the first column named `name` (exact match first, then
    /// case-insensitive, as SQL names are), or nil.
    public func index(ofColumn name: String) -> Int? {
        if let columnIndexes { return columnIndexes[name] ?? caseInsensitiveIndex(of: name) }
        var indexes: [String: Int] = [:]
        for (index, columnName) in columnNames.enumerated() where indexes[columnName] == nil {
            indexes[columnName] = index
        }
        columnIndexes = indexes
        return indexes[name] ?? caseInsensitiveIndex(of: name)
    }

    private func caseInsensitiveIndex(of name: String) -> Int? {
        let lowered = name.lowercased()
        return columnNames.firstIndex { $0.lowercased() == lowered }
    }

    // MARK: - Errors

    /// The live handle, or a misuse error naming the SQL.
    @usableFromInline
    func handle() throws -> SQLiteStatement {
        guard let sqliteStatement else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE,
                                message: "the statement was finalized (its database is closed)", sql: sql)
        }
        return sqliteStatement
    }

    func error(code: Int32) -> DatabaseError {
        DatabaseError(connection: sqliteStatement.map { sqlite3_db_handle($0) } ?? database?.sqliteConnection,
                      code: code, sql: sql, arguments: boundArguments,
                      public: database?.configuration.publicStatementArguments ?? false)
    }

    /// Throws ``decodingError(_:at:)``, out of line. `Row.decode(_:at:)` is inlined into a
    /// caller once per column; building and throwing the error there put about 140 bytes of
    /// cold code beside every column's few hot instructions, and a 14-column decoder spanned
    /// 4.7 KB. A row loop's code competes with SQLite's for the L1 instruction cache.
    @usableFromInline @inline(never)
    func throwDecodingError<T>(_ type: T.Type, at index: Int) throws -> Never {
        throw decodingError(type, at: index)
    }

    /// Builds the error for a column that did not decode as `type`.
    @usableFromInline
    func decodingError<T>(_ type: T.Type, at index: Int) -> RowDecodingError {
        let typeName = String(describing: T.self)
        guard sqliteStatement != nil || buffer != nil else {
            return RowDecodingError(reason: .statementFinalized, columnIndex: index, columnName: nil,
                                    typeName: typeName, sql: sql)
        }
        guard index >= 0, index < columnCount else {
            return RowDecodingError(reason: .indexOutOfRange(index, columnCount: columnCount), columnIndex: index,
                                    columnName: nil, typeName: typeName, sql: sql)
        }
        let name = columnNames[index]
        let value = bufferedValue(at: index)
            ?? sqliteStatement.map { DatabaseValue(sqliteStatement: $0, index: Int32(index)) } ?? .null
        if value.isNull {
            return RowDecodingError(reason: .unexpectedNull, columnIndex: index, columnName: name,
                                    typeName: typeName, sql: sql)
        }
        var shown = value.description
        if shown.count > 64 { shown = String(shown.prefix(61)) + "..." }
        return RowDecodingError(reason: .valueMismatch(storedValue: shown), columnIndex: index, columnName: name,
                                typeName: typeName, sql: sql)
    }

    /// Column `index` of the buffered row the statement is on, or nil when the statement is
    /// SQLite's (or `index` is out of range).
    @usableFromInline
    func bufferedValue(at index: Int) -> DatabaseValue? {
        buffer?.value(at: index)
    }

    /// Decodes column `index` of the buffered row as `Value`, or throws the error
    /// ``Row/decode(_:at:)`` throws. Out of line: it is the path an SQLite column takes only
    /// when it does not convert. Inlinable all the same, so that callers get a copy
    /// specialized for `Value` that returns it in registers: the unspecialized one returned
    /// it through memory, and every column's fast path then stored and reloaded its value
    /// (callgrind, typed SQL W2: about 4 instructions a column).
    @inlinable @inline(never)
    func decodeBuffered<Value: DatabaseValueConvertible>(_ type: Value.Type, at index: Int) throws -> Value {
        if let decoded = buffer?.decode(Value.self, at: index) { return decoded }
        throw decodingError(type, at: index)
    }

    @usableFromInline
    func columnNotFoundError<T>(_ type: T.Type, name: String) -> RowDecodingError {
        RowDecodingError(reason: .columnNotFound(name), columnIndex: nil, columnName: name,
                         typeName: String(describing: T.self), sql: sql)
    }
}
