import Cairn
import Testing

/// Membership written from the collection's side, as StructuredQueries still compiles it: the
/// same SQL and rows as the `in`/`between` spelling it flips.
@Suite("Typed SQL: contains from the collection's side")
struct ContainmentTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    @Test func anArrayContainsAColumn() throws {
        let flipped = Reminder.where { [2, 3].contains($0.remindersListID) }.order(by: \.id).select(\.id)
        let direct = Reminder.where { $0.remindersListID.in([2, 3]) }.order(by: \.id).select(\.id)
        try assertQuery(
            flipped,
            sql: #"SELECT "reminders"."id" FROM "reminders" WHERE "reminders"."remindersListID" IN (?, ?) ORDER BY "reminders"."id" ASC"#,
            arguments: [.integer(2), .integer(3)],
            rows: { try flipped.fetchAll(db) }, try direct.fetchAll(db))
        #expect(try flipped.fetchAll(db).isEmpty == false)
        #expect(try Reminder.where { [Int]().contains($0.id) }.fetchCount(db) == 0)
        #expect(try Reminder.where { ["Take a walk"].contains($0.title) }.select(\.id).fetchAll(db) == [4])
    }

    @Test func aRangeContainsAColumn() throws {
        let flipped = Reminder.where { (2...4).contains($0.id) }.order(by: \.id).select(\.id)
        try assertQuery(
            flipped,
            sql: #"SELECT "reminders"."id" FROM "reminders" WHERE "reminders"."id" BETWEEN ? AND ? ORDER BY "reminders"."id" ASC"#,
            arguments: [.integer(2), .integer(4)],
            rows: { try flipped.fetchAll(db) }, [2, 3, 4])
    }

    @Test func aSubqueryContainsAColumn() throws {
        let flagged = Reminder.where(\.isFlagged).select(\.remindersListID)
        let flipped = RemindersList.where { flagged.contains($0.id) }.order(by: \.id).select(\.id)
        let direct = RemindersList.where { $0.id.in(flagged) }.order(by: \.id).select(\.id)
        #expect(try flipped.sqlStatement().render().sql == direct.sqlStatement().render().sql)
        #expect(try flipped.fetchAll(db) == direct.fetchAll(db))
        #expect(try !flipped.fetchAll(db).isEmpty)
    }

    @Test func theStandardLibrarysContainsIsUnchanged() {
        let ids = [1, 2, 3]
        let found: Bool = ids.contains(2)
        #expect(found && !(1...3).contains(4))
    }
}
