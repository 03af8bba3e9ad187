import CairnSQLite

/// A whole statement of the typed SQL layer whose rows decode as `QueryValue`: a
/// ``Select`` (its selected columns, `()` before `select`) or an ``Insert``, ``Update`` or
/// ``Delete`` (its `RETURNING` row, `()` without one).
///
/// `import StructuredQueries` and `import SQLiteData` name it `Statement`, as
/// swift-structured-queries does, so a function can hide the statement's concrete type and
/// still be run:
///
/// ```swift
/// func titlesQuery() -> some Statement<String> {
///     Reminder.where { !$0.isCompleted }.select(\.title)
/// }
/// let titles = try titlesQuery().fetchAll(db)
/// // SELECT "reminders"."title" FROM "reminders" WHERE NOT ("reminders"."isCompleted")
/// ```
///
/// `QueryValue` is the type a row decodes as (`Reminder`, `String`), as ``Select``'s
/// `Columns` is. A statement of whole rows is a `Statement<Reminder>` once it selects them:
/// `Reminder.where { $0.isCompleted }.select { $0 }`; without `select` it is a
/// `Statement<()>`, as in swift-structured-queries.
///
/// In `import Cairn` code `Statement` is the engine's prepared statement; this protocol is
/// `QueryStatement` there.
public protocol QueryStatement<QueryValue>: Sendable {
    /// The type one row of the statement decodes as; `()` when it returns no rows.
    associatedtype QueryValue
    /// The statement as IR; throws when a value could not be bound.
    func sqlStatement() throws -> SQLStatement
    /// Decodes one row; `nil` when the statement returns none (a ``Select`` before `select`,
    /// a write without `returning`).
    var decodeQueryValue: (@Sendable (inout QueryDecoder) throws -> QueryValue)? { get }
}

// The concrete statements' own `fetchAll`/`fetchOne`/`execute` (which know a statement's
// template, or decode whole rows and joined tuples) are chosen over these whenever the type
// is known; these run a statement seen only as `some Statement<Row>`.
extension QueryStatement {
    /// Runs the statement, discarding any rows.
    ///
    /// ```swift
    /// func clearCompleted() -> some Statement<()> { Reminder.where { $0.isCompleted }.delete() }
    /// try clearCompleted().execute(db)
    /// // DELETE FROM "reminders" WHERE "reminders"."isCompleted"
    /// ```
    @_disfavoredOverload
    public func execute(_ db: some QueryConnection) throws where QueryValue == () {
        try db.execute(sqlStatement())
    }

    /// Runs the statement and decodes every row as `QueryValue`.
    ///
    /// ```swift
    /// func titlesQuery() -> some Statement<String> { Reminder.select(\.title) }
    /// let titles = try titlesQuery().fetchAll(db)
    /// // SELECT "reminders"."title" FROM "reminders"
    /// ```
    @_disfavoredOverload
    public func fetchAll(_ db: some QueryConnection) throws -> [QueryValue] {
        try fetchRows(db, sqlStatement(), rowDecoder())
    }

    /// Runs the statement and decodes its first row, or returns `nil`.
    @_disfavoredOverload
    public func fetchOne(_ db: some QueryConnection) throws -> QueryValue? {
        try fetchFirst(db, sqlStatement(), rowDecoder())
    }

    private func rowDecoder() throws -> @Sendable (inout QueryDecoder) throws -> QueryValue {
        guard let decodeQueryValue else {
            let sql = (try? SQLRenderCache.shared.render(sqlStatement()).sql) ?? ""
            throw TypedSQLError(
                message: "the statement returns no rows to decode: add `select` to a select, `returning` to a write",
                sql: sql)
        }
        return decodeQueryValue
    }
}

extension Select: QueryStatement {
    /// The statement as IR.
    public func sqlStatement() throws -> SQLStatement { .select(query) }
    /// Decodes a row of the selected columns; `nil` before `select`.
    public var decodeQueryValue: (@Sendable (inout QueryDecoder) throws -> Columns)? { decodeSelection }
}

extension Insert: QueryStatement {
    /// Decodes a `RETURNING` row; `nil` without `returning`.
    public var decodeQueryValue: (@Sendable (inout QueryDecoder) throws -> Returning)? { decodeReturning }
}

extension Update: QueryStatement {
    /// Decodes a `RETURNING` row; `nil` without `returning`.
    public var decodeQueryValue: (@Sendable (inout QueryDecoder) throws -> Returning)? { decodeReturning }
}

extension Delete: QueryStatement {
    /// Decodes a `RETURNING` row; `nil` without `returning`.
    public var decodeQueryValue: (@Sendable (inout QueryDecoder) throws -> Returning)? { decodeReturning }
}
