/// Steps a statement's rows one at a time, on demand: memory stays flat however many rows
/// the query returns.
///
/// ```swift
/// let cursor = try db.fetchCursor(sql: "SELECT id, title FROM workout ORDER BY id")
/// while let row = try cursor.next() {
///     print(try row.decode(String.self, at: 1))
/// }
/// ```
///
/// The cursor holds its statement until it is exhausted, ``close()``d or released; a cached
/// statement in use by a cursor is not handed out again meanwhile.
///
/// A cursor can also hand out rows another database sends in batches (a PostgreSQL server's
/// `FETCH` from a cursor): see ``init(columnNames:sql:nextBatch:onClose:)``.
public final class RowCursor {
    /// The statement being stepped (for batched rows, one that reads the current batch).
    public let statement: Statement
    @usableFromInline var isDone = false
    /// Where batched rows come from; nil for a SQLite statement.
    @usableFromInline let batches: Batches?

    /// The source of a cursor's batched rows.
    @usableFromInline
    struct Batches {
        let next: () throws -> [DatabaseValue]
        let close: () -> Void
    }

    init(statement: Statement) {
        self.statement = statement
        self.batches = nil
        statement.isReserved = true
    }

    /// A cursor over rows that arrive in batches: `nextBatch` returns the values of the next
    /// rows, row after row (`columnNames.count` values a row), and an empty array after the
    /// last; `onClose` runs once, when the rows are exhausted or the cursor is closed (to
    /// release the source, such as a server-side cursor), not when it is released.
    ///
    /// Rows read as a statement's rows do (`row.decode(String.self, at: 1)`); only one batch is
    /// held at a time.
    public init(
        columnNames: [String], sql: String,
        nextBatch: @escaping () throws -> [DatabaseValue], onClose: @escaping () -> Void
    ) {
        self.statement = Statement(buffer: RowBuffer(columnNames: columnNames, values: []), sql: sql)
        self.batches = Batches(next: nextBatch, close: onClose)
    }

    /// The next row, or nil at the end. The returned ``Row`` is valid until the next call.
    ///
    /// Inlinable, like ``Statement/step()``, so a loop over a cursor costs what a loop over
    /// ``Statement/forEachRow(arguments:_:)`` does.
    @inlinable
    public func next() throws -> Row? {
        guard !isDone else { return nil }
        if batches != nil { return try nextBatchedRow() }
        do {
            if try statement.step() { return Row(statement: statement) }
        } catch {
            finish()
            throw error
        }
        finish()
        return nil
    }

    /// Calls `body` for each remaining row.
    public func forEach(_ body: (Row) throws -> Void) throws {
        while let row = try next() { try body(row) }
    }

    /// Stops early and resets the statement so it can be reused.
    public func close() {
        guard !isDone else { return }
        finish()
        statement.reset()
    }

    @usableFromInline func finish() {
        isDone = true
        statement.isReserved = false
        batches?.close()
    }

    /// The next row of the current batch, or of the next one once it is read.
    @usableFromInline func nextBatchedRow() throws -> Row? {
        guard let batches, var buffer = statement.buffer else {
            finish()
            return nil
        }
        buffer.current += 1
        if buffer.current >= buffer.rowCount {
            let values: [DatabaseValue]
            do {
                values = try batches.next()
            } catch {
                finish()
                throw error
            }
            buffer = RowBuffer(columnNames: buffer.columnNames, values: values)
            guard buffer.rowCount > 0 else {
                statement.buffer = buffer
                finish()
                return nil
            }
        }
        statement.buffer = buffer
        return Row(statement: statement)
    }

    deinit {
        // A batched cursor's source belongs to its connection, which may serve other work by
        // now: it is closed by `close()` or by exhausting the rows (a server's cursor also
        // ends with its transaction), never from here.
        if batches == nil { close() }
    }
}

/// A cursor is confined to its connection's thread.
@available(*, unavailable)
extension RowCursor: Sendable {}

/// A statement is confined to its connection's thread.
@available(*, unavailable)
extension Statement: Sendable {}

/// A row is confined to its connection's thread.
@available(*, unavailable)
extension Row: Sendable {}

extension Statement {
    /// A cursor over this statement's rows with `arguments` bound; see ``RowCursor``.
    ///
    /// ```swift
    /// let cursor = try statement.makeCursor(arguments: [30])
    /// while let row = try cursor.next() { print(try row.decode(Int64.self, at: 0)) }
    /// ```
    public func makeCursor(arguments: StatementArguments? = nil) throws -> RowCursor {
        if let arguments { try bind(arguments) } else if isStepping { reset() }
        return RowCursor(statement: self)
    }
}
