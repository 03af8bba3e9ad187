// Inserts that name their columns: values given per column (`values:`), or read from a query
// (`select:`), as StructuredQueries spells them. The other columns take their defaults.

extension Table {
    /// `INSERT INTO table (columns…) VALUES (…), …`: the named columns, one value each per row.
    ///
    /// ```swift
    /// Reminder.insert {
    ///     ($0.remindersListID, $0.title, $0.isFlagged)
    /// } values: {
    ///     (1, "Groceries", false)
    ///     (2, "Haircut", true)
    /// }
    /// // INSERT INTO "reminders" ("remindersListID", "title", "isFlagged") VALUES (?, ?, ?), (?, ?, ?)
    /// Tag.insert { $0.title } values: { ["car", "kids"] }
    /// // INSERT INTO "tags" ("title") VALUES (?), (?)
    /// ```
    ///
    /// A column group named among them writes its columns in its place, from one value of its
    /// type:
    ///
    /// ```swift
    /// Item.insert { ($0.status, $0.title) } values: { (Status(isOutOfStock: true), "Phone") }
    /// // INSERT INTO "items" ("isOutOfStock", "isOnBackOrder", "title") VALUES (?, ?, ?)
    /// ```
    ///
    /// Each value is bound in its column's representation. The `values` closure is an
    /// ``InsertValuesBuilder``: rows, arrays of rows, `if` and `for`.
    public static func insert<each C: _TableColumnExpression>(
        _ columns: (TableColumns) -> (repeat each C),
        @InsertValuesBuilder<(repeat (each C).QueryValue.QueryOutput)>
        values rows: () -> [(repeat (each C).QueryValue.QueryOutput)]
    ) -> Insert<Self, ()> {
        let chosen = columns(Self.columns)
        var names: [String] = []
        for column in repeat each chosen { names.append(contentsOf: column._writtenNames) }
        var failure: String?
        let values = rows().map { row in
            var expressions: [SQLExpression] = []
            expressions.reserveCapacity(names.count)
            for (column, value) in repeat (each chosen, each row) {
                do { expressions.append(contentsOf: try column._databaseValues(value).map(SQLExpression.value)) } catch {
                    failure = failure ?? "\(error)"
                    expressions.append(contentsOf: Array(repeating: SQLExpression.null, count: column._writtenNames.count))
                }
            }
            return expressions
        }
        return Insert(
            statement: SQLInsert(into: tableName, as: tableAlias, columns: names, values: values),
            bindingFailure: values.isEmpty ? "no rows to insert" : failure, decodeReturning: nil)
    }

    /// `INSERT INTO table (columns…) SELECT …`: the rows of a query, one selected value per
    /// named column.
    ///
    /// ```swift
    /// Tag.insert { $0.title } select: { RemindersList.select { $0.title.lower() } }
    /// // INSERT INTO "tags" ("title") SELECT lower("remindersLists"."title") FROM "remindersLists"
    /// ```
    ///
    /// The selected values must have the columns' Swift types; they are copied in SQL, so a
    /// column and the value chosen for it should also share their representation.
    public static func insert<each C: TableColumnExpression & QueryExpression, F: Table, J>(
        _ columns: (TableColumns) -> (repeat each C),
        select selection: () -> Select<(repeat (each C).QueryValue.QueryOutput), F, J>
    ) -> Insert<Self, ()> where repeat (each C).QueryValue: QueryRepresentable {
        var names: [String] = []
        for column in repeat each columns(Self.columns) { names.append(contentsOf: groupedColumnNames(column, writable: true)) }
        let query = selection()
        return Insert(
            statement: SQLInsert(into: tableName, as: tableAlias, columns: names, source: .select(query.query)),
            bindingFailure: query.isSelected ? nil : "the query chooses no columns: add select { … }",
            decodeReturning: nil)
    }
}

/// The names of a column named in a statement, a group's in its place: `onConflict: { $0.id }`
/// on a composite key is `ON CONFLICT ("courseID", "studentID")`, as in StructuredQueries; with
/// `writable`, a group's generated columns are left out.
func groupedColumnNames(_ column: some TableColumnExpression, writable: Bool) -> [String] {
    column._groupedColumns(writable: writable)?.map(\.name) ?? [column.name]
}
