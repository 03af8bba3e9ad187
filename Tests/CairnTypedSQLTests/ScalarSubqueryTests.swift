import Cairn
import Testing

@Suite("Typed SQL: a select of one value as a scalar subquery")
struct ScalarSubqueryTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    @Test func assignedInAnUpdate() throws {
        let update = Reminder.find(4).update {
            $0.position = Reminder.where { $0.remindersListID.eq(2) }.select { $0.position.max() ?? -1 }
        }
        try assertQuery(
            update,
            sql: #"UPDATE "reminders" SET "position" = (SELECT coalesce(MAX("reminders"."position"), ?) FROM "reminders" WHERE "reminders"."remindersListID" = ?) WHERE "reminders"."id" = ?"#,
            arguments: [.integer(-1), .integer(2), .integer(4)],
            rows: { try update.execute(db); return try Reminder.find(4).select(\.position).fetchAll(db) }, [2])
    }

    @Test func comparedInACondition() throws {
        let last = Reminder.where { $0.position.eq(Reminder.select { $0.position.max() ?? 0 }) }.order(by: \.id)
        #expect(try last.select(\.id).fetchAll(db) == [3, 6])
    }

    @Test func correlatedInASelection() throws {
        let counts = RemindersList.order(by: \.id).select { list in
            (list.title, Reminder.where { $0.remindersListID.eq(list.id) }.select { $0.id.count() })
        }
        let sql = try counts.render().sql
        #expect(sql == #"SELECT "remindersLists"."title", (SELECT COUNT("reminders"."id") FROM "reminders" WHERE "reminders"."remindersListID" = "remindersLists"."id") FROM "remindersLists" ORDER BY "remindersLists"."id" ASC"#)
        #expect(try counts.fetchAll(db).map { "\($0.0) \($0.1)" } == ["Personal 3", "Family 3", "Business 0"])
    }

    @Test func interpolatedInSQLAndUsedInATrigger() throws {
        // SQLiteData's Reminders example: a new list goes after the others.
        try RemindersList.createTemporaryTrigger(
            after: .insert { new in
                RemindersList.find(new.id).update {
                    $0.position = #sql(
                        "(\(RemindersList.where { $0.id.neq(new.id) }.select { $0.position.max() ?? -1 })) + 1", as: Int.self)
                }
            }
        ).execute(db)
        try RemindersList.insert { RemindersList.Draft(title: "Garden") }.execute(db)
        #expect(try RemindersList.find(4).select(\.position).fetchOne(db) == 3)
    }
}
