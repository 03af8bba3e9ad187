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
///
/// A column can also be changed in place, as in StructuredQueries:
///
/// ```swift
/// Reminder.find(1).update { $0.isFlagged.toggle(); $0.title += "!" }
/// // UPDATE "reminders" SET "isFlagged" = NOT "reminders"."isFlagged",
/// //   "title" = "reminders"."title" || ? WHERE …
/// Counter.update { $0.count += 1 }   // SET "count" = "counters"."count" + ?
/// ```
@dynamicMemberLookup
public struct Updates<Base: Table> {
    var assignments: [SQLAssignment] = []
    /// Why a value assigned could not be bound (a group's value SQLite cannot hold), reported
    /// when the statement runs.
    var bindingFailure: String?

    init() {}

    /// The column, to read in other assignments; assigning sets it.
    public subscript<Value>(
        dynamicMember keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
    ) -> any QueryExpression<Value> {
        get { Base.columns[keyPath: keyPath] }
        set { set(Base.columns[keyPath: keyPath].name, newValue.sqlExpression) }
    }

    /// The column as a concrete expression, for the in-place changes an existential cannot
    /// offer (`toggle()`, `+=`, `-=`, `*=`, `/=`): chosen only when those are used. Changes to
    /// one column compose as in Swift (`$0.count += 10; $0.count -= 1` sets
    /// `"count" = "counters"."count" + ? - ?`), while reading a column elsewhere gives its stored value,
    /// as SQL's `SET` does.
    @_disfavoredOverload
    public subscript<Value>(
        dynamicMember keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
    ) -> SQLQueryExpression<Value> {
        get {
            let column = Base.columns[keyPath: keyPath]
            let assigned = assignments.last { $0.column == column.name }
            return assigned.map { SQLQueryExpression($0.value) } ?? SQLQueryExpression(column)
        }
        set { set(Base.columns[keyPath: keyPath].name, newValue.sqlExpression) }
    }

    /// The columns of a group, to assign one by one: `$0.timestamps.updatedAt = now`.
    public subscript<Values>(
        dynamicMember keyPath: KeyPath<Base.TableColumns, ColumnGroup<Base, Values>>
    ) -> ColumnGroupUpdates<Base, Values> {
        get { ColumnGroupUpdates(updates: self, group: Base.columns[keyPath: keyPath]) }
        set { self = newValue.updates }
    }

    /// A whole group, assigned from a value: each of its written columns set to the value's.
    ///
    /// ```swift
    /// Item.find(1).update { $0.status = Status(isOutOfStock: true) }
    /// // UPDATE "items" SET "isOutOfStock" = ?, "isOnBackOrder" = ? WHERE …
    /// ```
    ///
    /// Only assigned: reading a group in an update is a compile-time error (read its columns,
    /// `$0.status.isOutOfStock`), so the getter can never run.
    @_disfavoredOverload
    public subscript<Values: BindableRow>(
        dynamicMember keyPath: KeyPath<Base.TableColumns, ColumnGroup<Base, Values>>
    ) -> Values {
        @available(*, unavailable, message: "a column group is assigned whole, not read, in an update: read its columns")
        get { fatalError("unavailable: a column group is never read in an update") }
        set {
            let group = Base.columns[keyPath: keyPath]
            let columns = group._groupedColumns(writable: true) ?? []
            do {
                for (column, value) in zip(columns, try newValue.databaseValues()) {
                    set(column.name, .value(value))
                }
            } catch {
                bindingFailure = bindingFailure ?? "\(group.name): \(error)"
            }
        }
    }

    mutating func set(_ column: String, _ value: SQLExpression) {
        assignments.removeAll { $0.column == column }
        assignments.append(SQLAssignment(column, value))
    }
}

/// The `SET` assignments to the columns of a ``ColumnGroup``: what `$0.timestamps` is in an
/// update.
///
/// ```swift
/// Item.find(1).update { $0.timestamps.updatedAt = Date() }
/// // UPDATE "items" SET "updatedAt" = ? WHERE …
/// ```
@dynamicMemberLookup
public struct ColumnGroupUpdates<Base: Table, Values: Table> {
    var updates: Updates<Base>
    let group: ColumnGroup<Base, Values>

    /// A column of the group, to read in other assignments; assigning sets it.
    public subscript<Value>(
        dynamicMember keyPath: KeyPath<Values.TableColumns, TableColumn<Values, Value>>
    ) -> any QueryExpression<Value> {
        get { group[dynamicMember: keyPath] }
        set { updates.set(group[dynamicMember: keyPath].name, newValue.sqlExpression) }
    }

    /// A group nested in the group.
    public subscript<Member>(
        dynamicMember keyPath: KeyPath<Values.TableColumns, ColumnGroup<Values, Member>>
    ) -> ColumnGroupUpdates<Base, Member> {
        get { ColumnGroupUpdates<Base, Member>(updates: updates, group: group[dynamicMember: keyPath]) }
        set { updates = newValue.updates }
    }
}

extension SQLQueryExpression where QueryValue == Bool {
    /// Replaces the expression by its negation: `$0.isFlagged.toggle()` in an update sets
    /// `"isFlagged" = NOT "reminders"."isFlagged"`.
    public mutating func toggle() {
        self = SQLQueryExpression(sqlExpression.not())
    }
}

extension SQLQueryExpression where QueryValue: Numeric & QueryBindable {
    /// `lhs = lhs + rhs`: `$0.count += 1` in an update.
    public static func += (lhs: inout Self, rhs: some QueryExpression<QueryValue>) {
        lhs = Self(lhs.sqlExpression.plus(rhs.sqlExpression))
    }

    /// `lhs = lhs - rhs`
    public static func -= (lhs: inout Self, rhs: some QueryExpression<QueryValue>) {
        lhs = Self(lhs.sqlExpression.minus(rhs.sqlExpression))
    }

    /// `lhs = lhs * rhs`
    public static func *= (lhs: inout Self, rhs: some QueryExpression<QueryValue>) {
        lhs = Self(lhs.sqlExpression.times(rhs.sqlExpression))
    }

    /// `lhs = lhs / rhs` (SQLite's division: integer division for integers, as Swift's)
    public static func /= (lhs: inout Self, rhs: some QueryExpression<QueryValue>) {
        lhs = Self(lhs.sqlExpression.dividedBy(divisor(rhs)))
    }
}

extension SQLQueryExpression where QueryValue == String {
    /// `lhs = lhs || rhs`: `$0.title += "!"` in an update.
    public static func += (lhs: inout Self, rhs: some QueryExpression<String>) {
        lhs = Self(lhs.sqlExpression.concatenated(with: rhs.sqlExpression))
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

    /// A column group of the excluded row: `$1.timestamps.updatedAt`.
    public subscript<Values>(
        dynamicMember keyPath: KeyPath<Base.TableColumns, ColumnGroup<Base, Values>>
    ) -> ColumnGroup<Base, Values> {
        ColumnGroup(Base.columns[keyPath: keyPath].name, table: "excluded")
    }
}
