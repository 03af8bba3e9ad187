import Cairn
import Foundation
import Testing

/// `select` on a statement that already selects adds its columns after the chosen ones, and a
/// join after `select` keeps them, as in StructuredQueries: rows are one flat tuple.
@Suite("Typed SQL: chained select and joins after select")
struct ChainedSelectTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    func line(_ values: Any...) -> String { values.map { "\($0)" }.joined(separator: "|") }

    @Test func aKeyPathSelectAddsAColumnAfterTheChosenOne() throws {
        let query: Select<(Int, String), Reminder, ()> = Reminder.select(\.id).where(\.isFlagged).order(by: \.id)
            .select(\.title)
        let rows = try query.fetchAll(db)
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."id", "reminders"."title" FROM "reminders" WHERE "reminders"."isFlagged" ORDER BY "reminders"."id" ASC"#,
            rows: { rows.map { line($0.0, $0.1) } },
            ["1|Groceries", "3|Doctor appointment", "5|Buy concert tickets"])
    }

    @Test func aClosureSelectAddsOneColumnOrATuple() throws {
        let one: Select<(Int, String), Reminder, ()> = Reminder.select { $0.id }.select { $0.title }
        #expect(try one.render().sql == #"SELECT "reminders"."id", "reminders"."title" FROM "reminders""#)

        let query = Reminder.select { $0.id }
            .where { $0.priority.isNot(nil) }
            .select { ($0.title, $0.priority) }
            .order { $0.id.desc() }
        let rows: [(Int, String, Priority?)] = try query.fetchAll(db)
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."id", "reminders"."title", "reminders"."priority" FROM "reminders" WHERE "reminders"."priority" IS NOT NULL ORDER BY "reminders"."id" DESC"#,
            rows: { rows.map { line($0.0, $0.1, $0.2.map { "\($0)" } ?? "nil") } },
            ["6|Pick up kids|low", "5|Buy concert tickets|high", "3|Doctor appointment|medium", "2|Haircut|low",
             "1|Groceries|high"])
    }

    @Test func threeSelectsInARowReadEveryColumnInOrder() throws {
        let query = Reminder.select { ($0.id, $0.title) }
            .where { !$0.isCompleted }
            .select { $0.position }
            .order(by: \.id)
            .select(\.isFlagged)
        let rows: [(Int, String, Int, Bool)] = try query.fetchAll(db)
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."id", "reminders"."title", "reminders"."position", "reminders"."isFlagged" FROM "reminders" WHERE NOT "reminders"."isCompleted" ORDER BY "reminders"."id" ASC"#,
            rows: { rows.map { line($0.0, $0.1, $0.2, $0.3) } },
            ["1|Groceries|0|true", "3|Doctor appointment|2|true", "4|Take a walk|0|false", "6|Pick up kids|2|false"])

        // A whole row and an aggregate chain too.
        let rowAndCount: [(Reminder, Int)] = try Reminder.select { $0 }.where { $0.id.eq(4) }
            .select { $0.id.count() }
            .fetchAll(db)
        #expect(rowAndCount.map { line($0.0.title, $0.1) } == ["Take a walk|1"])
    }

    @Test func anAggregateAddsAfterTheGroupKey() throws {
        let query = Reminder.select(\.remindersListID).group(by: \.remindersListID).select { $0.count() }
        let rows: [(Int, Int)] = try query.fetchAll(db)
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."remindersListID", COUNT("reminders"."id") FROM "reminders" GROUP BY "reminders"."remindersListID""#,
            rows: { rows.map { line($0.0, $0.1) } }, ["1|3", "2|3"])
        // `count()` on a statement selecting one value is the aggregate of it as a subquery.
        #expect(try Reminder.select { $0.id.count() }.where { $0.id.gt(Reminder.select(\.id).count()) }.render().sql
            == #"SELECT COUNT("reminders"."id") FROM "reminders" WHERE "reminders"."id" > COUNT((SELECT "reminders"."id" FROM "reminders"))"#)
    }

    @Test func aJoinAfterSelectKeepsTheChosenColumnsAndALaterSelectAddsToThem() throws {
        let titles: Select<String, Reminder, RemindersList> = Reminder.select(\.title)
            .join(RemindersList.all) { $0.remindersListID.eq($1.id) }
        let family = try titles.where { $1.title.eq("Family") }.order { reminder, _ in reminder.id }.fetchAll(db)
        #expect(family == ["Take a walk", "Buy concert tickets", "Pick up kids"])

        let query = titles
            .where { $1.position.gt(0) && !$0.isCompleted }
            .select { $1.title }
            .order { reminder, _ in reminder.id }
        let rows: [(String, String)] = try query.fetchAll(db)
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."title", "remindersLists"."title" FROM "reminders" JOIN "remindersLists" ON "reminders"."remindersListID" = "remindersLists"."id" WHERE "remindersLists"."position" > ? AND NOT "reminders"."isCompleted" ORDER BY "reminders"."id" ASC"#,
            arguments: [.integer(0)],
            rows: { rows.map { line($0.0, $0.1) } }, ["Take a walk|Family", "Pick up kids|Family"])

        let tuple: [(String, String, Int)] = try titles.where { reminder, _ in reminder.id.lt(3) }.order { reminder, _ in reminder.id }
            .select { ($1.title, $0.id) }
            .fetchAll(db)
        #expect(tuple.map { line($0.0, $0.1, $0.2) } == ["Groceries|Personal|1", "Haircut|Personal|2"])
    }

    @Test func aLeftJoinAfterSelectMakesTheLaterColumnsOptional() throws {
        let query = RemindersList.select(\.title)
            .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) && $1.isFlagged }
            .order { ($0.position, $1.id) }
            .select { $1.title }
        let rows: [(String, String?)] = try query.fetchAll(db)
        try assertQuery(
            query,
            sql: #"SELECT "remindersLists"."title", "reminders"."title" FROM "remindersLists" LEFT JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID" AND "reminders"."isFlagged" ORDER BY "remindersLists"."position" ASC, "reminders"."id" ASC"#,
            rows: { rows.map { line($0.0, $0.1 ?? "nil") } },
            ["Personal|Groceries", "Personal|Doctor appointment", "Family|Buy concert tickets", "Business|nil"])
    }

    @Test func joiningASelectingStatementAddsItsColumns() throws {
        let query = Reminder.select(\.id)
            .join(RemindersList.select(\.title).where { $0.id.eq(2) }) { $0.remindersListID.eq($1.id) }
            .order { reminder, _ in reminder.id }
        let rows: [(Int, String)] = try query.fetchAll(db)
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."id", "remindersLists"."title" FROM "reminders" JOIN "remindersLists" ON "reminders"."remindersListID" = "remindersLists"."id" WHERE "remindersLists"."id" = ? ORDER BY "reminders"."id" ASC"#,
            arguments: [.integer(2)],
            rows: { rows.map { line($0.0, $0.1) } }, ["4|Family", "5|Family", "6|Family"])
    }

    @Test func theFirstSelectAndJoinsRenderAsBefore() throws {
        let title: Select<String, Reminder, ()> = Reminder.select(\.title)
        #expect(try title.render().sql == #"SELECT "reminders"."title" FROM "reminders""#)
        let pair: Select<(Int, String), Reminder, ()> = Reminder.select { ($0.id, $0.title) }
        #expect(try pair.render().sql == #"SELECT "reminders"."id", "reminders"."title" FROM "reminders""#)
        #expect(try Reminder.count().render().sql == #"SELECT COUNT(*) FROM "reminders""#)

        let joined: SelectOf<RemindersList, Reminder> = RemindersList.all.join(Reminder.all) { $0.id.eq($1.remindersListID) }
        #expect(try joined.render().sql == #"SELECT "remindersLists"."id", "remindersLists"."color", "remindersLists"."position", "remindersLists"."title", "reminders"."id", "reminders"."dueDate", "reminders"."isCompleted", "reminders"."isFlagged", "reminders"."notes", "reminders"."position", "reminders"."priority", "reminders"."remindersListID", "reminders"."status", "reminders"."title" FROM "remindersLists" JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID""#)
        let pairs = try joined.where { $1.id.eq(4) }.fetchAll(db)
        #expect(pairs.map { line($0.0.title, $0.1.title) } == ["Family|Take a walk"])

        let selected: Select<(String, String), RemindersList, Reminder> = joined.select { ($0.title, $1.title) }
        #expect(try selected.render().sql == #"SELECT "remindersLists"."title", "reminders"."title" FROM "remindersLists" JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID""#)
        let counted: Select<Int, RemindersList, Reminder> = joined.count()
        #expect(try counted.render().sql == #"SELECT COUNT(*) FROM "remindersLists" JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID""#)
    }
}
