/// A type whose values are rows of one database table: what `@Table` generates.
///
/// ```swift
/// @Table struct RemindersList { let id: Int; var title = "" }
/// RemindersList.tableName  // "remindersLists"
/// RemindersList.all        // SELECT "remindersLists"."id", "remindersLists"."title" FROM "remindersLists"
/// ```
///
/// The conformance `@Table` writes can be written by hand: a nested `TableColumns` type
/// with one ``TableColumn`` per stored property, `columns`, `tableName`, `columnWidth` and a
/// `decode(from:)` that reads the properties in column order.
public protocol Table: QueryRepresentable {
    /// The table's columns, as typed expressions: `$0` in query closures.
    associatedtype TableColumns: TableDefinition where TableColumns.QueryValue == Self
    /// The columns, for use outside closures.
    static var columns: TableColumns { get }
    /// The SQL table name.
    static var tableName: String { get }
    /// The schema that holds the table (an attached SQLite database such as `"main"` or
    /// `"aux"`, a PostgreSQL schema), or `nil` for the one the connection finds it in:
    /// `@Table("reminders", schema: "aux")` reads `FROM "aux"."reminders"`.
    static var schemaName: String? { get }
    /// The alias the table goes by in statements (`"users" AS "referrers"`), or `nil`: set by
    /// ``TableAlias``, `nil` for every other table.
    static var tableAlias: String? { get }
    /// Every row of the table, the default scope of every statement begun from the table (see
    /// the extension's implementation); declare it to give the table a default scope.
    static var all: SelectOf<Self> { get }
}

extension Table {
    /// `nil`: a table goes by its own name unless it is a ``TableAlias``.
    public static var tableAlias: String? { nil }
    /// `nil`: the connection finds the table by its name alone (SQLite's `main`, then attached
    /// databases; PostgreSQL's `search_path`).
    public static var schemaName: String? { nil }
}

/// The columns of a table, as the typed expressions query closures receive.
///
/// As an expression it selects every column of the table
/// (`"reminders"."id", "reminders"."title", …`).
public protocol TableDefinition: QueryExpression {
    /// Every column, in declaration order (the order rows are decoded in).
    var allColumns: [any TableColumnExpression] { get }
    /// The columns an `INSERT` or a whole-row `UPDATE` writes: every column but the generated
    /// ones (`@Column(generated: .virtual)`), which SQLite computes and refuses to be given.
    var writableColumns: [any TableColumnExpression] { get }
}

extension TableDefinition {
    /// Every column: a table without generated columns writes them all.
    public var writableColumns: [any TableColumnExpression] { allColumns }

    /// Every column, as a selection list (`"reminders"."id", "reminders"."title", …`).
    public var sqlExpression: SQLExpression { .selectionList(selectedExpressions) }

    /// Each column's expression, in declaration order.
    public var selectedExpressions: [SQLExpression] { allColumns.map(\.sqlExpression) }
}

/// A table with a primary key (by default its `id` property, or `@Column(primaryKey: true)`).
public protocol PrimaryKeyedTable: Table where TableColumns: PrimaryKeyedTableDefinition {
    /// The row type used to insert rows whose primary key the database assigns.
    associatedtype Draft: TableDraft where Draft.Into == Self
}

/// The columns of a table with a primary key.
///
/// The key is one column (`TableColumn<Reminder, Int>`) or a column group whose columns
/// together are the key (`ColumnGroup<Enrollment, Enrollment.ID>`, a composite key).
public protocol PrimaryKeyedTableDefinition: TableDefinition {
    /// The primary key's value type (as stored): a value stored in one column, or the
    /// `@Selection` row of a composite key.
    associatedtype PrimaryKey: QueryRepresentable
    /// The type of the key's column: a ``TableColumn``, or a ``ColumnGroup`` for a composite key.
    associatedtype PrimaryColumn: _TableColumnExpression<QueryValue, PrimaryKey>
    /// The primary-key column (or group of columns).
    var primaryKey: PrimaryColumn { get }
}

/// A column of a table, typed by the stored `Value` (a plain type or a representation).
///
/// ```swift
/// Reminder.columns.title.sqlExpression  // "reminders"."title"
/// ```
public struct TableColumn<Root, Value>: QueryExpression, TableColumnExpression, Sendable {
    /// The value type the expression stands for in SQL.
    public typealias QueryValue = Value

    /// The column name.
    public let name: String
    /// The table name (or alias) that qualifies the column.
    public let tableName: String

    /// A column `name` of table `tableName`.
    public init(_ name: String, table tableName: String) {
        self.name = name
        self.tableName = tableName
    }

    /// The expression as SQL IR.
    public var sqlExpression: SQLExpression { .column(name, table: tableName) }
}

/// An expression that knows whether it can be NULL, so an ordering on it can leave out the
/// `NULLS` clause a dialect would otherwise need (see ``SQLOrderingTerm/keyIsNeverNull``).
protocol NullabilityKnown {
    var holdsNoNull: Bool { get }
}

extension TableColumn: NullabilityKnown {
    /// Whether the column never holds NULL: neither its value type nor its table (the
    /// optional side of an outer join) is optional.
    var holdsNoNull: Bool { !(Value.self is any _OptionalMarker.Type || Root.self is any _OptionalMarker.Type) }
}

/// A column of any table and type: what ``TableDefinition/allColumns`` lists.
public protocol TableColumnExpression: Sendable {
    /// The column name.
    var name: String { get }
    /// The qualified column as IR.
    var sqlExpression: SQLExpression { get }
    /// The columns the expression stands for when it is a ``ColumnGroup`` (only the writable
    /// ones when `writable`), `nil` for a single column.
    func _groupedColumns(writable: Bool) -> [any TableColumnExpression]?
}

