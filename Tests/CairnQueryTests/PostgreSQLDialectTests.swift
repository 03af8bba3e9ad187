import CairnQuery
import Testing

/// SQLite's spellings rendered for PostgreSQL: what is rewritten (as text) and what throws,
/// naming the construct.
@Suite("PostgreSQL dialect")
struct PostgreSQLDialectTests {
    let title = SQLExpression.column("title")
    let n = SQLExpression.column("n")

    func sql(_ expression: SQLExpression) throws -> String {
        try expression.render(dialect: PostgreSQLDialect()).sql
    }

    func error(_ expression: SQLExpression) -> String? {
        do { _ = try expression.render(dialect: PostgreSQLDialect()); return nil } catch { return "\(error)" }
    }

    @Test func scalarFunctionsAreSpelledAsPostgreSQLSpellsThem() throws {
        #expect(try sql(.function("instr", title, .value(.text("a")))) == #"strpos("title", $1)"#)
        #expect(try sql(.function("ifnull", n, .value(.integer(0)))) == #"coalesce("n", $1)"#)
        #expect(try sql(.function("iif", n.isNull(), .value(.integer(0)), n)) == #"CASE WHEN "n" IS NULL THEN $1 ELSE "n" END"#)
        #expect(try sql(.function("char", n)) == #"chr("n")"#)
        #expect(try sql(.function("unicode", title)) == #"ascii(nullif("title", ''))"#)
        #expect(try sql(.function("sign", n)) == #"CAST(sign(CAST("n" AS DOUBLE PRECISION)) AS BIGINT)"#)
        #expect(try sql(.function("hex", n)) == #"coalesce(upper(encode("n", 'hex')), '')"#)
        let quoted = try sql(.function("quote", title))
        #expect(quoted.hasPrefix("coalesce(") && quoted.hasSuffix(", 'NULL')"))
        #expect(quoted.contains(#"replace("title", '''', '''''')"#))
        #expect(try sql(.function("zeroblob", n)) == #"decode(repeat('00', CAST("n" AS INTEGER)), 'hex')"#)
        #expect(try sql(.function("round", n)) == #"round(CAST("n" AS NUMERIC))"#)
        #expect(try sql(.function("round", n, .value(.integer(2)))) == #"round(CAST("n" AS NUMERIC), CAST($1 AS INTEGER))"#)
        #expect(try sql(.function("max", n, .value(.integer(3))))
            == #"CASE WHEN "n" IS NULL OR $1 IS NULL THEN NULL ELSE greatest("n", $2) END"#)
        #expect(try sql(.function("likely", n.isNull())) == #""n" IS NULL"#)
        #expect(try sql(.function("mod", n, .value(.integer(0))))
            == #"mod(CAST("n" AS NUMERIC), nullif(CAST($1 AS NUMERIC), 0))"#)
        // Functions PostgreSQL has under the same name and meaning pass through.
        #expect(try sql(.function("length", title)) == #"length("title")"#)
        #expect(try sql(.function("coalesce", n, .value(.integer(0)))) == #"coalesce("n", $1)"#)
    }

    @Test func aggregatesAreSpelledAsPostgreSQLSpellsThem() throws {
        #expect(try sql(.groupConcat(title)) == #"string_agg(CAST("title" AS TEXT), ',')"#)
        let rendered = try SQLExpression.groupConcat(title).render(dialect: PostgreSQLDialect())
        // Constants of a rewrite are written in, so a caller's bound values keep their places.
        #expect(rendered.arguments == [])
        #expect(try sql(.total(n)) == #"coalesce(sum(CAST("n" AS DOUBLE PRECISION)), 0.0)"#)
        #expect(try sql(.total(n, filter: n.greaterThan(.value(.integer(1)))))
            == #"coalesce(sum(CAST("n" AS DOUBLE PRECISION)) FILTER (WHERE "n" > $1), 0.0)"#)
        #expect(try sql(.count(n, distinct: true)) == #"COUNT(DISTINCT "n")"#)
    }

    @Test func orderingsWithoutNullsOrderGetSQLites() throws {
        let select = SQLSelect(from: "t").orderBy(n.ascending(), title.descending(), n.descending(nulls: .first))
        #expect(try select.render(dialect: PostgreSQLDialect()).sql
            == #"SELECT * FROM "t" ORDER BY "n" ASC NULLS FIRST, "title" DESC NULLS LAST, "n" DESC NULLS FIRST"#)
        #expect(try select.render().sql == #"SELECT * FROM "t" ORDER BY "n" ASC, "title" DESC, "n" DESC NULLS FIRST"#)
    }

