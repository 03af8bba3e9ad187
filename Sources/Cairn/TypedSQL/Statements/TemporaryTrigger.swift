// `CREATE TEMPORARY TRIGGER`, spelled as StructuredQueries spells it: the trigger's body is
// typed statements over the `new` and `old` rows.

extension Table {
    /// A `CREATE TEMPORARY TRIGGER … AFTER …` statement: run `execute(db)` on each connection
    /// that should have it (a temporary trigger lives as long as its connection).
    ///
    /// ```swift
    /// try Reminder.createTemporaryTrigger(
    ///     after: .insert { new in
    ///         Reminder.find(new.id).update { $0.title += "!" }
    ///     }
    /// ).execute(db)
    /// // CREATE TEMPORARY TRIGGER "after_insert_on_reminders@App/Schema.swift:12:30"
    /// // AFTER INSERT ON "reminders" FOR EACH ROW BEGIN
    /// // UPDATE "reminders" SET "title" = "reminders"."title" || '!' WHERE "reminders"."id" = "new"."id"; END
    /// ```
    ///
    /// A trigger is stored as text, so SQLite cannot bind values in it: Cairn writes each value
    /// of the body as an SQL literal (quoted and escaped; a text with a NUL character throws).
    /// Without a `name`, the trigger is named after the operation, the table and the source
    /// location, so each call site makes one trigger.
    public static func createTemporaryTrigger(
        _ name: String? = nil, ifNotExists: Bool = false, after operation: TemporaryTrigger<Self>.Operation,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) -> TemporaryTrigger<Self> {
        TemporaryTrigger(name, ifNotExists, "AFTER", operation, "\(fileID):\(line):\(column)")
    }

    /// A `CREATE TEMPORARY TRIGGER … BEFORE …` statement (see the `after:` form).
    public static func createTemporaryTrigger(
        _ name: String? = nil, ifNotExists: Bool = false, before operation: TemporaryTrigger<Self>.Operation,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) -> TemporaryTrigger<Self> {
        TemporaryTrigger(name, ifNotExists, "BEFORE", operation, "\(fileID):\(line):\(column)")
    }

    /// A `CREATE TEMPORARY TRIGGER … INSTEAD OF …` statement, on a view: what an insert,
    /// update or delete of the view's rows does instead (SQLite refuses to write a view
    /// otherwise, and allows `INSTEAD OF` only on views).
    ///
    /// ```swift
    /// try ReminderWithList.createTemporaryTrigger(
    ///     insteadOf: .insert { new in
    ///         Reminder.insert { ($0.title, $0.remindersListID) } select: {
    ///             RemindersList.where { $0.title.eq(new.listTitle) }.select { (new.title, $0.id) }
    ///         }
    ///     }
    /// ).execute(db)
    /// // CREATE TEMPORARY TRIGGER "instead_of_insert_on_reminderWithLists@…" INSTEAD OF INSERT
    /// // ON "reminderWithLists" FOR EACH ROW BEGIN INSERT INTO "reminders" ("title", "remindersListID")
    /// // SELECT "new"."title", "remindersLists"."id" FROM "remindersLists" WHERE …; END
    /// ```
    public static func createTemporaryTrigger(
        _ name: String? = nil, ifNotExists: Bool = false, insteadOf operation: TemporaryTrigger<Self>.Operation,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) -> TemporaryTrigger<Self> {
        TemporaryTrigger(name, ifNotExists, "INSTEAD OF", operation, "\(fileID):\(line):\(column)")
    }
}

/// A `CREATE TEMPORARY TRIGGER` statement on table `On`: ``Table/createTemporaryTrigger(_:ifNotExists:after:fileID:line:column:)``
/// makes one, `execute(db)` creates it, ``drop(ifExists:)`` removes it.
public struct TemporaryTrigger<On: Table>: WriteStatement {
    /// A trigger's statement returns no rows.
    public typealias Returning = ()
    /// Decodes one `RETURNING` row; `nil` without `returning`.
    public var decodeReturning: (@Sendable (inout QueryDecoder) throws -> ())? { nil }

    let name: String
    let ifNotExists: Bool
    let timing: String
    let operation: Operation

