import Cairn
import Testing

@Suite("Typed SQL: operators and functions")
struct OperatorTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    /// The SQL of a condition on reminders, and the ids of the reminders it keeps.
    func check(
        _ condition: (Reminder.TableColumns) -> SQLQueryExpression<Bool>, _ sql: String, _ ids: [Int],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let query = Reminder.where(condition).order(by: \.id).select(\.id)
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."id" FROM "reminders" WHERE "# + sql + #" ORDER BY "reminders"."id" ASC"#,
            rows: { try query.fetchAll(db) }, ids, sourceLocation: sourceLocation)
    }

    @Test func comparisonsWithValues() throws {
        try check({ $0.position.eq(1) }, #""reminders"."position" = ?"#, [2, 5])
        try check({ $0.position.neq(1) }, #""reminders"."position" <> ?"#, [1, 3, 4, 6])
        try check({ $0.position.gt(1) }, #""reminders"."position" > ?"#, [3, 6])
        try check({ $0.position.gte(1) }, #""reminders"."position" >= ?"#, [2, 3, 5, 6])
        try check({ $0.position.lt(1) }, #""reminders"."position" < ?"#, [1, 4])
        try check({ $0.position.lte(1) }, #""reminders"."position" <= ?"#, [1, 2, 4, 5])
        try check({ $0.position.between(1, and: 2) }, #""reminders"."position" BETWEEN ? AND ?"#, [2, 3, 5, 6])
        try check({ $0.priority.is(nil) }, #""reminders"."priority" IS NULL"#, [4])
        try check({ $0.priority.isNot(nil) }, #""reminders"."priority" IS NOT NULL"#, [1, 2, 3, 5, 6])
        try check({ $0.priority.in([.low, .medium]) }, #""reminders"."priority" IN (?, ?)"#, [2, 3, 6])
        try check({ $0.priority.notIn([.low]) }, #""reminders"."priority" NOT IN (?)"#, [1, 3, 5])
        try check({ $0.id.in([Int]()) }, "0", [])
    }

    @Test func comparisonsWithBind() throws {
        // SQLiteData's Reminders example: `new.status.eq(#bind(.completing))`.
        try check({ $0.status.eq(#bind(.completed)) }, #""reminders"."status" = ?"#, [2, 5])
        try check({ $0.status.neq(#bind(.completed)) }, #""reminders"."status" <> ?"#, [1, 3, 4, 6])
        try check({ $0.priority.is(#bind(nil)) }, #""reminders"."priority" IS ?"#, [4])
        try check({ $0.priority.isNot(#bind(.high)) }, #""reminders"."priority" IS NOT ?"#, [2, 3, 4, 6])
        try check({ $0.position.gt(#bind(1)) }, #""reminders"."position" > ?"#, [3, 6])
        try check({ $0.position.gte(#bind(2)) }, #""reminders"."position" >= ?"#, [3, 6])
        try check({ $0.position.lt(#bind(1)) }, #""reminders"."position" < ?"#, [1, 4])
        try check({ $0.position.lte(#bind(0)) }, #""reminders"."position" <= ?"#, [1, 4])
        try check({ $0.dueDate.lt(#bind(today, as: Date?.self)) }, #""reminders"."dueDate" < ?"#, [5])
    }

    @Test func comparisonsBetweenColumns() throws {
        try check({ $0.position.eq($0.remindersListID) }, #""reminders"."position" = "reminders"."remindersListID""#, [2, 6])
        try check({ $0.position.gt($0.remindersListID) }, #""reminders"."position" > "reminders"."remindersListID""#, [3])
        try check({ $0.dueDate.is($0.dueDate) }, #""reminders"."dueDate" IS "reminders"."dueDate""#, [1, 2, 3, 4, 5, 6])
        try check({ $0.dueDate.eq($0.dueDate) }, #""reminders"."dueDate" = "reminders"."dueDate""#, [1, 3, 5, 6])
        try check({ $0.priority.isNot($0.priority) }, #""reminders"."priority" IS NOT "reminders"."priority""#, [])
    }

    @Test func textMatching() throws {
        try check({ $0.title.like("%a%t%") }, #""reminders"."title" LIKE ?"#, [2, 3])
        try check({ $0.title.glob("*a*t*") }, #""reminders"."title" GLOB ?"#, [2, 3])
        // LIKE ignores ASCII case, GLOB does not.
        try check({ $0.title.like("take%") }, #""reminders"."title" LIKE ?"#, [4])
        try check({ $0.title.glob("take*") }, #""reminders"."title" GLOB ?"#, [])
        try check({ $0.title.hasPrefix("Take") }, #""reminders"."title" LIKE ? ESCAPE ?"#, [4])
        try check({ $0.title.hasSuffix("kids") }, #""reminders"."title" LIKE ? ESCAPE ?"#, [6])
        try check({ $0.notes.contains("eggs") }, #""reminders"."notes" LIKE ? ESCAPE ?"#, [1])
        // Wildcards in the searched text match literally.
        try check({ $0.title.contains("%") }, #""reminders"."title" LIKE ? ESCAPE ?"#, [])
        try check({ $0.title.contains("_") }, #""reminders"."title" LIKE ? ESCAPE ?"#, [])
        // Also when the wildcard begins a longer character: `_́` is not "any character, then ́".
        try db.execute(sql: "UPDATE reminders SET notes = 'Cafe\u{301}' WHERE id = 2")
        try check({ $0.notes.contains("e\u{301}") }, #""reminders"."notes" LIKE ? ESCAPE ?"#, [2])
        try check({ $0.notes.contains("_\u{301}") }, #""reminders"."notes" LIKE ? ESCAPE ?"#, [])
        try check({ $0.notes.hasSuffix("%\u{301}") }, #""reminders"."notes" LIKE ? ESCAPE ?"#, [])
    }

    @Test func collationAndCase() throws {
        try check({ $0.title.collate(.nocase).eq("groceries") }, #""reminders"."title" COLLATE NOCASE = ?"#, [1])
        try check({ $0.title.lower().eq("haircut") }, #"lower("reminders"."title") = ?"#, [2])
        try check({ $0.title.upper().eq("HAIRCUT") }, #"upper("reminders"."title") = ?"#, [2])
        try check({ $0.title.length().gt(12) }, #"length("reminders"."title") > ?"#, [3, 5])
        let ordered = Tag.order { $0.title.collate(.nocase) }.select(\.title)
        #expect(try ordered.fetchAll(db) == ["car", "kids", "Personal", "someday", "Work"])
    }

    @Test func lengthAndInstrOfOptionalTextAreOptional() throws {
        // A left-joined column is optional text: "Business" has no reminders, so its row's
        // title is NULL, and so are its length and instr (typed as Int, the fetch would throw
        // "found NULL").
        let query = RemindersList.order(by: \.id)
            .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
            .where { list, reminder in list.id.eq(3) || reminder.id.eq(1) }
            .select { ($1.title.length(), $1.title.instr("ocer")) }
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == [9, nil])
        #expect(rows.map(\.1) == [3, nil])
        #expect(try query.render().sql.hasPrefix(#"SELECT length("reminders"."title"), instr("reminders"."title", ?) FROM"#))
    }

    @Test func coalesce() throws {
        let query = Reminder.order(by: \.id).select { $0.priority ?? Priority.medium }
        try assertQuery(
            query,
            sql: #"SELECT coalesce("reminders"."priority", ?) FROM "reminders" ORDER BY "reminders"."id" ASC"#,
            rows: { try query.fetchAll(db) }, [.high, .low, .medium, .medium, .high, .low])
    }

    @Test func logicWithOptionalSides() throws {
        let query = RemindersList
            .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) && $1.isFlagged && !$1.isCompleted }
            .order { list, reminder in (list.id, reminder.id) }
            .select { ($0.title, $1.title) }
        let rows = try query.fetchAll(db).map { "\($0.0):\($0.1 ?? "-")" }
        #expect(rows == ["Personal:Groceries", "Personal:Doctor appointment", "Family:-", "Business:-"])
    }
}
