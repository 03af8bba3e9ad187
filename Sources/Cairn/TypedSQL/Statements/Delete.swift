/// A `DELETE` from table `Base`, optionally with `RETURNING`.
///
/// ```swift
/// Reminder.delete().where { $0.isCompleted }
/// // DELETE FROM "reminders" WHERE "reminders"."isCompleted"
/// ```
public struct Delete<Base: Table, Returning>: WriteStatement {
    var statement: SQLDelete
    /// Decodes one `RETURNING` row; `nil` without `returning`.
    public let decodeReturning: (@Sendable (inout QueryDecoder) throws -> Returning)?

    /// The statement as IR; throws when a value could not be bound.
    public func sqlStatement() throws -> SQLStatement { .delete(statement) }

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

    /// Adds `RETURNING` with the given columns of the deleted rows.
    public func returning<each C: QueryExpression>(
        _ selection: (Base.TableColumns) -> (repeat each C)
    ) -> Delete<Base, (repeat (each C).QueryValue.QueryOutput)>
    where Returning == (), repeat (each C).QueryValue: QueryRepresentable {
        let (columns, decode) = CairnReturning.columns(Base.self, selection)
        return Delete<Base, (repeat (each C).QueryValue.QueryOutput)>(
            statement: statement.returning(columns), decodeReturning: decode)
    }

    /// Adds `RETURNING` with one column (or `\.self` for whole rows).
    public func returning<C: QueryExpression>(
        _ keyPath: KeyPath<Base.TableColumns, C>
    ) -> Delete<Base, C.QueryValue.QueryOutput> where Returning == (), C.QueryValue: QueryRepresentable {
        returning { $0[keyPath: keyPath] }
    }
}

extension Table {
    /// `DELETE FROM table` (every row; add `where` to narrow it). A table with a default
    /// scope (its own ``Table/all``) deletes the rows of that scope.
    public static func delete() -> Delete<Self, ()> {
        scoped.delete()
    }
}

extension PrimaryKeyedTable {
    /// `DELETE FROM table WHERE primaryKey = ?`, for a row (or its key).
    ///
    /// ```swift
    /// try Tag.delete(tag).execute(db)  // DELETE FROM "tags" WHERE "tags"."id" = ?
    /// try Enrollment.delete(enrollment).execute(db)   // a composite key
    /// // DELETE FROM "enrollments" WHERE ("enrollments"."courseID", "enrollments"."studentID") = (?, ?)
    /// ```
    public static func delete(_ row: Self) -> Delete<Self, ()> where Self: InsertableRow, Self.Into == Self {
        let key = columns.primaryKey
        let operand: SQLExpression
        do { operand = keyOperand(ofWritten: try row.databaseValues()) }
        catch { operand = key._operand(Array(repeating: .unbindable(error), count: key._writtenNames.count)) }
        let byKey = key._writtenExpression.equals(operand)
        return Delete(statement: SQLDelete(from: tableName, schema: schemaName).where(defaultScopeCondition.map { $0.and(byKey) } ?? byKey),
                      decodeReturning: nil)
    }
}
