// Upserts: an insert's `ON CONFLICT` clause, spelled as StructuredQueries spells it, for each
// source of rows (rows and drafts, named columns with `values:`, named columns with `select:`).
//
//   onConflict: { target } [where: { target filter }] [doUpdate: { … }] [where: { update filter }]
//   onConflictDoUpdate: { … } [where: { update filter }]
//
// `doUpdate` takes the row as stored (`$0`, assigned to) and, in its two-argument form, the row
// that was to be inserted (`$1`, SQL's `excluded`); a `where` after it reads the same arguments.
// A `doUpdate` that assigns nothing, or none at all, is `DO NOTHING`. Each form comes twice, once
// per `doUpdate` arity, because Swift matches a closure to a function type of its own arity only.

extension Table {
    /// An upsert: `INSERT … ON CONFLICT (target) [WHERE …] DO UPDATE SET … [WHERE …]`, or
    /// `DO NOTHING` without `doUpdate`.
    ///
    /// ```swift
    /// Tag.insert { Tag(id: 1, title: "Home") } onConflict: { $0.id } doUpdate: { $0.title = $1.title }
    /// // INSERT INTO "tags" ("id", "title") VALUES (?, ?)
    /// // ON CONFLICT ("id") DO UPDATE SET "title" = "excluded"."title"
    /// ReminderTag.insert { ReminderTag(reminderID: 1, tagID: 3) } onConflict: { ($0.reminderID, $0.tagID) }
    /// // … ON CONFLICT ("reminderID", "tagID") DO NOTHING
    /// Reminder.insert { draft } onConflict: { $0.id } where: { !$0.isCompleted } doUpdate: {
    ///     $0.isCompleted = $1.isCompleted
    /// } where: { row, _ in row.isFlagged }
    /// // … ON CONFLICT ("id") WHERE NOT "reminders"."isCompleted"
    /// // DO UPDATE SET "isCompleted" = "excluded"."isCompleted" WHERE "reminders"."isFlagged"
    /// ```
    ///
    /// - Parameters:
    ///   - rows: The rows or drafts to insert, written with ``InsertValuesBuilder``.
    ///   - target: The columns of the uniqueness constraint (or unique index) that may conflict.
    ///   - targetFilter: The `WHERE` of a partial unique index, to name it as the target.
    ///   - updates: The assignments to the stored row (`$0`); `$1` is the row that conflicted.
    ///   - updateFilter: Which conflicting rows are updated; the others are left as they are.
    public static func insert<Row: InsertableRow, each Target: TableColumnExpression>(
        @InsertValuesBuilder<Row> _ rows: () -> [Row],
        onConflict target: (TableColumns) -> (repeat each Target),
        @ConditionBuilder where targetFilter: (TableColumns) -> [SQLExpression] = { _ in [] },
        doUpdate updates: (inout Updates<Self>, Excluded<Self>) -> Void = { _, _ in },
        @ConditionBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [SQLExpression] = { _, _ in [] }
    ) -> Insert<Self, ()> where Row.Into == Self {
        insertStatement(rows()).upsert(
            conflictTarget(target), targetFilter(columns), updates, updateFilter(columns, Excluded()))
    }

    /// An upsert whose `doUpdate` reads only the stored row.
    ///
    /// ```swift
    /// RemindersList.insert { RemindersList.Draft(title: "Personal") } onConflict: { $0.title } doUpdate: {
    ///     $0.color = 0x00ff00
    /// }
    /// // INSERT INTO "remindersLists" ("id", "color", "position", "title") VALUES (?, ?, ?, ?)
    /// // ON CONFLICT ("title") DO UPDATE SET "color" = ?
    /// ```
    public static func insert<Row: InsertableRow, each Target: TableColumnExpression>(
        @InsertValuesBuilder<Row> _ rows: () -> [Row],
        onConflict target: (TableColumns) -> (repeat each Target),
        @ConditionBuilder where targetFilter: (TableColumns) -> [SQLExpression] = { _ in [] },
        doUpdate updates: (inout Updates<Self>) -> Void,
        @ConditionBuilder where updateFilter: (TableColumns) -> [SQLExpression] = { _ in [] }
    ) -> Insert<Self, ()> where Row.Into == Self {
        insertStatement(rows()).upsert(
            conflictTarget(target), targetFilter(columns), { row, _ in updates(&row) }, updateFilter(columns))
    }