extension TableColumnExpression {
    /// `nil`: a single column.
    public func _groupedColumns(writable: Bool) -> [any TableColumnExpression]? { nil }
}

/// A column, or a column group, as a place values are written to: a table's primary key, and
/// each of the columns named in `insert { ($0.timestamps, $0.title) } values: { … }`.
///
/// A ``TableColumn`` of a bindable value writes one column; a ``ColumnGroup`` writes its
/// group's columns, and compares with a value as a row value (`("a", "b") = (?, ?)`).
public protocol _TableColumnExpression<Root, Value>: TableColumnExpression, QueryExpression
where QueryValue == Value, Value: QueryRepresentable {
    /// The table the column belongs to.
    associatedtype Root
    /// The value type the column (or group) holds, as stored.
    associatedtype Value
    /// The names of the columns written, in the order ``_databaseValues(_:)`` binds them.
    var _writtenNames: [String] { get }
    /// The written columns as one operand: the column, or the group's columns as a row value.
    var _writtenExpression: SQLExpression { get }
    /// A value's column values, bound as an insert binds them; throws for a value SQLite
    /// cannot hold.
    func _databaseValues(_ value: Value.QueryOutput) throws -> [DatabaseValue]
    /// Expressions of the written columns' values as one operand: the value, or a row value.
    func _operand(_ values: [SQLExpression]) -> SQLExpression
}

extension _TableColumnExpression {
    /// A value as one operand, bound; a value that cannot be bound makes the statement throw
    /// when it is rendered, as ``QueryBindable/sqlExpression`` does.
    @usableFromInline func _boundOperand(_ value: Value.QueryOutput) -> SQLExpression {
        do { return _operand(try _databaseValues(value).map(SQLExpression.value)) }
        catch { return _operand(Array(repeating: .unbindable(error), count: _writtenNames.count)) }
    }
}

extension TableColumn: _TableColumnExpression where Value: QueryBindable {
    /// The column's name.
    public var _writtenNames: [String] { [name] }
    /// The column.
    public var _writtenExpression: SQLExpression { sqlExpression }
    /// The value in the column's representation.
    @inlinable
    public func _databaseValues(_ value: Value.QueryOutput) throws -> [DatabaseValue] {
        [try Value(queryOutput: value).databaseValueForBinding()]
    }
    /// The one value.
    public func _operand(_ values: [SQLExpression]) -> SQLExpression { values.first ?? .null }
}

// MARK: - Optional tables (outer joins)

/// The columns of a table on the optional side of an outer join: every column reads as
/// optional (`$1.title` is a `TableColumn<Reminder?, String?>`).
@dynamicMemberLookup
public struct OptionalTableColumns<Base: Table>: TableDefinition {
    /// The value type the expression stands for in SQL.
    public typealias QueryValue = Base?

    /// Every column, in declaration order.
    public var allColumns: [any TableColumnExpression] { Base.columns.allColumns }
    /// The columns written: the base table's.
    public var writableColumns: [any TableColumnExpression] { Base.columns.writableColumns }

    /// A column of the joined table, made optional.
    public subscript<Value: QueryRepresentable>(
        dynamicMember keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
    ) -> TableColumn<Base?, Value._Optionalized> {
        let column = Base.columns[keyPath: keyPath]
        return TableColumn(column.name, table: column.tableName)
    }

    /// A column group of the joined table, made optional: its columns read as optionals, and
    /// selected whole it is `nil` where the join found no row.
    public subscript<Values: Table>(
        dynamicMember keyPath: KeyPath<Base.TableColumns, ColumnGroup<Base, Values>>
    ) -> ColumnGroup<Base?, Values?> {
        let group = Base.columns[keyPath: keyPath]
        return ColumnGroup(group.name, table: group.tableName)
    }

    /// Any other expression defined on the joined table's columns, made optional.
    public subscript<Expression: QueryExpression>(
        dynamicMember keyPath: KeyPath<Base.TableColumns, Expression>
    ) -> SQLQueryExpression<Expression.QueryValue?> {
        SQLQueryExpression(Base.columns[keyPath: keyPath].sqlExpression)
    }
}

extension Optional: Table where Wrapped: Table {
    /// The wrapped table's columns, read as optionals (the side of an outer join).
    public typealias TableColumns = OptionalTableColumns<Wrapped>
    /// The wrapped table's columns, read as optionals.
    public static var columns: OptionalTableColumns<Wrapped> { OptionalTableColumns() }
    /// The wrapped table's name.
    public static var tableName: String { Wrapped.tableName }
    /// The wrapped table's schema.
    public static var schemaName: String? { Wrapped.schemaName }
    /// The wrapped table's alias.
    public static var tableAlias: String? { Wrapped.tableAlias }
}

// A table on the optional side of a join has a primary key when it is one column: what
// `$1.count()` counts.
extension OptionalTableColumns: PrimaryKeyedTableDefinition
where Base.TableColumns: PrimaryKeyedTableDefinition, Base.TableColumns.PrimaryKey: QueryBindable,
    Base.TableColumns.PrimaryColumn == TableColumn<Base, Base.TableColumns.PrimaryKey> {
    /// The primary key's value type.
    public typealias PrimaryKey = Base.TableColumns.PrimaryKey._Optionalized

    /// The primary-key column.
    public var primaryKey: TableColumn<Base?, Base.TableColumns.PrimaryKey._Optionalized> {
        let key = Base.columns.primaryKey
        return TableColumn(key.name, table: key.tableName)
    }
}
