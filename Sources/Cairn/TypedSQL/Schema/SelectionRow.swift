/// A row type with a generated `Columns`: a `@Table` or `@Selection` struct, built in a query
/// from one expression per property (labels and order as the properties are declared).
///
/// ```swift
/// @Table struct IncompleteReminder { var isFlagged: Bool; var title: String }
///
/// With {
///     Reminder.where { !$0.isCompleted }
///         .select { IncompleteReminder.Columns(isFlagged: $0.isFlagged, title: $0.title) }
/// } query: {
///     IncompleteReminder.where { $0.title.contains("groceries") }
/// }
/// // WITH "incompleteReminders"("isFlagged", "title") AS
/// //   (SELECT "reminders"."isFlagged", "reminders"."title" FROM "reminders" WHERE NOT "reminders"."isCompleted")
/// // SELECT "incompleteReminders"."isFlagged", "incompleteReminders"."title" FROM "incompleteReminders"
/// // WHERE "incompleteReminders"."title" LIKE ? ESCAPE '\'
/// ```
///
/// Each parameter takes an expression of the property's stored type: the representation for
/// `@Column(as: Date.UnixTimeRepresentation.self) var at: Date`, a whole row (`$0`) for a
/// column group. A property with a default value may be left out, and so may an optional one
/// (`NULL`); `@Ephemeral` properties are no parameters.
public protocol SelectionRow: QueryRepresentable {
    /// The generated `Columns` type that lists one expression per property.
    associatedtype Columns: QueryExpression where Columns.QueryValue == Self
}

/// The expression a generated `Columns` initializer selects for a property left out: the
/// property's default value, bound, or `NULL` in each of its columns. Generated code names it;
/// it is not meant to be written by hand.
public struct _DefaultColumns<QueryValue: QueryRepresentable>: QueryExpression, Sendable {
    /// One expression per column of the property.
    public let selectedExpressions: [SQLExpression]

    /// The value as one expression, or its columns as a selection list.
    public var sqlExpression: SQLExpression {
        selectedExpressions.count == 1 ? selectedExpressions[0] : .selectionList(selectedExpressions)
    }

    /// `NULL` in each column: an optional property (`var dueDate: Date?`, `var list: RemindersList?`)
    /// left out.
    public static var null: Self {
        Self(selectedExpressions: Array(repeating: .null, count: QueryValue.columnWidth))
    }

    private init(selectedExpressions: [SQLExpression]) {
        self.selectedExpressions = selectedExpressions
    }
}

extension _DefaultColumns where QueryValue: QueryBindable {
    /// A default stored in one column, in the column's stored type
    /// (`Date.UnixTimeRepresentation` for a `Date`): bound.
    public init(_ value: QueryValue.QueryOutput) {
        self.init(selectedExpressions: [QueryValue(queryOutput: value).sqlExpression])
    }
}

extension _DefaultColumns where QueryValue: Table & BindableRow {
    /// A default column group (`var timestamps = Timestamps(…)`): its written columns bound, in
    /// place, and `NULL` for the columns the database generates, which take no value.
    public init(_ value: QueryValue) {
        let columns = QueryValue.columns.allColumns
        let written = Set(QueryValue.columns.writableColumns.map(\.name))
        // A value that cannot be bound makes the statement throw, as a scalar's does
        // (`QueryBindable.sqlExpression`).
        let bound: [SQLExpression]
        do { bound = try value.databaseValues().map(SQLExpression.value) }
        catch { bound = Array(repeating: .unbindable(error), count: written.count) }
        var values = bound.makeIterator()
        self.init(selectedExpressions: columns.map { column in
            written.contains(column.name) ? values.next() ?? .null : .null
        })
    }
}
