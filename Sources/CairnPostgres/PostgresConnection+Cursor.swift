import CairnSQLite
import CLibPQ

extension PostgresConnection {
    /// A cursor over a query's rows, read from the server `batchSize` rows at a time, so memory
    /// stays flat however many rows the query returns: SQLite's `fetchCursor`, on a server.
    ///
    /// ```swift
    /// try database.read { db in
    ///     let cursor = try db.fetchCursor(sql: "SELECT id, title FROM item WHERE price < $1", arguments: [10])
    ///     while let row = try cursor.next() { print(try row.decode(String.self, at: 1)) }
    /// }
    /// // DECLARE cairn_cursor_1 NO SCROLL CURSOR FOR SELECT …; FETCH FORWARD 256 FROM cairn_cursor_1; …
    /// ```
    ///
    /// The rows come from a server-side cursor (`DECLARE … CURSOR`, then `FETCH`), which lives
    /// in the open transaction: use the cursor inside `read { }` or `write { }`, where other
    /// statements may run between its rows. Exhausting or closing it closes the server's
    /// cursor; the transaction's end closes it too. Values convert as
    /// ``fetchAll(sql:arguments:)`` describes.
    ///
    /// - Throws: ``PostgresError`` outside a transaction, or when the query fails.
    public func fetchCursor(sql: String, arguments: StatementArguments = [], batchSize: Int = 256) throws -> RowCursor {
        guard isInTransaction else {
            throw PostgresError(
                message: "a cursor lives in a transaction: call fetchCursor inside read { } or write { }",
                sql: sql, arguments: arguments)
        }
        let number = (1...).first { !openCursors.contains($0) } ?? openCursors.count + 1
        let name = "cairn_cursor_\(number)"
        try execute(sql: "DECLARE \(name) NO SCROLL CURSOR FOR " + sql, arguments: arguments)
        openCursors.insert(number)
        let fetch = "FETCH FORWARD \(max(1, batchSize)) FROM \(name)"
        // The first batch names the columns (a declared cursor describes none).
        var (columnNames, pending) = try fetchBatch(fetch)
        return RowCursor(
            columnNames: columnNames, sql: sql,
            nextBatch: { [weak self] in
                if let batch = pending {
                    pending = nil
                    return batch
                }
                guard let self else { throw PostgresError(message: "the cursor's connection is closed", sql: sql) }
                return try self.fetchBatch(fetch).values ?? []
            },
            onClose: { [weak self] in
                guard let self, self.openCursors.remove(number) != nil else { return }
                self.runIgnoringFailure("CLOSE \(name)")
            })
    }

    /// One `FETCH`: the result's column names and its rows' values, row after row (nil when
    /// there are none). Run through the simple protocol, so no prepared statement remembers
    /// one cursor's columns for the next.
    private func fetchBatch(_ fetch: String) throws -> (columnNames: [String], values: [DatabaseValue]?) {
        let result = try runScript(fetch)
        defer { PQclear(result) }
        let width = Int(PQnfields(result))
        let description = PreparedStatement(
            name: "", sql: fetch, parameterTypes: [],
            columnNames: (0..<Int32(width)).map { String(cString: PQfname(result, $0)) },
            columnTypes: (0..<Int32(width)).map { PQftype(result, $0) },
            binaryResults: false)
        let rowCount = PQntuples(result)
        guard rowCount > 0 else { return (description.columnNames, nil) }
        var values: [DatabaseValue] = []
        values.reserveCapacity(Int(rowCount) * width)
        for row in 0..<rowCount {
            for column in 0..<width { values.append(description.value(result, row: row, column: column)) }
        }
        return (description.columnNames, values)
    }
}
