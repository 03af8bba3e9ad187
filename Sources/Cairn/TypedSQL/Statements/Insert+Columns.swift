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
    /// ``InsertColumnValuesBuilder``: rows, arrays of rows, `if` and `for`. A row may also be
    /// expressions of the columns' types, written as they are (as in StructuredQueries):
    ///
    /// ```swift
    /// Reminder.insert { ($0.remindersListID, $0.title) } values: {
    ///     (#sql("3"), #sql("'Schedule doctor appointment'"))
    ///     (RemindersList.where { $0.title.eq("Family") }.select(\.id), "Call mom".upper())
    /// }
    /// // INSERT INTO "reminders" ("remindersListID", "title") VALUES (3, 'Schedule doctor appointment'),
    /// // ((SELECT "remindersLists"."id" FROM "remindersLists" WHERE "remindersLists"."title" = ?), upper(?))
    /// ```
    public static func insert<each C: _TableColumnExpression>(
        _ columns: (TableColumns) -> (repeat each C),
        @InsertColumnValuesBuilder<(repeat (each C).QueryValue), (repeat (each C).QueryValue.QueryOutput)>
        values rows: () -> [InsertColumnRow<(repeat (each C).QueryValue.QueryOutput)>]
    ) -> Insert<Self, ()> {
        let chosen = columns(Self.columns)
        var names: [String] = []
        for column in repeat each chosen { names.append(contentsOf: column._writtenNames) }
        var failure: String?
        var values: [[SQLExpression]] = []
        for row in rows() {
            if let written = row.expressions {
                if written.count != names.count {
                    failure = failure ?? "row \(values.count + 1) gives \(written.count) expressions for \(names.count) columns"
                }
                values.append(written)
                continue
            }
            guard let row = row.values else { continue }
            var expressions: [SQLExpression] = []
            expressions.reserveCapacity(names.count)
            for (column, value) in repeat (each chosen, each row) {
                do { expressions.append(contentsOf: try column._databaseValues(value).map(SQLExpression.value)) } catch {
                    failure = failure ?? "\(error)"
                    expressions.append(contentsOf: Array(repeating: SQLExpression.null, count: column._writtenNames.count))
                }
            }
            values.append(expressions)
        }
        return Insert(
            statement: SQLInsert(into: tableName, schema: schemaName, as: tableAlias, columns: names, values: values),
            bindingFailure: failure, decodeReturning: nil)
    }

    /// `INSERT INTO table (writable columns…) VALUES (…), …` of whole rows, their column list
    /// spelled `{ $0 }` as StructuredQueries allows: the same statement as `insert { rows }`.
    ///
    /// ```swift
    /// Reminder.insert { $0 } values: { Reminder(id: 100, remindersListID: 1, title: "Check email") }
    /// // INSERT INTO "reminders" ("id", "dueDate", …, "title") VALUES (?, ?, …, ?)
    /// ```
    public static func insert<Row: InsertableRow>(
        _ columns: (TableColumns) -> TableColumns,
        @InsertValuesBuilder<Row> values rows: () -> [Row]
    ) -> Insert<Self, ()> where Row.Into == Self {
        insertStatement(rows())
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
        return insertStatement(names, select: selection())
    }

    /// `INSERT INTO table (column) SELECT …` of one column. A pack of one column would leave
    /// the query's type open to `#sql` without `as:`; this one gives it the column's type.
    ///
    /// ```swift
    /// RemindersList.insert { $0.title } select: { Values(#sql("'Groceries'")) }
    /// // INSERT INTO "remindersLists" ("title") SELECT 'Groceries'
    /// ```
    public static func insert<C: TableColumnExpression & QueryExpression, F: Table, J>(
        _ column: (TableColumns) -> C,
        select selection: () -> Select<C.QueryValue.QueryOutput, F, J>
    ) -> Insert<Self, ()> where C.QueryValue: QueryRepresentable {
        insertStatement(groupedColumnNames(column(Self.columns), writable: true), select: selection())
    }

    /// `INSERT INTO table (names…) SELECT …`.
    private static func insertStatement<C, F, J>(_ names: [String], select query: Select<C, F, J>) -> Insert<Self, ()> {
        Insert(
            statement: SQLInsert(into: tableName, schema: schemaName, as: tableAlias, columns: names, source: .select(query.query)),
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

extension PrimaryKeyedTable {
    /// The `insert { $0 } values:` of whole rows and drafts together, the column list
    /// spelled `{ $0 }` (a row keeps its key, a draft without one lets the database assign it).
    @_disfavoredOverload
    public static func insert(
        _ columns: (TableColumns) -> TableColumns, @InsertValuesBuilder<Draft> values rows: () -> [Draft]
    ) -> Insert<Self, ()> {
        insertStatement(rows())
    }
}
