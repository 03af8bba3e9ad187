import CairnQuery
import CairnTestSupport
import Testing


/// Random integer/boolean expression trees together with the value Swift computes for them
/// under SQLite's rules (booleans are 0/1, any non-zero is true).
struct ExpressionGenerator {
    var random: SeededRandom

    mutating func make(depth: Int) -> (SQLExpression, Int64) {
        let leafOnly = depth == 0
        switch leafOnly ? 0 : Int.random(in: 0...15, using: &random) {
        case 0, 1:
            let value = Int64.random(in: -3...3, using: &random)
            return (int(value), value)
        case 2:
            let (x, vx) = make(depth: depth - 1), (y, vy) = make(depth: depth - 1)
            return (x.plus(y), vx + vy)
        case 3:
            let (x, vx) = make(depth: depth - 1), (y, vy) = make(depth: depth - 1)
            return (x.minus(y), vx - vy)
        case 4:
            let (x, vx) = make(depth: depth - 1), (y, vy) = make(depth: depth - 1)
            return (x.times(y), vx * vy)
        case 5:
            // A divisor that is never zero: y * y + 1.
            let (x, vx) = make(depth: depth - 1), (y, vy) = make(depth: depth - 1)
            let divisor = y.times(y).plus(int(1))
            return Bool.random(using: &random)
                ? (x.dividedBy(divisor), vx / (vy * vy + 1))
                : (x.remainder(dividingBy: divisor), vx % (vy * vy + 1))
        case 6:
            let (x, vx) = make(depth: depth - 1)
            return (x.negated(), -vx)
        case 7:
            let (x, vx) = make(depth: depth - 1), (y, vy) = make(depth: depth - 1)
            let ops: [(SQLBinaryOperator, (Int64, Int64) -> Bool)] = [
                (.equal, (==)), (.notEqual, (!=)), (.less, (<)), (.lessOrEqual, (<=)),
                (.greater, (>)), (.greaterOrEqual, (>=)), (.is, (==)), (.isNot, (!=)),
            ]
            let (op, compare) = ops[Int.random(in: 0..<ops.count, using: &random)]
            return (.binary(op, x, y), compare(vx, vy) ? 1 : 0)
        case 8:
            let (x, vx) = make(depth: depth - 1), (y, vy) = make(depth: depth - 1)
            return (x.and(y), vx != 0 && vy != 0 ? 1 : 0)
        case 9:
            let (x, vx) = make(depth: depth - 1), (y, vy) = make(depth: depth - 1)
            return (x.or(y), vx != 0 || vy != 0 ? 1 : 0)
        case 10:
            let (x, vx) = make(depth: depth - 1)
            return (x.not(), vx == 0 ? 1 : 0)
        case 11:
            let (x, vx) = make(depth: depth - 1), (lo, vlo) = make(depth: depth - 1), (hi, vhi) = make(depth: depth - 1)
            return Bool.random(using: &random)
                ? (x.between(lo, and: hi), vlo <= vx && vx <= vhi ? 1 : 0)
                : (x.notBetween(lo, and: hi), vlo <= vx && vx <= vhi ? 0 : 1)
        case 12:
            let (x, vx) = make(depth: depth - 1), (y, vy) = make(depth: depth - 1), (z, vz) = make(depth: depth - 1)
            return Bool.random(using: &random)
                ? (x.in([y, z]), vx == vy || vx == vz ? 1 : 0)
                : (x.notIn([y, z]), vx == vy || vx == vz ? 0 : 1)
        case 13:
            let (w, vw) = make(depth: depth - 1), (x, vx) = make(depth: depth - 1), (y, vy) = make(depth: depth - 1)
            return (.case(when: [(w, x)], else: y), vw != 0 ? vx : vy)
        case 14:
            let (x, vx) = make(depth: depth - 1), (y, vy) = make(depth: depth - 1)
            return Bool.random(using: &random)
                ? (.binary(.bitwiseAnd, x, y), vx & vy) : (.binary(.bitwiseOr, x, y), vx | vy)
        default:
            let (x, vx) = make(depth: depth - 1)
            return (.function("abs", x), abs(vx))
        }
    }
}

