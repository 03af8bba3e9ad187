import Cairn
import Testing

/// The alias StructuredQueries' tests write through: `R` goes by `"rs"`.
private enum R: AliasName {}

/// Writes through a table alias declare it after the table name, so that the `WHERE`, `SET`
/// and `DO UPDATE` clauses can name the alias, and return their rows with bare column names,
/// the only spelling SQLite's `RETURNING` resolves.
@Suite("Typed SQL: insert, update and delete through a table alias")
struct AliasWriteTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    @Test func deleteThroughAnAliasReturningTheRow() throws {
        let delete = RemindersList.as(R.self).where { $0.id.eq(1) }.delete().returning(\.self)
        try assertQuery(
            delete,
            sql: #"DELETE FROM "remindersLists" AS "rs" WHERE "rs"."id" = ? RETURNING "id", "color", "position", "title""#,
            arguments: [.integer(1)],
            rows: { try delete.fetchAll(db) }, [RemindersDatabase.lists[0]])
        #expect(try RemindersList.order(by: \.id).select(\.id).fetchAll(db) == [2, 3])
    }

    @Test func deleteThroughAnAliasWithWhereOnTheStatement() throws {
        let delete = RemindersList.as(R.self).delete().where { $0.title.eq("Family") }
        try assertQuery(
            delete, sql: #"DELETE FROM "remindersLists" AS "rs" WHERE "rs"."title" = ?"#,
            rows: { try delete.execute(db); return try RemindersList.order(by: \.id).select(\.id).fetchAll(db) },
            [1, 3])
    }

    @Test func updateThroughAnAliasReadsTheOldValueByTheAlias() throws {
        let update = Reminder.as(R.self).where { $0.id.eq(1) }.update { $0.title += " 2" }.returning { ($0.id, $0.title) }
        try assertQuery(
            update,
            sql: #"UPDATE "reminders" AS "rs" SET "title" = "rs"."title" || ? WHERE "rs"."id" = ? RETURNING "id", "title""#,
            arguments: [.text(" 2"), .integer(1)],
            rows: { try update.fetchAll(db).map { "\($0.0) \($0.1)" } }, ["1 Groceries 2"])
        #expect(try Reminder.order(by: \.id).select(\.title).fetchAll(db).prefix(2) == ["Groceries 2", "Haircut"])
    }

    @Test func updateThroughAnAliasWithoutWhereReachesEveryRow() throws {
        let update = Counter.as(R.self).update { $0.count *= 2 }
        try assertQuery(
            update, sql: #"UPDATE "counters" AS "rs" SET "count" = "rs"."count" * ?"#,
            rows: { try update.execute(db); return try Counter.order(by: \.id).select(\.count).fetchAll(db) }, [6, 10])
    }

    @Test func insertThroughAnAliasReturningTheRow() throws {
        let insert = RemindersList.as(R.self).insert { $0.title } values: { "cruise" }.returning(\.self)
        try assertQuery(
            insert,
            sql: #"INSERT INTO "remindersLists" AS "rs" ("title") VALUES (?) RETURNING "id", "color", "position", "title""#,
            arguments: [.text("cruise")],
            rows: { try insert.fetchAll(db) }, [RemindersList(id: 4, color: 0, position: 0, title: "cruise")])
    }

    @Test func insertOfDraftsAndRowsThroughAnAlias() throws {
        let drafts = RemindersList.as(R.self).insert {
            RemindersList.Draft(title: "cruise")
            RemindersList.Draft(id: 7, color: 3, title: "ferry")
        }.returning(\.self)
        try assertQuery(
            drafts,
            sql: #"INSERT INTO "remindersLists" AS "rs" ("id", "color", "position", "title") VALUES (?, ?, ?, ?), (?, ?, ?, ?) RETURNING "id", "color", "position", "title""#,
            arguments: [.null, .integer(0x4a99ef), .integer(0), .text("cruise"), .integer(7), .integer(3), .integer(0), .text("ferry")],
            rows: { try drafts.fetchAll(db) },
            [RemindersList(id: 4, color: 0x4a99ef, position: 0, title: "cruise"), RemindersList(id: 7, color: 3, position: 0, title: "ferry")])
        let rows = RemindersList.as(R.self).insert { RemindersList(id: 9, color: 3, position: 1, title: "boat") }.returning(\.id)
        try assertQuery(
            rows, sql: #"INSERT INTO "remindersLists" AS "rs" ("id", "color", "position", "title") VALUES (?, ?, ?, ?) RETURNING "id""#,
            rows: { try rows.fetchAll(db) }, [9])
    }

    @Test func upsertOfADraftThroughAnAliasReadsTheStoredRowByTheAlias() throws {
        let upsert = RemindersList.as(R.self).insert {
            RemindersList.Draft(id: 1, title: "Errands")
        } onConflict: {
            $0.id
        } doUpdate: { row, excluded in
            row.title = row.title + " / " + excluded.title
        }
        try assertQuery(
            upsert,
            sql: #"INSERT INTO "remindersLists" AS "rs" ("id", "color", "position", "title") VALUES (?, ?, ?, ?) ON CONFLICT ("id") DO UPDATE SET "title" = "rs"."title" || ? || "excluded"."title""#,
            rows: { try upsert.execute(db); return try RemindersList.order(by: \.id).select(\.title).fetchAll(db) },
            ["Personal / Errands", "Family", "Business"])
    }

    @Test func insertOfDefaultValuesThroughAnAlias() throws {
        let insert = Counter.as(R.self).insert().returning(\.id)
        try assertQuery(
            insert, sql: #"INSERT INTO "counters" AS "rs" DEFAULT VALUES RETURNING "id""#,
            rows: { try insert.fetchAll(db) }, [3])
    }

    @Test func upsertThroughAnAliasUpdatesTheStoredRowByTheAlias() throws {
        let upsert = Counter.as(R.self).insert { ($0.id, $0.count) } values: { (1, 10); (7, 1) } onConflict: {
            $0.id
        } doUpdate: { row, excluded in
            row.count += excluded.count
        }
        try assertQuery(
            upsert,
            sql: #"INSERT INTO "counters" AS "rs" ("id", "count") VALUES (?, ?), (?, ?) ON CONFLICT ("id") DO UPDATE SET "count" = "rs"."count" + "excluded"."count""#,
            rows: { try upsert.execute(db); return try Counter.order(by: \.id).select(\.count).fetchAll(db) },
            [13, 5, 1])
    }

    @Test func writesWithoutAnAliasStillQualifyReturningByTheTable() throws {
        let delete = Tag.where { $0.id.eq(5) }.delete().returning(\.title)
        try assertQuery(
            delete, sql: #"DELETE FROM "tags" WHERE "tags"."id" = ? RETURNING "tags"."title""#,
            rows: { try delete.fetchAll(db) }, ["someday"])
    }
}
