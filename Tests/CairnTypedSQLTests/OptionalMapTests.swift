import Cairn
import Foundation
import Testing

/// A table with optional text, for `map` on a `String?` column.
@Table
struct Errand: Identifiable, Hashable, Sendable {
    let id: Int
    var note: String?
    @Column(as: Date.UnixTimeRepresentation?.self)
    var doneAt: Date?
}

@Suite("Typed SQL: map and flatMap on optional expressions")
struct OptionalMapTests {
    let db: Database

    init() throws {
        db = try RemindersDatabase.make()
        db.add(function: $exclaim)
        try db.execute(sql: #"CREATE TABLE "errands" ("id" INTEGER PRIMARY KEY, "note" TEXT, "doneAt" REAL)"#)
        try Errand.insert {
            Errand(id: 1, note: "post office", doneAt: Date(timeIntervalSince1970: 1_772_357_407))
            Errand(id: 2, note: nil, doneAt: nil)
        }.execute(db)
    }

    @Test func mapOfADateComponentIsTheDirectForm() throws {
        let mapped = Reminder.order(by: \.id).select { ($0.dueDate.map(\.year), $0.dueDate.map { $0.month }) }
        let direct = Reminder.order(by: \.id).select { ($0.dueDate.year, $0.dueDate.month) }
        try assertQuery(
            mapped,
            sql: #"""
                SELECT CAST(strftime('%Y', "reminders"."dueDate") AS INTEGER), \#
                CAST(strftime('%m', "reminders"."dueDate") AS INTEGER) \#
                FROM "reminders" ORDER BY "reminders"."id" ASC
                """#,
            rows: { try mapped.fetchAll(db).map { [$0.0, $0.1] } },
            [[2026, 5], [nil, nil], [2026, 5], [nil, nil], [2026, 5], [2026, 5]])
        #expect(try mapped.render().sql == direct.render().sql)
        let unixTime = Errand.order(by: \.id).select { $0.doneAt.map(\.day) }
        #expect(try unixTime.render().sql
            == #"SELECT CAST(strftime('%d', "errands"."doneAt", 'unixepoch') AS INTEGER) FROM "errands" ORDER BY "errands"."id" ASC"#)
        #expect(try unixTime.fetchAll(db) == [1, nil])
    }

    @Test func mapOfATextFunctionIsTheDirectForm() throws {
        let mapped = Errand.order(by: \.id).select { ($0.note.map { $0.upper() }, $0.note.map { $0.length() }) }
        try assertQuery(
            mapped,
            sql: #"SELECT upper("errands"."note"), length("errands"."note") FROM "errands" ORDER BY "errands"."id" ASC"#,
            rows: { try mapped.fetchAll(db).map { "\($0.0 ?? "nil") \($0.1.map(String.init) ?? "nil")" } },
            ["POST OFFICE 11", "nil nil"])
        #expect(try mapped.render().sql
            == Errand.order(by: \.id).select { ($0.note.upper(), $0.note.length()) }.render().sql)
    }

    @Test func mapOfAComparisonIsAnOptionalCondition() throws {
        let due = Reminder.where { $0.dueDate.map { $0 > today } }.order(by: \.id).select(\.id)
        try assertQuery(
            due,
            sql: #"SELECT "reminders"."id" FROM "reminders" WHERE "reminders"."dueDate" > ? ORDER BY "reminders"."id" ASC"#,
            rows: { try due.fetchAll(db) },
            [1, 3, 6])
        let recent = Reminder.where { $0.dueDate.map { $0 > .now(.days(-7)) } }
        #expect(try recent.render().sql.hasSuffix(
            #"WHERE "reminders"."dueDate" > strftime('%Y-%m-%d %H:%M:%f', 'now', ?)"#))
        let flags = Reminder.order(by: \.id).select { $0.dueDate.map { $0.gt(today) } }
        #expect(try flags.fetchAll(db) == [true, nil, true, nil, false, true])
    }

    @Test func mapWrapsWhatGivesAValueForNull() throws {
        let shouted = Errand.order(by: \.id).select { $0.note.map { $exclaim($0) } }
        // exclaim(NULL) would throw: the CASE keeps it from being called for the NULL row.
        try assertQuery(
            shouted,
            sql: #"""
                SELECT CASE WHEN "errands"."note" IS NULL THEN NULL ELSE "exclaim"("errands"."note") END \#
                FROM "errands" ORDER BY "errands"."id" ASC
                """#,
            rows: { try shouted.fetchAll(db) },
            ["post office!", nil])
        let isHigh = Reminder.order(by: \.id).select { $0.priority.map { $0.is(Priority.high) } }
        try assertQuery(
            isHigh,
            sql: #"""
                SELECT CASE WHEN "reminders"."priority" IS NULL THEN NULL ELSE "reminders"."priority" IS ? END \#
                FROM "reminders" ORDER BY "reminders"."id" ASC
                """#,
            rows: { try isHigh.fetchAll(db) },
            [true, false, false, nil, true, false])
    }

    @Test func mapOfAComputedOptional() throws {
        let latest = Reminder.select { $0.dueDate.max().map(\.year) }
        try assertQuery(
            latest,
            sql: #"SELECT CAST(strftime('%Y', MAX("reminders"."dueDate")) AS INTEGER) FROM "reminders""#,
            rows: { try latest.fetchAll(db) },
            [2026])
        #expect(try Reminder.where { $0.id.gt(99) }.select { $0.dueDate.max().map(\.year) }.fetchAll(db) == [nil])
    }

    @Test func flatMapWritesTheClosureAsItIs() throws {
        let highest = Reminder.select { $0.priority.flatMap { $0.max() } }
        try assertQuery(
            highest,
            sql: #"SELECT MAX("reminders"."priority") FROM "reminders""#,
            rows: { try highest.fetchAll(db) },
            [.high])
        let notes = Errand.order(by: \.id).select { $0.note.flatMap { $0.upper().max() } }
        #expect(try notes.fetchAll(db) == ["POST OFFICE"])
    }

    @Test func mapOnTheOptionalSideOfAnOuterJoin() throws {
        let years = RemindersList.leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) && $1.dueDate.isNot(nil) }
            .order { ($0.id, $1.id) }
            .select { ($0.id, $1.dueDate.map(\.year)) }
        let rows = try years.fetchAll(db)
        #expect(rows.map(\.0) == [1, 1, 2, 2, 3])
        #expect(rows.map(\.1) == [2026, 2026, 2026, 2026, nil])
    }
}

@Suite("SQL IR: whether an expression is NULL for a NULL operand")
struct NullPropagationTests {
    static let x = SQLExpression.column("x", table: "t")

    @Test(arguments: [
        (SQLExpression.function("upper", x), true),
        (x.greaterThan(.value(.integer(3))), true),
        (x.plus(.value(.integer(1))).negated(), true),
        (x.cast(as: .integer), true),
        (SQLExpression.function("json_insert", x, .value(.text("$[#]")), .null), true),
        (SQLExpression.function("json_insert", .column("y"), .value(.text("$[#]")), x), false),
        (x.is(.value(.integer(3))), false),
        (x.isNull(), false),
        (x.greaterThan(.value(.integer(3))).and(.column("y")), false),
        (SQLExpression.function("coalesce", x, .value(.integer(0))), false),
        (SQLExpression.quotedFunction("upper", [x]), false),
        (x.in([]), false),
        (x.in([.value(.integer(1))]), true),
        (SQLExpression.max(x), false),
        (SQLExpression.raw("\(x) + 1"), false),
        (SQLExpression.raw(SQLFragment(segments: [.expression(x), .sql(" + 1")], propagatesNull: true)), true),
        (SQLExpression.case(when: [(x.isNull(), .null)], else: .function("coalesce", x, .null)), true),
        (SQLExpression.case(when: [(x.isNull(), .value(.integer(0)))], else: x), false),
    ])
    func propagation(expression: SQLExpression, propagates: Bool) throws {
        let sql = try expression.render().sql
        #expect(expression.propagatesNull(from: Self.x) == propagates, "\(sql)")
    }
}
