import Foundation
import CairnQuery
import Testing

@Suite("Bound values and stable SQL text")
struct SafetyTests {
    static let hostile: [String] = [
        "Trader Joe's", "'; DROP TABLE reminders; --", "\" OR 1=1 --", "?", "$1", "%_*", "NULL", "\0",
        "' || (SELECT sql FROM sqlite_master) || '",
    ]

    @Test("Injection-looking strings stay arguments", arguments: hostile)
    func injection(_ value: String) throws {
        let select = SQLSelect(from: "reminders").where(.column("title").equals(text(value)))
            .where(SQLExpression.raw("title <> \(DatabaseValue.text(value))"))
        let rendered = try sqlite(select)
        #expect(rendered.sql == #"SELECT * FROM "reminders" WHERE "title" = ? AND (title <> ?)"#)
        #expect(rendered.arguments == [.text(value), .text(value)])
        let insert = try sqlite(SQLInsert(into: "reminders", columns: ["title"], values: [[text(value)]]))
        #expect(!insert.sql.contains(value) || value == "?")
    }

    static let identifiers: [(String, String)] = [
        ("title", #""title""#),
        (#"my "quoted" name"#, #""my ""quoted"" name""#),
        ("select", #""select""#),
        ("with space", #""with space""#),
        ("", #""""#),
        (#"x"; DROP TABLE t; --"#, #""x""; DROP TABLE t; --""#),
        ("\"", #""""""#),
        ("\"\"", #""""""""#),
        ("café \"Zoë\" 東京", #""café ""Zoë"" 東京""#),
        ("e\u{301}", "\"e\u{301}\""),
    ]

    @Test("Identifiers are always quoted with embedded quotes doubled", arguments: identifiers)
    func identifierQuoting(_ name: String, _ quoted: String) throws {
        #expect(try sqlite(SQLExpression.column(name)).sql == quoted)
        #expect(try sqlite(SQLExpression.column(name, table: name)).sql == quoted + "." + quoted)
        #expect(try sqlite(SQLSelect(from: name)).sql == "SELECT * FROM " + quoted)
        #expect(try postgres(SQLSelect(from: name)).sql == "SELECT * FROM " + quoted)
        // The dialects' own `quote(identifier:)` agrees with what a rendering writes, byte for
        // byte (`==` alone would take a decomposed "é" for its precomposed twin).
        #expect(Array(SQLiteDialect().quote(identifier: name).utf8) == Array(quoted.utf8))
        #expect(Array(PostgreSQLDialect().quote(identifier: name).utf8) == Array(quoted.utf8))
        #expect(Array(try sqlite(SQLExpression.column(name)).sql.utf8) == Array(quoted.utf8))
    }

    @Test("An identifier with a NUL in it is an error, in every dialect", arguments: ["a\0b", "\0", "title\0"])
    func identifierWithNUL(_ name: String) {
        for render in [sqlite, postgres] as [(SQLSelect) throws -> RenderedSQL] {
            #expect { try render(SQLSelect(from: name)) } throws: { error in
                "\(error)".contains("identifiers cannot contain a NUL character")
            }
        }
        #expect(throws: SQLRenderError.self) { try SQLSelect(from: "t").where(.column(name).isNull()).render(dialect: BracketDialect()) }
    }

    /// A dialect of its own quoting: the renderer must ask it rather than quote as the default.
    struct BracketDialect: SQLDialect {
        func placeholder(at index: Int) -> String { "?" }
        func quote(identifier: String) -> String { "[" + identifier + "]" }
        func booleanLiteral(_ value: Bool) -> String { value ? "1" : "0" }
        var supportsNullsOrdering: Bool { true }
        func limitClause(limit: String?, offset: String?) -> String { SQLiteDialect().limitClause(limit: limit, offset: offset) }
        func typeName(_ type: SQLType) -> String { SQLiteDialect().typeName(type) }
        func nullSafeEqualityOperator(negated: Bool) -> String { negated ? "IS NOT" : "IS" }
    }

    @Test("A dialect that quotes identifiers its own way is asked to")
    func customQuoting() throws {
        let select = SQLSelect([SQLSelectColumn(.column("title", table: "r"))], from: .table("reminders", as: "r"))
            .where(.column("id").equals(int(1)))
        #expect(try select.render(dialect: BracketDialect()).sql == "SELECT [r].[title] FROM [reminders] AS [r] WHERE [id] = ?")
    }

    /// The same shape with every value changed: text must not move, arguments must.
    static func query(_ n: Int64, _ s: String, _ r: Double, _ limit: Int, _ offset: Int) -> SQLSelect {
        SQLSelect([SQLSelectColumn(.column("title")), SQLSelectColumn(.groupConcat(.column("tag"), separator: s))], from: .table("t"))
            .where(.column("id").equals(int(n)).and(.column("score").greaterThan(.value(.real(r)))))
            .where(.column("title").like(text(s + "%"), escape: text("\\")))
            .where(.column("id").in([int(n), int(n + 1)]))
            .where(.column("k").between(int(n), and: int(n * 2)))
            .groupBy(.column("title"))
            .having(SQLExpression.count(.column("tag"), filter: .column("tag").notEquals(text(s))).greaterThan(int(n)))
            .orderBy(SQLExpression.case(when: [(.column("id").equals(int(n)), int(0))], else: int(1)).ascending())
            .limit(limit).offset(offset)
    }

    @Test("The same statement shape with other values renders identical SQL text")
    func sameShapeSameText() throws {
        let first = try sqlite(Self.query(1, "a", 0.5, 10, 0))
        let second = try sqlite(Self.query(-99, "'; --", 1e300, 20, 40))
        #expect(first.sql == second.sql)
        #expect(first.arguments != second.arguments)
        #expect(first.arguments.count == second.arguments.count)
        // The next page reuses the text; only LIMIT/OFFSET arguments change.
        let page2 = try sqlite(Self.query(1, "a", 0.5, 10, 10))
        #expect(page2.sql == first.sql)
        #expect(Array(page2.arguments.dropLast()) == Array(first.arguments.dropLast()))
        #expect(try postgres(Self.query(1, "a", 0.5, 10, 0)).sql == postgres(Self.query(2, "b", 9, 1, 1)).sql)
    }

    @Test("Statements are Hashable by shape and values")
    func hashable() {
        #expect(Self.query(1, "a", 0.5, 10, 0) == Self.query(1, "a", 0.5, 10, 0))
        #expect(Self.query(1, "a", 0.5, 10, 0) != Self.query(2, "a", 0.5, 10, 0))
        let keys: Set<SQLStatement> = [.select(Self.query(1, "a", 0.5, 10, 0)), .select(Self.query(1, "a", 0.5, 10, 0))]
        #expect(keys.count == 1)
    }

    @Test("RenderedSQL's description leaves the arguments out")
    func redaction() throws {
        let rendered = try sqlite(SQLSelect(from: "t").where(a.equals(text("secret"))))
        #expect("\(rendered)" == #"SELECT * FROM "t" WHERE "a" = ?"#)
    }
}

@Suite("Dialects")
struct DialectTests {
    @Test("PostgreSQL numbers placeholders across the whole statement")
    func postgresPlaceholders() throws {
        let select = SQLSelect(from: "t")
            .where(a.equals(int(1)).and(b.in(SQLSelect([c], from: .table("u")).where(c.greaterThan(int(2))))))
            .where(d.between(int(3), and: int(4)))
            .limit(5).offset(6)
        let rendered = try postgres(select)
        #expect(rendered.sql == """
            SELECT * FROM "t" WHERE "a" = $1 AND "b" IN (SELECT "c" FROM "u" WHERE "c" > $2) \
            AND "d" BETWEEN $3 AND $4 LIMIT $5 OFFSET $6
            """)
        #expect(rendered.arguments == (1...6).map { .integer(Int64($0)) })
        #expect(try postgres(SQLSelect(from: "t").offset(3)).sql == #"SELECT * FROM "t" OFFSET $1"#)
    }

    @Test("Booleans, null-safe equality and CAST types follow the dialect")
    func spellings() throws {
        #expect(try postgres(a.is(b).and(.true)).sql == #""a" IS NOT DISTINCT FROM "b" AND TRUE"#)
        #expect(try postgres(a.isNot(b).or(.false)).sql == #""a" IS DISTINCT FROM "b" OR FALSE"#)
        #expect(try sqlite(a.is(b).and(.true)).sql == #""a" IS "b" AND 1"#)
        let casts: [(SQLType, String, String)] = [
            (.integer, "INTEGER", "BIGINT"), (.real, "REAL", "DOUBLE PRECISION"), (.text, "TEXT", "TEXT"),
            (.blob, "BLOB", "BYTEA"), (.numeric, "NUMERIC", "NUMERIC"), (.boolean, "INTEGER", "BOOLEAN"),
        ]
        for (type, lite, pg) in casts {
            #expect(try sqlite(a.cast(as: type)).sql == #"CAST("a" AS \#(lite))"#)
            #expect(try postgres(a.cast(as: type)).sql == #"CAST("a" AS \#(pg))"#)
        }
    }

    @Test("Fragments and upserts use the dialect's placeholders too")
    func fragmentsAndWrites() throws {
        let fragment: SQLFragment = "SELECT \(DatabaseValue.integer(1)), \(a.plus(int(2)))"
        #expect(try postgres(fragment).sql == #"SELECT $1, ("a" + $2)"#)
        let insert = SQLInsert(into: "t", columns: ["a", "b"], values: [[int(1), int(2)], [int(3), int(4)]])
            .onConflict(["a"], doUpdate: [SQLAssignment("b", .excluded("b"))]).returning([SQLSelectColumn(a)])
        #expect(try postgres(insert).sql == """
            INSERT INTO "t" ("a", "b") VALUES ($1, $2), ($3, $4) ON CONFLICT ("a") \
            DO UPDATE SET "b" = "excluded"."b" RETURNING "a"
            """)
    }
}
