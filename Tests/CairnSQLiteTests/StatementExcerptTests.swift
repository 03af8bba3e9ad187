import CairnSQLite
import Testing

@Suite("Statements in error descriptions")
struct StatementExcerptTests {
    @Test("a short statement is shown whole, its caret under the position")
    func shortStatement() {
        let excerpt = StatementExcerpt("SELECT 1 FROM WHERE x = $1", position: 15)
        #expect(excerpt.text == "SELECT 1 FROM WHERE x = $1")
        #expect(excerpt.caretColumn == 14)
        #expect(StatementExcerpt("SELECT 1\nFROM", position: 10).caretColumn == nil)
    }

    @Test("a long statement shows its first 500 characters and its length")
    func longStatement() {
        let sql = #"INSERT INTO "item" ("title") VALUES "# + (1...3000).map { "($\($0))" }.joined(separator: ", ")
        let excerpt = StatementExcerpt(sql)
        #expect(excerpt.text == String(sql.prefix(500)) + "… (\(sql.count) characters)")
        #expect(excerpt.caretColumn == nil)
    }

    @Test("a position past the first 500 characters shows the stretch around it, the caret on its character")
    func positionInALongStatement() throws {
        let sql = "SELECT 1 WHERE 1 IN (" + String(repeating: "1, ", count: 400) + ") ORDER BY " + String(repeating: "1, ", count: 300) + "1"
        let position = try #require(sql.firstIndex(of: ")")).utf16Offset(in: sql) + 1
        let excerpt = StatementExcerpt(sql, position: position)
        let column = try #require(excerpt.caretColumn)
        #expect(excerpt.text.hasPrefix("…"))
        #expect(excerpt.text.hasSuffix("… (\(sql.count) characters)"))
        #expect(Array(excerpt.text)[column] == ")")
        // A position near the end keeps a full window, ending with the statement.
        let last = StatementExcerpt(sql, position: sql.count)
        #expect(last.text == "…" + String(sql.suffix(500)) + " (\(sql.count) characters)")
        #expect(Array(last.text)[try #require(last.caretColumn)] == "1")
    }

    @Test("a failing statement of 6,000 characters is cut in the description and whole in sql")
    func databaseErrorDescription() throws {
        let db = try Database(path: ":memory:")
        let sql = "SELECT * FROM missing WHERE id IN (" + Array(repeating: "?", count: 2000).joined(separator: ", ") + ")"
        let error = try #require(throws: DatabaseError.self) {
            try db.execute(sql: sql, arguments: StatementArguments((1...2000).map { DatabaseValue.integer(Int64($0)) }))
        }
        #expect(error.sql == sql)
        #expect(error.description == """
            SQLite error 1 (SQL logic error): no such table: missing
              in: \(sql.prefix(500))… (\(sql.count) characters)
            """)
    }
}
