import CairnQuery
import Testing

@Suite("Parameters, table references and large expressions")
struct ReuseTests {
    @Test("A parameterized rendering is bound later with new values")
    func parameters() throws {
        let select = SQLSelect(from: "t")
            .where(a.equals(.parameter(0)).and(b.greaterThan(int(5))).and(c.like(.parameter(1))))
            .limit(.parameter(2))
        let template = try sqlite(select)
        #expect(template.sql == #"SELECT * FROM "t" WHERE "a" = ? AND "b" > ? AND "c" LIKE ? LIMIT ?"#)
        #expect(template.hasParameters)
        #expect(template.parameterCount == 3)
        let bound = try template.binding([.integer(1), .text("x%"), .integer(10)])
        #expect(bound.sql == template.sql)
        #expect(bound.arguments == [.integer(1), .integer(5), .text("x%"), .integer(10)])
        let rebound = try template.binding([.integer(2), .text("y%"), .integer(20)])
        #expect(rebound.arguments == [.integer(2), .integer(5), .text("y%"), .integer(20)])
        // One parameter may appear several times.
        let twice = try sqlite(a.equals(.parameter(0)).or(b.equals(.parameter(0)))).binding([.text("v")])
        #expect(twice.arguments == [.text("v"), .text("v")])
        #expect(try postgres(select).sql.hasSuffix("LIKE $3 LIMIT $4"))
        #expect(!(try sqlite(a.equals(int(1)))).hasParameters)
    }

    @Test("An INSERT whose values are all parameters, in order or not, binds each value to its column")
    func insertParameters() throws {
        let inOrder = try sqlite(SQLInsert(into: "t", columns: ["a", "b", "c"], values: [[.parameter(0), .parameter(1), .parameter(2)]]))
        #expect(inOrder.sql == #"INSERT INTO "t" ("a", "b", "c") VALUES (?, ?, ?)"#)
        #expect(try inOrder.binding([.integer(1), .text("x"), .null]).arguments == [.integer(1), .text("x"), .null])
        // Too few or too many values: the ordinary rules (an error, or the extra ignored).
        #expect(throws: SQLRenderError.self) { try inOrder.binding([.integer(1), .text("x")]) }
        #expect(try inOrder.binding([.integer(1), .text("x"), .null, .integer(9)]).arguments == [.integer(1), .text("x"), .null])
        let swapped = try sqlite(SQLInsert(into: "t", columns: ["a", "b"], values: [[.parameter(1), .parameter(0)]]))
        #expect(try swapped.binding([.integer(1), .text("x")]).arguments == [.text("x"), .integer(1)])
        let mixed = try sqlite(SQLInsert(into: "t", columns: ["a", "b"], values: [[.parameter(0), int(7)]]))
        #expect(try mixed.binding([.integer(1)]).arguments == [.integer(1), .integer(7)])
    }

    @Test("A missing parameter value is an error naming the index")
    func missingParameter() throws {
        let template = try sqlite(a.equals(.parameter(1)))
        do {
            _ = try template.binding([.integer(1)])
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == #"No value for parameter 1 (1 given) of: "a" = ?"#)
        }
    }

    @Test("Parameterized SQL runs in SQLite")
    func parametersRun() throws {
        let db = try SQLiteHarness()
        let template = try SQLSelect([SQLExpression.parameter(0).plus(.parameter(1))]).render()
        #expect(try db.rows(template.binding([.integer(40), .integer(2)])) == [[.integer(42)]])
    }

    @Test("Row values")
    func rowValues() throws {
        let expression = SQLExpression.row([a, b]).in(SQLSelect([c, d], from: .table("u")))
        #expect(try sqlite(expression).sql == #"("a", "b") IN (SELECT "c", "d" FROM "u")"#)
        let db = try SQLiteHarness()
        #expect(try db.value(of: SQLExpression.row([int(1), int(2)]).equals(.row([int(1), int(2)]))) == .integer(1))
    }

    @Test("AND/OR stay flat, so 10,000 conditions render, hash, compare and run in SQLite")
    func largeConjunction() throws {
        let conditions = (0..<10_000).map { a.equals(int(Int64($0))) }
        let folded = SQLExpression.or(conditions)
        let rendered = try sqlite(SQLSelect(from: "t").where(folded.and(b)))
        #expect(rendered.arguments.count == 10_000)
        // Long lists render as groups, so SQLite's expression depth limit (1000) is not hit.
        #expect(rendered.sql.hasPrefix(#"SELECT * FROM "t" WHERE (("a" = ? OR "a" = ? OR"#))
        #expect(rendered.sql.hasSuffix(#""a" = ?)) AND "b""#))
        #expect(Set([folded, SQLExpression.or(conditions)]).count == 1)
        // 2,000 ORs would be 2,000 deep ungrouped; SQLite accepts them grouped. (SQLite's
        // planner is quadratic in OR terms, so large value sets belong in `IN (…)`.)
        let db = try SQLiteHarness()
        try db.execute("INSERT INTO t (a) VALUES (1999), (2000)")
        let twoThousand = SQLExpression.or(Array(conditions.prefix(2_000)))
        #expect(try db.rows(SQLSelect([a], from: .table("t")).where(twoThousand)) == [[.integer(1999)]])
        // Chaining `.or` one condition at a time builds the same flat list.
        let few = Array(conditions.prefix(300))
        let chained = few.dropFirst().reduce(few[0]) { $0.or($1) }
        #expect(chained == SQLExpression.or(few))
        #expect(try sqlite(SQLExpression.or(Array(conditions.prefix(100)))).sql.first == "\"")
        #expect(try sqlite(SQLExpression.or(Array(conditions.prefix(101)))).sql.first == "(")
    }

    @Test("Table references: FROM, joins, subqueries, CTEs left out, writes included")
    func tableReferences() {
        let select = SQLSelect(from: "reminders")
            .join(.left, .table("lists", as: "l"), on: nil)
            .where(.exists(SQLSelect(from: "tags")))
            .where(a.in(SQLSelect([b], from: .subquery(SQLSelect(from: "notes")))))
            .with(SQLCommonTableExpression("recent", as: SQLSelect(from: "events")))
            .union(SQLSelect(from: "recent"))
        #expect(select.tableReferences.tables == ["reminders", "lists", "tags", "notes", "events"])
        #expect(!select.tableReferences.containsRawSQL)
        let update = SQLUpdate("t", set: [SQLAssignment("a", .subquery(SQLSelect([SQLExpression.countAll], from: .table("u"))))])
        #expect(update.tableReferences.tables == ["t", "u"])
        let raw = SQLSelect(from: "t").where(.raw("id IN (SELECT x FROM hidden)"))
        #expect(raw.tableReferences.containsRawSQL)
        #expect(SQLDelete(from: "d").tableReferences.tables == ["d"])
    }

    @Test("Descriptions show the SQLite text without values")
    func descriptions() {
        #expect("\(a.equals(text("secret")))" == #""a" = ?"#)
        #expect("\(SQLSelect(from: "t"))" == #"SELECT * FROM "t""#)
        #expect("\(SQLExpression.function("bad name"))".hasPrefix("<cannot render: Invalid function name"))
    }
}
