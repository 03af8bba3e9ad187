import CSQLite

extension Row {
    /// The current row's columns for a reader that reads many of them and checks each index
    /// against ``count`` itself: the statement is looked up and checked once for the row,
    /// where ``Row/subscript(_:)-(Int)`` checks the statement and the index again for every
    /// column (SwiftData's slot plan: about 12 instructions a column, callgrind W6).
    ///
    /// The caller keeps each index in `0..<count`. Past the row `sqlite3_column_value` answers
    /// a `NULL` value (and records `SQLITE_RANGE` as the connection's last error) where ``Row``
    /// answers nil; an index beyond `Int32` would be truncated onto another column. A `Columns`
    /// is valid while the statement stays on the row and no code that could close the
    /// connection runs.
    @usableFromInline
    package struct Columns {
        @usableFromInline
        let handle: SQLiteStatement
        /// The number of columns.
        @usableFromInline
        package let count: Int

        @inlinable
        package init(handle: SQLiteStatement, count: Int) {
            self.handle = handle
            self.count = count
        }

        /// Column `index`'s `sqlite3_value`, from `sqlite3_column_value`: one call a column,
        /// then the `sqlite3_value_*` accessors read it (no further `sqlite3_column_*` call,
        /// each of which would look the column up and check the connection again).
        @inlinable @inline(__always)
        func sqliteValue(at index: Int) -> SQLiteValue? {
            sqlite3_column_value(handle, Int32(truncatingIfNeeded: index))
        }

        /// Column `index` as `Value`, as ``Row/subscript(_:)-(Int)`` reads it.
        @inlinable @inline(__always)
        package func value<Value: DatabaseValueConvertible>(_ type: Value.Type, at index: Int) -> Value? {
            guard let sqliteValue = sqliteValue(at: index) else { return nil }
            return Value.decode(from: sqliteValue, storageClass: sqlite3_value_type(sqliteValue))
        }

        /// Column `index` read once, as ``Row/nullOrValue(_:at:)`` reads it.
        @inlinable @inline(__always)
        package func nullOrValue<Value: DatabaseValueConvertible>(_ type: Value.Type, at index: Int)
            -> (isNull: Bool, value: Value?)
        {
            guard let sqliteValue = sqliteValue(at: index) else {
                return (true, nil)
            }
            let storageClass = sqlite3_value_type(sqliteValue)
            if storageClass == SQLITE_NULL { return (true, nil) }
            return (false, Value.decode(from: sqliteValue, storageClass: storageClass))
        }
    }

    /// The row's ``Columns``, or nil when the statement is finalized.
    @inlinable
    package var columns: Columns? {
        guard let handle = statement.sqliteStatement else { return nil }
        return Columns(handle: handle, count: statement.columnCount)
    }
}
