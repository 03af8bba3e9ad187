import CairnSQLite
import CLibPQ

extension PostgresConnection {
    /// How many statements are sent before their results are read. Reading per chunk keeps
    /// the results the server writes meanwhile well within the socket's buffers, so neither
    /// side blocks writing while the other does (a blocking connection's pipeline deadlock).
    static let pipelineChunk = 500

    /// Runs one statement once per argument row, sending them in libpq's pipeline mode so the
    /// rows do not each wait a round trip: for a save of many rows.
    ///
    /// ```swift
    /// try connection.executeBatch(sql: "INSERT INTO item (id, title) VALUES ($1, $2)",
    ///                             argumentRows: [[1, "Tea"], [2, "Coffee"]])
    /// // BEGIN; INSERT … ×2 (pipelined); COMMIT
    /// ```
    ///
    /// All rows run in one transaction: the open one, or else one of their own. When a row
    /// fails, the rows after it do not run and its error is thrown; without an open
    /// transaction nothing is kept, and inside one the transaction is failed (roll it back).
    ///
    /// - Throws: ``PostgresError`` of the first row that failed, with its arguments.
    public func executeBatch(sql: String, argumentRows: [StatementArguments]) throws {
        try runBatch(sql: sql, argumentRows: argumentRows, firstRow: nil)
    }

    /// Runs one statement once per argument row in pipeline mode, as
    /// ``executeBatch(sql:argumentRows:)`` does, and returns the first row each run returned
    /// (empty for a run that returned none): the keys of a save's `INSERT … RETURNING "id"`s,
    /// without a round trip per row.
    ///
    /// ```swift
    /// let keys = try connection.fetchFirstRows(
    ///     sql: #"INSERT INTO item (title) VALUES ($1) RETURNING "id""#, argumentRows: [["Tea"], ["Coffee"]])
    /// // [[.integer(1)], [.integer(2)]]
    /// ```
    ///
    /// - Throws: ``PostgresError`` of the first row that failed, with its arguments.
    public func fetchFirstRows(sql: String, argumentRows: [StatementArguments]) throws -> [[DatabaseValue]] {
        var firstRows: [[DatabaseValue]] = []
        firstRows.reserveCapacity(argumentRows.count)
        try runBatch(sql: sql, argumentRows: argumentRows) { firstRows.append($0) }
        return firstRows
    }

    private func runBatch(sql: String, argumentRows: [StatementArguments], firstRow: (([DatabaseValue]) -> Void)?) throws {
        guard !argumentRows.isEmpty else { return }
        let statement = try prepare(sql)
        let ownTransaction = !isInTransaction
        if ownTransaction { PQclear(try runScript("BEGIN")) }
        do {
            var start = 0
            while start < argumentRows.count {
                let end = min(start + Self.pipelineChunk, argumentRows.count)
                try runPipelined(statement, argumentRows[start..<end], firstRow: firstRow)
                start = end
            }
        } catch {
            if ownTransaction, isInTransaction { runIgnoringFailure("ROLLBACK") }
            throw error
        }
        if ownTransaction { PQclear(try runScript("COMMIT")) }
    }

    /// Sends `rows` in one pipeline ending in a sync point, then reads every result, handing
    /// each run's first row to `firstRow` when it is given.
    private func runPipelined(
        _ statement: PreparedStatement, _ rows: ArraySlice<StatementArguments>, firstRow: (([DatabaseValue]) -> Void)?
    ) throws {
        try checkCancellation()
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgresError(result: nil, connection: handle, sql: statement.sql, arguments: nil)
        }
        defer { PQexitPipelineMode(handle) }
        var sent = 0
        var firstError: (any Error)?
        for arguments in rows {
            do {
                let queued = try sendPrepared(statement, arguments)
                guard queued == 1 else {
                    throw PostgresError(result: nil, connection: handle, sql: statement.sql, arguments: arguments)
                }
                sent += 1
            } catch {
                firstError = error
                break
            }
        }
        let synced = PQpipelineSync(handle) == 1
        // Every result is read, even after an error or a cancellation, so the connection leaves
        // pipeline mode clean.
        var cancelSent = false
        for arguments in rows.prefix(sent) {
            var first: [DatabaseValue] = []
            while let result = nextResult(cancelSent: &cancelSent) {
                let status = PQresultStatus(result)
                if status == PGRES_FATAL_ERROR, firstError == nil {
                    firstError = failure(result, sql: statement.sql, arguments: arguments)
                } else if firstRow != nil, status == PGRES_TUPLES_OK, PQntuples(result) > 0 {
                    first = (0..<statement.columnTypes.count).map { statement.value(result, row: 0, column: $0) }
                }
                PQclear(result)
            }
            firstRow?(first)
        }
        if synced {
            while let result = nextResult(cancelSent: &cancelSent) {
                let isSync = PQresultStatus(result) == PGRES_PIPELINE_SYNC
                PQclear(result)
                if isSync { break }
            }
        } else if firstError == nil {
            firstError = PostgresError(result: nil, connection: handle, sql: statement.sql, arguments: nil)
        }
        if let firstError { throw firstError }
    }
}
