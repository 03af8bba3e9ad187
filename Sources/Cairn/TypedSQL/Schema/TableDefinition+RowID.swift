// `rowid`: the integer key SQLite gives every ordinary table and FTS5 table, on every table's
// columns, its aliases' and a trigger's `new` and `old`. A full-text table is kept beside the
// table it indexes by `rowid`, and searched by joining the two on it:
//
//     BookText.where { $0.match("whale") }.join(Book.all) { $0.rowid.eq($1.rowid) }
//     // SELECT … FROM "bookTexts" JOIN "books" ON "bookTexts"."rowid" = "books"."rowid"
//     //   WHERE ("bookTexts" MATCH ?)
//
// A table declared `WITHOUT ROWID`, and PostgreSQL, have no such column: the statement fails
// with "no such column" there. A `@Table` that declares a `rowid` property (as an FTS5 table
// does, to read it) reads its own column of that name, which is the same one.

extension TableDefinition where QueryValue: Table {
    /// The table's `rowid`: `"books"."rowid"`, or `"new"."rowid"` in a trigger.
    public var rowid: TableColumn<QueryValue, Int> {
        TableColumn("rowid", table: QueryValue.tableAlias ?? QueryValue.tableName)
    }
}