    /// Without a name, the trigger is named after its timing, event, table and call site.
    init(_ name: String?, _ ifNotExists: Bool, _ timing: String, _ operation: Operation, _ location: String) {
        let timingName = timing.lowercased().split(separator: " ").joined(separator: "_")
        self.name = name ?? "\(timingName)_\(operation.event)_on_\(On.tableName)@\(location)"
        self.ifNotExists = ifNotExists
        self.timing = timing
        self.operation = operation
    }

    /// The statement as SQL IR.
    public func sqlStatement() throws -> SQLStatement {
        .fragment(SQLFragment(sql: try createSQL()))
    }

    /// `DROP TRIGGER [IF EXISTS] "name"`.
    ///
    /// ```swift
    /// let trigger = Reminder.createTemporaryTrigger("touch", after: .update { _, new in … })
    /// try trigger.execute(db)
    /// try trigger.drop().execute(db)   // DROP TRIGGER "touch"
    /// ```
    public func drop(ifExists: Bool = false) -> SQLQueryExpression<()> {
        var fragment = QueryFragment(stringLiteral: "DROP TRIGGER " + (ifExists ? "IF EXISTS " : ""))
        fragment.fragment = fragment.fragment + SQLFragment(segments: [.identifier(name)])
        return SQLQueryExpression(fragment)
    }

    private func createSQL() throws -> String {
        guard !name.utf8.contains(0) else {
            throw TypedSQLError(message: "a trigger's name cannot contain a NUL character", sql: "")
        }
        guard !operation.body.isEmpty else {
            throw TypedSQLError(message: "the trigger \(name) has no statement to run", sql: "")
        }
        var sql = "CREATE TEMPORARY TRIGGER " + (ifNotExists ? "IF NOT EXISTS " : "") + quoted(name)
        sql += " \(timing) \(operation.event.uppercased())"
        if !operation.columnNames.isEmpty { sql += " OF " + operation.columnNames.map(quoted).joined(separator: ", ") }
        sql += " ON " + quoted(On.tableName) + " FOR EACH ROW"
        if let condition = operation.condition { sql += " WHEN " + (try condition.renderInliningValues().sql) }
        sql += " BEGIN"
        for step in operation.body {
            switch step.content {
            case .statement(let statement): sql += " " + (try statement.renderInliningValues().sql) + ";"
            case .failure(let message): throw TypedSQLError(message: "in the trigger \(name): \(message)", sql: "")
            }
        }
        return sql + " END"
    }

    private func quoted(_ name: String) -> String { SQLiteDialect().quote(identifier: name) }
}

extension TemporaryTrigger {
    /// The event a trigger answers and the statements it runs for each row, over the `new`
    /// row (inserts, updates) and the `old` one (updates, deletes).
    public struct Operation: Sendable {
        public enum _New: AliasName { public static var aliasName: String { "new" } }
        public enum _Old: AliasName { public static var aliasName: String { "old" } }
        /// The columns of the row as it is after the insert or update: `"new"."title"`.
        public typealias New = TableAlias<On, _New>.TableColumns
        /// The columns of the row as it was before the update or delete: `"old"."title"`.
        public typealias Old = TableAlias<On, _Old>.TableColumns

        let event: String
        let columnNames: [String]
        let body: [TriggerStatement]
        let condition: SQLExpression?

        /// `INSERT`: `.insert { new in … } when: { new in … }`.
        public static func insert(
            @TriggerStatementsBuilder forEachRow perform: (_ new: New) -> [TriggerStatement],
            when condition: ((_ new: New) -> any QueryExpression<Bool>)? = nil
        ) -> Self {
            Self(event: "insert", columnNames: [], body: perform(TableAlias<On, _New>.columns), condition: condition?(TableAlias<On, _New>.columns).sqlExpression)
        }

        /// `UPDATE` of any column: `.update { old, new in … }`.
        public static func update(
            @TriggerStatementsBuilder forEachRow perform: (_ old: Old, _ new: New) -> [TriggerStatement],
            when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
        ) -> Self {
            Self(event: "update", columnNames: [], body: perform(TableAlias<On, _Old>.columns, TableAlias<On, _New>.columns), condition: condition?(TableAlias<On, _Old>.columns, TableAlias<On, _New>.columns).sqlExpression)
        }