    /// An upsert on any uniqueness constraint: `INSERT … ON CONFLICT DO UPDATE SET … [WHERE …]`.
    ///
    /// ```swift
    /// Reminder.insert { draft } onConflictDoUpdate: { row, excluded in
    ///     row.dueDate = excluded.dueDate
    /// } where: { row, excluded in excluded.dueDate.gt(row.dueDate) }
    /// // … ON CONFLICT DO UPDATE SET "dueDate" = "excluded"."dueDate"
    /// // WHERE "excluded"."dueDate" > "reminders"."dueDate"
    /// ```
    ///
    /// SQLite takes a conflict without a target; PostgreSQL needs one for `DO UPDATE` and
    /// refuses the statement: name it with `onConflict:`.
    public static func insert<Row: InsertableRow>(
        @InsertValuesBuilder<Row> _ rows: () -> [Row],
        onConflictDoUpdate updates: (inout Updates<Self>, Excluded<Self>) -> Void,
        @ConditionBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [SQLExpression] = { _, _ in [] }
    ) -> Insert<Self, ()> where Row.Into == Self {
        insertStatement(rows()).upsert([], [], updates, updateFilter(columns, Excluded()))
    }

    /// An upsert on any uniqueness constraint whose `onConflictDoUpdate` reads only the stored row.
    ///
    /// ```swift
    /// Tag.insert { Tag.Draft(title: "car") } onConflictDoUpdate: { $0.title += " (again)" }
    /// // INSERT INTO "tags" ("id", "title") VALUES (?, ?)
    /// // ON CONFLICT DO UPDATE SET "title" = "tags"."title" || ?
    /// ```
    public static func insert<Row: InsertableRow>(
        @InsertValuesBuilder<Row> _ rows: () -> [Row],
        onConflictDoUpdate updates: (inout Updates<Self>) -> Void,
        @ConditionBuilder where updateFilter: (TableColumns) -> [SQLExpression] = { _ in [] }
    ) -> Insert<Self, ()> where Row.Into == Self {
        insertStatement(rows()).upsert([], [], { row, _ in updates(&row) }, updateFilter(columns))
    }

    // MARK: Named columns with values

    /// An upsert of named columns: `INSERT … VALUES … ON CONFLICT (target) DO UPDATE SET …`
    /// (`where:` filters as in the upsert of rows).
    ///
    /// ```swift
    /// Counter.insert { ($0.id, $0.count) } values: { (1, 1) } onConflict: { $0.id } doUpdate: {
    ///     $0.count += $1.count
    /// }
    /// // INSERT INTO "counters" ("id", "count") VALUES (?, ?)
    /// // ON CONFLICT ("id") DO UPDATE SET "count" = "counters"."count" + "excluded"."count"
    /// ```
    public static func insert<each C: _TableColumnExpression, each Target: TableColumnExpression>(
        _ columns: (TableColumns) -> (repeat each C),
        @InsertColumnValuesBuilder<(repeat (each C).QueryValue), (repeat (each C).QueryValue.QueryOutput)>
        values rows: () -> [InsertColumnRow<(repeat (each C).QueryValue.QueryOutput)>],
        onConflict target: (TableColumns) -> (repeat each Target),
        @ConditionBuilder where targetFilter: (TableColumns) -> [SQLExpression] = { _ in [] },
        doUpdate updates: (inout Updates<Self>, Excluded<Self>) -> Void = { _, _ in },
        @ConditionBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [SQLExpression] = { _, _ in [] }
    ) -> Insert<Self, ()> {
        insert(columns, values: rows).upsert(
            conflictTarget(target), targetFilter(Self.columns), updates, updateFilter(Self.columns, Excluded()))
    }

