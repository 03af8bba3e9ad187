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
        self.stored = TemplatedStatement(template, placeholder: SQLUpdate(Base.tableName, schema: Base.schemaName, set: []))
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
        var statement = SQLUpdate(tableName, schema: schemaName, as: tableAlias, set: assignments.assignments)
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
    /// try Enrollment.update(enrollment).execute(db)   // a composite key: `let id: Enrollment.ID`
    /// // UPDATE "enrollments" SET "grade" = ? WHERE ("enrollments"."courseID", "enrollments"."studentID") = (?, ?)
    /// ```
    public static func update(_ row: Self) -> Update<Self, ()> {
        let names = WritableColumnNames.names(of: Self.self)
        let key = columns.primaryKey
        let keyNames = key._writtenNames
        do {
            let values = try row.databaseValues()
            // Without a default scope, the text depends only on the table: a template, whose
            // values are the other columns' in order, then the key's.
            if defaultScopeCondition == nil, let template = rowUpdateTemplate(values, names: names, keyNames: keyNames) {
                return Update(template: template)
            }
            let assignments = zip(names, values).filter { !keyNames.contains($0.0) }.map { SQLAssignment($0, .value($1)) }
            let byKey = key._writtenExpression.equals(keyOperand(ofWritten: values))
            let statement = SQLUpdate(tableName, schema: schemaName, set: assignments).where(defaultScopeCondition.map { $0.and(byKey) } ?? byKey)
            return Update(statement: statement, bindingFailure: nil, decodeReturning: nil)
        } catch {
            return Update(statement: SQLUpdate(tableName, schema: schemaName, set: []), bindingFailure: "\(error)", decodeReturning: nil)
        }
    }

    /// `UPDATE table SET every other column = ? WHERE primaryKey = ?` as a template of the
    /// table, for a row's `values` in the order of `names`; `nil` for a table whose only
    /// columns are its key (an update that assigns nothing, which `sqlStatement()` reports).
    private static func rowUpdateTemplate(_ values: [DatabaseValue], names: [String], keyNames: [String]) -> SQLTemplate? {
        guard names.count > keyNames.count, values.count == names.count else { return nil }
        var ordered: [DatabaseValue] = []
        ordered.reserveCapacity(values.count)
        for (name, value) in zip(names, values) where !keyNames.contains(name) { ordered.append(value) }
        guard ordered.count == names.count - keyNames.count else { return nil }
        for (name, value) in zip(names, values) where keyNames.contains(name) { ordered.append(value) }
        return SQLTemplate(Self.self, .rowUpdate, values: ordered, statement: RowUpdateStatement<Self>.self)
    }
}

extension PrimaryKeyedTable {
    /// The primary key of a row whose written `values` are in the order of its writable
    /// columns, bound as one operand: the key's value, or a composite key's row value. NULLs
    /// when the values do not hold the key, so that the comparison holds for no row.
    static func keyOperand(ofWritten values: [DatabaseValue]) -> SQLExpression {
        let key = columns.primaryKey
        let keyNames = key._writtenNames
        var keyValues: [SQLExpression] = []
        for (name, value) in zip(WritableColumnNames.names(of: Self.self), values) where keyNames.contains(name) {
            keyValues.append(.value(value))
        }
        if keyValues.count != keyNames.count { keyValues = Array(repeating: .null, count: keyNames.count) }
        return key._operand(keyValues)
    }
}

/// `UPDATE table SET every writable column but the key = ? WHERE key = ?`, the values in
/// column order and the key's last: the statement of a row-update template.
private enum RowUpdateStatement<T: PrimaryKeyedTable>: SQLTemplateStatement {
    static func statement(for _: SQLTemplate.Kind, _ expressions: [SQLExpression]) -> SQLStatement {
        let key = T.columns.primaryKey
        let keyNames = key._writtenNames
        let assigned = WritableColumnNames.names(of: T.self).filter { !keyNames.contains($0) }
        let assignments = zip(assigned, expressions).map { SQLAssignment($0, $1) }
        let keyValues = Array(expressions.suffix(keyNames.count))
        return .update(SQLUpdate(T.tableName, schema: T.schemaName, set: assignments).where(key._writtenExpression.equals(key._operand(keyValues))))
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
        var statement = SQLDelete(from: From.tableName, schema: From.schemaName, as: From.tableAlias)
        if let condition = query.condition { statement = statement.where(condition) }
        return Delete(statement: statement, decodeReturning: nil)
    }
}

/// An `UPDATE` of a table that returns nothing: StructuredQueries' name for it.
public typealias UpdateOf<Base: Table> = Update<Base, ()>
