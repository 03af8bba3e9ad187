import Cairn
import Testing

@Suite("Typed SQL: arithmetic and concatenation operators")
struct ArithmeticTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    @Test func numericOperatorsRenderAndComputeInSQL() throws {
        let next = Reminder.order(by: \.id).select { $0.position + 1 }
        try assertQuery(
            next, sql: #"SELECT "reminders"."position" + ? FROM "reminders" ORDER BY "reminders"."id" ASC"#,
            rows: { try next.fetchAll(db) }, [1, 2, 3, 1, 2, 3])
        let mixed = Reminder.order(by: \.id).select { $0.position * 2 + $0.id - 1 }
        try assertQuery(
            mixed,
            sql: #"SELECT "reminders"."position" * ? + "reminders"."id" - ? FROM "reminders" ORDER BY "reminders"."id" ASC"#,
            rows: { try mixed.fetchAll(db) }, [0, 3, 6, 3, 6, 9])
        let grouped = Reminder.order(by: \.id).select { $0.position * ($0.id - 1) }
        #expect(try grouped.render().sql.hasPrefix(#"SELECT "reminders"."position" * ("reminders"."id" - ?)"#))
        #expect(try grouped.fetchAll(db) == [0, 1, 4, 0, 4, 10])
        // Integer division truncates, as Swift's does.
        #expect(try Reminder.order(by: \.id).select { ($0.id - 7) / 2 }.fetchAll(db) == [-3, -2, -2, -1, -1, 0])
        #expect(try Reminder.where { ($0.position + $0.id).gt(5) }.order(by: \.id).select(\.id).fetchAll(db) == [5, 6])
        #expect(try Reminder.order(by: \.id).select { (-$0.id) % 4 }.fetchAll(db) == [-1, -2, -3, 0, -1, -2])
        let byZero = Reminder.order(by: \.id).select { $0.id % 0 }
        try assertQuery(
            byZero, sql: #"SELECT "reminders"."id" % ? FROM "reminders" ORDER BY "reminders"."id" ASC"#,
            rows: { try byZero.fetchAll(db) }, [Int?](repeating: nil, count: 6))
    }

    @Test func anAggregateWithADefaultPlusOne() throws {
        // SQLiteData's Reminders example: the position after the last one.
        let nextPosition = RemindersList.select { ($0.position.max() ?? -1) + 1 }
        #expect(try nextPosition.fetchOne(db) == 3)
        try RemindersList.delete().execute(db)
        #expect(try nextPosition.fetchOne(db) == 0)
    }

    @Test func plusConcatenatesText() throws {
        let tagged = Tag.order(by: \.id).select { "#" + $0.title + "!" }
        try assertQuery(
            tagged, sql: #"SELECT ? || "tags"."title" || ? FROM "tags" ORDER BY "tags"."id" ASC"#,
            rows: { try tagged.fetchAll(db) }, ["#car!", "#kids!", "#Personal!", "#Work!", "#someday!"])
    }

    @Test func operatorsInUpdatesAndTriggers() throws {
        try Reminder.where { $0.remindersListID.eq(1) }.update { $0.position = $0.position * 10 + 1 }.execute(db)
        #expect(try Reminder.where { $0.remindersListID.eq(1) }.order(by: \.id).select(\.position).fetchAll(db) == [1, 11, 21])
        try RemindersList.createTemporaryTrigger(
            after: .insert { new in
                RemindersList.find(new.id).update {
                    $0.position = RemindersList.where { $0.id.neq(new.id) }.select { ($0.position.max() ?? -1) + 1 }
                }
            }
        ).execute(db)
        try RemindersList.insert { RemindersList.Draft(title: "Garden") }.execute(db)
        #expect(try RemindersList.find(4).select(\.position).fetchOne(db) == 3)
    }
}
