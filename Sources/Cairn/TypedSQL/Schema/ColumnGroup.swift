/// Several columns of a table grouped into one property whose type is a `@Selection` (or
/// `@Table`) struct: what `@Table` generates for such a property.
///
/// SQL has no grouped columns: the group's columns are the table's own, named as the group's
/// properties (no prefix), and a row reads and writes them in place.
///
/// ```swift
/// @Selection struct Timestamps { var createdAt: Date; var updatedAt: Date? }
/// @Table struct Item { let id: Int; var title = ""; var timestamps: Timestamps }
///
/// Item.all         // SELECT "items"."id", "items"."title", "items"."createdAt", "items"."updatedAt" FROM "items"
/// Item.where { $0.timestamps.updatedAt.isNot(nil) }   // … WHERE "items"."updatedAt" IS NOT NULL
/// Item.select(\.timestamps)                         // SELECT "items"."createdAt", "items"."updatedAt" FROM "items"
/// ```
@dynamicMemberLookup
public struct ColumnGroup<Root, Values: Table>: QueryExpression, TableColumnExpression, Sendable {
    /// A selected group decodes as the group's type.
    public typealias QueryValue = Values

    /// The Swift property name of the group (not a column of the table).
    public let name: String
    /// The table name (or alias) that qualifies the group's columns.
    public let tableName: String

    /// The group `name` of table `tableName`.
    public init(_ name: String, table tableName: String) {
        self.name = name
        self.tableName = tableName
    }

    /// A column of the group, as a column of the table: `$0.timestamps.createdAt`.
    public subscript<Member>(
        dynamicMember keyPath: KeyPath<Values.TableColumns, TableColumn<Values, Member>>
    ) -> TableColumn<Root, Member> {
        TableColumn(Values.columns[keyPath: keyPath].name, table: tableName)
    }

    /// A group nested in the group, as a group of the table.
    public subscript<Member>(
        dynamicMember keyPath: KeyPath<Values.TableColumns, ColumnGroup<Values, Member>>
    ) -> ColumnGroup<Root, Member> {
        ColumnGroup<Root, Member>(Values.columns[keyPath: keyPath].name, table: tableName)
    }

    /// The group's columns as columns of the table, nested groups flattened.
    public func _groupedColumns(writable: Bool) -> [any TableColumnExpression]? {
        let columns = writable ? Values.columns.writableColumns : Values.columns.allColumns
        return columns.map { TableColumn<Root, Never>($0.name, table: tableName) }
    }

    /// The group's columns, in declaration order.
    public var selectedExpressions: [SQLExpression] {
        (_groupedColumns(writable: false) ?? []).map(\.sqlExpression)
    }

    /// The group's columns as a row value (`("items"."createdAt", "items"."updatedAt")`).
    public var sqlExpression: SQLExpression { .row(selectedExpressions) }
}

extension TableColumn {
    /// The typed column `name` of `tableName`: what `@Table` declares for a property whose type
    /// is a value stored in one column.
    public static func _column(_ name: String, table tableName: String) -> TableColumn {
        TableColumn(name, table: tableName)
    }
}

extension TableColumn where Value: Table {
    /// A ``ColumnGroup``: what `@Table` declares for a property whose type is itself a table or
    /// a `@Selection` row. Chosen over the single column by overload resolution, as the macro
    /// cannot see whether a property's type is a group.
    public static func _column(_ name: String, table tableName: String) -> ColumnGroup<Root, Value> {
        ColumnGroup(name, table: tableName)
    }
}

extension TableDefinition {
    /// The columns of a table's properties with each group replaced by its columns: the
    /// `allColumns` (or, `writable`, the `writableColumns`) `@Table` generates. A table without
    /// groups gets its list back as it is.
    public static func _flattened(
        _ columns: [any TableColumnExpression], writable: Bool = false
    ) -> [any TableColumnExpression] {
        guard columns.contains(where: { $0._groupedColumns(writable: writable) != nil }) else { return columns }
        return columns.flatMap { $0._groupedColumns(writable: writable) ?? [$0] }
    }
}

/// A value whose properties bind as consecutive columns, in the order of its table's
/// `writableColumns`: a `@Table` row, its `Draft`, or a `@Selection` row, which can then be a
/// column group of another table.
public protocol BindableRow {
    /// The row's values, bound in the order of the writable columns.
    func databaseValues() throws -> [DatabaseValue]
}

/// An optional group binds NULL to each of its written columns when absent, as
/// StructuredQueries writes `var item: Item?`; a row whose group columns are all NULL reads
/// back as `nil`.
extension Optional: BindableRow where Wrapped: Table & BindableRow {
    /// The wrapped row's values, or a NULL per written column.
    public func databaseValues() throws -> [DatabaseValue] {
        guard let self else { return Array(repeating: .null, count: Wrapped.columns.writableColumns.count) }
        return try self.databaseValues()
    }
}

extension Array where Element == DatabaseValue {
    /// Appends the value of a property stored in one column, in its stored representation: what
    /// generated `databaseValues()` calls for each property. A value that cannot be bound
    /// throws ``DatabaseValueEncodingError`` naming `property`.
    @inlinable @inline(__always)
    public mutating func _append<Stored: QueryBindable>(
        _ value: Stored.QueryOutput, as type: Stored.Type, property: StaticString
    ) throws {
        do { append(try Stored(queryOutput: value).databaseValueForBinding()) }
        catch { throw DatabaseValueEncodingError(error, property: "\(property)") }
    }