@Suite("Rendered SQL runs in SQLite with the intended meaning")
struct SQLiteExecutionTests {
    @Test("Random expression trees evaluate in SQLite as the IR means them", arguments: 0..<8)
    func randomTrees(batch: Int) throws {
        let db = try SQLiteHarness()
        var generator = ExpressionGenerator(random: SeededRandom(seed: UInt64(batch) * 7919))
        for _ in 0..<100 {
            let (expression, expected) = generator.make(depth: 4)
            let rendered = try expression.render()
            let actual = try db.value(of: expression)
            #expect(actual == .integer(expected), "\(rendered.sql) with \(rendered.arguments)")
        }
    }

    @Test("Upsert inserts, then updates through excluded, and RETURNING reports the row")
    func upsert() throws {
        let db = try SQLiteHarness()
        func bump(_ name: String) -> SQLInsert {
            SQLInsert(into: "tags", columns: ["name", "count"], values: [[text(name), int(1)]])
                .onConflict(["name"], doUpdate: [SQLAssignment("count", .column("count").plus(.excluded("count")))])
                .returning([SQLSelectColumn(.column("name")), SQLSelectColumn(.column("count"))])
        }
        #expect(try db.rows(bump("home")) == [[.text("home"), .integer(1)]])
        #expect(try db.rows(bump("home")) == [[.text("home"), .integer(2)]])
        let ignored = SQLInsert(into: "tags", columns: ["name"], values: [[text("home")]]).onConflictDoNothing()
            .returning([SQLSelectColumn(.column("id"))])
        #expect(try db.rows(ignored).isEmpty)
        let fromSelect = SQLInsert(into: "tags", columns: ["name", "count"],
            source: .select(SQLSelect([SQLExpression.column("name").concatenated(with: text("!")), int(5)], from: .table("tags"))))
            .onConflictDoNothing(["name"])
        _ = try db.rows(fromSelect)
        #expect(try db.rows(SQLSelect([SQLExpression.column("name"), .column("count")], from: .table("tags")).orderBy(SQLExpression.column("name").ascending()))
            == [[.text("home"), .integer(2)], [.text("home!"), .integer(5)]])
    }

    @Test("Joins, grouping, ordering, paging, update and delete with aliases run")
    func statements() throws {
        let db = try SQLiteHarness()
        try db.execute("""
            INSERT INTO lists VALUES (1, 'Home'), (2, 'Work');
            INSERT INTO reminders (id, title, isCompleted, priority, listID) VALUES
              (1, 'milk', 0, 2, 1), (2, 'eggs', 1, NULL, 1), (3, 'deck', 0, 3, 2), (4, 'call', 0, 1, NULL);
            """)
        let r = SQLTableSource.table("reminders", as: "r"), l = SQLTableSource.table("lists", as: "l")
        let on = SQLExpression.column("id", table: "l").equals(.column("listID", table: "r"))
        for kind in [SQLJoinKind.inner, .left, .right, .full] {
            #expect(try !db.rows(SQLSelect(from: r).join(kind, l, on: on)).isEmpty)
        }
        let grouped = SQLSelect([SQLSelectColumn(.column("name", table: "l")), SQLSelectColumn(.countAll, as: "n"),
                                 SQLSelectColumn(.groupConcat(.column("title", table: "r"), separator: "|"))], from: r)
            .join(.left, l, on: on)
            .groupBy(.column("name", table: "l"))
            .having(SQLExpression.countAll.greaterThanOrEqual(int(1)))
            .orderBy(SQLExpression.column("name", table: "l").ascending(nulls: .last))
        let rows = try db.rows(grouped)
        #expect(rows.map(\.[0]) == [.text("Home"), .text("Work"), .null])
        #expect(rows.map(\.[1]) == [.integer(2), .integer(1), .integer(1)])
        let page = SQLSelect([SQLExpression.column("title")], from: .table("reminders"))
            .orderBy(SQLExpression.column("priority").descending(nulls: .last)).limit(2).offset(1)
        #expect(try db.rows(page) == [[.text("milk")], [.text("call")]])
        #expect(try db.rows(SQLSelect([SQLExpression.column("id")], from: .table("reminders")).offset(3)) == [[.integer(4)]])

        let update = SQLUpdate("reminders", as: "x", set: [SQLAssignment("isCompleted", .true)])
            .where(SQLExpression.column("priority", table: "x").isNull())
            .returning([SQLSelectColumn(.column("id"))])
        let updated = try db.rows(update)
        #expect(updated == [[.integer(2)]])
        let delete = SQLDelete(from: "reminders", as: "x").where(SQLExpression.column("isCompleted", table: "x"))
            .returning([SQLSelectColumn(.column("title"))])
        let deleted = try db.rows(delete)
        #expect(deleted == [[.text("eggs")]])
        #expect(try db.value(of: .subquery(SQLSelect([.countAll], from: .table("reminders")))) == .integer(3))
    }

    @Test("Compounds, CTEs, EXISTS and IN subqueries return the intended rows")
    func compoundsAndSubqueries() throws {
        let db = try SQLiteHarness()
        let counter = SQLSelect([int(1)]).union(all: true,
            SQLSelect([SQLExpression.column("n").plus(int(1))], from: .table("c")).where(.column("n").lessThan(int(5))))
        let cte = SQLSelect([SQLExpression.column("n")], from: .table("c"))
            .with(SQLCommonTableExpression("c", columns: ["n"], as: counter), recursive: true)
        #expect(try db.rows(cte) == (1...5).map { [.integer(Int64($0))] })

        let numbers = SQLSelect([SQLExpression.column("n")], from: .table("c"))
        let top = numbers.orderBy(SQLExpression.column("n").descending()).limit(1)
        let bottom = numbers.orderBy(SQLExpression.column("n").ascending()).limit(1)
        let extremes = top.union(bottom).orderBy(SQLExpression.column("n").ascending())
            .with(SQLCommonTableExpression("c", columns: ["n"], as: counter), recursive: true)
        #expect(try db.rows(extremes) == [[.integer(1)], [.integer(5)]])
        let odd = numbers.where(SQLExpression.column("n").remainder(dividingBy: int(2)).equals(int(1)))
        let evens = numbers.except(odd).with(SQLCommonTableExpression("c", columns: ["n"], as: counter), recursive: true)
        #expect(try db.rows(evens) == [[.integer(2)], [.integer(4)]])

        try db.execute("INSERT INTO t (id, a) VALUES (1, 'x'), (2, 'y'); INSERT INTO u (a) VALUES ('y');")
        let inSub = SQLSelect([SQLExpression.column("id")], from: .table("t"))
            .where(SQLExpression.column("a").in(SQLSelect([SQLExpression.column("a")], from: .table("u"))))
        #expect(try db.rows(inSub) == [[.integer(2)]])
        let exists = SQLSelect([SQLExpression.column("id", table: "t")], from: .table("t"))
            .where(.notExists(SQLSelect(from: "u").where(SQLExpression.column("a", table: "u").equals(.column("a", table: "t")))))
        #expect(try db.rows(exists) == [[.integer(1)]])
    }

    static let evaluations: [(String, SQLExpression, DatabaseValue)] = [
        ("LIKE with ESCAPE matches a literal %", text("50% off").like(text("50\\%%"), escape: text("\\")), .integer(1)),
        ("escaped % is not a wildcard", text("50 off").like(text("50\\%%"), escape: text("\\")), .integer(0)),
        ("GLOB is case-sensitive", text("Milk").glob(text("m*")), .integer(0)),
        ("empty IN is false even for NULL", SQLExpression.null.in([]), .integer(0)),
        ("empty NOT IN is true", int(1).notIn([]), .integer(1)),
        ("NULL IS NULL", SQLExpression.null.is(.value(.null)), .integer(1)),
        ("COLLATE NOCASE", text("A").collate("NOCASE").equals(text("a")), .integer(1)),
        ("CAST", text("12").cast(as: .integer).plus(int(1)), .integer(13)),
        ("concatenation", text("a").concatenated(with: int(1)).concatenated(with: .value(.real(2.5))), .text("a12.5")),
        ("COUNT FILTER", .subquery(SQLSelect([SQLExpression.countAll(filter: SQLExpression.column("n").greaterThan(int(2)))],
            from: .subquery(SQLSelect([int(1).aliased("n")]).union(all: true, SQLSelect([int(3)]))))), .integer(1)),
        ("raw fragment", .raw("\(int(2)) * \(DatabaseValue.integer(21))"), .integer(42)),
        ("simple CASE", .case(int(2), when: [(int(1), text("one")), (int(2), text("two"))], else: text("many")), .text("two")),
    ]

    @Test("Expressions evaluate to the expected value", arguments: evaluations)
    func evaluation(_ name: String, _ expression: SQLExpression, _ expected: DatabaseValue) throws {
        #expect(try SQLiteHarness().value(of: expression) == expected)
    }
}
