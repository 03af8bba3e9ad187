import Cairn
import Testing

@Suite("Typed SQL: createTemporaryTrigger")
struct TriggerTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    @Test func afterInsertRunsItsStatementWithValuesWrittenAsLiterals() throws {
        let trigger = Reminder.createTemporaryTrigger(
            "note_new",
            after: .insert { new in
                Reminder.find(new.id).update { $0.notes = "it's new" }
            })
        #expect(try trigger.render().sql == #"CREATE TEMPORARY TRIGGER "note_new" AFTER INSERT ON "reminders" FOR EACH ROW BEGIN UPDATE "reminders" SET "notes" = 'it''s new' WHERE "reminders"."id" = "new"."id"; END"#)
        #expect(try trigger.render().arguments.isEmpty)
        try trigger.execute(db)
        try Reminder.insert { Reminder.Draft(remindersListID: 1, title: "Call") }.execute(db)
        #expect(try Reminder.find(7).fetchOne(db)?.notes == "it's new")
        #expect(try Reminder.find(1).fetchOne(db)?.notes == "Milk, eggs")
    }

    @Test func updateOfColumnsWithAConditionSeesOldAndNew() throws {
        // Log a reminder's old title to facts when its title changes, and only then.
        let trigger = Reminder.createTemporaryTrigger(
            after: .update {
                $0.title
            } forEachRow: { old, _ in
                Fact.insert { $0.body } select: { Values(old.title) }
            } when: { old, new in
                old.title.neq(new.title)
            })
        let sql = try trigger.render().sql
        #expect(sql.hasPrefix(#"CREATE TEMPORARY TRIGGER "after_update_on_reminders@CairnTypedSQLTests/TriggerTests.swift:"#))
        #expect(sql.hasSuffix(#"AFTER UPDATE OF "title" ON "reminders" FOR EACH ROW WHEN "old"."title" <> "new"."title" BEGIN INSERT INTO "facts" ("body") SELECT "old"."title"; END"#))
        try trigger.execute(db)
        try Reminder.find(2).update { $0.title = "Haircut!" }.execute(db)
        try Reminder.find(3).update { $0.title = "Doctor appointment" }.execute(db)  // unchanged
        try Reminder.find(4).update { $0.notes = "slowly" }.execute(db)  // another column
        #expect(try Fact.order(by: \.id).select(\.body).fetchAll(db).last == "Haircut")
        #expect(try Fact.fetchCount(db) == 4)
    }

    @Test func deleteTriggerRunsSeveralStatementsInOrder() throws {
        let withCounter = true
        try RemindersList.createTemporaryTrigger(
            after: .delete { old in
                Fact.insert { $0.body } values: { "deleted a list" }
                if withCounter {
                    Counter.find(1).update { $0.count += 1 }
                }
                Tag.where { $0.title.eq(old.title) }.delete()
            }
        ).execute(db)
        try RemindersList.find(1).delete().execute(db)  // "Personal", also a tag's title
        #expect(try Fact.order(by: \.id).select(\.body).fetchAll(db).last == "deleted a list")
        #expect(try Counter.find(1).fetchOne(db)?.count == 4)
        #expect(try Tag.where { $0.title.eq("Personal") }.fetchCount(db) == 0)
    }

    @Test func beforeTriggerCanRefuseTheChangeWithSQL() throws {
        try Tag.createTemporaryTrigger(
            before: .delete { _ in
                #sql("SELECT RAISE(ABORT, 'tags are kept')")
            } when: { old in
                old.title.eq("kids")
            }
        ).execute(db)
        #expect(throws: DatabaseError.self) { try Tag.find(2).delete().execute(db) }
        try Tag.find(1).delete().execute(db)
        #expect(try Tag.fetchCount(db) == 4)
    }

    @Test func dropRemovesTheTriggerAndIfNotExistsKeepsOne() throws {
        let trigger = Tag.createTemporaryTrigger(
            "count_tags", ifNotExists: true,
            after: .insert { _ in Counter.find(2).update { $0.count += 1 } })
        try trigger.execute(db)
        try trigger.execute(db)  // IF NOT EXISTS: no error, still one trigger
        try Tag.insert { Tag.Draft(title: "new") }.execute(db)
        #expect(try Counter.find(2).fetchOne(db)?.count == 6)
        #expect(try trigger.drop().render().sql == #"DROP TRIGGER "count_tags""#)
        try trigger.drop().execute(db)
        try trigger.drop(ifExists: true).execute(db)
        try Tag.insert { Tag.Draft(title: "newer") }.execute(db)
        #expect(try Counter.find(2).fetchOne(db)?.count == 6)
    }

    @Test func aTriggerWithoutAValidBodyThrows() throws {
        let empty = Tag.createTemporaryTrigger(after: .insert { _ in if false { Tag.find(1).delete() } })
        #expect(throws: TypedSQLError.self) { try empty.execute(db) }
        let nul = Tag.createTemporaryTrigger(after: .insert { _ in Tag.where { $0.title.eq("a\0b") }.delete() })
        #expect(throws: SQLRenderError.self) { try nul.execute(db) }
        let notAStatement = Tag.createTemporaryTrigger(after: .insert { new in SQLQueryExpression<Int>(new.id) })
        #expect(throws: TypedSQLError.self) { try notAStatement.execute(db) }
        #expect(try db.fetchAll(sql: "SELECT name FROM sqlite_temp_master WHERE type = 'trigger'") { $0.databaseValue(at: 0) }.isEmpty)
    }
}
