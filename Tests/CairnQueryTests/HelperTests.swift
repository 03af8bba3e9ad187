import CairnQuery
import Testing

@Suite("Pattern escaping and counting")
struct HelperTests {
    static let texts = [
        "50%_off", "a\\b", "plain", "*star?", "[x]", "", "%", "_", "Ünïcödé%",
        // A wildcard followed by a combining mark: one Character, but a wildcard to SQLite.
        "%\u{301}", "_\u{301}", "*\u{301}", "?\u{301}", "[\u{301}", "\\\u{301}",
    ]

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

    /// Unescaped, `%́` would match any character followed by the mark, and `*́` the same in GLOB.
    @Test("A wildcard that begins a longer character is still escaped")
    func wildcardsBeforeCombiningMarks() throws {
        let db = try SQLiteHarness()
        let accented = SQLExpression.value(.text("a\u{301}"))
        for wildcard in ["%", "_"] {
            let like = accented.like(.value(.text(SQLPattern.escapingLike(wildcard + "\u{301}"))), escape: SQLPattern.likeEscape)
            #expect(try db.value(of: like) == .integer(0), "\(wildcard)")
        }
        for wildcard in ["*", "?"] {
            let glob = accented.glob(.value(.text(SQLPattern.escapingGlob(wildcard + "\u{301}"))))
            #expect(try db.value(of: glob) == .integer(0), "\(wildcard)")
        }
        #expect(SQLPattern.escapingLike("%\u{301}") == "\\%\u{301}")
        #expect(SQLPattern.escapingGlob("*\u{301}") == "[*]\u{301}")
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

@Suite("Padded IN lists")
struct PaddedListTests {
    @Test("Lists pad to a power of two with the last value", arguments: [
        (0, 0), (1, 1), (2, 2), (3, 4), (4, 4), (5, 8), (9, 16), (1000, 1024),
    ])
    func padding(_ count: Int, _ placeholders: Int) throws {
        #expect(SQLExpression.paddedListCount(count) == placeholders)
        let values = (0..<count).map { DatabaseValue.integer(Int64($0)) }
        let rendered = try sqlite(a.in(values: values))
        #expect(rendered.arguments.count == placeholders)
        #expect(Array(rendered.arguments.prefix(count)) == values)
        #expect(rendered.arguments.dropFirst(count).allSatisfy { $0 == values.last })
    }

    @Test("Lists of similar length share SQL text and keep IN / NOT IN answers")
    func sharedText() throws {
        let three = try sqlite(a.in(values: [.integer(1), .integer(2), .integer(3)]))
        let four = try sqlite(a.in(values: [.integer(5), .integer(6), .integer(7), .integer(8)]))
        #expect(three.sql == four.sql)
        #expect(three.sql == #""a" IN (?, ?, ?, ?)"#)
        let db = try SQLiteHarness()
        for probe in Int64(0)...4 {
            let values: [DatabaseValue] = [.integer(1), .integer(2), .integer(3)]
            let expected: Int64 = (1...3).contains(probe) ? 1 : 0
            #expect(try db.value(of: int(probe).in(values: values)) == .integer(expected))
            #expect(try db.value(of: int(probe).notIn(values: values)) == .integer(1 - expected))
        }
        #expect(try sqlite(a.in(values: [])).sql == "0")
        #expect(try sqlite(a.notIn(values: [])).sql == "1")
    }

    @Test("The terms of a conjunction, however it was built")
    func conjuncts() {
        let (a, b, c) = (SQLExpression.column("a"), SQLExpression.column("b"), SQLExpression.column("c"))
        #expect(a.and(b).and(c).conjuncts == [a, b, c])
        #expect(a.and(b.and(c)).conjuncts == [a, b, c])
        #expect(a.or(b).conjuncts == [a.or(b)])
        #expect(a.conjuncts == [a])
    }
}
