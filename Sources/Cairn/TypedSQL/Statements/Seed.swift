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
        let rows = build()
        try inSavepoint {
            var start = 0
            while start < rows.count {
                guard let table = rows[start].intoTable else {
                    throw TypedSQLError(message: "seed: \(type(of: rows[start])) is not a row of a @Table type", sql: "")
                }
                var end = start + 1
                while end < rows.count, rows[end].intoTable.map({ ObjectIdentifier($0) == ObjectIdentifier(table) }) == true {
                    end += 1
                }
                try Self.insert(rows[start..<end], into: table, db: self)
                start = end
            }
        }
    }

    private static func insert<T: Table>(_ rows: ArraySlice<any InsertableRow>, into table: T.Type, db: Database) throws {
        let values = try rows.map { row in try row.databaseValues().map(SQLExpression.value) }
        try T.insertStatement(values: values, failure: nil).execute(db)
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
