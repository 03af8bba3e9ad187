import Cairn
import Testing

/// A reminder's title beside its list's title: the view of StructuredQueries' "Views" article.
/// `@Table @Selection`: a row to select into, and a table to query and insert into.
@Table @Selection
struct ReminderWithList: Hashable, Sendable {
    let reminderTitle: String
    let remindersListTitle: String
}

/// A list with its reminder count: a row whose first property is a whole table row.
@Selection
struct ListWithCount: Sendable {
    let remindersList: RemindersList
    let count: Int
}

@Suite("Typed SQL: createTemporaryView and INSTEAD OF triggers")
struct TemporaryViewTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    static let joined = Reminder
        .join(RemindersList.all) { $0.remindersListID.eq($1.id) }
        .select { ReminderWithList.Columns(reminderTitle: $0.title, remindersListTitle: $1.title) }

    @Test func aViewIsCreatedFromATypedSelectAndQueriedAsATable() throws {
        let view = ReminderWithList.createTemporaryView(as: Self.joined)
        #expect(try view.render().sql == #"CREATE TEMPORARY VIEW "reminderWithLists" ("reminderTitle", "remindersListTitle") AS SELECT "reminders"."title", "remindersLists"."title" FROM "reminders" JOIN "remindersLists" ON "reminders"."remindersListID" = "remindersLists"."id""#)
        try view.execute(db)

        let query = ReminderWithList.order { ($0.remindersListTitle, $0.reminderTitle) }.limit(3)
        #expect(try query.render().sql == #"SELECT "reminderWithLists"."reminderTitle", "reminderWithLists"."remindersListTitle" FROM "reminderWithLists" ORDER BY "reminderWithLists"."remindersListTitle" ASC, "reminderWithLists"."reminderTitle" ASC LIMIT ?"#)
        #expect(try query.fetchAll(db) == [
            ReminderWithList(reminderTitle: "Buy concert tickets", remindersListTitle: "Family"),
            ReminderWithList(reminderTitle: "Pick up kids", remindersListTitle: "Family"),
            ReminderWithList(reminderTitle: "Take a walk", remindersListTitle: "Family"),
        ])
        // The view follows its tables: a new reminder shows in it.
        try Reminder.insert { Reminder.Draft(remindersListID: 3, title: "Morning sync") }.execute(db)
        #expect(try ReminderWithList.where { $0.remindersListTitle.eq("Business") }.fetchAll(db)
            == [ReminderWithList(reminderTitle: "Morning sync", remindersListTitle: "Business")])
    }

    @Test func theViewsValuesAreWrittenAsLiteralsNotBound() throws {
        // SQLite refuses parameters in a view ("parameters are not allowed in views").
        let view = ReminderWithList.createTemporaryView(
            ifNotExists: true,
            as: Reminder
                .join(RemindersList.all) { $0.remindersListID.eq($1.id) }
                .where { reminder, _ in reminder.title.hasPrefix("it's") || reminder.priority.eq(Priority.high) }
                .select { ReminderWithList.Columns(reminderTitle: $0.title, remindersListTitle: $1.title) })
        let rendered = try view.render()
        #expect(rendered.arguments.isEmpty)
        #expect(rendered.sql.hasPrefix(#"CREATE TEMPORARY VIEW IF NOT EXISTS "reminderWithLists" ("#))
        #expect(rendered.sql.contains(#"'it''s%'"#))
        #expect(rendered.sql.contains(#""reminders"."priority" = 3"#))
        try view.execute(db)
        try view.execute(db)  // IF NOT EXISTS: the second time does nothing
        #expect(try ReminderWithList.order(by: \.reminderTitle).select(\.reminderTitle).fetchAll(db)
            == ["Buy concert tickets", "Groceries"])
    }

    @Test func aValueThatCannotBeALiteralThrowsAndCreatesNothing() throws {
        let view = ReminderWithList.createTemporaryView(
            as: Reminder
                .join(RemindersList.all) { $0.remindersListID.eq($1.id) }
                .where { reminder, _ in reminder.title.eq("a\u{0}b") }
                .select { ReminderWithList.Columns(reminderTitle: $0.title, remindersListTitle: $1.title) })
        #expect(throws: SQLRenderError.self) { try view.execute(db) }
        #expect(throws: DatabaseError.self) { try ReminderWithList.all.fetchAll(db) }
    }

    /// The whole row is a column group: the view has one column per column of the row's table.
    @Test func aRowWithAWholeTableRowInItIsAViewOfItsColumns() throws {
        let counted = RemindersList.group(by: \.id)
            .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
        let view = ListWithCount.createTemporaryView(
            as: counted.select { ListWithCount.Columns(remindersList: $0, count: $1.id.count()) })
        #expect(try view.render().sql.hasPrefix(
            #"CREATE TEMPORARY VIEW "listWithCounts" ("id", "color", "position", "title", "count") AS SELECT"#))
        try view.execute(db)
        let viewed = try ListWithCount.order(by: \.remindersList.id).fetchAll(db)
            .map { "\($0.remindersList.title) \($0.count)" }
        let direct = try counted.order { list, _ in list.id }.select { ($0.title, $1.id.count()) }.fetchAll(db)
            .map { "\($0.0) \($0.1)" }
        #expect(!viewed.isEmpty)
        #expect(viewed == direct)
    }

    @Test func dropRemovesTheView() throws {
        let view = ReminderWithList.createTemporaryView(as: Self.joined)
        try view.execute(db)
        #expect(try view.drop().render().sql == #"DROP VIEW "reminderWithLists""#)
        try view.drop().execute(db)
        #expect(throws: DatabaseError.self) { try ReminderWithList.all.fetchAll(db) }
        #expect(throws: DatabaseError.self) { try view.drop().execute(db) }
        #expect(try view.drop(ifExists: true).render().sql == #"DROP VIEW IF EXISTS "reminderWithLists""#)
        try view.drop(ifExists: true).execute(db)
    }

    @Test func aViewIsWrittenThroughAnInsteadOfTrigger() throws {
        try ReminderWithList.createTemporaryView(as: Self.joined).execute(db)
        let insert = ReminderWithList.insert {
            ReminderWithList(reminderTitle: "Morning sync", remindersListTitle: "Business")
        }
        // Without a trigger SQLite refuses to write a view.
        #expect(throws: DatabaseError.self) { try insert.execute(db) }

        // Insert the reminder into the list of that title, if there is one.
        let trigger = ReminderWithList.createTemporaryTrigger(
            insteadOf: .insert { new in
                Reminder.insert { ($0.title, $0.remindersListID) } select: {
                    RemindersList.where { $0.title.eq(new.remindersListTitle) }.select { (new.reminderTitle, $0.id) }
                }
            })
        let sql = try trigger.render().sql
        #expect(sql.hasPrefix(#"CREATE TEMPORARY TRIGGER "instead_of_insert_on_reminderWithLists@CairnTypedSQLTests/TemporaryViewTests.swift:"#))
        #expect(sql.hasSuffix(#" INSTEAD OF INSERT ON "reminderWithLists" FOR EACH ROW BEGIN INSERT INTO "reminders" ("title", "remindersListID") SELECT "new"."reminderTitle", "remindersLists"."id" FROM "remindersLists" WHERE "remindersLists"."title" = "new"."remindersListTitle"; END"#))
        try trigger.execute(db)

        try insert.execute(db)
        try ReminderWithList.insert {
            ReminderWithList(reminderTitle: "Nowhere", remindersListTitle: "No such list")
        }.execute(db)
        #expect(try Reminder.where { $0.title.eq("Morning sync") }.select(\.remindersListID).fetchAll(db) == [3])
        #expect(try Reminder.where { $0.title.eq("Nowhere") }.fetchCount(db) == 0)
        #expect(try ReminderWithList.where { $0.remindersListTitle.eq("Business") }.select(\.reminderTitle).fetchAll(db)
            == ["Morning sync"])
    }

    @Test func insteadOfDeleteAndUpdateReachTheTables() throws {
        try ReminderWithList.createTemporaryView(as: Self.joined).execute(db)
        try ReminderWithList.createTemporaryTrigger(
            "delete_reminder_with_list",
            insteadOf: .delete { old in
                Reminder.where { $0.title.eq(old.reminderTitle) }.delete()
            }
        ).execute(db)
        try ReminderWithList.createTemporaryTrigger(
            insteadOf: .update { old, new in
                Reminder.where { $0.title.eq(old.reminderTitle) }.update { $0.title = new.reminderTitle }
            }
        ).execute(db)

        try ReminderWithList.where { $0.reminderTitle.eq("Haircut") }.delete().execute(db)
        try ReminderWithList.where { $0.reminderTitle.eq("Take a walk") }.update { $0.reminderTitle = "Take a run" }.execute(db)
        #expect(try Reminder.where { $0.title.eq("Haircut") }.fetchCount(db) == 0)
        #expect(try Reminder.find(4).select(\.title).fetchOne(db) == "Take a run")
        #expect(try Reminder.fetchCount(db) == 5)
    }

    @Test func anInsteadOfTriggerOnATableIsSQLitesError() throws {
        let trigger = Reminder.createTemporaryTrigger(insteadOf: .delete { _ in Fact.delete() })
        #expect(throws: DatabaseError.self) { try trigger.execute(db) }
    }
}