    /// An upsert of named columns whose `doUpdate` reads only the stored row.
    ///
    /// ```swift
    /// Counter.insert { ($0.id, $0.count) } values: { (1, 1) } onConflict: { $0.id } doUpdate: { $0.count += 1 }
    /// // … ON CONFLICT ("id") DO UPDATE SET "count" = "counters"."count" + ?
    /// ```
    public static func insert<each C: _TableColumnExpression, each Target: TableColumnExpression>(
        _ columns: (TableColumns) -> (repeat each C),
        @InsertColumnValuesBuilder<(repeat (each C).QueryValue), (repeat (each C).QueryValue.QueryOutput)>
        values rows: () -> [InsertColumnRow<(repeat (each C).QueryValue.QueryOutput)>],
        onConflict target: (TableColumns) -> (repeat each Target),
        @ConditionBuilder where targetFilter: (TableColumns) -> [SQLExpression] = { _ in [] },
        doUpdate updates: (inout Updates<Self>) -> Void,
        @ConditionBuilder where updateFilter: (TableColumns) -> [SQLExpression] = { _ in [] }
    ) -> Insert<Self, ()> {
        insert(columns, values: rows).upsert(
            conflictTarget(target), targetFilter(Self.columns), { row, _ in updates(&row) }, updateFilter(Self.columns))
    }

    /// An upsert of named columns on any uniqueness constraint: `… ON CONFLICT DO UPDATE SET …`.
    ///
    /// ```swift
    /// Reminder.insert { ($0.remindersListID, $0.title) } values: { (1, "Milk") } onConflictDoUpdate: {
    ///     $0.title = $1.title
    /// }
    /// // … ON CONFLICT DO UPDATE SET "title" = "excluded"."title"
    /// ```
    public static func insert<each C: _TableColumnExpression>(
        _ columns: (TableColumns) -> (repeat each C),
        @InsertColumnValuesBuilder<(repeat (each C).QueryValue), (repeat (each C).QueryValue.QueryOutput)>
        values rows: () -> [InsertColumnRow<(repeat (each C).QueryValue.QueryOutput)>],
        onConflictDoUpdate updates: (inout Updates<Self>, Excluded<Self>) -> Void,
        @ConditionBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [SQLExpression] = { _, _ in [] }
    ) -> Insert<Self, ()> {
        insert(columns, values: rows).upsert([], [], updates, updateFilter(Self.columns, Excluded()))
    }

    /// An upsert of named columns on any uniqueness constraint, reading only the stored row.
    ///
    /// ```swift
    /// Reminder.insert { ($0.remindersListID, $0.title) } values: { (1, "Milk") } onConflictDoUpdate: {
    ///     $0.title += " Copy"
    /// }
    /// // … ON CONFLICT DO UPDATE SET "title" = "reminders"."title" || ?
    /// ```
    public static func insert<each C: _TableColumnExpression>(
        _ columns: (TableColumns) -> (repeat each C),
        @InsertColumnValuesBuilder<(repeat (each C).QueryValue), (repeat (each C).QueryValue.QueryOutput)>
        values rows: () -> [InsertColumnRow<(repeat (each C).QueryValue.QueryOutput)>],
        onConflictDoUpdate updates: (inout Updates<Self>) -> Void,
        @ConditionBuilder where updateFilter: (TableColumns) -> [SQLExpression] = { _ in [] }
    ) -> Insert<Self, ()> {
        insert(columns, values: rows).upsert([], [], { row, _ in updates(&row) }, updateFilter(Self.columns))
    }

    // MARK: Named columns from a query

