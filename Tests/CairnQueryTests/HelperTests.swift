import CairnQuery
import Testing

@Suite("Pattern escaping and counting")
struct HelperTests {
    static let texts = ["50%_off", "a\\b", "plain", "*star?", "[x]", "", "%", "_", "Ünïcödé%"]

    @Test("Escaped LIKE and GLOB patterns match their text literally in SQLite", arguments: texts)
    func escapedPatterns(_ text: String) throws {
        let db = try SQLiteHarness()
        let like = SQLExpression.value(.text(text)).like(
            .value(.text(SQLPattern.escapingLike(text))), escape: SQLPattern.likeEscape)
        #expect(try db.value(of: like) == .integer(1))
        let glob = SQLExpression.value(.text(text)).glob(.value(.text(SQLPattern.escapingGlob(text))))
        #expect(try db.value(of: glob) == .integer(1))
        // A different text of the same length does not match the escaped pattern.
        let other = String(repeating: "x", count: text.count)
        if other != text {
            let miss = SQLExpression.value(.text(other)).like(
                .value(.text(SQLPattern.escapingLike(text))), escape: SQLPattern.likeEscape)
            #expect(try db.value(of: miss) == .integer(0))
        }
        let prefix = SQLExpression.value(.text(text + "tail")).glob(.value(.text(SQLPattern.escapingGlob(text) + "*")))
        #expect(try db.value(of: prefix) == .integer(1))
    }

    @Test("Escaping output")
    func escapingText() {
        #expect(SQLPattern.escapingLike(#"50%_a\b"#) == #"50\%\_a\\b"#)
        #expect(SQLPattern.escapingGlob("a*b?[c]") == "a[*]b[?][[]c]")
    }

    @Test("selectingCount keeps FROM/JOIN/WHERE and drops ordering, or wraps when it must")
    func selectingCount() throws {
        let simple = SQLSelect([a, b], from: .table("t")).where(a.greaterThan(int(1)))
            .orderBy(a.ascending())
        #expect(try sqlite(simple.selectingCount()).sql == #"SELECT COUNT(*) FROM "t" WHERE "a" > ?"#)
        let paged = SQLSelect(from: "t").limit(2)
        #expect(try sqlite(paged.selectingCount()).sql == #"SELECT COUNT(*) FROM (SELECT * FROM "t" LIMIT ?)"#)
        let grouped = SQLSelect([a, SQLExpression.countAll], from: .table("t")).groupBy(a)
        #expect(try sqlite(grouped.selectingCount()).sql.hasPrefix("SELECT COUNT(*) FROM (SELECT"))
        let aggregated = SQLSelect([SQLExpression.sum(a).plus(int(1))], from: .table("t"))
        #expect(try sqlite(aggregated.selectingCount()).sql.hasPrefix("SELECT COUNT(*) FROM (SELECT"))

        let db = try SQLiteHarness()
        try db.execute("INSERT INTO t (a) VALUES (1), (2), (2), (3)")
        #expect(try db.rows(simple.selectingCount()) == [[.integer(3)]])
        #expect(try db.rows(paged.selectingCount()) == [[.integer(2)]])
        #expect(try db.rows(grouped.selectingCount()) == [[.integer(3)]])
        #expect(try db.rows(aggregated.selectingCount()) == [[.integer(1)]])
        #expect(try db.rows(SQLSelect([a], from: .table("t")).distinct().selectingCount()) == [[.integer(3)]])
    }

    @Test("Table sources expose name, alias and the qualifier for columns")
    func sources() {
        #expect(SQLTableSource.table("t", as: "t0").qualifier == "t0")
        #expect(SQLTableSource.table("t").qualifier == "t")
        #expect(SQLTableSource.table("t").alias == nil)
        #expect(SQLTableSource.subquery(SQLSelect(from: "t"), as: "s").tableName == nil)
        #expect(SQLTableSource.subquery(SQLSelect(from: "t")).qualifier == nil)
    }
}
