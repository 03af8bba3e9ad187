/// An `UPDATE` of table `Base`, optionally with `RETURNING`.
///
/// ```swift
/// Reminder.where { $0.remindersListID.eq(1) }.update { $0.isCompleted = true }
/// // UPDATE "reminders" SET "isCompleted" = ? WHERE "reminders"."remindersListID" = ?
/// ```
public struct Update<Base: Table, Returning>: WriteStatement {
    /// The statement as IR (made from ``sqlTemplate`` when it is one).
    var statement: SQLUpdate {
        get { stored.ir }
        set { stored.ir = newValue }
    }
    private var stored: TemplatedStatement<SQLUpdate>
    var bindingFailure: String?
    /// Decodes one `RETURNING` row; `nil` without `returning`.
    public let decodeReturning: (@Sendable (inout QueryDecoder) throws -> Returning)?
    /// The update of a whole row (``PrimaryKeyedTable/update(_:)``) as a template of its
    /// table, until anything is added to it.
    public var sqlTemplate: SQLTemplate? { stored.template }

    init(statement: SQLUpdate, bindingFailure: String?, decodeReturning: (@Sendable (inout QueryDecoder) throws -> Returning)?) {
        self.stored = TemplatedStatement(statement)
        self.bindingFailure = bindingFailure
        self.decodeReturning = decodeReturning
    }

    init(template: SQLTemplate) where Returning == () {
        self.stored = TemplatedStatement(template, placeholder: SQLUpdate(Base.tableName, set: []))
        self.decodeReturning = nil
    }

    /// The statement as IR; throws when a value could not be bound.
    public func sqlStatement() throws -> SQLStatement {
        if let bindingFailure {
            throw TypedSQLError(message: "cannot update \(Base.tableName): \(bindingFailure)", sql: "")
        }
        guard !statement.assignments.isEmpty else {
            throw TypedSQLError(message: "the update of \(Base.tableName) assigns no column", sql: "")
        }
        return .update(statement)
    }

    /// Adds a `WHERE` condition (several calls are joined with `AND`).
    public func `where`<Condition: QueryExpression>(
        _ predicate: (Base.TableColumns) -> Condition
    ) -> Self where Condition.QueryValue: _BooleanValue {
        var copy = self
        copy.statement = statement.where(predicate(Base.columns).sqlExpression)
        return copy
    }

    /// Adds `WHERE` conditions from statements (``ConditionBuilder``). A body that lists none
    /// adds no `WHERE`, so the statement then reaches every row, as it does without `where`
    /// (StructuredQueries does the same).
    @_disfavoredOverload
    public func `where`(@ConditionBuilder _ conditions: (Base.TableColumns) -> [SQLExpression]) -> Self {
        guard let condition = ConditionBuilder.conjunction(conditions(Base.columns)) else { return self }
        var copy = self
        copy.statement = statement.where(condition)
        return copy
    }

    /// Adds `RETURNING` with the given columns of the updated rows.
    public func returning<each C: QueryExpression>(
        _ selection: (Base.TableColumns) -> (repeat each C)
    ) -> Update<Base, (repeat (each C).QueryValue.QueryOutput)>
    where Returning == (), repeat (each C).QueryValue: QueryRepresentable {
        let (columns, decode) = CairnReturning.columns(Base.self, selection)
        return Update<Base, (repeat (each C).QueryValue.QueryOutput)>(
            statement: statement.returning(columns), bindingFailure: bindingFailure, decodeReturning: decode)
    }

    /// Adds `RETURNING` with one column (or `\.self` for whole rows).
    public func returning<C: QueryExpression>(
        _ keyPath: KeyPath<Base.TableColumns, C>
    ) -> Update<Base, C.QueryValue.QueryOutput> where Returning == (), C.QueryValue: QueryRepresentable {
        returning { $0[keyPath: keyPath] }
    }
}

extension Table {
    /// `UPDATE table SET …` for every row (add `where` to narrow it).
    ///
    /// ```swift
    /// Reminder.update { $0.isFlagged = false }  // UPDATE "reminders" SET "isFlagged" = ?
    /// ```
    ///
    /// A table with a default scope (its own ``Table/all``) updates the rows of that scope.
    public static func update(set updates: (inout Updates<Self>) -> Void) -> Update<Self, ()> {
        scoped.update(set: updates)
    }

    /// `UPDATE table SET …` with no `WHERE` but `condition`.
    static func update(set updates: (inout Updates<Self>) -> Void, where condition: SQLExpression?) -> Update<Self, ()> {
        var assignments = Updates<Self>()
        updates(&assignments)
        var statement = SQLUpdate(tableName, as: tableAlias, set: assignments.assignments)
        if let condition { statement = statement.where(condition) }
        return Update(statement: statement, bindingFailure: assignments.bindingFailure, decodeReturning: nil)
    }
}