        /// `UPDATE OF` some columns: `.update { ($0.title, $0.notes) } forEachRow: { old, new in … }`.
        public static func update<each Column: TableColumnExpression>(
            of columns: (On.TableColumns) -> (repeat each Column),
            @TriggerStatementsBuilder forEachRow perform: (_ old: Old, _ new: New) -> [TriggerStatement],
            when condition: ((_ old: Old, _ new: New) -> any QueryExpression<Bool>)? = nil
        ) -> Self {
            Self(event: "update", columnNames: columnNames(columns), body: perform(TableAlias<On, _Old>.columns, TableAlias<On, _New>.columns),
                        condition: condition?(TableAlias<On, _Old>.columns, TableAlias<On, _New>.columns).sqlExpression)
        }

        /// The names of the columns an `UPDATE OF` trigger watches.
        static func columnNames<each Column: TableColumnExpression>(
            _ columns: (On.TableColumns) -> (repeat each Column)
        ) -> [String] {
            var names: [String] = []
            for column in repeat each columns(On.columns) { names.append(column.name) }
            return names
        }

        /// `DELETE`: `.delete { old in … }`.
        public static func delete(
            @TriggerStatementsBuilder forEachRow perform: (_ old: Old) -> [TriggerStatement],
            when condition: ((_ old: Old) -> any QueryExpression<Bool>)? = nil
        ) -> Self {
            Self(event: "delete", columnNames: [], body: perform(TableAlias<On, _Old>.columns), condition: condition?(TableAlias<On, _Old>.columns).sqlExpression)
        }
    }
}

/// One statement of a trigger's body, made by ``TriggerStatementsBuilder`` from an insert,
/// update, delete, select (`Values(…)` included) or `#sql` statement.
public struct TriggerStatement: Sendable {
    enum Content: Sendable {
        case statement(SQLStatement)
        /// A statement that could not be built (a value that did not encode): thrown when the
        /// trigger is rendered.
        case failure(String)
    }

    let content: Content
}

/// The statements of a trigger's body, run in order; `if` and `for` work.
@resultBuilder
public enum TriggerStatementsBuilder {
    /// Result builder: one statement of the block.
    public static func buildExpression(_ statement: some WriteStatement) -> [TriggerStatement] {
        do { return [TriggerStatement(content: .statement(try statement.sqlStatement()))] }
        catch { return [TriggerStatement(content: .failure("\(error)"))] }
    }

    /// Result builder: a `SELECT` in the trigger's body.
    public static func buildExpression<C, F, J>(_ select: Select<C, F, J>) -> [TriggerStatement] {
        [TriggerStatement(content: .statement(.select(select.query)))]
    }

    /// `#sql("…")`: a hand-written statement.
    public static func buildExpression(_ sql: SQLQueryExpression<()>) -> [TriggerStatement] {
        buildStatement(sql)
    }

    /// Result builder: a `#sql` expression run as a statement.
    @_disfavoredOverload
    public static func buildExpression<V>(_ sql: SQLQueryExpression<V>) -> [TriggerStatement] {
        buildStatement(sql)
    }

    private static func buildStatement<V>(_ sql: SQLQueryExpression<V>) -> [TriggerStatement] {
        guard let fragment = sql.fragment else {
            return [TriggerStatement(content: .failure("an expression is not a statement; write it with #sql(…)"))]
        }
        return [TriggerStatement(content: .statement(.fragment(fragment)))]
    }

    /// Result builder: the statements of a block.
    public static func buildBlock(_ parts: [TriggerStatement]...) -> [TriggerStatement] { parts.flatMap { $0 } }
    /// Result builder: the iterations of a `for` loop.
    public static func buildArray(_ parts: [[TriggerStatement]]) -> [TriggerStatement] { parts.flatMap { $0 } }
    /// Result builder: an `if` without `else` (nothing when false).
    public static func buildOptional(_ part: [TriggerStatement]?) -> [TriggerStatement] { part ?? [] }
    /// Result builder: the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first: [TriggerStatement]) -> [TriggerStatement] { first }
    /// Result builder: the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second: [TriggerStatement]) -> [TriggerStatement] { second }
}
