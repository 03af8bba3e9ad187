import Cairn
import Testing

@Suite("Typed SQL: insert, upsert, update, delete, returning, #sql")
struct WriteTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    @Test func insertDraftLetsTheDatabaseAssignTheKey() throws {
        let insert = Tag.insert { Tag.Draft(title: "errands") }
        try assertQuery(
            insert, sql: #"INSERT INTO "tags" ("id", "title") VALUES (?, ?)"#,
            arguments: [.null, .text("errands")], rows: { try insert.execute(db); return try Tag.find(6).fetchAll(db) },
            [Tag(id: 6, title: "errands")])
    }

    @Test func insertSeveralRowsWithTheBuilder() throws {
        let extra = true
        try Fact.insert {
            Fact.Draft(body: "one")
            if extra { Fact.Draft(body: "two") }
            for body in ["three", "four"] { Fact.Draft(body: body) }
        }.execute(db)
        #expect(try Fact.order(by: \.id).select(\.body).fetchAll(db).suffix(4) == ["one", "two", "three", "four"])
    }

    @Test func insertReturning() throws {
        let insert = Reminder.insert {
            Reminder.Draft(isFlagged: true, remindersListID: 3, title: "File taxes")
        }.returning { ($0.id, $0.title, $0.isFlagged) }
        try assertQuery(
            insert,
            sql: #"INSERT INTO "reminders" ("id", "dueDate", "isCompleted", "isFlagged", "notes", "position", "priority", "remindersListID", "status", "title") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING "reminders"."id", "reminders"."title", "reminders"."isFlagged""#,
            rows: { try insert.fetchAll(db).map { "\($0.0) \($0.1) \($0.2)" } }, ["7 File taxes true"])
        let whole = try Tag.insert { Tag.Draft(title: "new") }.returning(\.self).fetchOne(db)
        #expect(whole == Tag(id: 6, title: "new"))
    }

    @Test func aDraftOfAStoredRowEditsIt() throws {
        // The SQLiteData form pattern: edit a draft of the row, then upsert it.
        let stored = try #require(try Reminder.find(1).fetchOne(db))
        var draft = Reminder.Draft(stored)
        #expect(draft.id == 1 && draft.title == stored.title && draft.remindersListID == stored.remindersListID)
        draft.title = "Edited"
        try Reminder.upsert { draft }.execute(db)
        #expect(try Reminder.find(1).fetchOne(db)?.title == "Edited")
        #expect(try Reminder.fetchCount(db) == 6)
    }

    @Test func upsertUpdatesEveryOtherColumn() throws {
        let upsert = Tag.upsert { Tag.Draft(id: 1, title: "automobile"); Tag.Draft(title: "fresh") }
        try assertQuery(
            upsert,
            sql: #"INSERT INTO "tags" ("id", "title") VALUES (?, ?), (?, ?) ON CONFLICT ("id") DO UPDATE SET "title" = "excluded"."title""#,
            rows: { try upsert.execute(db); return try Tag.order(by: \.id).select(\.title).fetchAll(db) },
            ["automobile", "kids", "Personal", "Work", "someday", "fresh"])
    }

    @Test func insertOnConflictDoUpdate() throws {
        let insert = Counter.insert {
            Counter(id: 1, count: 10)
        } onConflict: {
            $0.id
        } doUpdate: { row, excluded in
            row.count = #sql("\(row.count) + \(excluded.count)", as: Int.self)
        }
        try assertQuery(
            insert,
            sql: #"INSERT INTO "counters" ("id", "count") VALUES (?, ?) ON CONFLICT ("id") DO UPDATE SET "count" = "counters"."count" + "excluded"."count""#,
            rows: { try insert.execute(db); return try Counter.order(by: \.id).select(\.count).fetchAll(db) }, [13, 5])
        try Tag.insert { Tag(id: 2, title: "ignored") } onConflictDoNothing: { $0.id }.execute(db)
        #expect(try Tag.find(2).fetchOne(db)?.title == "kids")
    }

    @Test func updateWithWhere() throws {
        let update = Reminder.update { $0.isCompleted = true; $0.notes = "done" }.where { $0.remindersListID.eq(2) }
        try assertQuery(
            update,
            sql: #"UPDATE "reminders" SET "isCompleted" = ?, "notes" = ? WHERE "reminders"."remindersListID" = ?"#,
            arguments: [.integer(1), .text("done"), .integer(2)],
            rows: { try update.execute(db); return try Reminder.where(\.isCompleted).select(\.id).fetchAll(db) },
            [2, 4, 5, 6])
        let viaSelect = Reminder.where { $0.id.eq(1) }.update { $0.isFlagged = $0.isCompleted }
        #expect(try viaSelect.render().sql == #"UPDATE "reminders" SET "isFlagged" = "reminders"."isCompleted" WHERE "reminders"."id" = ?"#)
        try viaSelect.execute(db)
        #expect(try Reminder.find(1).fetchOne(db)?.isFlagged == false)
        try Reminder.find(1).update { $0.dueDate = Optional<Date>.none }.execute(db)
        #expect(try Reminder.find(1).fetchOne(db)?.dueDate == nil)
    }

    @Test func updateInPlaceAsStructuredQueriesSpellsIt() throws {
        let flag = Reminder.find(1).update { $0.isFlagged.toggle() }
        try assertQuery(
            flag,
            sql: #"UPDATE "reminders" SET "isFlagged" = NOT "reminders"."isFlagged" WHERE "reminders"."id" = ?"#,
            rows: {
                let before = try Reminder.find(1).select(\.isFlagged).fetchOne(db)
                try flag.execute(db)
                return [before, try Reminder.find(1).select(\.isFlagged).fetchOne(db)]
            },
            [Optional(true), Optional(false)])

        let counts = Counter.update { $0.count += 10; $0.count -= 1 }
        try assertQuery(
            counts, sql: #"UPDATE "counters" SET "count" = "counters"."count" + ? - ?"#,
            arguments: [.integer(10), .integer(1)],
            rows: { try counts.execute(db); return try Counter.order(by: \.id).select(\.count).fetchAll(db) }, [12, 14])
        try Counter.update { $0.count *= 3; $0.count /= 2 }.execute(db)
        // SQLite's integer division, as Swift's: 12 * 3 / 2 = 18, 14 * 3 / 2 = 21.
        #expect(try Counter.order(by: \.id).select(\.count).fetchAll(db) == [18, 21])
        try Counter.find(1).update { $0.count += $0.id }.execute(db)
        #expect(try Counter.find(1).select(\.count).fetchOne(db) == 19)

        let title = Tag.find(1).update { $0.title += " (old)" }
        #expect(try title.render().sql == #"UPDATE "tags" SET "title" = "tags"."title" || ? WHERE "tags"."id" = ?"#)
        try title.execute(db)
        #expect(try Tag.find(1).select(\.title).fetchOne(db) == "car (old)")
    }

    @Test func bindWrapsValuesInTheirRepresentation() throws {
        // StructuredQueries 0.31 asks for #bind in updates; a value in a non-default
        // representation needs it anywhere.
        let update = Reminder.find(1).update { $0.title = #bind("Milk"); $0.dueDate = #bind(Optional(today)) }
        try assertQuery(
            update, sql: #"UPDATE "reminders" SET "title" = ?, "dueDate" = ? WHERE "reminders"."id" = ?"#,
            rows: { try update.execute(db); return try Reminder.find(1).select { ($0.title, $0.dueDate) }.fetchAll(db).map { "\($0.0) \($0.1 == today)" } },
            ["Milk true"])
        let seconds = #bind(today, as: Date.UnixTimeRepresentation.self)
        #expect(try Reminder.where { _ in #sql("\(seconds) = \(bind: Int64(today.timeIntervalSince1970))", as: Bool.self) }.fetchCount(db) == 6)
        #expect(try #sql("SELECT \(seconds)", as: Int64.self).fetchOne(db) == 1_778_371_200)
    }

    @Test func updateWholeRowAndReturning() throws {
        var tag = try #require(try Tag.find(5).fetchOne(db))
        tag.title = "Someday"
        let update = Tag.update(tag)
        try assertQuery(
            update, sql: #"UPDATE "tags" SET "title" = ? WHERE "tags"."id" = ?"#,
            arguments: [.text("Someday"), .integer(5)],
            rows: { try update.execute(db); return try Tag.find(5).fetchAll(db) }, [tag])
        let returned = try Counter.update { $0.count = 0 }.returning(\.id).fetchAll(db)
        #expect(returned.sorted() == [1, 2])
    }

    @Test func deleteWithWhereRowAndReturning() throws {
        let delete = Reminder.delete().where { $0.isCompleted }.returning(\.title)
        try assertQuery(
            delete,
            sql: #"DELETE FROM "reminders" WHERE "reminders"."isCompleted" RETURNING "reminders"."title""#,
            rows: { try delete.fetchAll(db).sorted() }, ["Buy concert tickets", "Haircut"])
        try Reminder.where { $0.remindersListID.eq(2) }.delete().execute(db)
        try Tag.delete(Tag(id: 5, title: "someday")).execute(db)
        #expect(try Reminder.fetchCount(db) == 2)
        #expect(try Tag.find(5).fetchOne(db) == nil)
        #expect(try Tag.delete(Tag(id: 5, title: "x")).render().sql == #"DELETE FROM "tags" WHERE "tags"."id" = ?"#)
    }

    @Test func sqlMacroBindsValues() throws {
        let hostile = "'; DROP TABLE reminders; --"
        let query = #sql("SELECT count(*) FROM \(Reminder.self) WHERE \(Reminder.columns.title) <> \(hostile)", as: Int.self)
        let rendered = try query.render()
        #expect(rendered.sql == #"SELECT count(*) FROM "reminders" WHERE "reminders"."title" <> ?"#)
        #expect(rendered.arguments == [.text(hostile)])
        #expect(try query.fetchOne(db) == 6)
        try #sql("DELETE FROM \(Fact.self) WHERE \(Fact.columns.id) = \(bind: 2)").execute(db)
        #expect(try Fact.fetchCount(db) == 2)
        let flagged = Reminder.where { _ in #sql("\(Reminder.columns.isFlagged) AND \(raw: "1 = 1")", as: Bool.self) }
        #expect(try flagged.fetchCount(db) == 3)
    }

    @Test func sqlConditionsNeedNoType() throws {
        // `#sql` as a condition, as SQLiteData apps write it: no `as: Bool.self`.
        let overdue = Reminder.where { #sql("\($0.dueDate) < \(today)") }
        #expect(try overdue.render().sql == #"SELECT "reminders"."id", "reminders"."dueDate", "reminders"."isCompleted", "reminders"."isFlagged", "reminders"."notes", "reminders"."position", "reminders"."priority", "reminders"."remindersListID", "reminders"."status", "reminders"."title" FROM "reminders" WHERE "reminders"."dueDate" < ?"#)
        #expect(try overdue.select(\.title).fetchAll(db) == ["Buy concert tickets"])
        let chained = Reminder.all.where { !$0.isCompleted }.where { #sql("\($0.priority) IS NOT NULL") }
        #expect(try chained.select(\.id).fetchAll(db).sorted() == [1, 3, 6])
        let joined = Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }
            .where { #sql("\($1.title) = 'Family' AND \($0.isFlagged)") }
        #expect(try joined.select { r, _ in r.title }.fetchAll(db) == ["Buy concert tickets"])
        // Joined to a typed condition, as a computed column helper in SQLiteData's example does.
        let pastDue = Reminder.where { !$0.isCompleted && #sql("\($0.dueDate) < \(today.addingTimeInterval(86_400))") }
        #expect(try pastDue.order(by: \.id).select(\.id).fetchAll(db) == [1, 6])
        let either = Reminder.where { $0.isCompleted || #sql("\($0.id) = 4") }
        #expect(try either.order(by: \.id).select(\.id).fetchAll(db) == [2, 4, 5])
        try Reminder.update { $0.notes = "old" }.where { #sql("\($0.id) <= 2") }.execute(db)
        #expect(try Reminder.where { $0.notes.eq("old") }.fetchCount(db) == 2)
        try Reminder.delete().where { #sql("\($0.id) > 4") }.execute(db)
        #expect(try Reminder.fetchCount(db) == 4)
    }

    @Test func writeErrorsSayWhat() throws {
        #expect(throws: TypedSQLError.self) { try Tag.update { _ in }.execute(db) }
        #expect(throws: TypedSQLError.self) { try Tag.delete().fetchAll(db) }
        #expect(throws: DatabaseError.self) { try Tag.insert { Tag(id: 1, title: "dup") }.execute(db) }
    }
}
