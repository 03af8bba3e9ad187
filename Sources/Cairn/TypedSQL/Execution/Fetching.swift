import CairnSQLite

// Running statements on a `Database` (inside `read`/`write`, or a connection you own). The
// SQL text of a statement depends only on its shape: it is rendered once per shape
// (`SQLRenderCache`), and the connection's statement cache hands back the same prepared
// statement for every run; values are bound each time.
//
// The methods that decode rows are `@inlinable` so they are specialized where they are
// called, for the caller's row type. Compiled generically here, appending each row to an
// `[Element]` asked the runtime for `Array<Element>`'s metadata every time: a third of the
// typed layer's per-row cost over the engine in W2 (callgrind).

/// Rows of a statement read one at a time, decoded as `Element`; the statement stays busy
/// until the cursor is exhausted or closed.
///
/// ```swift
/// let cursor = try Reminder.all.fetchCursor(db)
/// while let reminder = try cursor.next() { print(reminder.title) }
/// ```
///
/// A cursor refills an array you keep without allocating a new one per query:
///
/// ```swift
/// reminders.removeAll(keepingCapacity: true)
/// let cursor = try Reminder.all.fetchCursor(db)
/// while let reminder = try cursor.next() { reminders.append(reminder) }
/// ```
public final class QueryCursor<Element> {
    @usableFromInline let rows: RowCursor
    @usableFromInline let decode: (inout QueryDecoder) throws -> Element

    @usableFromInline
    init(rows: RowCursor, decode: @escaping (inout QueryDecoder) throws -> Element) {
        self.rows = rows
        self.decode = decode
    }

    /// The next row, or `nil` after the last.
    @inlinable
    public func next() throws -> Element? {
        guard let row = try rows.next() else { return nil }
        var decoder = QueryDecoder(row: row)
        return try decode(&decoder)
    }

    /// Releases the statement before the end of the rows.
    public func close() { rows.close() }
}

@available(*, unavailable)
extension QueryCursor: Sendable {}

// MARK: - Select

extension Select {
    /// The statement as SQL text and bound arguments.
    ///
    /// The SQL text is rendered once per statement shape (``SQLRenderCache``): running
    /// `Reminder.find(id)` for many ids renders `… WHERE "reminders"."id" = ?` once and only
    /// collects each id.
    public func render() throws -> RenderedSQL { try SQLRenderCache.shared.render(.select(query)) }

    /// Every row of the table.
    ///
    /// ```swift
    /// let lists = try RemindersList.order(by: \.title).fetchAll(db)   // [RemindersList]
    /// ```
    @inlinable
    public func fetchAll(_ db: some QueryConnection) throws -> [From.QueryOutput] where Columns == (), Joins == () {
        if let lookupTemplate {
            return try db.fetchAll(lookupTemplate) { row in
                var decoder = QueryDecoder(row: row)
                return try From.decode(from: &decoder)
            }
        }
        return try fetchRows(db, .select(query)) { try From.decode(from: &$0) }
    }

    /// The first row of the table, or `nil`.
    @inlinable
    public func fetchOne(_ db: some QueryConnection) throws -> From.QueryOutput? where Columns == (), Joins == () {
        if let lookupTemplate {
            return try db.fetchOne(lookupTemplate) { row in
                var decoder = QueryDecoder(row: row)
                return try From.decode(from: &decoder)
            }
        }
        return try fetchFirst(db, .select(query)) { try From.decode(from: &$0) }
    }

    /// A cursor over the rows of the table. Inlinable, so its decoding is specialized for the
    /// row type where it is called, as `fetchAll(_:)` is.
    @inlinable
    public func fetchCursor(_ db: some QueryConnection) throws -> QueryCursor<From.QueryOutput>
    where Columns == (), Joins == () {
        let rows = try db.fetchCursor(.select(query))
        return QueryCursor(rows: rows) { try From.decode(from: &$0) }
    }

    /// Every row, as `(From, Joined…)` tuples.
    ///
    /// ```swift
    /// let lists = try RemindersList.order(by: \.title).fetchAll(db)   // [RemindersList]
    /// let pairs = try RemindersList.leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
    ///     .fetchAll(db)                                                // [(RemindersList, Reminder?)]
    /// ```
    @inlinable
    public func fetchAll<each J: Table>(_ db: some QueryConnection) throws -> [(From.QueryOutput, repeat (each J).QueryOutput)]
    where Columns == (), Joins == (repeat each J) {
        try fetchRows(db, .select(query), Self.decodeTables)
    }

    /// The first row, or `nil`.
    @inlinable
    public func fetchOne<each J: Table>(_ db: some QueryConnection) throws -> (From.QueryOutput, repeat (each J).QueryOutput)?
    where Columns == (), Joins == (repeat each J) {
        try fetchFirst(db, .select(query), Self.decodeTables)
    }

    /// A cursor over the rows.
    public func fetchCursor<each J: Table>(_ db: some QueryConnection) throws
        -> QueryCursor<(From.QueryOutput, repeat (each J).QueryOutput)>
    where Columns == (), Joins == (repeat each J) {
        let rows = try db.fetchCursor(.select(query))
        return QueryCursor(rows: rows, decode: Self.decodeTables)
    }

    @inlinable
    static func decodeTables<each J: Table>(_ decoder: inout QueryDecoder) throws
        -> (From.QueryOutput, repeat (each J).QueryOutput)
    where Joins == (repeat each J) {
        (try From.decode(from: &decoder), repeat try (each J).decode(from: &decoder))
    }

