// An insert's `where:` without a conflict clause. StructuredQueries gives every insert an
// optional `onConflictDoUpdate:` and a `where:` that filters it, so `insert { rows } where: { … }`
// compiles there; with no update to filter, a condition is reported as a mistake and the insert
// runs without it. Here the condition makes the statement throw, as it does after `DO NOTHING`;
// a `where:` whose body adds no condition (an `if` that is false) is the plain insert.

extension Table {
    /// `INSERT INTO table (…) VALUES (…), …`, with a `where:` that must add no condition.
    ///
    /// ```swift
    /// Reminder.insert { Reminder.Draft(remindersListID: 1) } where: { if onlyFlagged { $0.isFlagged } }
    /// // INSERT INTO "reminders" ("id", …, "title") VALUES (?, …, ?)  -- when onlyFlagged is false
    /// ```
    public static func insert<Row: InsertableRow>(
        @InsertValuesBuilder<Row> _ rows: () -> [Row],
        @ConditionBuilder where updateFilter: (TableColumns) -> [SQLExpression]
    ) -> Insert<Self, ()> where Row.Into == Self {
        insertStatement(rows()).withoutUpdate(filtered: updateFilter(columns))
    }

    /// `INSERT INTO table (columns…) VALUES (…), …`, with a `where:` that must add no condition.
    public static func insert<each C: _TableColumnExpression>(
        _ columns: (TableColumns) -> (repeat each C),
        @InsertColumnValuesBuilder<(repeat (each C).QueryValue), (repeat (each C).QueryValue.QueryOutput)>
        values rows: () -> [InsertColumnRow<(repeat (each C).QueryValue.QueryOutput)>],
        @ConditionBuilder where updateFilter: (TableColumns) -> [SQLExpression]
    ) -> Insert<Self, ()> {
        insert(columns, values: rows).withoutUpdate(filtered: updateFilter(Self.columns))
    }

    /// `INSERT INTO table (columns…) SELECT …`, with a `where:` that must add no condition.
    public static func insert<each C: TableColumnExpression & QueryExpression, F: Table, J>(
        _ columns: (TableColumns) -> (repeat each C),
        select selection: () -> Select<(repeat (each C).QueryValue.QueryOutput), F, J>,
        @ConditionBuilder where updateFilter: (TableColumns) -> [SQLExpression]
    ) -> Insert<Self, ()> where repeat (each C).QueryValue: QueryRepresentable {
        insert(columns, select: selection).withoutUpdate(filtered: updateFilter(Self.columns))
    }
}

extension Insert {
    /// The insert, failing when `updateFilter` holds a condition: without `ON CONFLICT … DO
    /// UPDATE` there is no update for it to filter, and dropping it would run something other
    /// than what the code says.
    func withoutUpdate(filtered updateFilter: [SQLExpression]) -> Self {
        guard !updateFilter.isEmpty else { return self }
        var insert = self
        insert.statement = statement  // a template runs without checking for a failure: drop it
        insert.bindingFailure = insert.bindingFailure
            ?? "the insert's `where` has no update to filter: there is no `onConflict`/`onConflictDoUpdate` clause (add one, or drop the `where`)"
        return insert
    }
}
