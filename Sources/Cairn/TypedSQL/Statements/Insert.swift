/// An `INSERT` into table `Into`, optionally an upsert, optionally with `RETURNING`.
///
/// ```swift
/// Reminder.insert {
///     Reminder.Draft(title: "Milk", remindersListID: 1)
/// }
/// // INSERT INTO "reminders" ("id", "title", …) VALUES (?, ?, …)   -- NULL, 'Milk', …
/// ```
public struct Insert<Into: Table, Returning>: WriteStatement {
    /// The statement as IR (made from ``sqlTemplate`` when it is one).
    var statement: SQLInsert {
        get { stored.ir }
        set { stored.ir = newValue }
    }
    private var stored: TemplatedStatement<SQLInsert>
    var bindingFailure: String?
    /// Decodes one `RETURNING` row; `nil` without `returning`.
    public let decodeReturning: (@Sendable (inout QueryDecoder) throws -> Returning)?
    /// An insert of whole rows as a template of its table and number of rows, until anything
    /// is added to it (an upsert's conflict clause, `returning`).
    public var sqlTemplate: SQLTemplate? { stored.template }

    init(statement: SQLInsert, bindingFailure: String?, decodeReturning: (@Sendable (inout QueryDecoder) throws -> Returning)?) {
        self.stored = TemplatedStatement(statement)
        self.bindingFailure = bindingFailure
        self.decodeReturning = decodeReturning
    }

    init(template: SQLTemplate) where Returning == () {
        self.stored = TemplatedStatement(template, placeholder: SQLInsert(into: Into.tableName, schema: Into.schemaName, as: Into.tableAlias, source: .defaultValues))
        self.decodeReturning = nil
    }

    /// An insert of no rows (`Reminder.insert { [] }`), which StructuredQueries renders as empty
    /// text and runs as nothing; so do `render()`, `execute(_:)` and `fetchAll(_:)`.
    public var isEmpty: Bool {
        guard stored.template == nil, bindingFailure == nil, case .values(let rows) = statement.source else { return false }
        return rows.isEmpty
    }

    /// The statement as IR; throws when a value could not be bound, or when there are no rows
    /// (an empty insert has no statement: see ``isEmpty``).
    public func sqlStatement() throws -> SQLStatement {
        if let bindingFailure {
            throw TypedSQLError(message: "cannot insert into \(Into.tableName): \(bindingFailure)", sql: "")
        }
        if isEmpty {
            throw TypedSQLError(
                message: "the insert into \(Into.tableName) has no rows, so no statement: `execute` and `fetchAll` run nothing for it, a trigger cannot hold it",
                sql: "")
        }
        return .insert(statement)
    }

    /// Adds `RETURNING` with the given columns of the inserted rows.
    ///
    /// ```swift
    /// Tag.insert { Tag.Draft(title: "car") }.returning { ($0.id, $0.title) }
    /// // INSERT INTO "tags" … RETURNING "tags"."id", "tags"."title"
    /// ```
    public func returning<each C: QueryExpression>(
        _ selection: (Into.TableColumns) -> (repeat each C)
    ) -> Insert<Into, (repeat (each C).QueryValue.QueryOutput)>
    where Returning == (), repeat (each C).QueryValue: QueryRepresentable {
        let (columns, decode) = CairnReturning.columns(Into.self, selection)
        return Insert<Into, (repeat (each C).QueryValue.QueryOutput)>(
            statement: statement.returning(columns), bindingFailure: bindingFailure, decodeReturning: decode)
    }

    /// Adds `RETURNING` with one column (or `\.self` for whole rows).
    public func returning<C: QueryExpression>(
        _ keyPath: KeyPath<Into.TableColumns, C>
    ) -> Insert<Into, C.QueryValue.QueryOutput> where Returning == (), C.QueryValue: QueryRepresentable {
        returning { $0[keyPath: keyPath] }
    }
}

