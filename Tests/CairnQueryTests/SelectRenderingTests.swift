import CairnQuery
import Testing

@Suite("SELECT rendering")
struct SelectRenderingTests {
    let r = SQLTableSource.table("reminders", as: "r")

    @Test("Every clause renders in SQL order")
    func everyClause() throws {
        let select = SQLSelect(
            [SQLSelectColumn(.column("title", table: "r")), SQLSelectColumn(.countAll, as: "n")],
            from: r
        )
        .distinct()
        .join(.left, .table("lists", as: "l"), on: .column("id", table: "l").equals(.column("listID", table: "r")))
        .where(.column("isCompleted", table: "r").not())
        .where(.column("priority", table: "r").greaterThan(int(1)))
        .groupBy(.column("title", table: "r"))
        .having(SQLExpression.countAll.greaterThan(int(2)))
        .orderBy(SQLExpression.column("title", table: "r").ascending(), SQLExpression.column("n").descending())
        .limit(10)
        .offset(20)
        let rendered = try sqlite(select)
        #expect(rendered.sql == """
            SELECT DISTINCT "r"."title", COUNT(*) AS "n" FROM "reminders" AS "r" \
            LEFT JOIN "lists" AS "l" ON "l"."id" = "r"."listID" \
            WHERE NOT "r"."isCompleted" AND "r"."priority" > ? \
            GROUP BY "r"."title" HAVING COUNT(*) > ? \
            ORDER BY "r"."title" ASC, "n" DESC LIMIT ? OFFSET ?
            """)
        #expect(rendered.arguments == [.integer(1), .integer(2), .integer(10), .integer(20)])
    }

    @Test("SELECT * and SELECT without FROM")
    func minimal() throws {
        #expect(try sqlite(SQLSelect(from: "t")).sql == #"SELECT * FROM "t""#)
        let constant = SQLSelect([int(1).plus(int(2))])
        #expect(try sqlite(constant).sql == "SELECT ? + ?")
        #expect(try sqlite(SQLSelect([.allColumns(of: "r")], from: r)).sql == #"SELECT "r".* FROM "reminders" AS "r""#)
    }

    static let joins: [(SQLJoinKind, String)] = [
        (.inner, "JOIN"), (.left, "LEFT JOIN"), (.right, "RIGHT JOIN"), (.full, "FULL JOIN"),
    ]

    @Test("Join kinds", arguments: joins)
    func join(_ kind: SQLJoinKind, _ keyword: String) throws {
        let select = SQLSelect(from: "a").join(kind, .table("b"), on: .column("x", table: "a").equals(.column("y", table: "b")))
        #expect(try sqlite(select).sql == #"SELECT * FROM "a" \#(keyword) "b" ON "a"."x" = "b"."y""#)
    }

    @Test("Cross join and subquery source")
    func crossAndSubquery() throws {
        let select = SQLSelect(from: "a").join(.cross, .subquery(SQLSelect(from: "b").where(c), as: "s"), on: nil)
        #expect(try sqlite(select).sql == #"SELECT * FROM "a" CROSS JOIN (SELECT * FROM "b" WHERE "c") AS "s""#)
    }

    @Test("ORDER BY terms: direction, NULLS FIRST/LAST, COLLATE")
    func ordering() throws {
        let select = SQLSelect(from: "t").orderBy(
            a.ascending(nulls: .first),
            b.descending(nulls: .last, collation: "NOCASE"),
            SQLOrderingTerm(c.plus(d), .descending, collation: "BINARY"))
        #expect(try sqlite(select).sql == """
            SELECT * FROM "t" ORDER BY "a" ASC NULLS FIRST, "b" COLLATE NOCASE DESC NULLS LAST, \
            ("c" + "d") COLLATE BINARY DESC
            """)
    }

    @Test("NULLS ordering is emulated when a dialect lacks it")
    func nullsEmulation() throws {
        struct OldSQLite: SQLDialect {
            func placeholder(at index: Int) -> String { "?" }
            func booleanLiteral(_ value: Bool) -> String { value ? "1" : "0" }
            var supportsNullsOrdering: Bool { false }
            func limitClause(limit: String?, offset: String?) -> String { SQLiteDialect().limitClause(limit: limit, offset: offset) }
            func typeName(_ type: SQLType) -> String { SQLiteDialect().typeName(type) }
            func nullSafeEqualityOperator(negated: Bool) -> String { negated ? "IS NOT" : "IS" }
        }
        let select = SQLSelect(from: "t").orderBy(a.ascending(nulls: .last), b.descending(nulls: .first))
        let rendered = try select.render(dialect: OldSQLite())
        #expect(rendered.sql == #"SELECT * FROM "t" ORDER BY "a" IS NULL ASC, "a" ASC, "b" IS NULL DESC, "b" DESC"#)
    }

    @Test("LIMIT and OFFSET are bound; OFFSET alone gets LIMIT -1")
    func limitOffset() throws {
        #expect(try sqlite(SQLSelect(from: "t").limit(5)).sql == #"SELECT * FROM "t" LIMIT ?"#)
        let offsetOnly = try sqlite(SQLSelect(from: "t").offset(5))
        #expect(offsetOnly.sql == #"SELECT * FROM "t" LIMIT -1 OFFSET ?"#)
        #expect(offsetOnly.arguments == [.integer(5)])
        #expect(try sqlite(SQLSelect(from: "t").limit(5).limit(nil)).sql == #"SELECT * FROM "t""#)
    }

    static let compounds: [(SQLCompoundOperator, String)] = [
        (.union, "UNION"), (.unionAll, "UNION ALL"), (.intersect, "INTERSECT"), (.except, "EXCEPT"),
    ]

    @Test("Compound operators", arguments: compounds)
    func compound(_ op: SQLCompoundOperator, _ keyword: String) throws {
        let select = SQLSelect([a], from: .table("x")).compound(op, SQLSelect([a], from: .table("y")))
            .orderBy(a.ascending()).limit(3)
        let rendered = try sqlite(select)
        #expect(rendered.sql == #"SELECT "a" FROM "x" \#(keyword) SELECT "a" FROM "y" ORDER BY "a" ASC LIMIT ?"#)
        #expect(rendered.arguments == [.integer(3)])
    }

    @Test("Compound members keep their own ORDER BY and LIMIT by wrapping")
    func compoundWrapping() throws {
        let first = SQLSelect([a], from: .table("x")).orderBy(a.descending()).limit(1)
        let second = SQLSelect([a], from: .table("y")).orderBy(a.ascending()).limit(2)
        let rendered = try sqlite(first.union(all: true, second))
        #expect(rendered.sql == """
            SELECT * FROM (SELECT "a" FROM "x" ORDER BY "a" DESC LIMIT ?) UNION ALL \
            SELECT * FROM (SELECT "a" FROM "y" ORDER BY "a" ASC LIMIT ?)
            """)
        #expect(rendered.arguments == [.integer(1), .integer(2)])
        let chained = SQLSelect([a], from: .table("x")).union(SQLSelect([a], from: .table("y")))
            .except(SQLSelect([a], from: .table("z")))
        #expect(try sqlite(chained).sql == #"SELECT "a" FROM "x" UNION SELECT "a" FROM "y" EXCEPT SELECT "a" FROM "z""#)
    }

    @Test("WITH and WITH RECURSIVE")
    func commonTableExpressions() throws {
        let counter = SQLSelect([int(1)]).union(all: true,
            SQLSelect([SQLExpression.column("n").plus(int(1))], from: .table("counter"))
                .where(.column("n").lessThan(int(5))))
        let select = SQLSelect(from: "counter")
            .with(SQLCommonTableExpression("counter", columns: ["n"], as: counter), recursive: true)
        let rendered = try sqlite(select)
        #expect(rendered.sql == """
            WITH RECURSIVE "counter"("n") AS (SELECT ? UNION ALL SELECT "n" + ? FROM "counter" \
            WHERE "n" < ?) SELECT * FROM "counter"
            """)
        #expect(rendered.arguments == [.integer(1), .integer(1), .integer(5)])
        let plain = SQLSelect(from: "x").with(SQLCommonTableExpression("x", as: SQLSelect(from: "t")))
        #expect(try sqlite(plain).sql == #"WITH "x" AS (SELECT * FROM "t") SELECT * FROM "x""#)
    }

    @Test("Arguments follow text order across clauses and subqueries")
    func argumentOrder() throws {
        let select = SQLSelect([int(1)], from: .subquery(SQLSelect(from: "t").where(a.equals(int(2))), as: "s"))
            .join(.inner, .table("u"), on: b.equals(int(3)))
            .where(c.in(SQLSelect([d], from: .table("v")).where(d.greaterThan(int(4)))))
            .groupBy(a).having(SQLExpression.sum(b).greaterThan(int(5)))
            .orderBy(SQLExpression.case(when: [(a, int(6))]).ascending())
            .limit(7).offset(8)
        let rendered = try sqlite(select)
        #expect(rendered.arguments == (1...8).map { .integer(Int64($0)) })
        let pg = try postgres(select)
        #expect(pg.sql.contains("$1") && pg.sql.contains("LIMIT $7 OFFSET $8"))
    }

    @Test("A select is a value: refining a copy leaves the base unchanged")
    func valueSemantics() throws {
        let base = SQLSelect(from: "t").where(a)
        let refined = base.where(b).limit(1)
        #expect(try sqlite(base).sql == #"SELECT * FROM "t" WHERE "a""#)
        #expect(try sqlite(refined).sql == #"SELECT * FROM "t" WHERE "a" AND "b" LIMIT ?"#)
        #expect(base != refined)
        #expect(base == SQLSelect(from: "t").where(a))
        #expect(Set([base, base, refined]).count == 2)
    }

    // The clauses sit in one shared box until a copy changes; the change must not reach the
    // values that share it.
    @Test("Changing a copy's clauses in place leaves every other copy as it was")
    func copyOnWrite() throws {
        let original = SQLSelect(from: "t").where(a)
        var copy = original
        copy.columns.append(SQLSelectColumn(b))
        copy.condition = nil
        copy.isDistinct = true
        #expect(try sqlite(original).sql == #"SELECT * FROM "t" WHERE "a""#)
        #expect(try sqlite(copy).sql == #"SELECT DISTINCT "b" FROM "t""#)
        var second = copy
        #expect(second == copy)
        second.isDistinct = false
        second.ordering.append(b.descending())
        #expect(try sqlite(copy).sql == #"SELECT DISTINCT "b" FROM "t""#)
        #expect(try sqlite(second).sql == #"SELECT "b" FROM "t" ORDER BY "b" DESC"#)
        #expect(second != copy)
        var rebuilt = SQLSelect([SQLSelectColumn(b)], from: .table("t"))
        rebuilt.isDistinct = true
        #expect(rebuilt == copy, "equal clauses in different boxes are equal")
        #expect(rebuilt.hashValue == copy.hashValue)
    }
}

// `SQLSelect.==` compares its clauses one by one (a render cache checks every cached select
// against the query at hand); a clause it forgot would make two different queries equal.
@Suite("SQLSelect equality")
struct SelectEqualityTests {
    @Test("a select differs from its base in each clause alone, and equals a separately built twin")
    func eachClauseCounts() {
        let a = SQLExpression.column("a"), b = SQLExpression.column("b")
        let base = { SQLSelect([SQLSelectColumn(a)], from: .table("t")) }
        let cte = SQLCommonTableExpression("x", as: SQLSelect(from: .table("u")))
        let variants: [(String, () -> SQLSelect)] = [
            ("columns", { base().select([SQLSelectColumn(b)]) }),
            ("from", { SQLSelect([SQLSelectColumn(a)], from: .table("u")) }),
            ("where", { base().where(a.equals(b)) }),
            ("join", { base().join(.left, .table("u"), on: a.equals(b)) }),
            ("group by", { base().groupBy(a) }),
            ("order by", { base().orderBy(SQLOrderingTerm(a, .descending)) }),
            ("limit", { base().limit(3) }),
            ("offset", { base().offset(3) }),
            ("distinct", { base().distinct() }),
            ("compound", { base().union(SQLSelect([SQLSelectColumn(a)], from: .table("u"))) }),
            ("with", { base().with(cte) }),
        ]
        for (name, make) in variants {
            #expect(make() != base(), "\(name) alone makes another select")
            #expect(make() == make(), "\(name): two selects built alike are equal")
            #expect(make().hashValue == make().hashValue, "\(name): equal selects hash alike")
        }
        #expect(base().with(cte, recursive: true) != base().with(cte), "WITH RECURSIVE is not WITH")
        #expect(base().groupBy(a).having(b.isNull()) != base().groupBy(a), "having alone makes another select")
    }
}
