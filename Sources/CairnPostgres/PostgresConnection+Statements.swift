import CairnSQLite
import CLibPQ

/// A statement prepared on the server, with the types the server inferred for it.
struct PreparedStatement {
    /// The server-side name (`cairn_1`).
    var name: String
    var sql: String
    /// The type the server inferred for each `$n`, which picks each value's encoding.
    var parameterTypes: [Oid]
    /// The result columns' names and types, read once when the statement is prepared.
    var columnNames: [String]
    var columnTypes: [Oid]
    /// Whether every result column has a type whose binary form the engine reads; otherwise
    /// the results come as text, which every type has.
    var binaryResults: Bool
}

extension PostgresConnection {
    /// The most statements a connection keeps prepared before it deallocates them all: SQL
    /// shapes are finite when values are bound, so this only guards against SQL built with
    /// spliced values, which would otherwise hold server memory per text without bound. The
    /// same policy as SQLite's statement cache.
    public static let statementCacheLimit = 512

    /// The number of statements prepared on this connection now.
    public var preparedStatementCount: Int { statements.count }

    /// The prepared statement for `sql`, preparing it (and asking the server for its parameter
    /// and column types) on first use.
    ///
    /// The server infers each parameter's type from the SQL, so a value is encoded for the
    /// column it meets (an integer for a `boolean` column becomes a bool, for an `int4` a
    /// 4-byte integer) instead of the statement failing on a type it was not declared with.
    ///
    /// `arguments` are only for the error, should the SQL not prepare.
    func prepare(_ sql: String, arguments: StatementArguments? = nil) throws -> PreparedStatement {
        if let statement = statements[sql] { return statement }
        if statements.count >= Self.statementCacheLimit { try deallocateAll() }
        preparedCount += 1
        let name = "cairn_\(preparedCount)"
        PQclear(try exchange(sql: sql, arguments: arguments) { PQsendPrepare(handle, name, sql, 0, nil) })
        let description: OpaquePointer
        do {
            description = try exchange(sql: sql, arguments: arguments) { PQsendDescribePrepared(handle, name) }
        } catch {
            runIgnoringFailure("DEALLOCATE \(name)")
            throw error
        }
        defer { PQclear(description) }
        let parameterTypes = (0..<PQnparams(description)).map { PQparamtype(description, $0) }
        let columnTypes = (0..<PQnfields(description)).map { PQftype(description, $0) }
        let statement = PreparedStatement(
            name: name, sql: sql, parameterTypes: parameterTypes,
            columnNames: (0..<PQnfields(description)).map { String(cString: PQfname(description, $0)) },
            columnTypes: columnTypes,
            binaryResults: columnTypes.allSatisfy(TypeOID.binaryReadable.contains))
        statements[sql] = statement
        return statement
    }

    /// Forgets every prepared statement, on the server too.
    private func deallocateAll() throws {
        // Inside a failed transaction DEALLOCATE would fail too; the statements stay then,
        // and the cache is emptied at the next statement outside one.
        PQclear(try runScript("DEALLOCATE ALL"))
        statements.removeAll()
    }

    /// Prepares `sql` (once per connection) and runs it with `arguments`: the statement and
    /// its successful result, which the caller frees.
    ///
    /// A statement prepared before the schema changed under it fails with "cached plan must
    /// not change result type" (SQLSTATE `0A000`, a `SELECT *` after `ALTER TABLE … ADD
    /// COLUMN`, say): it is deallocated, and outside a transaction prepared again and run once
    /// more. Inside a transaction the failure has aborted the transaction, so the error is
    /// thrown, marked so that ``inTransaction(isolation:readOnly:maximumAttempts:_:)`` runs
    /// the transaction again, which prepares the statement anew.
    func query(_ sql: String, arguments: StatementArguments) throws -> (PreparedStatement, OpaquePointer) {
        let statement = try prepare(sql, arguments: arguments)
        do {
            return (statement, try run(statement, arguments: arguments))
        } catch var error as PostgresError where error.sqlState == "0A000" {
            statements[sql] = nil
            runIgnoringFailure("DEALLOCATE \(statement.name)")
            guard !isInTransaction else {
                error.isStalePlan = true
                throw error
            }
            let fresh = try prepare(sql, arguments: arguments)
            return (fresh, try run(fresh, arguments: arguments))
        }
    }

    /// Runs a prepared statement with `arguments` and returns its successful result.
    func run(_ statement: PreparedStatement, arguments: StatementArguments) throws -> OpaquePointer {
        try exchange(sql: statement.sql, arguments: arguments) {
            try withParameters(statement, arguments) { count, values, lengths, formats in
                PQsendQueryPrepared(handle, statement.name, count, values, lengths, formats, statement.binaryResults ? 1 : 0)
            }
        }
    }

    /// Encodes `arguments` for `statement` and calls `body` with libpq's parameter arrays
    /// (count, values, lengths, formats), valid only during the call.
    ///
    /// - Throws: ``PostgresError`` when a value could not be converted or the count differs
    ///   from the statement's parameters.
    func withParameters<R>(
        _ statement: PreparedStatement, _ arguments: StatementArguments,
        _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) throws -> R
    ) throws -> R {
        if let failure = arguments.encodingFailure {
            throw PostgresError(message: "cannot bind \(failure)", sql: statement.sql, arguments: arguments)
        }
        let types = statement.parameterTypes
        guard arguments.count == types.count else {
            throw PostgresError(
                message: "wrong number of arguments: the SQL has \(types.count) parameters, got \(arguments.count)",
                sql: statement.sql, arguments: arguments)
        }
        // One buffer for every value's bytes (plus a final byte, so an empty value still has an
        // address: libpq reads a null pointer as NULL).
        var storage: [UInt8] = []
        storage.reserveCapacity(64 + 16 * types.count)
        var offsets: [Int] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        offsets.reserveCapacity(types.count)
        lengths.reserveCapacity(types.count)
        formats.reserveCapacity(types.count)
        for (value, type) in zip(arguments.values, types) {
            let start = storage.count
            if let format = PostgresValueCoding.encode(value, as: type, into: &storage) {
                offsets.append(start)
                lengths.append(Int32(storage.count - start))
                // libpq reads a text-format value up to its NUL, ignoring the length.
                if format == 0 { storage.append(0) }
                formats.append(format)
            } else {
                offsets.append(-1)
                lengths.append(0)
                formats.append(0)
            }
        }
        storage.append(0)
        return try storage.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return try body(0, nil, nil, nil) }
            let base = UnsafeRawPointer(start)
            let values: [UnsafePointer<CChar>?] = offsets.map { offset in
                offset < 0 ? nil : (base + offset).assumingMemoryBound(to: CChar.self)
            }
            return try body(Int32(types.count), values, lengths, formats)
        }
    }
}
