import CairnQuery
import Testing

@Suite("INSERT, UPDATE, DELETE and upsert rendering")
struct WriteRenderingTests {
    @Test("INSERT of several rows")
    func insertRows() throws {
        let insert = SQLInsert(into: "tags", columns: ["name", "count"], values: [
            [text("home"), int(1)],
            [text("work"), .null],
        ])
        let rendered = try sqlite(insert)
        #expect(rendered.sql == #"INSERT INTO "tags" ("name", "count") VALUES (?, ?), (?, NULL)"#)
        #expect(rendered.arguments == [.text("home"), .integer(1), .text("work")])
    }

    // The text is gathered as bytes that grow as needed; a long statement with multi-byte
    // names must come out exactly as its pieces spell it, in both dialects.
    @Test("a long INSERT with non-ASCII names renders every byte in order")
    func longInsertWithUnicodeNames() throws {
        let rows = (0..<300).map { [text("r\($0)"), int($0)] }
        let insert = SQLInsert(into: "Café ☕", columns: ["naïve", "größe"], values: rows)
        let rendered = try sqlite(insert)
        let values = Array(repeating: "(?, ?)", count: 300).joined(separator: ", ")
        #expect(rendered.sql == #"INSERT INTO "Café ☕" ("naïve", "größe") VALUES "# + values)
        #expect(rendered.arguments.count == 600)
        #expect(rendered.arguments.last == .integer(299))

        let numbered = try postgres(insert)
        let placeholders = (0..<300).map { "($\(2 * $0 + 1), $\(2 * $0 + 2))" }.joined(separator: ", ")
        #expect(numbered.sql == #"INSERT INTO "Café ☕" ("naïve", "größe") VALUES "# + placeholders)
    }

    @Test("INSERT without column list, DEFAULT VALUES, INSERT … SELECT")
    func insertSources() throws {
        #expect(try sqlite(SQLInsert(into: "t", columns: [], values: [[int(1)]])).sql == #"INSERT INTO "t" VALUES (?)"#)
        #expect(try sqlite(SQLInsert(into: "t", source: .defaultValues)).sql == #"INSERT INTO "t" DEFAULT VALUES"#)
        let fromSelect = SQLInsert(into: "t", columns: ["a"], source: .select(SQLSelect([b], from: .table("u"))))
        #expect(try sqlite(fromSelect).sql == #"INSERT INTO "t" ("a") SELECT "b" FROM "u""#)
    }

