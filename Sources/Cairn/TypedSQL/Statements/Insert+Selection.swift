// Rows written as a table's `Columns`: one expression per column, as a trigger writes a row
// built from another row (an FTS5 index kept beside the table it indexes), the spelling
// StructuredQueries takes in `insert { … }`.

extension Table where Self: SelectionRow {
    /// `INSERT INTO table (columns…) VALUES (expressions…), …`: rows of expressions, each row
    /// one expression per column in the table's `Columns`.
    ///
    /// ```swift
    /// Reminder.createTemporaryTrigger(after: .insert { new in
    ///     ReminderText.insert { ReminderText.Columns(rowid: new.rowid, title: new.title) }
    /// })
    /// // … BEGIN INSERT INTO "reminderTexts" ("rowid", "title") VALUES ("new"."rowid", "new"."title"); END
    /// ```
    ///
    /// Generated columns (`@Column(generated:)`) are left out, as from every insert.
    @_disfavoredOverload
    public static func insert(@InsertValuesBuilder<Columns> _ rows: () -> [Columns]) -> Insert<Self, ()> {
        let all = columns.allColumns
        let written = Set(columns.writableColumns.map(\.name))
        var values: [[SQLExpression]] = []
        var failure: String?
        for row in rows() {
            let expressions = row.selectedExpressions
            guard expressions.count == all.count else {
                failure = failure ?? "a row of \(expressions.count) expressions for the \(all.count) columns of \(tableName)"
                continue
            }
            values.append(zip(all, expressions).compactMap { column, expression in
                written.contains(column.name) ? expression : nil
            })
        }
        return insertStatement(values: values, failure: failure)
    }
}
