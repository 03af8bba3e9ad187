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
public final class RowCursor {
    /// The statement being stepped.
    public let statement: Statement
    @usableFromInline var isDone = false

    init(statement: Statement) {
        self.statement = statement
        statement.isReserved = true
    }

    /// The next row, or nil at the end. The returned ``Row`` is valid until the next call.
    ///
    /// Inlinable, like ``Statement/step()``, so a loop over a cursor costs what a loop over
    /// ``Statement/forEachRow(arguments:_:)`` does.
    @inlinable
    public func next() throws -> Row? {
        guard !isDone else { return nil }
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
    }

    deinit {
        close()
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