    @Test("Upsert: ON CONFLICT DO UPDATE with excluded, and DO NOTHING")
    func upsert() throws {
        let insert = SQLInsert(into: "tags", columns: ["name", "count"], values: [[text("home"), int(1)]])
            .onConflict(["name"], doUpdate: [
                SQLAssignment("count", .column("count").plus(.excluded("count"))),
            ], updateWhere: SQLExpression.excluded("count").greaterThan(int(0)))
        let rendered = try sqlite(insert)
        #expect(rendered.sql == """
            INSERT INTO "tags" ("name", "count") VALUES (?, ?) ON CONFLICT ("name") \
            DO UPDATE SET "count" = "count" + "excluded"."count" WHERE "excluded"."count" > ?
            """)
        #expect(rendered.arguments == [.text("home"), .integer(1), .integer(0)])

        let ignore = SQLInsert(into: "tags", columns: ["name"], values: [[text("x")]]).onConflictDoNothing()
        #expect(try sqlite(ignore).sql == #"INSERT INTO "tags" ("name") VALUES (?) ON CONFLICT DO NOTHING"#)
        let partial = SQLInsert(into: "t", columns: ["a"], values: [[int(1)]])
            .onConflict(["a"], where: b.isNull(), doUpdate: [SQLAssignment("c", .excluded("c"))])
        #expect(try sqlite(partial).sql == """
            INSERT INTO "t" ("a") VALUES (?) ON CONFLICT ("a") WHERE "b" IS NULL \
            DO UPDATE SET "c" = "excluded"."c"
            """)
    }

    @Test("INSERT … SELECT before ON CONFLICT gets the WHERE SQLite's parser needs")
    func insertSelectUpsert() throws {
        let insert = SQLInsert(into: "t", columns: ["a"], source: .select(SQLSelect([b], from: .table("u"))))
            .onConflictDoNothing(["a"])
        #expect(try sqlite(insert).sql == #"INSERT INTO "t" ("a") SELECT "b" FROM "u" WHERE 1 ON CONFLICT ("a") DO NOTHING"#)
        let filtered = SQLInsert(into: "t", columns: ["a"], source: .select(SQLSelect([b], from: .table("u")).where(c)))
            .onConflictDoNothing(["a"])
        #expect(try sqlite(filtered).sql == #"INSERT INTO "t" ("a") SELECT "b" FROM "u" WHERE "c" ON CONFLICT ("a") DO NOTHING"#)
    }

    @Test("RETURNING on INSERT, UPDATE and DELETE")
    func returning() throws {
        let columns = [SQLSelectColumn(.column("id")), SQLSelectColumn(.column("title"), as: "name")]
        let insert = SQLInsert(into: "t", columns: ["title"], values: [[text("x")]]).returning(columns)
        #expect(try sqlite(insert).sql == #"INSERT INTO "t" ("title") VALUES (?) RETURNING "id", "title" AS "name""#)
        let update = SQLUpdate("t", set: [SQLAssignment("title", text("y"))]).returning([SQLSelectColumn(.star)])
        #expect(try sqlite(update).sql == #"UPDATE "t" SET "title" = ? RETURNING *"#)
        let delete = SQLDelete(from: "t").where(a).returning(columns)
        #expect(try sqlite(delete).sql == #"DELETE FROM "t" WHERE "a" RETURNING "id", "title" AS "name""#)
    }

    @Test("UPDATE with SET pairs, alias and WHERE")
    func update() throws {
        let update = SQLUpdate("reminders", as: "r", set: [
            SQLAssignment("isCompleted", .true),
            SQLAssignment("priority", SQLExpression.column("priority", table: "r").plus(int(1))),
        ])
        .where(SQLExpression.column("id", table: "r").equals(int(7)))
        .where(SQLExpression.column("isCompleted", table: "r").not())
        let rendered = try sqlite(update)
        #expect(rendered.sql == """
            UPDATE "reminders" AS "r" SET "isCompleted" = 1, "priority" = "r"."priority" + ? \
            WHERE "r"."id" = ? AND NOT "r"."isCompleted"
            """)
        #expect(rendered.arguments == [.integer(1), .integer(7)])
        #expect(try sqlite(SQLUpdate("t", set: [SQLAssignment("a", .null)])).sql == #"UPDATE "t" SET "a" = NULL"#)
    }

    @Test("DELETE with and without WHERE")
    func delete() throws {
        #expect(try sqlite(SQLDelete(from: "t")).sql == #"DELETE FROM "t""#)
        let rendered = try sqlite(SQLDelete(from: "t", as: "x").where(SQLExpression.column("id", table: "x").in([int(1), int(2)])))
        #expect(rendered.sql == #"DELETE FROM "t" AS "x" WHERE "x"."id" IN (?, ?)"#)
        #expect(rendered.arguments == [.integer(1), .integer(2)])
    }

    @Test("Statements that cannot be valid SQL throw with a message")
    func invalidStatements() throws {
        #expect(throws: SQLRenderError.self) { try sqlite(SQLInsert(into: "t", columns: ["a"], values: [])) }
        #expect(throws: SQLRenderError.self) { try sqlite(SQLInsert(into: "t", columns: [], values: [[]])) }
        #expect(throws: SQLRenderError.self) { try sqlite(SQLUpdate("t", set: [])) }
        #expect(throws: SQLRenderError.self) {
            try sqlite(SQLInsert(into: "t", columns: ["a"], values: [[int(1)]]).onConflict(["a"], doUpdate: []))
        }
        do {
            _ = try sqlite(SQLInsert(into: "t", columns: ["a", "b"], values: [[int(1), int(2)], [int(3)]]))
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == #"INSERT INTO "t": row 1 has 1 values but 2 were expected."#)
        }
    }

    @Test("SQLStatement wraps every statement kind")
    func statementEnum() throws {
        let statements: [SQLStatement] = [
            .select(SQLSelect(from: "t")), .insert(SQLInsert(into: "t", source: .defaultValues)),
            .update(SQLUpdate("t", set: [SQLAssignment("a", int(1))])), .delete(SQLDelete(from: "t")),
            .fragment("VACUUM"),
        ]
        #expect(try statements.map { try sqlite($0).sql } == [
            #"SELECT * FROM "t""#, #"INSERT INTO "t" DEFAULT VALUES"#, #"UPDATE "t" SET "a" = ?"#,
            #"DELETE FROM "t""#, "VACUUM",
        ])
    }
}