extension PrimaryKeyedTable where Self: InsertableRow, Self.Into == Self {
    /// `UPDATE table SET every other column WHERE primaryKey = ?`, from a whole row.
    ///
    /// ```swift
    /// try Tag.update(Tag(id: 1, title: "Home")).execute(db)
    /// // UPDATE "tags" SET "title" = ? WHERE "tags"."id" = ?
    /// ```
    public static func update(_ row: Self) -> Update<Self, ()> {
        let names = WritableColumnNames.names(of: Self.self)
        let key = columns.primaryKey
        do {
            let values = try row.databaseValues()
            // Without a default scope, the text depends only on the table: a template, whose
            // values are the other columns' in order, then the key.
            if defaultScopeCondition == nil, let template = rowUpdateTemplate(values, names: names, key: key) {
                return Update(template: template)
            }
            var assignments: [SQLAssignment] = []
            var keyValue = SQLExpression.null
            for (name, value) in zip(names, values) {
                if name == key.name { keyValue = .value(value) } else { assignments.append(SQLAssignment(name, .value(value))) }
            }
            let byKey = key.sqlExpression.equals(keyValue)
            let statement = SQLUpdate(tableName, set: assignments).where(defaultScopeCondition.map { $0.and(byKey) } ?? byKey)
            return Update(statement: statement, bindingFailure: nil, decodeReturning: nil)
        } catch {
            return Update(statement: SQLUpdate(tableName, set: []), bindingFailure: "\(error)", decodeReturning: nil)
        }
    }
}

extension PrimaryKeyedTable where Self: InsertableRow, Self.Into == Self {
    /// `UPDATE table SET every other column = ? WHERE primaryKey = ?` as a template of the
    /// table, for a row's `values` in the order of `names`; `nil` for a table whose only
    /// column is its key (an update that assigns nothing, which `sqlStatement()` reports).
    private static func rowUpdateTemplate(
        _ values: [DatabaseValue], names: [String], key: TableColumn<Self, TableColumns.PrimaryKey>
    ) -> SQLTemplate? {
        guard let keyIndex = names.firstIndex(of: key.name), names.count > 1, values.count == names.count else { return nil }
        var ordered = values
        ordered.append(ordered.remove(at: keyIndex))
        return SQLTemplate(Self.self, .rowUpdate, values: ordered, statement: RowUpdateStatement<Self>.self)
    }
}

/// `UPDATE table SET every writable column but the key = ? WHERE key = ?`, the values in
/// column order and the key's last: the statement of a row-update template.
private enum RowUpdateStatement<T: PrimaryKeyedTable>: SQLTemplateStatement {
    static func statement(for _: SQLTemplate.Kind, _ expressions: [SQLExpression]) -> SQLStatement {
        let key = T.columns.primaryKey
        let assigned = WritableColumnNames.names(of: T.self).filter { $0 != key.name }
        let assignments = zip(assigned, expressions.dropLast()).map { SQLAssignment($0, $1) }
        return .update(SQLUpdate(T.tableName, set: assignments).where(key.sqlExpression.equals(expressions.last ?? .null)))
    }
}

/// The names of a table's writable columns, made once per table: `update(row)` needs them for
/// every row, and making them from the columns cost about 6,000 instructions a call
/// (callgrind, typed SQL W11). A table's columns never change.
enum WritableColumnNames {
    private static let names = TypeKeyedCache<[String]>()

    static func names<T: Table>(of type: T.Type) -> [String] {
        names.value(for: type) { T.columns.writableColumns.map(\.name) }
    }
}

extension Select where Columns == (), Joins == () {
    /// `UPDATE` the rows this statement's `WHERE` selects.
    ///
    /// ```swift
    /// Reminder.where { $0.isFlagged }.update { $0.isCompleted = true }
    /// // UPDATE "reminders" SET "isCompleted" = ? WHERE "reminders"."isFlagged"
    /// ```
    public func update(set updates: (inout Updates<From>) -> Void) -> Update<From, ()> {
        From.update(set: updates, where: query.condition)
    }

    /// `DELETE` the rows this statement's `WHERE` selects.
    ///
    /// ```swift
    /// Reminder.where { $0.isCompleted }.delete()
    /// // DELETE FROM "reminders" WHERE "reminders"."isCompleted"
    /// ```
    public func delete() -> Delete<From, ()> {
        var statement = SQLDelete(from: From.tableName, as: From.tableAlias)
        if let condition = query.condition { statement = statement.where(condition) }
        return Delete(statement: statement, decodeReturning: nil)
    }
}

/// An `UPDATE` of a table that returns nothing: StructuredQueries' name for it.
public typealias UpdateOf<Base: Table> = Update<Base, ()>