    /// An upsert of the rows of a query: `INSERT … SELECT … ON CONFLICT (target) DO UPDATE SET …`.
    ///
    /// ```swift
    /// Tag.insert { $0.title } select: {
    ///     RemindersList.select { $0.title.lower() }
    /// } onConflict: { $0.title } doUpdate: { $0.title = $1.title + "-copy" }
    /// // INSERT INTO "tags" ("title") SELECT lower("remindersLists"."title") FROM "remindersLists"
    /// // WHERE 1 ON CONFLICT ("title") DO UPDATE SET "title" = "excluded"."title" || ?
    /// ```
    ///
    /// SQLite would read the `ON` of `ON CONFLICT` as the join constraint of the query's last
    /// table, so a query without a `WHERE` gets `WHERE 1` (`WHERE TRUE` on PostgreSQL), and a
    /// compound query (`union`) is read from a subquery with that `WHERE`. The rows are the same.
    public static func insert<each C: TableColumnExpression & QueryExpression, F: Table, J, each Target: TableColumnExpression>(
        _ columns: (TableColumns) -> (repeat each C),
        select selection: () -> Select<(repeat (each C).QueryValue.QueryOutput), F, J>,
        onConflict target: (TableColumns) -> (repeat each Target),
        @ConditionBuilder where targetFilter: (TableColumns) -> [SQLExpression] = { _ in [] },
        doUpdate updates: (inout Updates<Self>, Excluded<Self>) -> Void = { _, _ in },
        @ConditionBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [SQLExpression] = { _, _ in [] }
    ) -> Insert<Self, ()> where repeat (each C).QueryValue: QueryRepresentable {
        insert(columns, select: selection).upsert(
            conflictTarget(target), targetFilter(Self.columns), updates, updateFilter(Self.columns, Excluded()))
    }

    /// An upsert of the rows of a query whose `doUpdate` reads only the stored row.
    ///
    /// ```swift
    /// Tag.insert { $0.title } select: { Values("vacation") } onConflict: { $0.title } doUpdate: {
    ///     $0.title += "!"
    /// }
    /// // INSERT INTO "tags" ("title") SELECT ? WHERE 1
    /// // ON CONFLICT ("title") DO UPDATE SET "title" = "tags"."title" || ?
    /// ```
    public static func insert<each C: TableColumnExpression & QueryExpression, F: Table, J, each Target: TableColumnExpression>(
        _ columns: (TableColumns) -> (repeat each C),
        select selection: () -> Select<(repeat (each C).QueryValue.QueryOutput), F, J>,
        onConflict target: (TableColumns) -> (repeat each Target),
        @ConditionBuilder where targetFilter: (TableColumns) -> [SQLExpression] = { _ in [] },
        doUpdate updates: (inout Updates<Self>) -> Void,
        @ConditionBuilder where updateFilter: (TableColumns) -> [SQLExpression] = { _ in [] }
    ) -> Insert<Self, ()> where repeat (each C).QueryValue: QueryRepresentable {
        insert(columns, select: selection).upsert(
            conflictTarget(target), targetFilter(Self.columns), { row, _ in updates(&row) }, updateFilter(Self.columns))
    }

    /// An upsert of the rows of a query on any uniqueness constraint: `INSERT … SELECT … WHERE 1
    /// ON CONFLICT DO UPDATE SET …`.
    public static func insert<each C: TableColumnExpression & QueryExpression, F: Table, J>(
        _ columns: (TableColumns) -> (repeat each C),
        select selection: () -> Select<(repeat (each C).QueryValue.QueryOutput), F, J>,
        onConflictDoUpdate updates: (inout Updates<Self>, Excluded<Self>) -> Void,
        @ConditionBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [SQLExpression] = { _, _ in [] }
    ) -> Insert<Self, ()> where repeat (each C).QueryValue: QueryRepresentable {
        insert(columns, select: selection).upsert([], [], updates, updateFilter(Self.columns, Excluded()))
    }

    /// An upsert of the rows of a query on any uniqueness constraint, reading only the stored row.
    public static func insert<each C: TableColumnExpression & QueryExpression, F: Table, J>(
        _ columns: (TableColumns) -> (repeat each C),
        select selection: () -> Select<(repeat (each C).QueryValue.QueryOutput), F, J>,
        onConflictDoUpdate updates: (inout Updates<Self>) -> Void,
        @ConditionBuilder where updateFilter: (TableColumns) -> [SQLExpression] = { _ in [] }
    ) -> Insert<Self, ()> where repeat (each C).QueryValue: QueryRepresentable {
        insert(columns, select: selection).upsert([], [], { row, _ in updates(&row) }, updateFilter(Self.columns))
    }