    /// Every row of the selected columns.
    ///
    /// ```swift
    /// let titles = try Reminder.select { $0.title }.fetchAll(db)   // [String]
    /// ```
    @inlinable
    public func fetchAll<each J: Table>(_ db: some QueryConnection) throws -> [Columns] where Joins == (repeat each J) {
        try fetchRows(db, .select(query), try selectionDecoder())
    }

    /// The first row of the selected columns, or `nil`.
    ///
    /// ```swift
    /// let count = try Fact.count().fetchOne(db) ?? 0
    /// ```
    @inlinable
    public func fetchOne<each J: Table>(_ db: some QueryConnection) throws -> Columns? where Joins == (repeat each J) {
        try fetchFirst(db, .select(query), try selectionDecoder())
    }

    /// A cursor over the selected columns.
    public func fetchCursor<each J: Table>(_ db: some QueryConnection) throws -> QueryCursor<Columns>
    where Joins == (repeat each J) {
        let decode = try selectionDecoder()
        let rows = try db.fetchCursor(.select(query))
        return QueryCursor(rows: rows, decode: decode)
    }

    @usableFromInline
    func selectionDecoder() throws -> @Sendable (inout QueryDecoder) throws -> Columns {
        guard let decodeSelection else { throw TypedSQLError.nothingSelected(sql: (try? render().sql) ?? "") }
        return decodeSelection
    }

    /// The number of rows the statement returns: `SELECT COUNT(*) FROM … WHERE …`, or
    /// `SELECT COUNT(*) FROM (statement)` when it groups, is distinct, limited or compound.
    ///
    /// ```swift
    /// let incomplete = try Reminder.where { !$0.isCompleted }.fetchCount(db)
    /// // SELECT COUNT(*) FROM "reminders" WHERE NOT "reminders"."isCompleted"
    /// ```
    public func fetchCount(_ db: some QueryConnection) throws -> Int {
        var counting: SQLSelect
        if query.groupBy.isEmpty, query.having == nil, !query.isDistinct, query.compounds.isEmpty,
           query.limit == nil, query.offset == nil {
            // The same rows counted directly: SELECT COUNT(*) FROM … WHERE …
            counting = query.select([SQLSelectColumn(.countAll)])
            counting.ordering = []
        } else {
            counting = SQLSelect([SQLSelectColumn(.countAll)], from: .subquery(query))
        }
        return try fetchFirst(db, .select(counting)) { try $0.decode(Int.self) } ?? 0
    }
}

extension Table {
    /// `Self.all.fetchAll(db)`
    @inlinable
    public static func fetchAll(_ db: some QueryConnection) throws -> [QueryOutput] {
        try fetchRows(db, .select(all.query)) { try decode(from: &$0) }
    }

    /// `Self.all.fetchOne(db)`
    @inlinable
    public static func fetchOne(_ db: some QueryConnection) throws -> QueryOutput? {
        try fetchFirst(db, .select(all.query)) { try decode(from: &$0) }
    }

    /// `SELECT COUNT(*) FROM table`
    ///
    /// ```swift
    /// let total = try Reminder.fetchCount(db)  // SELECT COUNT(*) FROM "reminders"
    /// ```
    public static func fetchCount(_ db: some QueryConnection) throws -> Int {
        try count().fetchOne(db) ?? 0
    }
}

// MARK: - #sql statements

extension SQLQueryExpression {
    /// The expression as SQL text and bound arguments (a `#sql` fragment renders as written).
    public func render() throws -> RenderedSQL {
        if let fragment { return try SQLRenderCache.shared.render(.fragment(fragment)) }
        return try sqlExpression.render()
    }

    /// The SQL run as a statement: the `#sql` text as written, or the expression alone.
    @usableFromInline
    var statementFragment: SQLFragment { fragment ?? SQLFragment(segments: [.expression(sqlExpression)]) }

    /// Runs hand-written SQL as a statement.
    ///
    /// ```swift
    /// try #sql("DELETE FROM \(Reminder.self) WHERE \(Reminder.columns.id) = \(42)").execute(db)
    /// // DELETE FROM "reminders" WHERE "reminders"."id" = ?
    /// ```
    public func execute(_ db: some QueryConnection) throws where QueryValue == () {
        try db.execute(.fragment(statementFragment))
    }

    /// Runs hand-written SQL and decodes every row as `QueryValue`.
    ///
    /// ```swift
    /// let titles = try #sql("SELECT title FROM \(Reminder.self) ORDER BY title", as: String.self).fetchAll(db)
    /// ```
    @inlinable
    public func fetchAll(_ db: some QueryConnection) throws -> [QueryValue.QueryOutput] where QueryValue: QueryRepresentable {
        try fetchRows(db, .fragment(statementFragment)) { try QueryValue.decode(from: &$0) }
    }

    /// Runs hand-written SQL and decodes the first row, or `nil`.
    @inlinable
    public func fetchOne(_ db: some QueryConnection) throws -> QueryValue.QueryOutput? where QueryValue: QueryRepresentable {
        try fetchFirst(db, .fragment(statementFragment)) { try QueryValue.decode(from: &$0) }
    }
}

/// An error of the typed SQL layer that is not the database's.
public struct TypedSQLError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in words.
    public let message: String
    /// The SQL involved, if any.
    public let sql: String

    static func nothingSelected(sql: String) -> TypedSQLError {
        TypedSQLError(message: "the statement has no `select` to decode rows with", sql: sql)
    }

    public var description: String { sql.isEmpty ? message : "\(message) (SQL: \(sql))" }
}