    @Test func likeIgnoresTheCaseOfASCIILettersAsInSQLite() throws {
        #expect(try sql(title.like(.value(.text("a%")))) == #""title" ILIKE $1"#)
        #expect(try title.like(.value(.text("a%"))).render().sql == #""title" LIKE ?"#)
    }

    @Test func collationsAndOperatorsWithoutAnEquivalentThrowNamingThem() throws {
        #expect(try sql(title.collate("BINARY")) == #""title" COLLATE "C""#)
        #expect(error(title.collate("NOCASE"))?.contains("SQLite's NOCASE collation has no PostgreSQL form") == true)
        #expect(error(.binary(.glob, title, .value(.text("a[bc]*"))))?.contains("SQLite's GLOB operator") == true)
        #expect(error(.binary(.glob, title, .column("pattern")))?.contains("SQLite's GLOB operator") == true)
        #expect(error(.function("strftime", .value(.text("%Y")), n))?.contains("SQLite's date function strftime()") == true)
        #expect(error(.function("json_extract", title, .value(.text("$.a"))))?.contains("JSON function json_extract()") == true)
        #expect(error(.function("typeof", n))?.contains("typeof()") == true)
        #expect(error(.function("randomblob", n))?.contains("SQLite's function randomblob()") == true)
        // SQLite renders all of them.
        #expect(try title.collate("NOCASE").render().sql == #""title" COLLATE NOCASE"#)
    }

    @Test func aGlobWithAConstantPatternIsACaseSensitiveLike() throws {
        let rendered = try SQLExpression.binary(.glob, title, .value(.text("*50[%]?[*]"))).render(dialect: PostgreSQLDialect())
        #expect(rendered.sql == #"("title" LIKE $1 ESCAPE '\')"#)
        #expect(rendered.arguments == [.text(#"%50\%_*"#)])
    }

    @Test func aDivisionByAnExpressionAnswersNullForZeroAsInSQLite() throws {
        let a = SQLExpression.column("a"), b = SQLExpression.column("b")
        #expect(try sql(.binary(.divide, a, b)) == #""a" / nullif("b", 0)"#)
        #expect(try sql(.binary(.remainder, a, b.minus(.value(.integer(1))))) == #""a" % nullif("b" - $1, 0)"#)
        #expect(try sql(.binary(.divide, a, .value(.integer(2)))) == #""a" / $1"#)
        #expect(try SQLExpression.binary(.divide, a, b).render().sql == #""a" / "b""#)
    }

    @Test func aBoundDivisorOfAStatedTypeIsCastInsideNullif() throws {
        let a = SQLExpression.column("a")
        let integer = a.dividedBy(SQLExpression.value(.integer(0)).typed(as: .integer))
        let rendered = try integer.render(dialect: PostgreSQLDialect())
        #expect(rendered.sql == #""a" / nullif(CAST($1 AS BIGINT), 0)"#)
        #expect(rendered.arguments == [.integer(0)])
        #expect(try sql(a.remainder(dividingBy: SQLExpression.parameter(0).typed(as: .real)))
            == #""a" % nullif(CAST($1 AS DOUBLE PRECISION), 0)"#)
        // SQLite writes the value bare, and a stated type on anything else changes nothing.
        #expect(try integer.render().sql == #""a" / ?"#)
        #expect(a.typed(as: .integer) == a)
        #expect(try sql(a.dividedBy(SQLExpression.column("b").typed(as: .integer))) == #""a" / nullif("b", 0)"#)
    }

    @Test func globPatternsBecomeLikePatternsOrNil() {
        #expect(SQLPattern.like(fromGlob: "*a?b*") == "%a_b%")
        #expect(SQLPattern.like(fromGlob: "100%_\\") == #"100\%\_\\"#)
        #expect(SQLPattern.like(fromGlob: SQLPattern.escapingGlob("[*?]")) == "[*?]")
        #expect(SQLPattern.like(fromGlob: "[ab]") == nil)
        #expect(SQLPattern.like(fromGlob: "[^a]") == nil)
        #expect(SQLPattern.like(fromGlob: "[a") == nil)
    }
}