    /// The names of a conflict target's columns, a group's in its place: `onConflict: { $0.id }`
    /// on a composite key is `ON CONFLICT ("courseID", "studentID")`, as in StructuredQueries.
    static func conflictTarget<each Target: TableColumnExpression>(
        _ target: (TableColumns) -> (repeat each Target)
    ) -> [String] {
        var names: [String] = []
        for column in repeat each target(columns) { names.append(contentsOf: groupedColumnNames(column, writable: false)) }
        return names
    }
}

// MARK: - Through a table alias

extension TableAlias {
    /// An upsert through the alias: `INSERT … AS alias … ON CONFLICT (target) DO UPDATE SET …`,
    /// whose assignments and filters may read the stored row by the alias.
    ///
    /// ```swift
    /// Counter.as(R.self).insert { Counter(id: 1, count: 10) } onConflict: { $0.id } doUpdate: {
    ///     $0.count += $1.count
    /// }
    /// // INSERT INTO "counters" AS "rs" ("id", "count") VALUES (?, ?)
    /// // ON CONFLICT ("id") DO UPDATE SET "count" = "rs"."count" + "excluded"."count"
    /// ```
    public static func insert<Row: InsertableRow, each Target: TableColumnExpression>(
        @InsertValuesBuilder<Row> _ rows: () -> [Row],
        onConflict target: (TableColumns) -> (repeat each Target),
        @ConditionBuilder where targetFilter: (TableColumns) -> [SQLExpression] = { _ in [] },
        doUpdate updates: (inout Updates<Self>, Excluded<Self>) -> Void = { _, _ in },
        @ConditionBuilder where updateFilter: (TableColumns, Excluded<Self>) -> [SQLExpression] = { _, _ in [] }
    ) -> Insert<Self, ()> where Row.Into == Base {
        insertStatement(rows()).upsert(
            conflictTarget(target), targetFilter(columns), updates, updateFilter(columns, Excluded()))
    }

    /// An upsert through the alias whose `doUpdate` reads only the stored row.
    public static func insert<Row: InsertableRow, each Target: TableColumnExpression>(
        @InsertValuesBuilder<Row> _ rows: () -> [Row],
        onConflict target: (TableColumns) -> (repeat each Target),
        @ConditionBuilder where targetFilter: (TableColumns) -> [SQLExpression] = { _ in [] },
        doUpdate updates: (inout Updates<Self>) -> Void,
        @ConditionBuilder where updateFilter: (TableColumns) -> [SQLExpression] = { _ in [] }
    ) -> Insert<Self, ()> where Row.Into == Base {
        insertStatement(rows()).upsert(
            conflictTarget(target), targetFilter(columns), { row, _ in updates(&row) }, updateFilter(columns))
    }
}

extension Insert {
    /// Adds `ON CONFLICT [(target) [WHERE targetFilter]] DO UPDATE SET … [WHERE updateFilter]`,
    /// or `DO NOTHING` when `updates` assigns nothing (then an update filter is an error: it
    /// would filter nothing, and the statement would not say what the code means).
    func upsert(
        _ target: [String], _ targetFilter: [SQLExpression],
        _ updates: (inout Updates<Into>, Excluded<Into>) -> Void, _ updateFilter: [SQLExpression]
    ) -> Self {
        var assignments = Updates<Into>()
        updates(&assignments, Excluded())
        var insert = self
        insert.bindingFailure = insert.bindingFailure ?? assignments.bindingFailure
        let targetCondition = target.isEmpty ? nil : ConditionBuilder.conjunction(targetFilter)
        let action: SQLUpsert.Action
        if assignments.assignments.isEmpty {
            if !updateFilter.isEmpty {
                insert.bindingFailure = insert.bindingFailure
                    ?? "the update's `where` has no update to filter: `doUpdate` assigns no column (assign one, or drop the `where`)"
            }
            action = .nothing
        } else {
            action = .update(assignments.assignments, condition: ConditionBuilder.conjunction(updateFilter))
        }
        insert.statement.upsert = SQLUpsert(target: target, targetCondition: targetCondition, action: action)
        return insert
    }
}
