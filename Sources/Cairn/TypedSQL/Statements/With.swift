// Common table expressions: `With { … } query: { … }`, spelled as StructuredQueries spells
// them. Each CTE is a statement selecting a `@Selection` row, whose type then reads as a
// table in the query (and in later CTEs, and in itself: recursive CTEs).

/// One common table expression of a ``With(_:query:)``: a statement selecting `@Selection`
/// rows, named after the row type's table name.
public struct CommonTableExpressionClause: Sendable {
    /// The clause as IR: `"name"("column", …) AS (SELECT …)`.
    public let commonTableExpression: SQLCommonTableExpression
}

/// Collects the common table expressions of ``With(_:query:)``: one statement per line.
@resultBuilder
public enum CommonTableExpressionBuilder {
    /// A statement selecting `@Selection` rows (any `Table` row type) becomes the CTE named
    /// after that type's table, with its columns.
    public static func buildExpression<Row: Table, From, Joins>(
        _ statement: Select<Row, From, Joins>
    ) -> [CommonTableExpressionClause] where Row.QueryOutput == Row {
        let columns = Row.columns.allColumns.map(\.name)
        return [CommonTableExpressionClause(
            commonTableExpression: SQLCommonTableExpression(Row.tableName, columns: columns, as: statement.query))]
    }

    /// Result builder: the statements of a block.
    public static func buildBlock(_ parts: [CommonTableExpressionClause]...) -> [CommonTableExpressionClause] {
        parts.flatMap { $0 }
    }
}

/// A statement with common table expressions (`WITH … AS (…)`): temporary named results the
/// statement reads as tables. Each CTE selects into a `@Selection` type, which then acts as a
/// table; a CTE that reads itself is recursive.
///
/// ```swift
/// @Selection struct HighPriorityList { let id: Int }
///
/// With {
///     RemindersList.group(by: \.id)
///         .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
///         .having { $1.priority.avg().gt(1.5) }
///         .select { list, _ in HighPriorityList.Columns(id: list.id) }
/// } query: {
///     RemindersList.where { $0.id.in(HighPriorityList.select(\.id)) }
/// }
/// // WITH "highPriorityLists"("id") AS (SELECT "remindersLists"."id" FROM "remindersLists" …)
/// // SELECT … FROM "remindersLists" WHERE "remindersLists"."id" IN (SELECT "highPriorityLists"."id" FROM "highPriorityLists")
/// ```
///
/// Unlike StructuredQueries' `With` struct, this is a function returning the query's
/// ``Select`` with the `WITH` clause added, so every fetch, `@FetchAll` and `@FetchOne`
/// takes it. The query must be a `SELECT`: Cairn's `INSERT`, `UPDATE` and `DELETE` carry no
/// `WITH` clause (use a subquery in their `where`). SQLite needs no `RECURSIVE` keyword for
/// a CTE that reads itself.
public func With<Columns, From, Joins>(
    @CommonTableExpressionBuilder _ commonTableExpressions: () -> [CommonTableExpressionClause],
    query: () -> Select<Columns, From, Joins>
) -> Select<Columns, From, Joins> {
    let statement = query()
    var select = statement.query
    select.commonTableExpressions = commonTableExpressions().map(\.commonTableExpression) + select.commonTableExpressions
    return Select(query: select, isSelected: statement.isSelected, decode: statement.decodeSelection)
}
