import CairnSQLite
import CLibPQ

/// A statement prepared on the server, with the types the server inferred for it.
///
/// A class: the connection's cache hands it out for every run, and a struct of six
/// reference-counted fields cost a retain and a release of each per run.
final class PreparedStatement {
    /// The server-side name (`cairn_1`).
    let name: String
    /// ``name`` as the C string libpq takes, made once rather than on every run.
    let cName: ContiguousArray<CChar>
    let sql: String
    /// The type the server inferred for each `$n`, which picks each value's encoding.
    let parameterTypes: [Oid]
    /// The result columns' names and types, read once when the statement is prepared.
    let columnNames: [String]
    let columnTypes: [Oid]
    /// Whether every result column has a type whose binary form the engine reads; otherwise
    /// the results come as text, which every type has.
    let binaryResults: Bool

    init(name: String, sql: String, parameterTypes: [Oid], columnNames: [String], columnTypes: [Oid], binaryResults: Bool) {
        self.name = name
        self.cName = name.utf8CString
        self.sql = sql
        self.parameterTypes = parameterTypes
        self.columnNames = columnNames
        self.columnTypes = columnTypes
        self.binaryResults = binaryResults
    }
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
        try exchange(sql: statement.sql, arguments: arguments) { try sendPrepared(statement, arguments) }
    }

    /// Encodes `arguments` for `statement` and sends it (`PQsendQueryPrepared`), asking for
    /// binary results when the statement reads them; libpq's answer, 1 when it was queued.
    ///
    /// The values are encoded into buffers the connection keeps (``ParameterBuffers``), so a
    /// run allocates nothing once they have grown to its size: libpq copies the parameters
    /// into its output buffer before `PQsendQueryPrepared` returns.
    ///
    /// - Throws: ``PostgresError`` when a value could not be converted or the count differs
    ///   from the statement's parameters.
    func sendPrepared(_ statement: PreparedStatement, _ arguments: StatementArguments) throws -> Int32 {
        if let failure = arguments.encodingFailure {
            throw PostgresError(message: "cannot bind \(failure)", sql: statement.sql, arguments: arguments)
        }
        let types = statement.parameterTypes
        guard arguments.count == types.count else {
            throw PostgresError(
                message: "wrong number of arguments: the SQL has \(types.count) parameters, got \(arguments.count)",
                sql: statement.sql, arguments: arguments)
        }
        let buffers = parameterBuffers
        buffers.removeAll()
        for (value, type) in zip(arguments.values, types) {
            let start = buffers.bytes.count
            if let format = PostgresValueCoding.encode(value, as: type, into: &buffers.bytes) {
                buffers.offsets.append(start)
                buffers.lengths.append(Int32(buffers.bytes.count - start))
                // libpq reads a text-format value up to its NUL, ignoring the length.
                if format == 0 { buffers.bytes.append(0) }
                buffers.formats.append(format)
            } else {
                buffers.offsets.append(-1)
                buffers.lengths.append(0)
                buffers.formats.append(0)
            }
        }
        // A final byte, so that an empty value still has an address: libpq reads a null
        // pointer as NULL.
        buffers.bytes.append(0)
        return buffers.bytes.withUnsafeBufferPointer { bytes in
            // The addresses are taken once every value is in: appending may have moved the bytes.
            if let start = bytes.baseAddress {
                let base = UnsafeRawPointer(start)
                for offset in buffers.offsets {
                    buffers.values.append(offset < 0 ? nil : (base + offset).assumingMemoryBound(to: CChar.self))
                }
            }
            return statement.cName.withUnsafeBufferPointer { name in
                PQsendQueryPrepared(
                    handle, name.baseAddress, Int32(types.count), buffers.values, buffers.lengths, buffers.formats,
                    statement.binaryResults ? 1 : 0)
            }
        }
    }
}

/// The arrays libpq takes a statement's parameters in, kept by a connection for its next
/// statement: cleared, never freed, so that a run allocates none of the five.
///
/// A class the connection holds: `PostgresConnection` is not `Sendable`, and its buffers are
/// used by one statement at a time, only while it is sent.
final class ParameterBuffers {
    /// Every value's bytes, one after the other.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    /// Where each value starts in ``bytes``, -1 for NULL.
    @exclusivity(unchecked) var offsets: [Int] = []
    @exclusivity(unchecked) var lengths: [Int32] = []
    /// 0 for text, 1 for binary.
    @exclusivity(unchecked) var formats: [Int32] = []
    /// Each value's address in ``bytes`` (nil for NULL), as libpq takes them.
    @exclusivity(unchecked) var values: [UnsafePointer<CChar>?] = []

    /// Empties every array, keeping its capacity.
    func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        formats.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
    }
}
