import Foundation
import CairnQuery
import Testing

@Suite("Expression rendering")
struct ExpressionRenderingTests {
    static let leaves: [Snapshot] = [
        Snapshot("column", .column("title"), #""title""#),
        Snapshot("qualified column", .column("title", table: "t0"), #""t0"."title""#),
        Snapshot("excluded column", .excluded("count"), #""excluded"."count""#),
        Snapshot("integer value", int(42), "?", [.integer(42)]),
        Snapshot("real value", .value(.real(1.5)), "?", [.real(1.5)]),
        Snapshot("text value", text("x"), "?", [.text("x")]),
        Snapshot("blob value", .value(.blob(Data([0, 255]))), "?", [.blob(Data([0, 255]))]),
        Snapshot("bound null", .value(.null), "?", [.null]),
        Snapshot("NULL keyword", .null, "NULL"),
        Snapshot("true", .true, "1"),
        Snapshot("false", .false, "0"),
        Snapshot("star", .star, "*"),
        Snapshot("table star", .allColumns(of: "t0"), #""t0".*"#),
    ]

    @Test("Leaves", arguments: leaves)
    func leaf(_ snapshot: Snapshot) throws {
        let rendered = try sqlite(snapshot.expression)
        #expect(rendered.sql == snapshot.sql)
        #expect(rendered.arguments == snapshot.arguments)
    }

    static let operators: [Snapshot] = [
        Snapshot("=", a.equals(b), #""a" = "b""#),
        Snapshot("<>", a.notEquals(b), #""a" <> "b""#),
        Snapshot("<", a.lessThan(b), #""a" < "b""#),
        Snapshot("<=", a.lessThanOrEqual(b), #""a" <= "b""#),
        Snapshot(">", a.greaterThan(b), #""a" > "b""#),
        Snapshot(">=", a.greaterThanOrEqual(b), #""a" >= "b""#),
        Snapshot("IS", a.is(.null), #""a" IS NULL"#),
        Snapshot("IS NOT", a.isNot(int(1)), #""a" IS NOT ?"#, [.integer(1)]),
        Snapshot("IS NULL", a.isNull(), #""a" IS NULL"#),
        Snapshot("IS NOT NULL", a.isNotNull(), #""a" IS NOT NULL"#),
        Snapshot("AND", a.and(b), #""a" AND "b""#),
        Snapshot("OR", a.or(b), #""a" OR "b""#),
        Snapshot("NOT", a.not(), #"NOT "a""#),
        Snapshot("unary minus", a.negated(), #"-"a""#),
        Snapshot("unary plus", .unary(.positive, a), #"+"a""#),
        Snapshot("bitwise not", .unary(.bitwiseNot, a), #"~"a""#),
        Snapshot("+", a.plus(b), #""a" + "b""#),
        Snapshot("-", a.minus(b), #""a" - "b""#),
        Snapshot("*", a.times(b), #""a" * "b""#),
        Snapshot("/", a.dividedBy(b), #""a" / "b""#),
        Snapshot("%", a.remainder(dividingBy: b), #""a" % "b""#),
        Snapshot("||", a.concatenated(with: b), #""a" || "b""#),
        Snapshot("&", .binary(.bitwiseAnd, a, b), #""a" & "b""#),
        Snapshot("|", .binary(.bitwiseOr, a, b), #""a" | "b""#),
        Snapshot("<<", .binary(.leftShift, a, b), #""a" << "b""#),
        Snapshot(">>", .binary(.rightShift, a, b), #""a" >> "b""#),
        Snapshot("LIKE", a.like(text("x%")), #""a" LIKE ?"#, [.text("x%")]),
        Snapshot(
            "LIKE ESCAPE", a.like(text("50\\%%"), escape: text("\\")), #""a" LIKE ? ESCAPE ?"#,
            [.text("50\\%%"), .text("\\")]),
        Snapshot("NOT LIKE", a.notLike(text("x%")), #""a" NOT LIKE ?"#, [.text("x%")]),
        Snapshot("GLOB", a.glob(text("x*")), #""a" GLOB ?"#, [.text("x*")]),
        Snapshot("COLLATE", a.collate("NOCASE"), #""a" COLLATE NOCASE"#),
        Snapshot("CAST", a.cast(as: .real), #"CAST("a" AS REAL)"#),
        Snapshot("CAST named", a.cast(as: .named("VARCHAR(20)")), #"CAST("a" AS VARCHAR(20))"#),
        Snapshot(
            "BETWEEN", a.between(int(1), and: int(9)), #""a" BETWEEN ? AND ?"#,
            [.integer(1), .integer(9)]),
        Snapshot(
            "NOT BETWEEN", a.notBetween(int(1), and: int(9)), #""a" NOT BETWEEN ? AND ?"#,
            [.integer(1), .integer(9)]),
        Snapshot(
            "IN list", a.in([int(1), int(2), int(3)]), #""a" IN (?, ?, ?)"#,
            [.integer(1), .integer(2), .integer(3)]),
        Snapshot("NOT IN list", a.notIn([text("x")]), #""a" NOT IN (?)"#, [.text("x")]),
        Snapshot("empty IN is false", a.in([]), "0"),
        Snapshot("empty NOT IN is true", a.notIn([]), "1"),
    ]

    @Test("Operators", arguments: operators)
    func `operator`(_ snapshot: Snapshot) throws {
        let rendered = try sqlite(snapshot.expression)
        #expect(rendered.sql == snapshot.sql)
        #expect(rendered.arguments == snapshot.arguments)
    }

    static let calls: [Snapshot] = [
        Snapshot("function", .function("cairn_fold", a), #"cairn_fold("a")"#),
        Snapshot(
            "function with arguments", .function("coalesce", [a, int(0)]), #"coalesce("a", ?)"#,
            [.integer(0)]),
        Snapshot("function without arguments", .function("random"), "random()"),
        Snapshot("COUNT(*)", .countAll, "COUNT(*)"),
        Snapshot(
            "COUNT(*) FILTER", .countAll(filter: a.greaterThan(int(1))),
            #"COUNT(*) FILTER (WHERE "a" > ?)"#, [.integer(1)]),
        Snapshot("COUNT(x)", .count(a), #"COUNT("a")"#),
        Snapshot("COUNT(DISTINCT x)", .count(a, distinct: true), #"COUNT(DISTINCT "a")"#),
        Snapshot(
            "COUNT(x) FILTER", .count(a, filter: b.isNotNull()),
            #"COUNT("a") FILTER (WHERE "b" IS NOT NULL)"#),
        Snapshot("SUM", .sum(a), #"SUM("a")"#),
        Snapshot("SUM DISTINCT", .sum(a, distinct: true), #"SUM(DISTINCT "a")"#),
        Snapshot("TOTAL", .total(a), #"TOTAL("a")"#),
        Snapshot("AVG", .avg(a), #"AVG("a")"#),
        Snapshot("MIN", .min(a), #"MIN("a")"#),
        Snapshot("MAX FILTER", .max(a, filter: b), #"MAX("a") FILTER (WHERE "b")"#),
        Snapshot("GROUP_CONCAT", .groupConcat(a), #"GROUP_CONCAT("a")"#),
        Snapshot(
            "GROUP_CONCAT separator", .groupConcat(a, separator: ", "), #"GROUP_CONCAT("a", ?)"#,
            [.text(", ")]),
        Snapshot(
            "GROUP_CONCAT ORDER BY", .groupConcat(a, ordering: [b.descending()]),
            #"GROUP_CONCAT("a" ORDER BY "b" DESC)"#),
        Snapshot(
            "searched CASE",
            .case(when: [(a, int(1)), (b, int(2))], else: int(3)),
            #"CASE WHEN "a" THEN ? WHEN "b" THEN ? ELSE ? END"#, [.integer(1), .integer(2), .integer(3)]),
        Snapshot(
            "simple CASE", .case(a, when: [(int(1), text("one"))]),
            #"CASE "a" WHEN ? THEN ? END"#, [.integer(1), .text("one")]),
        Snapshot("CASE without branches", .case(when: [], else: a.plus(b)), #"("a" + "b")"#),
        Snapshot(
            "EXISTS", .exists(SQLSelect(from: "t").where(a)),
            #"EXISTS (SELECT * FROM "t" WHERE "a")"#),
        Snapshot("NOT EXISTS", .notExists(SQLSelect(from: "t")), #"NOT EXISTS (SELECT * FROM "t")"#),
        Snapshot(
            "scalar subquery", .subquery(SQLSelect([.countAll], from: .table("t"))),
            #"(SELECT COUNT(*) FROM "t")"#),
        Snapshot(
            "IN subquery", a.in(SQLSelect([b], from: .table("t"))),
            #""a" IN (SELECT "b" FROM "t")"#),
        Snapshot(
            "NOT IN subquery", a.notIn(SQLSelect([b], from: .table("t"))),
            #""a" NOT IN (SELECT "b" FROM "t")"#),
    ]

    @Test("Functions, aggregates, CASE and subqueries", arguments: calls)
    func call(_ snapshot: Snapshot) throws {
        let rendered = try sqlite(snapshot.expression)
        #expect(rendered.sql == snapshot.sql)
        #expect(rendered.arguments == snapshot.arguments)
    }

    @Test("AND/OR fold arrays; empty AND is true, empty OR is false")
    func folding() throws {
        #expect(try sqlite(SQLExpression.and([])).sql == "1")
        #expect(try sqlite(SQLExpression.or([])).sql == "0")
        #expect(try postgres(SQLExpression.and([])).sql == "TRUE")
        #expect(try sqlite(SQLExpression.and([a])).sql == #""a""#)
        #expect(try sqlite(SQLExpression.and([a, b, c])).sql == #""a" AND "b" AND "c""#)
        #expect(try sqlite(SQLExpression.or([a, b.and(c)])).sql == #""a" OR "b" AND "c""#)
        #expect(try sqlite(SQLExpression.and([a, b.or(c)])).sql == #""a" AND ("b" OR "c")"#)
    }

    @Test("Raw fragments bind values, quote identifiers and nest expressions")
    func rawFragment() throws {
        let value = DatabaseValue.text("x")
        let fragment: SQLFragment = "lower(\(identifier: "ti\"tle")) = \(value) AND \(a.plus(b)) > \(bind: .integer(2))"
        let rendered = try sqlite(SQLExpression.raw(fragment))
        #expect(rendered.sql == #"lower("ti""tle") = ? AND ("a" + "b") > ?"#)
        #expect(rendered.arguments == [.text("x"), .integer(2)])
        // A raw fragment is parenthesized when used as an operand.
        #expect(try sqlite(SQLExpression.raw("x = 1 OR y = 2").and(a)).sql == #"(x = 1 OR y = 2) AND "a""#)
        // A fragment may hold a statement.
        let statement: SQLFragment = "\(SQLSelect(from: "t").where(a.equals(int(1)))) LIMIT 1"
        #expect(try sqlite(statement).sql == #"SELECT * FROM "t" WHERE "a" = ? LIMIT 1"#)
        #expect(try sqlite(statement).arguments == [.integer(1)])
    }

    @Test("Names that are not plain SQL names throw instead of reaching the text")
    func invalidNames() throws {
        #expect(throws: SQLRenderError.self) { try sqlite(SQLExpression.function("x); DROP TABLE t; --", a)) }
        #expect(throws: SQLRenderError.self) { try sqlite(a.collate("NOCASE; --")) }
        for type in ["INT) --", "TEXT), (SELECT x FROM y) AS (TEXT", "", "(1)", "1INT", "A(1)(2)", "A(1) B"] {
            #expect(throws: SQLRenderError.self, "\(type)") { try sqlite(a.cast(as: .named(type))) }
        }
        for type in ["DOUBLE PRECISION", "DECIMAL(10, 2)", "VARCHAR(20)", "_t1"] {
            #expect(try sqlite(a.cast(as: .named(type))).sql == #"CAST("a" AS \#(type))"#)
        }
        #expect(throws: SQLRenderError.self) { try sqlite(SQLExpression.aggregate(SQLAggregate(name: "", arguments: [a]))) }
        #expect(throws: SQLRenderError.self) { try sqlite(SQLExpression.column("a\0b")) }
        do {
            _ = try sqlite(SQLExpression.function("drop table", a))
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("Invalid function name 'drop table'"))
        }
    }
}
