// `Values(…)`: a SELECT of values without a table, the seed of recursive common table
// expressions (spelled as StructuredQueries spells it).

/// The `From` of a statement that reads no table: `Values(_:)`'s statements.
public enum NoTable: Table {
    /// The Swift type a query returns for this value.
    public typealias QueryOutput = Void

    /// No columns.
    public struct TableColumns: TableDefinition, Sendable {
        /// The value type the expression stands for in SQL.
        public typealias QueryValue = NoTable
        /// Every column, in declaration order.
        public var allColumns: [any TableColumnExpression] { [] }
    }

    /// The table's columns, as typed expressions.
    public static var columns: TableColumns { TableColumns() }
    /// The SQL table name.
    public static var tableName: String { "" }
    /// How many result columns the value takes.
    public static var columnWidth: Int { 0 }
    /// Reads the value from the next result columns of a row.
    public static func decode(from decoder: inout QueryDecoder) throws {}
}

/// A `SELECT` of one value or `@Selection` row, without a table.
///
/// ```swift
/// Values(Step.Columns(value: 1))   // SELECT ?
/// ```
public func Values<Value: QueryExpression>(
    _ value: Value
) -> Select<Value.QueryValue.QueryOutput, NoTable, ()> where Value.QueryValue: QueryRepresentable {
    Select(
        query: SQLSelect(value.selectedExpressions.map { SQLSelectColumn($0) }), isSelected: true,
        decode: { try Value.QueryValue.decode(from: &$0) })
}

/// A `SELECT` of one `#sql` expression whose type the surrounding code gives, as
/// StructuredQueries infers it: `#sql` without `as:` where a query of that type is expected.
///
/// ```swift
/// RemindersList.insert { $0.title } select: { Values(#sql("'Groceries'")) }
/// // INSERT INTO "remindersLists" ("title") SELECT 'Groceries'
/// ```
public func Values<Value: QueryRepresentable>(
    _ value: SQLQueryExpression<Value>
) -> Select<Value, NoTable, ()> where Value.QueryOutput == Value {
    Select(
        query: SQLSelect(value.selectedExpressions.map { SQLSelectColumn($0) }), isSelected: true,
        decode: { try Value.decode(from: &$0) })
}

/// A `SELECT` of values, without a table: one row of bound values (or any expressions).
///
/// ```swift
/// try Values(true, 2.5, "Hello").fetchOne(db)   // (true, 2.5, "Hello")
/// // SELECT ?, ?, ?
/// ```
///
/// Mostly useful as the seed of a recursive common table expression (see ``With(_:query:)``):
/// `Values(Step.Columns(value: 1)).union(all: true, Step.select { … })`. It reads no table,
/// so it has nothing to join: `Values(…).join(…)` throws `SQLRenderError` when rendered
/// (StructuredQueries' `Values` has no `join`).
///
/// Unlike StructuredQueries' `Values` struct, this is a function returning a ``Select``, so
/// everything a `Select` offers (`union`, `fetchAll`, `@FetchAll`) takes it.
public func Values<each Value: QueryExpression>(
    _ values: repeat each Value
) -> Select<(repeat (each Value).QueryValue.QueryOutput), NoTable, ()>
where repeat (each Value).QueryValue: QueryRepresentable {
    var expressions: [SQLExpression] = []
    for value in repeat each values { expressions += value.selectedExpressions }
    return Select(
        query: SQLSelect(expressions.map { SQLSelectColumn($0) }), isSelected: true,
        decode: { decoder in (repeat try (each Value).QueryValue.decode(from: &decoder)) })
}
