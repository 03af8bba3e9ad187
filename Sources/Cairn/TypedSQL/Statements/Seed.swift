// `db.seed { … }`: SQLiteData's way to fill a database for previews, tests and demos.

extension Database {
    /// Inserts the listed rows and drafts, in order, one `INSERT` per run of consecutive rows of
    /// the same table, inside a savepoint: if one insert fails, none of the seed stays.
    ///
    /// ```swift
    /// try db.seed {
    ///     RemindersList(id: 1, title: "Personal")
    ///     for title in ["Milk", "Eggs"] {
    ///         Reminder.Draft(remindersListID: 1, title: title)
    ///     }
    /// }
    /// // INSERT INTO "remindersLists" ("id", "color", "position", "title") VALUES (?, ?, ?, ?)
    /// // INSERT INTO "reminders" ("id", …, "title") VALUES (?, …, ?), (?, …, ?)
    /// ```
    public func seed(@SeedsBuilder _ build: () -> [any InsertableRow]) throws {
        let seeds = Seeds(rows: build())
        try inSavepoint {
            for insert in seeds { try execute(insert.sqlStatement()) }
        }
    }
}

/// The `INSERT` statements that put rows and drafts into their tables, one per run of
/// consecutive rows of the same table, in order, as StructuredQueries' `Seeds` prepares them:
///
/// ```swift
/// let seeds = Seeds {
///     RemindersList(id: 1, title: "Personal")
///     Reminder.Draft(remindersListID: 1, title: "Milk")
///     Reminder.Draft(remindersListID: 1, title: "Eggs")
/// }
/// for insert in seeds { try insert.execute(db) }
/// // INSERT INTO "remindersLists" ("id", "color", "position", "title") VALUES (?, ?, ?, ?)
/// // INSERT INTO "reminders" ("id", …, "title") VALUES (?, …, ?), (?, …, ?)
/// ```
///
/// `db.seed { … }` runs them all in one savepoint.
public struct Seeds: Sequence {
    let rows: [any InsertableRow]

    /// The statements inserting the rows `build` lists.
    public init(@SeedsBuilder _ build: () -> [any InsertableRow]) { rows = build() }

    init(rows: [any InsertableRow]) { self.rows = rows }

    /// The statements, one at a time.
    public func makeIterator() -> Iterator { Iterator(rows: rows[...]) }

    /// Hands out one `INSERT` per run of rows of one table.
    public struct Iterator: IteratorProtocol {
        var rows: ArraySlice<any InsertableRow>

        /// The next run's `INSERT`, or `nil` after the last row.
        public mutating func next() -> SeedInsert? {
            guard let first = rows.first else { return nil }
            let table = first.intoTable
            let run = rows.prefix { row in
                guard let table, let other = row.intoTable else { return false }
                return ObjectIdentifier(other) == ObjectIdentifier(table)
            }
            let count = Swift.max(run.count, 1)
            defer { rows = rows.dropFirst(count) }
            return SeedInsert(rows: Array(rows.prefix(count)))
        }
    }
}

/// One `INSERT` of ``Seeds``: rows of one table, with their values read.
public struct SeedInsert: QueryStatement {
    private let statement: Result<SQLStatement, any Error>

    init(rows: [any InsertableRow]) {
        statement = Result { try Self.statement(rows) }
    }

    /// The `INSERT INTO … VALUES …` of the rows; throws when a row is not of a `@Table` type or
    /// one of its values cannot be bound.
    public func sqlStatement() throws -> SQLStatement { try statement.get() }

    /// `nil`: an insert without `returning` returns no rows.
    public var decodeQueryValue: (@Sendable (inout QueryDecoder) throws -> ())? { nil }

    private static func statement(_ rows: [any InsertableRow]) throws -> SQLStatement {
        guard let first = rows.first, let table = first.intoTable else {
            let name = rows.first.map { "\(type(of: $0))" } ?? "nothing"
            throw TypedSQLError(message: "Seeds: \(name) is not a row of a @Table type", sql: "")
        }
        return try insert(rows, into: table)
    }

    private static func insert<T: Table>(_ rows: [any InsertableRow], into table: T.Type) throws -> SQLStatement {
        let values = try rows.map { row in try row.databaseValues().map(SQLExpression.value) }
        return try T.insertStatement(values: values, failure: nil).sqlStatement()
    }
}

extension InsertableRow {
    /// The table the row or draft goes into, if it is a `@Table` type.
    fileprivate var intoTable: (any Table.Type)? { Into.self as? any Table.Type }
}

/// The rows of `db.seed { … }`: rows and drafts of any `@Table` types, arrays of them, `if`
/// and `for`.
@resultBuilder
public enum SeedsBuilder {
    /// Result builder: one statement of the block.
    public static func buildExpression(_ row: some InsertableRow) -> [any InsertableRow] { [row] }
    /// Result builder: one statement of the block.
    public static func buildExpression(_ rows: [some InsertableRow]) -> [any InsertableRow] { rows }
    /// Result builder: the statements of a block.
    public static func buildBlock(_ parts: [any InsertableRow]...) -> [any InsertableRow] { parts.flatMap { $0 } }
    /// Result builder: the iterations of a `for` loop.
    public static func buildArray(_ parts: [[any InsertableRow]]) -> [any InsertableRow] { parts.flatMap { $0 } }
    /// Result builder: an `if` without `else` (nothing when false).
    public static func buildOptional(_ part: [any InsertableRow]?) -> [any InsertableRow] { part ?? [] }
    /// Result builder: the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first: [any InsertableRow]) -> [any InsertableRow] { first }
    /// Result builder: the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second: [any InsertableRow]) -> [any InsertableRow] { second }
}
