import CSQLite

/// The current row of a statement, read by column index (0-based) or name.
///
/// A `Row` is a view of the statement's current position, not a copy: it is valid only inside
/// the closure that receives it (reading it later throws or shows a later row). Decode values
/// out of it right away:
///
/// ```swift
/// let workouts = try db.fetchAll(sql: "SELECT id, title, finishedAt FROM workout") { row in
///     Workout(id: try row.decode(Int64.self, at: 0),
///             title: try row.decode(String.self, column: "title"),
///             finishedAt: try row.decode(Date?.self, column: "finishedAt"))
/// }
/// // SELECT id, title, finishedAt FROM workout
/// ```
///
/// A row of ``BufferedRows`` (rows another database returned) reads the same way, from the
/// values it holds, or, for a server's rows, from the server's bytes where they lie
/// (``BorrowedDatabaseValue``).
///
/// Decoding reads each column's `sqlite3_value` with the `sqlite3_value_*` functions (no
/// ``DatabaseValue`` in between for the standard types; one `sqlite3_column_value` call a
/// column) and looks names up in a per-statement map, so no column costs an allocation beyond the value itself (a `String`'s or `Data`'s
/// storage).
public struct Row {
    /// The statement whose current row this is.
    public let statement: Statement

    @usableFromInline
    init(statement: Statement) {
        self.statement = statement
    }

    /// The number of columns.
    @inlinable public var count: Int { statement.columnCount }

    /// Column `index`'s `sqlite3_value`, or nil when the statement is finalized or not on a
    /// row, or `index` is out of range.
    ///
    /// SQLite leaves a column read undefined once the statement has finished or been reset, so
    /// a `Row` kept past its row answers nil (``Statement/isStepping``) rather than asking.
    /// One unsigned compare checks both `index >= 0` and `index < columnCount`, and the index
    /// then converts to `Int32` without a check: `columnCount` is `sqlite3_column_count`'s
    /// `Int32` (about three instructions a column fewer than two signed compares and a
    /// checked conversion).
    @inlinable @inline(__always)
    func columnValue(at index: Int) -> SQLiteValue? {
        guard let handle = statement.sqliteStatement, statement.isStepping,
              UInt(bitPattern: index) < UInt(bitPattern: statement.columnCount) else { return nil }
        return sqlite3_column_value(handle, Int32(truncatingIfNeeded: index))
    }

    /// The column names, in order.
    public var columnNames: [String] { statement.columnNames }

    /// Decodes column `index` (0-based).
    ///
    /// - Throws: ``RowDecodingError`` for `NULL` in a non-optional type, a value that does not
    ///   convert (including integer overflow), or an index out of range.
    @inlinable @inline(__always)
    public func decode<Value: DatabaseValueConvertible>(_ type: Value.Type = Value.self, at index: Int) throws -> Value {
        // One sqlite3_column_value call per column, then the cheap sqlite3_value_* accessors.
        // The value is "unprotected" in SQLite's terms; SQLite documents that the distinction
        // vanishes without its mutex, and a Cairn connection is opened SQLITE_OPEN_NOMUTEX
        // (multi-thread mode) and confined to one thread.
        if let sqliteValue = columnValue(at: index),
           let value = Value.decode(from: sqliteValue, storageClass: sqlite3_value_type(sqliteValue)) {
            return value
        }
        return try statement.decodeBuffered(Value.self, at: index)
    }

    /// Decodes the column named `name` (exact, then case-insensitive match).
    ///
    /// - Throws: ``RowDecodingError`` as ``decode(_:at:)``, or when no column has that name.
    @inlinable
    public func decode<Value: DatabaseValueConvertible>(_ type: Value.Type = Value.self, column name: String) throws -> Value {
        guard let index = statement.index(ofColumn: name) else {
            throw statement.columnNotFoundError(Value.self, name: name)
        }
        return try decode(Value.self, at: index)
    }

    /// Non-throwing access: the value at `index`, or nil when it is `NULL`, does not convert,
    /// or the index is out of range.
    ///
    /// ```swift
    /// let minutes: Int? = row[4]
    /// ```
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value? {
        guard let sqliteValue = columnValue(at: index) else { return statement.buffer?.decode(Value.self, at: index) }
        return Value.decode(from: sqliteValue, storageClass: sqlite3_value_type(sqliteValue))
    }

    /// Column `index` read once: whether it is `NULL` (also true when out of range) and, when it
    /// is not, its value if it converts to `Value` (nil when it does not). For reading an
    /// optional column without asking SQLite for it twice.
    ///
    /// ```swift
    /// let (isNull, finishedAt) = row.nullOrValue(Double.self, at: 3)
    /// ```
    @inlinable
    public func nullOrValue<Value: DatabaseValueConvertible>(_ type: Value.Type, at index: Int) -> (isNull: Bool, value: Value?) {
        guard let sqliteValue = columnValue(at: index) else {
            guard let buffer = statement.buffer, !buffer.isNull(at: index) else { return (true, nil) }
            return (false, buffer.decode(Value.self, at: index))
        }
        let storageClass = sqlite3_value_type(sqliteValue)
        if storageClass == SQLITE_NULL { return (true, nil) }
        return (false, Value.decode(from: sqliteValue, storageClass: storageClass))
    }

    /// Non-throwing access by column name; nil when missing, `NULL` or not convertible.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value? {
        guard let index = statement.index(ofColumn: name) else { return nil }
        return self[index]
    }

    /// The raw value at `index` (`.null` when out of range or finalized).
    public func databaseValue(at index: Int) -> DatabaseValue {
        guard let sqliteValue = columnValue(at: index) else { return statement.bufferedValue(at: index) ?? .null }
        return DatabaseValue(sqliteValue: sqliteValue)
    }

    /// Column `index` when SQLite stores it as an `INTEGER`; nil for any other storage class
    /// (a `REAL` 3.0 included, which ``decode(_:at:)`` would read as 3) and out of range.
    ///
    /// ```swift
    /// let id = row.integer(at: 0)   // a rowid, never a converted value
    /// ```
    @inlinable
    public func integer(at index: Int) -> Int64? {
        // One `sqlite3_column_*` call (each takes the statement's column and checks for a
        // failed allocation afterwards), then the cheap `sqlite3_value_*` ones.
        guard let sqliteValue = columnValue(at: index) else { return statement.buffer?.integer(at: index) }
        guard sqlite3_value_type(sqliteValue) == SQLITE_INTEGER else { return nil }
        return sqlite3_value_int64(sqliteValue)
    }

    /// Whether column `index` is `NULL` (also true when out of range).
    @inlinable
    public func isNull(at index: Int) -> Bool {
        guard let sqliteValue = columnValue(at: index) else { return statement.buffer?.isNull(at: index) ?? true }
        return sqlite3_value_type(sqliteValue) == SQLITE_NULL
    }

    /// A copy of every column as ``DatabaseValue``s, keyed by name: for diagnostics and
    /// generic code; slower than ``decode(_:at:)``.
    public func copyValues() -> [(name: String, value: DatabaseValue)] {
        (0..<count).map { (statement.columnNames[$0], databaseValue(at: $0)) }
    }
}
