import Cairn
import Testing

@Suite("Typed SQL: @Table schema")
struct TableSchemaTests {
    @Test func tableNamesAreInferredAsStructuredQueriesDoes() {
        #expect(RemindersList.tableName == "remindersLists")
        #expect(Reminder.tableName == "reminders")
        #expect(ReminderTag.tableName == "reminderTags")
        #expect(Fact.tableName == "facts")
    }

    @Test func allSelectsEveryColumnInDeclarationOrder() throws {
        let db = try RemindersDatabase.make()
        try assertQuery(
            RemindersList.all,
            sql: #"SELECT "remindersLists"."id", "remindersLists"."color", "remindersLists"."position", "remindersLists"."title" FROM "remindersLists""#,
            rows: { try RemindersList.all.fetchAll(db) },
            RemindersDatabase.lists)
        #expect(try Reminder.fetchAll(db) == RemindersDatabase.reminders)
        #expect(try ReminderTag.fetchAll(db) == RemindersDatabase.reminderTags)
    }

    @Test func primaryKeyIsIDByDefault() throws {
        #expect(Reminder.columns.primaryKey.name == "id")
        let db = try RemindersDatabase.make()
        try assertQuery(
            Tag.find(4), sql: #"SELECT "tags"."id", "tags"."title" FROM "tags" WHERE "tags"."id" = ?"#,
            arguments: [.integer(4)], rows: { try Tag.find(4).fetchAll(db) }, [Tag(id: 4, title: "Work")])
    }
}