    /// Appends the values of a column group's columns.
    @inlinable
    public mutating func _append<Group: Table & BindableRow>(
        _ value: Group, as type: Group.Type, property: StaticString
    ) throws {
        do { append(contentsOf: try value.databaseValues()) }
        catch { throw DatabaseValueEncodingError(error, property: "\(property)") }
    }
}

// A `@Selection` row is written only when it is a column group of a table, yet it may hold a
// value of any `QueryRepresentable` type (a SwiftData model, a hand-written conformance), which
// has no values to bind: its `databaseValues()` goes through these overloads, whose last one
// makes such a row selectable but not writable, where `@Table`'s `_append` fails to compile.
extension Array where Element == DatabaseValue {
    /// A `@Selection` row's property stored in one column.
    @inlinable @inline(__always)
    public mutating func _appendSelected<Stored: QueryBindable>(
        _ value: Stored.QueryOutput, as type: Stored.Type, property: String
    ) throws {
        do { append(try Stored(queryOutput: value).databaseValueForBinding()) }
        catch { throw DatabaseValueEncodingError(error, property: property) }
    }

    /// A `@Selection` row's property that is itself a group.
    @inlinable
    public mutating func _appendSelected<Group: Table & BindableRow>(
        _ value: Group, as type: Group.Type, property: String
    ) throws {
        do { append(contentsOf: try value.databaseValues()) }
        catch { throw DatabaseValueEncodingError(error, property: property) }
    }

    /// A `@Selection` row's property of a type that cannot be bound: writing the row fails.
    @_disfavoredOverload
    public mutating func _appendSelected<Value: QueryRepresentable>(
        _ value: Value.QueryOutput, as type: Value.Type, property: String
    ) throws {
        throw TypedSQLError(
            message: "'\(property)' holds a value of type \(Value.self), which cannot be written as columns: a column group "
                + "may hold only values stored in one column and @Table or @Selection rows",
            sql: "")
    }
}

// A group is written, and is a primary key, as its written columns: a composite key
// (`let id: Enrollment.ID`) compares as a row value, `("courseID", "studentID") = (?, ?)`.
extension ColumnGroup: _TableColumnExpression where Values: BindableRow, Values.QueryOutput == Values {
    /// The names of the group's written columns.
    public var _writtenNames: [String] { (_groupedColumns(writable: true) ?? []).map(\.name) }
    /// The group's written columns as a row value.
    public var _writtenExpression: SQLExpression { .row((_groupedColumns(writable: true) ?? []).map(\.sqlExpression)) }
    /// The value's columns, bound in order.
    public func _databaseValues(_ value: Values) throws -> [DatabaseValue] { try value.databaseValues() }
    /// The values as a row value.
    public func _operand(_ values: [SQLExpression]) -> SQLExpression { .row(values) }
}

// MARK: - Comparing a whole group

extension ColumnGroup where Values: BindableRow {
    /// The group's written columns against the value's, as row values: `("a", "b") = (?, ?)`.
    /// A value that cannot be bound makes the statement throw when it is rendered, as a
    /// scalar's does (see ``QueryBindable/sqlExpression``).
    private func compare(_ op: SQLBinaryOperator, _ value: Values) -> SQLQueryExpression<Bool> {
        let columns = (_groupedColumns(writable: true) ?? []).map(\.sqlExpression)
        let values: [SQLExpression]
        do { values = try value.databaseValues().map(SQLExpression.value) }
        catch { values = Array(repeating: .unbindable(error), count: columns.count) }
        return SQLQueryExpression(.binary(op, .row(columns), .row(values)))
    }

    /// Every column of the group equals the value's: `("a", "b") = (?, ?)`.
    ///
    /// ```swift
    /// Item.where { $0.status.eq(Status()) }
    /// // … WHERE ("items"."isOutOfStock", "items"."isOnBackOrder") = (?, ?)
    /// ```
    public func eq(_ value: Values) -> SQLQueryExpression<Bool> { compare(.equal, value) }
    /// Some column of the group differs from the value's: `(…) <> (?, ?)`.
    public func neq(_ value: Values) -> SQLQueryExpression<Bool> { compare(.notEqual, value) }
    /// `(…) IS (?, ?)`: equal, NULLs equal to NULLs.
    public func `is`(_ value: Values) -> SQLQueryExpression<Bool> { compare(.is, value) }
    /// `(…) IS NOT (?, ?)`
    public func isNot(_ value: Values) -> SQLQueryExpression<Bool> { compare(.isNot, value) }
    /// The group sorts before the value, column by column: `(…) < (?, ?)`.
    public func lt(_ value: Values) -> SQLQueryExpression<Bool> { compare(.less, value) }
    /// `(…) <= (?, ?)`
    public func lte(_ value: Values) -> SQLQueryExpression<Bool> { compare(.lessOrEqual, value) }
    /// `(…) > (?, ?)`
    public func gt(_ value: Values) -> SQLQueryExpression<Bool> { compare(.greater, value) }
    /// `(…) >= (?, ?)`
    public func gte(_ value: Values) -> SQLQueryExpression<Bool> { compare(.greaterOrEqual, value) }
}