extension Table {
    /// The rows bound in the order of `columns.writableColumns`: rows of this table, or of the
    /// base table of an alias (whose writable columns are the base table's, in its order).
    static func insertStatement<Row: InsertableRow>(_ rows: [Row]) -> Insert<Self, ()> {
        if !(Row.self is any TableDraft.Type), let template = rowsInsertTemplate(rows) { return Insert(template: template) }
        var values: [[SQLExpression]] = []
        var failure: String?
        // A draft without its key asks the database for one: a NULL rowid in SQLite, the
        // identity's next value (`DEFAULT`) in PostgreSQL, which refuses a NULL key. A
        // composite key's columns each take their default, as do lazily initialized columns.
        let draftKey: [Int]
        if let draft = Row.self as? any TableDraft.Type {
            let keyNames = (columns as? any PrimaryKeyedTableDefinition)?.primaryKey._writtenNames ?? []
            let defaulted = Set(keyNames).union(draft.lazilyInitializedColumns)
            draftKey = columns.writableColumns.indices.filter { defaulted.contains(columns.writableColumns[$0].name) }
        } else {
            draftKey = []
        }
        for row in rows {
            do {
                var rowValues = try row.databaseValues().map { SQLExpression.value($0) }
                for index in draftKey where index < rowValues.count && rowValues[index] == .value(.null) {
                    rowValues[index] = .databaseDefault
                }
                values.append(rowValues)
            } catch {
                failure = failure ?? "\(error)"
            }
        }
        return insertStatement(values: values, failure: failure)
    }

    /// `INSERT INTO table (writable columns…) VALUES (?, …), …` of whole rows as a template
    /// of the table and the number of rows, their values row after row; `nil` when a row
    /// cannot be bound (the statement then reports it) or there is none. Drafts are not
    /// templates: a missing key is written `DEFAULT` on a server, which changes the text.
    private static func rowsInsertTemplate<Row: InsertableRow>(_ rows: [Row]) -> SQLTemplate? {
        guard !rows.isEmpty, rows.count <= SQLTemplate.Kind.mostInsertedRows else { return nil }
        var values: [DatabaseValue] = []
        var width = 0
        // A plain loop over the array: this code runs unspecialized, where `enumerated()`'s
        // iterator asked the runtime for its generic metadata on every row (about 360
        // instructions a row, callgrind, typed SQL W1).
        for row in rows {
            guard let rowValues = try? row.databaseValues(), !rowValues.isEmpty else { return nil }
            if width == 0 {
                width = rowValues.count
                values.reserveCapacity(width * rows.count)
            }
            guard rowValues.count == width else { return nil }
            values.append(contentsOf: rowValues)
        }
        return SQLTemplate(
            Self.self, .rowsInsert(count: rows.count), values: values,
            statement: RowsInsertStatement<Self>.self)
    }

    /// `INSERT INTO table (writable columns…) VALUES …` of rows already bound.
    static func insertStatement(values: [[SQLExpression]], failure: String?) -> Insert<Self, ()> {
        Insert(
            statement: SQLInsert(into: tableName, schema: schemaName, as: tableAlias, columns: columns.writableColumns.map(\.name), values: values),
            bindingFailure: failure, decodeReturning: nil)
    }

    /// `INSERT INTO table DEFAULT VALUES`: one row of the columns' defaults.
    ///
    /// ```swift
    /// try Item.insert().execute(db)  // INSERT INTO "items" DEFAULT VALUES
    /// ```
    public static func insert() -> Insert<Self, ()> {
        Insert(statement: SQLInsert(into: tableName, schema: schemaName, as: tableAlias, source: .defaultValues), bindingFailure: nil, decodeReturning: nil)
    }

    /// `INSERT INTO table (…) VALUES (…), …`: rows of the table or its `Draft`.
    ///
    /// ```swift
    /// try RemindersList.insert { RemindersList.Draft(title: "Personal") }.execute(db)
    /// // INSERT INTO "remindersLists" ("id", "title") VALUES (?, ?)   -- NULL, 'Personal'
    /// ```
    public static func insert<Row: InsertableRow>(
        @InsertValuesBuilder<Row> _ rows: () -> [Row]
    ) -> Insert<Self, ()> where Row.Into == Self {
        insertStatement(rows())
    }

    /// `INSERT … ON CONFLICT (target) DO NOTHING`.
    public static func insert<Row: InsertableRow, each Target: TableColumnExpression>(
        @InsertValuesBuilder<Row> _ rows: () -> [Row],
        onConflictDoNothing target: (TableColumns) -> (repeat each Target)
    ) -> Insert<Self, ()> where Row.Into == Self {
        var insert = insertStatement(rows())
        insert.statement = insert.statement.onConflictDoNothing(conflictTarget(target))
        return insert
    }
}

