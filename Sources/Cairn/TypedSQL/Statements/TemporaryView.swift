// `CREATE TEMPORARY VIEW`, spelled as StructuredQueries spells it: a `@Selection` row type
// names the view and its columns, a typed `SELECT` fills it, and the type is then queried as
// a table.

extension Table where Self: SelectionRow {
    /// A `CREATE TEMPORARY VIEW` statement: the view is named and laid out as this
    /// `@Selection` row type, and holds what `select` selects. Run `execute(db)` on each
    /// connection that should have it (a temporary view lives as long as its connection);
    /// then the type reads as a table.
    ///
    /// ```swift
    /// @Table @Selection struct ReminderWithList { let title: String; let listTitle: String }
    ///
    /// try ReminderWithList.createTemporaryView(
    ///     as: Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }
    ///         .select { ReminderWithList.Columns(title: $0.title, listTitle: $1.title) }
    /// ).execute(db)
    /// // CREATE TEMPORARY VIEW "reminderWithLists" ("title", "listTitle") AS
    /// // SELECT "reminders"."title", "remindersLists"."title" FROM "reminders"
    /// // JOIN "remindersLists" ON "reminders"."remindersListID" = "remindersLists"."id"
    ///
    /// try ReminderWithList.order(by: \.title).fetchAll(db)
    /// // SELECT "reminderWithLists"."title", "reminderWithLists"."listTitle"
    /// // FROM "reminderWithLists" ORDER BY "reminderWithLists"."title"
    /// ```
    ///
    /// A view is stored as text, so SQLite cannot bind values in it: Cairn writes each value
    /// of the `SELECT` as an SQL literal, as it does for triggers (a text with a NUL character
    /// throws). Writing to the view needs an `INSTEAD OF` trigger
    /// (``createTemporaryTrigger(_:ifNotExists:insteadOf:fileID:line:column:)``); without one
    /// SQLite refuses the write. Each property of the row must be one column: a property that
    /// holds a whole `@Table` row (several columns) makes the view throw ``TypedSQLError``.
    public static func createTemporaryView<From, Joins>(
        ifNotExists: Bool = false, as select: Select<Self, From, Joins>
    ) -> TemporaryView<Self> where QueryOutput == Self {
        TemporaryView(ifNotExists: ifNotExists, select: select.query)
    }
}

/// A `CREATE TEMPORARY VIEW` statement for the `@Selection` row type `View`:
/// ``Table/createTemporaryView(ifNotExists:as:)`` makes one, `execute(db)` creates it,
/// ``drop(ifExists:)`` removes it.
public struct TemporaryView<View: Table>: WriteStatement {
    /// A trigger's statement returns no rows.
    public typealias Returning = ()
    /// Decodes one `RETURNING` row; `nil` without `returning`.
    public var decodeReturning: (@Sendable (inout QueryDecoder) throws -> ())? { nil }

    let ifNotExists: Bool
    let select: SQLSelect

    /// The statement as SQL IR.
    public func sqlStatement() throws -> SQLStatement {
        guard View.columnWidth == View.columns.allColumns.count else {
            throw TypedSQLError(
                message: "the view \(View.tableName) needs one named column per column \(View.self) reads, but its rows "
                    + "are \(View.columnWidth) columns wide for \(View.columns.allColumns.count) columns listed by "
                    + "\(View.self).TableColumns.allColumns (a hand-written conformance must list each column once)",
                sql: "")
        }
        let columns = View.columns.allColumns.map { quoted($0.name) }.joined(separator: ", ")
        let body = try SQLStatement.select(select).renderInliningValues().sql
        let sql = "CREATE TEMPORARY VIEW " + (ifNotExists ? "IF NOT EXISTS " : "") + quoted(View.tableName)
            + " (\(columns)) AS " + body
        return .fragment(SQLFragment(sql: sql))
    }

    /// `DROP VIEW [IF EXISTS] "name"`.
    ///
    /// ```swift
    /// let view = ReminderWithList.createTemporaryView(as: …)
    /// try view.execute(db)
    /// try view.drop().execute(db)   // DROP VIEW "reminderWithLists"
    /// ```
    public func drop(ifExists: Bool = false) -> SQLQueryExpression<()> {
        var fragment = QueryFragment(stringLiteral: "DROP VIEW " + (ifExists ? "IF EXISTS " : ""))
        fragment.fragment = fragment.fragment + SQLFragment(segments: [.identifier(View.tableName)])
        return SQLQueryExpression(fragment)
    }

    private func quoted(_ name: String) -> String { SQLiteDialect().quote(identifier: name) }
}
