import CairnSQLite
import CLibPQ

extension PostgresConnection {
    /// Runs a query and calls `body` with each row, read as a `Row` exactly as SQLite's
    /// rows are: `row.decode(Int64.self, at: 0)`, `row.decode(String.self, column: "title")`.
    /// The `Row` is valid only inside `body`.
    ///
    /// ```swift
    /// try connection.forEachRow(sql: "SELECT id, title FROM item WHERE price < $1", arguments: [10]) { row in
    ///     print(try row.decode(Int64.self, at: 0), try row.decode(String.self, at: 1))
    /// }
    /// ```
    ///
    /// Column values convert as ``fetchAll(sql:arguments:)`` describes.
    ///
    /// - Throws: ``PostgresError`` with the server's SQLSTATE and the SQL, or the error of `body`
    ///   (a `RowDecodingError` for a value that does not convert).
    public func forEachRow(sql: String, arguments: StatementArguments = [], _ body: (Row) throws -> Void) throws {
        try withRows(sql: sql, arguments: arguments, limit: .max, body)
    }

    /// Runs a query and returns each row transformed by `transform`, as SQLite's
    /// `Database.fetchAll(sql:arguments:_:)` does.
    ///
    /// ```swift
    /// let titles = try connection.fetchAll(sql: "SELECT title FROM item ORDER BY title") {
    ///     try $0.decode(String.self, at: 0)
    /// }
    /// ```
    ///
    /// Inlinable, so that the rows are collected in code specialized for `T`: generic code
    /// looks up `Array<T>`'s metadata for every row it appends.
    @inlinable
    public func fetchAll<T>(sql: String, arguments: StatementArguments = [], _ transform: (Row) throws -> T) throws -> [T] {
        var rows: [T] = []
        try withRows(sql: sql, arguments: arguments, limit: .max, reserving: { rows.reserveCapacity($0) }) {
            rows.append(try transform($0))
        }
        return rows
    }

    /// Runs a query and returns its first row transformed by `transform`, or nil when it has no
    /// rows. Only that row is converted.
    public func fetchOne<T>(sql: String, arguments: StatementArguments = [], _ transform: (Row) throws -> T) throws -> T? {
        var first: T?
        try withRows(sql: sql, arguments: arguments, limit: 1) { first = try transform($0) }
        return first
    }

    /// Calls `body` with each of the first `limit` rows of a query's result, each row's
    /// values converted from libpq's result when `body` reaches it: no copy of the result is
    /// made beside libpq's, which is freed when this returns.
    @usableFromInline
    func withRows(
        sql: String, arguments: StatementArguments, limit: Int32, reserving: (Int) -> Void = { _ in },
        _ body: (Row) throws -> Void
    ) throws {
        let (statement, result) = try query(sql, arguments: arguments)
        defer { PQclear(result) }
        let rowCount = Int(min(PQntuples(result), limit))
        reserving(rowCount)
        let width = statement.columnTypes.count
        guard statement.binaryResults else {
            try BufferedRows.forEach(columnNames: statement.columnNames, sql: sql, rowCount: rowCount, readRow: { row, values in
                let row = Int32(truncatingIfNeeded: row)
                for column in 0..<width { values.append(statement.value(result, row: row, column: column)) }
            }, body)
            return
        }
        // Binary results are read where libpq holds them: a decoder turns each column's bytes
        // into its Swift value, with no DatabaseValue per column.
        try BufferedRows.forEach(columnNames: statement.columnNames, sql: sql, rowCount: rowCount, readBorrowedRow: { row, values in
            let row = Int32(truncatingIfNeeded: row)
            for column in 0..<width { values.append(statement.borrowedBinaryValue(result, row: row, column: column)) }
        }, body)
    }
}

extension PreparedStatement {
    /// The value at `row`, `column` of a result of this statement, converted by its column's
    /// type (binary or text form, as the statement asked for its results).
    func value(_ result: OpaquePointer, row: Int32, column: Int) -> DatabaseValue {
        guard let bytes = Self.bytes(result, row: row, column: column) else { return .null }
        return binaryResults
            ? PostgresValueCoding.decodeBinary(bytes, type: columnTypes[column])
            : PostgresValueCoding.decodeText(String(decoding: bytes, as: UTF8.self), type: columnTypes[column])
    }

    /// The value at `row`, `column` of a binary-format result of this statement, its text and
    /// bytes left in `result` (valid until it is cleared).
    @inline(__always)
    func borrowedBinaryValue(_ result: OpaquePointer, row: Int32, column: Int) -> BorrowedDatabaseValue {
        guard let bytes = Self.bytes(result, row: row, column: column) else { return .null }
        return PostgresValueCoding.borrowBinary(bytes, type: columnTypes[column])
    }

    /// The bytes of the value at `row`, `column`, or nil for NULL. libpq gives a NULL's length
    /// as 0 (the empty string `PQgetvalue` returns for it), so `PQgetisnull` is asked only
    /// about a value of no bytes: most values take two calls, not three.
    @inline(__always)
    static func bytes(_ result: OpaquePointer, row: Int32, column: Int) -> UnsafeRawBufferPointer? {
        let index = Int32(truncatingIfNeeded: column)
        let length = PQgetlength(result, row, index)
        if length == 0, PQgetisnull(result, row, index) != 0 { return nil }
        return UnsafeRawBufferPointer(start: PQgetvalue(result, row, index), count: Int(length))
    }
}