extension PrimaryKeyedTable {
    /// `INSERT INTO table (…) VALUES (…), …` of whole rows and drafts together: a row keeps its
    /// key, a draft without one lets the database assign it. Chosen only when the block mixes
    /// the two (the builder reads each row as the draft made from it).
    ///
    /// ```swift
    /// Reminder.insert {
    ///     Reminder(id: 12, remindersListID: 1, title: "Check voicemail")
    ///     Reminder.Draft(remindersListID: 1, title: "Check pager")
    /// }
    /// // INSERT INTO "reminders" ("id", …, "title") VALUES (?, …, ?), (?, …, ?)  -- 12, …, NULL, …
    /// ```
    @_disfavoredOverload
    public static func insert(@InsertValuesBuilder<Draft> _ rows: () -> [Draft]) -> Insert<Self, ()> {
        insertStatement(rows())
    }

    /// ``upsert(_:)`` of whole rows and drafts together (see the `insert` of rows and drafts above).
    @_disfavoredOverload
    public static func upsert(@InsertValuesBuilder<Draft> _ rows: () -> [Draft]) -> Insert<Self, ()> {
        upsertStatement(rows())
    }

    /// Inserts the rows, or updates every other column of a row whose primary key exists.
    ///
    /// ```swift
    /// Tag.upsert { Tag.Draft(id: 1, title: "Home") }
    /// // INSERT INTO "tags" ("id", "title") VALUES (?, ?)
    /// // ON CONFLICT ("id") DO UPDATE SET "title" = "excluded"."title"
    /// Enrollment.upsert { Enrollment(id: Enrollment.ID(courseID: 42, studentID: 1729), grade: "A") }
    /// // INSERT INTO "enrollments" ("courseID", "studentID", "grade") VALUES (?, ?, ?)
    /// // ON CONFLICT ("courseID", "studentID") DO UPDATE SET "grade" = "excluded"."grade"
    /// ```
    public static func upsert<Row: InsertableRow>(
        @InsertValuesBuilder<Row> _ rows: () -> [Row]
    ) -> Insert<Self, ()> where Row.Into == Self {
        upsertStatement(rows())
    }

    static func upsertStatement<Row: InsertableRow>(_ rows: [Row]) -> Insert<Self, ()> {
        let keyNames = columns.primaryKey._writtenNames
        let assignments = columns.writableColumns.map(\.name).filter { !keyNames.contains($0) }
            .map { SQLAssignment($0, .excluded($0)) }
        var insert = insertStatement(rows)
        insert.statement = assignments.isEmpty
            ? insert.statement.onConflictDoNothing(keyNames)
            : insert.statement.onConflict(keyNames, doUpdate: assignments)
        return insert
    }
}

// MARK: - Through a table alias

// Rows inserted through an alias are the base table's rows and drafts, as in StructuredQueries:
// `RemindersList.as(R.self).insert { RemindersList.Draft(title: "cruise") }`.
extension TableAlias {
    /// `INSERT INTO table AS alias (…) VALUES (…), …`: rows of the base table or its `Draft`.
    ///
    /// ```swift
    /// RemindersList.as(R.self).insert { RemindersList.Draft(title: "cruise") }.returning(\.self)
    /// // INSERT INTO "remindersLists" AS "rs" ("id", "color", "position", "title") VALUES (?, ?, ?, ?)
    /// // RETURNING "id", "color", "position", "title"
    /// ```
    public static func insert<Row: InsertableRow>(
        @InsertValuesBuilder<Row> _ rows: () -> [Row]
    ) -> Insert<Self, ()> where Row.Into == Base {
        insertStatement(rows())
    }
}

/// `INSERT INTO table (writable columns…) VALUES (…), …` of as many rows as the template's
/// kind says, the values row after row: the statement of an insert template.
private enum RowsInsertStatement<T: Table>: SQLTemplateStatement {
    static func statement(for kind: SQLTemplate.Kind, _ expressions: [SQLExpression]) -> SQLStatement {
        let rows = if case .rowsInsert(let count) = kind, count > 0 { count } else { 1 }
        let width = expressions.count / rows
        let rowsOfExpressions = (0..<rows).map { Array(expressions[($0 * width)..<(($0 + 1) * width)]) }
        return .insert(SQLInsert(
            into: T.tableName, schema: T.schemaName, as: T.tableAlias, columns: T.columns.writableColumns.map(\.name),
            values: rowsOfExpressions))
    }
}
