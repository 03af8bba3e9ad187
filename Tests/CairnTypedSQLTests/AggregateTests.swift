import Cairn
import Testing

@Suite("Typed SQL: aggregates")
struct AggregateTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    @Test func countsInSelect() throws {
        let query = Reminder.select { ($0.count(), $0.priority.count(), $0.priority.count(distinct: true)) }
        try assertQuery(
            query,
            sql: #"SELECT COUNT("reminders"."id"), COUNT("reminders"."priority"), COUNT(DISTINCT "reminders"."priority") FROM "reminders""#,
            rows: { try query.fetchAll(db).map { [$0.0, $0.1, $0.2] } }, [[6, 5, 3]])
        let filtered = Reminder.select { $0.id.count(filter: $0.isFlagged) }
        try assertQuery(
            filtered,
            sql: #"SELECT COUNT("reminders"."id") FILTER (WHERE "reminders"."isFlagged") FROM "reminders""#,
            rows: { try filtered.fetchAll(db) }, [3])
    }

    @Test func sumTotalAverage() throws {
        let query = Reminder.select { ($0.position.sum(), $0.position.total(), $0.position.avg()) }
        try assertQuery(
            query,
            sql: #"SELECT SUM("reminders"."position"), TOTAL("reminders"."position"), AVG("reminders"."position") FROM "reminders""#,
            rows: { try query.fetchAll(db).map { "\($0.0 ?? -1) \($0.1) \($0.2 ?? -1)" } }, ["6 6.0 1.0"])
        let none = Reminder.where { $0.id.gt(100) }.select { ($0.position.sum(), $0.position.total(), $0.position.avg()) }
        let row = try #require(try none.fetchOne(db))
        #expect(row.0 == nil)
        #expect(row.1 == 0)
        #expect(row.2 == nil)
        let distinct = Reminder.select { $0.position.sum(distinct: true, filter: $0.isFlagged) }
        #expect(try distinct.fetchOne(db) == 3)  // 0 + 2 + 1
    }

    @Test func minAndMax() throws {
        let query = Reminder.select { ($0.dueDate.min(), $0.dueDate.max(), $0.title.max(filter: $0.isCompleted)) }
        try assertQuery(
            query,
            sql: #"SELECT MIN("reminders"."dueDate"), MAX("reminders"."dueDate"), MAX("reminders"."title") FILTER (WHERE "reminders"."isCompleted") FROM "reminders""#,
            rows: { try query.fetchAll(db).map { [$0.0, $0.1] } },
            [[today.addingTimeInterval(-86_400), today.addingTimeInterval(2 * 86_400)]])
        #expect(try query.fetchOne(db)?.2 == "Haircut")
        #expect(try Reminder.where { $0.id.gt(100) }.select { $0.id.max() }.fetchOne(db) == .some(nil))
    }

    @Test func groupConcat() throws {
        let query = RemindersList
            .group(by: \.id)
            .leftJoin(Tag.all) { $0.id.eq($1.id) }
            .select { list, tag in (list.title, tag.title.groupConcat()) }
        #expect(try query.render().sql.contains(#"GROUP_CONCAT("tags"."title")"#))
        let titles = Tag.where { $0.id.lte(3) }.select { $0.title.groupConcat(" | ") }
        try assertQuery(
            titles, sql: #"SELECT GROUP_CONCAT("tags"."title", ?) FROM "tags" WHERE "tags"."id" <= ?"#,
            rows: { try titles.fetchAll(db) }, ["car | kids | Personal"])
        let distinct = Reminder.select { $0.remindersListID.groupConcat(distinct: true) }
        #expect(try distinct.fetchOne(db) == "1,2")
    }

    @Test func aggregatesInHaving() throws {
        let query = RemindersList
            .group(by: \.id)
            .join(Reminder.all) { $0.id.eq($1.remindersListID) }
            .having { $1.position.sum().gt(2) && $1.dueDate.max().isNot(nil) }
            .select { list, _ in list.title }
        try assertQuery(
            query,
            sql: #"SELECT "remindersLists"."title" FROM "remindersLists" JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID" GROUP BY "remindersLists"."id" HAVING SUM("reminders"."position") > ? AND MAX("reminders"."dueDate") IS NOT NULL"#,
            rows: { try query.fetchAll(db) }, ["Personal", "Family"])
    }

    @Test func jsonGroupArrayDecodesEachGroupsValues() throws {
        let titles = RemindersList.group(by: \.id).order(by: \.id)
            .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
            .select { ($0.title, $1.title.jsonGroupArray(filter: $1.id.isNot(nil))) }
        #expect(try titles.render().sql == #"SELECT "remindersLists"."title", json_group_array("reminders"."title") FILTER (WHERE "reminders"."id" IS NOT NULL) FROM "remindersLists" LEFT JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID" GROUP BY "remindersLists"."id" ORDER BY "remindersLists"."id" ASC"#)
        let rows = try titles.fetchAll(db)
        #expect(rows.map(\.0) == ["Personal", "Family", "Business"])
        // The order within a group is SQLite's (no ORDER BY inside the aggregate).
        #expect(rows.map { $0.1.map { $0 ?? "nil" }.sorted() } == [
            ["Doctor appointment", "Groceries", "Haircut"], ["Buy concert tickets", "Pick up kids", "Take a walk"], [],
        ])
        // Without the filter, the unmatched side of the join gives a nil.
        let unfiltered = RemindersList.find(3).leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
            .select { $1.id.jsonGroupArray() }
        #expect(try unfiltered.fetchOne(db) == [nil])
        // Text that needs escaping in JSON, and distinct values.
        try Tag.insert { Tag.Draft(title: #"say "hi" \ ünïcödé 🙂"#) }.execute(db)
        let tags = try Tag.select { $0.title.jsonGroupArray() }.fetchOne(db)
        #expect(tags?.last == #"say "hi" \ ünïcödé 🙂"#)
        #expect(try Reminder.select { $0.remindersListID.jsonGroupArray(distinct: true) }.fetchOne(db) == [1, 2])
    }
}
