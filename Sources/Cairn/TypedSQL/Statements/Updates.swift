/// The `SET` list of an `UPDATE` (or of an upsert's `DO UPDATE`), written as assignments to
/// the table's columns.
///
/// ```swift
/// Reminder.find(1).update { $0.title = "Milk"; $0.isCompleted = $0.isFlagged }
/// // UPDATE "reminders" SET "title" = ?, "isCompleted" = "reminders"."isFlagged" WHERE …
/// ```
///
/// A value assigned must be an expression of the column's stored type: a literal, a value of
/// that type, or another column. For an optional column, assign `Optional(value)` or an
/// optional expression.
@dynamicMemberLookup
public struct Updates<Base: Table> {
    var assignments: [SQLAssignment] = []

    init() {}

    /// The column, to read in other assignments; assigning sets it.
    public subscript<Value>(
        dynamicMember keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
    ) -> any QueryExpression<Value> {
        get { Base.columns[keyPath: keyPath] }
        set {
            let name = Base.columns[keyPath: keyPath].name
            assignments.removeAll { $0.column == name }
            assignments.append(SQLAssignment(name, newValue.sqlExpression))
        }
    }
}

/// The row an upsert tried to insert: `excluded.column` in `DO UPDATE`.
///
/// ```swift
/// Tag.insert { tag } onConflict: { $0.id } doUpdate: { $0.title = $1.title }
/// // … ON CONFLICT ("id") DO UPDATE SET "title" = "excluded"."title"
/// ```
@dynamicMemberLookup
public struct Excluded<Base: Table>: Sendable {
    /// The column of the excluded row.
    public subscript<Value>(
        dynamicMember keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
    ) -> TableColumn<Base, Value> {
        TableColumn(Base.columns[keyPath: keyPath].name, table: "excluded")
    }
}
