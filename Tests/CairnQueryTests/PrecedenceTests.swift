import CairnQuery
import Testing

@Suite("Precedence and parentheses")
struct PrecedenceTests {
    static let cases: [Snapshot] = [
        Snapshot("OR under AND", a.or(b).and(c), #"("a" OR "b") AND "c""#),
        Snapshot("AND under OR", a.and(b).or(c), #""a" AND "b" OR "c""#),
        Snapshot("OR right of AND", a.and(b.or(c)), #""a" AND ("b" OR "c")"#),
        Snapshot("AND chain", a.and(b.and(c)), #""a" AND "b" AND "c""#),
        Snapshot("NOT over OR", a.or(b).not(), #"NOT ("a" OR "b")"#),
        Snapshot("NOT over AND", a.and(b).not(), #"NOT ("a" AND "b")"#),
        Snapshot("NOT then AND", a.not().and(b), #"NOT "a" AND "b""#),
        Snapshot("NOT over comparison", a.equals(b).not(), #"NOT "a" = "b""#),
        Snapshot("double NOT", a.not().not(), #"NOT NOT "a""#),
        Snapshot(
            "nested logic",
            a.equals(int(1)).or(b.not()).and(c.or(d.isNull()).not()),
            #"("a" = ? OR NOT "b") AND NOT ("c" OR "d" IS NULL)"#, [.integer(1)]),
        Snapshot("sum times", a.plus(b).times(c), #"("a" + "b") * "c""#),
        Snapshot("product plus", a.times(b).plus(c), #""a" * "b" + "c""#),
        Snapshot("left-assoc minus", a.minus(b).minus(c), #""a" - "b" - "c""#),
        Snapshot("right-nested minus", a.minus(b.minus(c)), #""a" - ("b" - "c")"#),
        Snapshot("right-nested plus keeps parens", a.plus(b.plus(c)), #""a" + ("b" + "c")"#),
        Snapshot("right-nested divide", a.dividedBy(b.times(c)), #""a" / ("b" * "c")"#),
        Snapshot("remainder of sum", a.plus(b).remainder(dividingBy: c), #"("a" + "b") % "c""#),
        Snapshot("minus of sum", a.plus(b).negated(), #"-("a" + "b")"#),
        Snapshot("minus minus is never a comment", a.negated().negated(), #"-(-"a")"#),
        Snapshot("minus value", int(1).negated(), "-?", [.integer(1)]),
        Snapshot("arithmetic in comparison", a.plus(b).equals(c.times(d)), #""a" + "b" = "c" * "d""#),
        Snapshot("comparison of comparison", a.equals(b).equals(c), #"("a" = "b") = "c""#),
        Snapshot("IS NULL of comparison", a.equals(b).isNull(), #"("a" = "b") IS NULL"#),
        Snapshot("IS NULL of sum", a.plus(b).isNull(), #""a" + "b" IS NULL"#),
        Snapshot("concat under plus", a.concatenated(with: b).plus(c), #"("a" || "b") + "c""#),
        Snapshot("plus under concat", a.plus(b).concatenated(with: c), #"("a" + "b") || "c""#),
        Snapshot("concat chain", a.concatenated(with: b).concatenated(with: c), #""a" || "b" || "c""#),
        Snapshot("collate of sum", a.plus(b).collate("NOCASE"), #"("a" + "b") COLLATE NOCASE"#),
        Snapshot("collate in comparison", a.collate("NOCASE").equals(b), #""a" COLLATE NOCASE = "b""#),
        Snapshot("BETWEEN of OR", a.or(b).between(c, and: d), #"("a" OR "b") BETWEEN "c" AND "d""#),
        Snapshot("AND inside BETWEEN", a.between(b.and(c), and: d), #""a" BETWEEN ("b" AND "c") AND "d""#),
        Snapshot("IN of comparison", a.equals(b).in([c]), #"("a" = "b") IN ("c")"#),
        Snapshot(
            "LIKE of concatenation", a.like(b.concatenated(with: text("%"))), #""a" LIKE "b" || ?"#,
            [.text("%")]),
        Snapshot("NOT EXISTS in AND", SQLExpression.notExists(SQLSelect(from: "t")).and(a),
            #"NOT EXISTS (SELECT * FROM "t") AND "a""#),
        Snapshot("CASE as operand", SQLExpression.case(when: [(a, b)], else: c).plus(d),
            #"CASE WHEN "a" THEN "b" ELSE "c" END + "d""#),
        Snapshot("negated comparison operand", a.lessThan(b).not().or(c),
            #"NOT "a" < "b" OR "c""#),
    ]

    @Test("Parentheses follow SQL precedence", arguments: cases)
    func parenthesize(_ snapshot: Snapshot) throws {
        let rendered = try sqlite(snapshot.expression)
        #expect(rendered.sql == snapshot.sql)
        #expect(rendered.arguments == snapshot.arguments)
    }
}
