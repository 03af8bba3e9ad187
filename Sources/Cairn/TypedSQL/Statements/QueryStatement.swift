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

// A trigger or view definition is a statement of no rows, as StructuredQueries declares it, so
// `func setUp() -> some Statement<()>` may return one.
extension TemporaryTrigger: QueryStatement {
    /// `nil`: creating a trigger returns no rows.
    public var decodeQueryValue: (@Sendable (inout QueryDecoder) throws -> ())? { nil }
}

extension TemporaryView: QueryStatement {
    /// `nil`: creating a view returns no rows.
    public var decodeQueryValue: (@Sendable (inout QueryDecoder) throws -> ())? { nil }
}

// MARK: - #sql statements

/// `#sql("…", as: T.self)` is a statement whose rows decode as `T`, and `#sql("…")` one of no
/// rows, as in StructuredQueries:
///
/// ```swift
/// func titles() -> some Statement<String> {
///     #sql("SELECT \(Reminder.columns.title) FROM \(Reminder.self)", as: String.self)
/// }
/// try titles().fetchAll(db)   // SELECT "reminders"."title" FROM "reminders"
/// ```
///
/// Written as a statement, the SQL runs as written; used inside another statement it is an
/// expression. A representation type (`as: Date.UnixTimeRepresentation.self`) decodes as the
/// representation wrapping the value; `fetchAll`/`fetchOne` on the `#sql` value itself give the
/// value (`Date`).
extension SQLQueryExpression: QueryStatement {
    /// The `#sql` text as written (or the expression alone).
    public func sqlStatement() throws -> SQLStatement { .fragment(statementFragment) }

    /// Decodes a row as `QueryValue` when it is a value, a table or a `@Selection` row; `nil`
    /// for `#sql("…")` without `as:`, whose `QueryValue` is `()`.
    public var decodeQueryValue: (@Sendable (inout QueryDecoder) throws -> QueryValue)? {
        guard let representable = QueryValue.self as? any QueryRepresentable.Type else { return nil }
        return Self.rowDecoder(representable, statement: statementFragment)
    }

    private static func rowDecoder<R: QueryRepresentable>(
        _ type: R.Type, statement: SQLFragment
    ) -> @Sendable (inout QueryDecoder) throws -> QueryValue {
        { decoder in
            let output = try R.decode(from: &decoder)
            if let value = output as? QueryValue { return value }
            // A representation (`Date.UnixTimeRepresentation`): its `QueryOutput` is the value
            // it wraps.
            if let bindable = R.self as? any QueryBindable.Type,
               let value = Self.wrap(output, in: bindable) {
                return value
            }
            throw TypedSQLError(
                message: "a #sql statement of \(QueryValue.self) decoded a \(Swift.type(of: output)), which is not "
                    + "a \(QueryValue.self): fetch it with `fetchAll`/`fetchOne` on the #sql value itself",
                sql: (try? SQLRenderCache.shared.render(.fragment(statement)).sql) ?? "")
        }
    }

    private static func wrap<B: QueryBindable>(_ output: Any, in type: B.Type) -> QueryValue? {
        guard let output = output as? B.QueryOutput else { return nil }
        return B(queryOutput: output) as? QueryValue
    }
}
