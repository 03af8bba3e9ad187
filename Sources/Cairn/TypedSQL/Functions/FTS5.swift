// Full-text search over SQLite's FTS5 virtual tables, spelled as StructuredQueries spells it:
// a `@Table` that conforms to `FTS5`, `match`, `rank`, `bm25`, `highlight` and `snippet`.

/// A `@Table` over an FTS5 virtual table. Declare `rowid` to read or join on it; create the
/// table yourself (a migration), with the same column names:
///
/// ```swift
/// @Table struct ReminderText: FTS5 {
///     let rowid: Int
///     let title: String
///     let notes: String
/// }
/// // CREATE VIRTUAL TABLE "reminderTexts" USING fts5("title", "notes")
///
/// ReminderText.where { $0.match("milk") }.order(by: \.rank).select { $0.title.highlight("**", "**") }
/// // SELECT highlight("reminderTexts", (SELECT "cid" …), ?, ?) FROM "reminderTexts"
/// // WHERE "reminderTexts" MATCH ? ORDER BY "reminderTexts"."rank"
/// ```
public protocol FTS5: Table {}

extension TableDefinition where QueryValue: FTS5 {
    /// `"table" MATCH ?`: the rows the FTS5 query `pattern` finds in any column. The pattern is
    /// FTS5 query syntax (`milk AND eggs`, `"a phrase"`, `mil*`, `NEAR(a b)`), bound.
    public func match(_ pattern: some StringProtocol) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(.raw(SQLFragment(segments: [
            .identifier(QueryValue.tableAlias ?? QueryValue.tableName), .sql(" MATCH "), .value(.text(String(pattern))),
        ])))
    }

    /// FTS5's `rank` of a matching row (by default its bm25 score): order by it, ascending,
    /// for the best matches first.
    public var rank: SQLQueryExpression<Double?> {
        SQLQueryExpression(.column("rank", table: QueryValue.tableAlias ?? QueryValue.tableName))
    }

    /// `bm25("table", weights…)`: how well a matching row matches; smaller is better. Give a
    /// weight per column to count some more than others (a column not listed weighs 1). A key
    /// path that is not a column makes the query fail ("no such function:
    /// bm25_weight_needs_a_column_key_path") rather than lose its weight.
    ///
    /// ```swift
    /// ReminderText.where { $0.match("milk") }.order { $0.bm25([\.title: 10, \.notes: 1]) }
    /// ```
    public func bm25(_ rankings: KeyValuePairs<PartialKeyPath<Self>, Double> = [:]) -> SQLQueryExpression<Double> {
        let table = QueryValue.tableName
        var arguments: [SQLExpression] = [.column(QueryValue.tableAlias ?? table)]
        if !rankings.isEmpty {
            // bm25 takes weights by column position, so each is looked up by the column's
            // name in the table's own column list, whatever order the Swift type declares.
            var branches: [(SQLExpression, SQLExpression)] = []
            for (keyPath, weight) in rankings {
                guard let column = self[keyPath: keyPath] as? any TableColumnExpression else {
                    // Not a column: the query fails with this name rather than drop the weight.
                    return SQLQueryExpression(.function("bm25_weight_needs_a_column_key_path", []))
                }
                branches.append((.value(.text(column.name)), .value(.real(weight))))
            }
            let weight = SQLExpression.case(.column("name"), when: branches, else: .value(.real(1)))
            let ftsColumnCount = writableColumns.filter { $0.name != "rowid" }.count
            for index in 0..<ftsColumnCount {
                arguments.append(.raw(SQLFragment(segments: [
                    .sql("(SELECT "), .expression(weight), .sql(" FROM pragma_table_info("), .value(.text(table)),
                    .sql(") WHERE \"cid\" = "), .value(.integer(Int64(index))), .sql(")"),
                ])))
            }
        }
        return SQLQueryExpression(.function("bm25", arguments))
    }
}

extension TableColumn where Root: FTS5, Value: QueryRepresentable, Value.QueryOutput: StringProtocol {
    /// The rows whose column matches `pattern`, searched as one phrase:
    /// `"table" MATCH 'title:"pattern"'`.
    public func match(_ pattern: some StringProtocol) -> SQLQueryExpression<Bool> {
        // An FTS5 string is quoted as an SQL identifier is: `"…"` with `"` doubled, byte by byte
        // (by `Character`, a quote followed by a combining mark stayed single and ended the
        // phrase, letting the rest of the text be read as FTS5 syntax).
        Root.columns.match(name + ":" + SQLiteDialect().quote(identifier: String(pattern)))
    }

    /// The column's text with each matched phrase between `open` and `close`.
    ///
    /// ```swift
    /// $0.title.highlight("**", "**")  // "Buy **milk**"
    /// ```
    public func highlight(_ open: some StringProtocol, _ close: some StringProtocol) -> SQLQueryExpression<Value> {
        SQLQueryExpression(.function("highlight", [
            .column(Root.tableAlias ?? Root.tableName), columnIndex, .value(.text(String(open))), .value(.text(String(close))),
        ]))
    }

    /// A short extract of the column around the matches, at most `tokens` tokens, matches
    /// between `open` and `close`, cut text marked with `ellipsis`.
    public func snippet(
        _ open: some StringProtocol, _ close: some StringProtocol, _ ellipsis: some StringProtocol, _ tokens: Int
    ) -> SQLQueryExpression<Value> {
        SQLQueryExpression(.function("snippet", [
            .column(Root.tableAlias ?? Root.tableName), columnIndex, .value(.text(String(open))),
            .value(.text(String(close))), .value(.text(String(ellipsis))), .value(.integer(Int64(tokens))),
        ]))
    }

    /// The column's position in the FTS5 table, as its auxiliary functions take it.
    private var columnIndex: SQLExpression {
        .raw(SQLFragment(segments: [
            .sql("(SELECT \"cid\" FROM pragma_table_info("), .value(.text(Root.tableName)),
            .sql(") WHERE \"name\" = "), .value(.text(name)), .sql(")"),
        ]))
    }
}

extension TableAlias: FTS5 where Base: FTS5 {}
