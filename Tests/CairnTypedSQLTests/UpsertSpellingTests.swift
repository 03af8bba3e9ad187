import Cairn
import Testing

/// Every upsert spelling StructuredQueries offers, for rows, named columns with `values:` and
/// named columns with `select:`: `onConflict:` with and without `doUpdate:`, `doUpdate:` reading
/// one or two rows, `onConflictDoUpdate:`, and the `where:` filters on the target and on the update.
@Suite("Typed SQL: upsert spellings (onConflict, doUpdate, onConflictDoUpdate, where)")
struct UpsertSpellingTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    func tagTitles() throws -> [String] { try Tag.order(by: \.id).select(\.title).fetchAll(db) }

    @Test func selectUpsertReadsTheExcludedRow() throws {
        // "personal" meets "Personal" (titles are unique without regard to case).
        let insert = Tag.insert { $0.title } select: {
            RemindersList.select { $0.title.lower() }
        } onConflict: {
            $0.title
        } doUpdate: {
            $0.title = $1.title + "-copy"
        }
        try assertQuery(
            insert,
            sql: #"INSERT INTO "tags" ("title") SELECT lower("remindersLists"."title") FROM "remindersLists" WHERE 1 ON CONFLICT ("title") DO UPDATE SET "title" = "excluded"."title" || ?"#,
            arguments: [.text("-copy")],
            rows: { try insert.execute(db); return try tagTitles() },
            ["car", "kids", "personal-copy", "Work", "someday", "family", "business"])
    }

    @Test func selectUpsertWithOneArgumentDoUpdateAndALimit() throws {
        let insert = Tag.insert { $0.title } select: {
            RemindersList.select { $0.title }.order { $0.title.desc() }.limit(1)
        } onConflict: {
            $0.title
        } doUpdate: {
            $0.title += "!"
        }
        try assertQuery(
            insert,
            sql: #"INSERT INTO "tags" ("title") SELECT "remindersLists"."title" FROM "remindersLists" WHERE 1 ORDER BY "remindersLists"."title" DESC LIMIT ? ON CONFLICT ("title") DO UPDATE SET "title" = "tags"."title" || ?"#,
            rows: { try insert.execute(db); return try tagTitles() },
            ["car", "kids", "Personal!", "Work", "someday"])
    }

    @Test func selectUpsertOfACompoundQueryAndOfValues() throws {
        let union = Tag.insert { $0.title } select: {
            RemindersList.where { $0.id.eq(1) }.select { $0.title.lower() }
                .union(RemindersList.where { $0.id.eq(2) }.select { $0.title.upper() })
        } onConflict: {
            $0.title
        } doUpdate: {
            $0.title += "?"
        }.returning(\.title)
        try assertQuery(
            union,
            sql: #"INSERT INTO "tags" ("title") SELECT * FROM (SELECT lower("remindersLists"."title") FROM "remindersLists" WHERE "remindersLists"."id" = ? UNION SELECT upper("remindersLists"."title") FROM "remindersLists" WHERE "remindersLists"."id" = ?) WHERE 1 ON CONFLICT ("title") DO UPDATE SET "title" = "tags"."title" || ? RETURNING "tags"."title""#,
            rows: { try union.fetchAll(db).sorted() },
            ["FAMILY", "Personal?"])
        let values = Tag.insert { $0.title } select: { Values("car") } onConflict: { $0.title } doUpdate: { $0.title += "!" }
        try assertQuery(
            values,
            sql: #"INSERT INTO "tags" ("title") SELECT ? WHERE 1 ON CONFLICT ("title") DO UPDATE SET "title" = "tags"."title" || ?"#,
            arguments: [.text("car"), .text("!")],
            rows: { try values.execute(db); return try Tag.find(1).select(\.title).fetchAll(db) },
            ["car!"])
    }

    @Test func rowsUpsertWithOneArgumentDoUpdate() throws {
        let insert = Tag.insert { Tag.Draft(title: "CAR") } onConflict: { $0.title } doUpdate: { $0.title += "!" }
        try assertQuery(
            insert,
            sql: #"INSERT INTO "tags" ("id", "title") VALUES (?, ?) ON CONFLICT ("title") DO UPDATE SET "title" = "tags"."title" || ?"#,
            arguments: [.null, .text("CAR"), .text("!")],
            rows: { try insert.execute(db); return try tagTitles() },
            ["car!", "kids", "Personal", "Work", "someday"])
    }

    @Test func onConflictWithoutDoUpdateDoesNothing() throws {
        let insert = ReminderTag.insert { ReminderTag(reminderID: 1, tagID: 3) } onConflict: { ($0.reminderID, $0.tagID) }
        #expect(try insert.render().sql
            == #"INSERT INTO "reminderTags" ("reminderID", "tagID") VALUES (?, ?) ON CONFLICT ("reminderID", "tagID") DO NOTHING"#)
        let tags = Tag.insert { Tag.Draft(title: "KIDS"); Tag.Draft(title: "home") } onConflict: { $0.title }
        try assertQuery(
            tags,
            sql: #"INSERT INTO "tags" ("id", "title") VALUES (?, ?), (?, ?) ON CONFLICT ("title") DO NOTHING"#,
            rows: { try tags.execute(db); return try tagTitles() },
            ["car", "kids", "Personal", "Work", "someday", "home"])
    }

    @Test func onConflictDoUpdateWithoutATarget() throws {
        let insert = Tag.insert { $0.title } values: {
            "work"
            "home"
        } onConflictDoUpdate: {
            $0.title += " (again)"
        }
        try assertQuery(
            insert,
            sql: #"INSERT INTO "tags" ("title") VALUES (?), (?) ON CONFLICT DO UPDATE SET "title" = "tags"."title" || ?"#,
            arguments: [.text("work"), .text("home"), .text(" (again)")],
            rows: { try insert.execute(db); return try tagTitles() },
            ["car", "kids", "Personal", "Work (again)", "someday", "home"])
        // PostgreSQL requires the conflict target: the statement is refused before it is sent.
        let error = #expect(throws: SQLRenderError.self) {
            try insert.sqlStatement().render(dialect: PostgreSQLDialect())
        }
        #expect(error?.unsupportedDialect == "PostgreSQL")
        #expect(error?.description.contains("ON CONFLICT DO UPDATE without a conflict target") == true)
        #expect(try Tag.insert { $0.title } values: { "work" } onConflict: { $0.title } doUpdate: { $0.title += "!" }
            .sqlStatement().render(dialect: PostgreSQLDialect()).sql
            == #"INSERT INTO "tags" ("title") VALUES ($1) ON CONFLICT ("title") DO UPDATE SET "title" = "tags"."title" || $2"#)
    }

    @Test func onConflictDoUpdateFilteredByTheExcludedRow() throws {
        // Only a larger count replaces the stored one: counter 1 (3) takes 10, counter 2 (5) keeps 5.
        let insert = Counter.insert {
            Counter(id: 1, count: 10)
            Counter(id: 2, count: 1)
        } onConflictDoUpdate: { row, excluded in
            row.count = excluded.count
        } where: { row, excluded in
            excluded.count.gt(row.count)
        }
        try assertQuery(
            insert,
            sql: #"INSERT INTO "counters" ("id", "count") VALUES (?, ?), (?, ?) ON CONFLICT DO UPDATE SET "count" = "excluded"."count" WHERE "excluded"."count" > "counters"."count""#,
            rows: { try insert.execute(db); return try Counter.order(by: \.id).select(\.count).fetchAll(db) },
            [10, 5])
    }

    @Test func targetAndUpdateFilters() throws {
        // A title is unique among open reminders only: the conflict target names that index by
        // its `WHERE`, and only an unflagged stored reminder is updated.
        try db.execute(sql: #"CREATE UNIQUE INDEX "openTitles" ON "reminders"("title") WHERE NOT "isCompleted""#)
        let insert = Reminder.insert { ($0.remindersListID, $0.title) } values: {
            (3, "Groceries")
            (3, "Take a walk")
            (3, "Haircut")
        } onConflict: {
            $0.title
        } where: {
            !$0.isCompleted
        } doUpdate: {
            $0.notes = $1.title + " again"
        } where: { row, _ in
            !row.isFlagged
        }
        try assertQuery(
            insert,
            sql: #"INSERT INTO "reminders" ("remindersListID", "title") VALUES (?, ?), (?, ?), (?, ?) ON CONFLICT ("title") WHERE NOT "reminders"."isCompleted" DO UPDATE SET "notes" = "excluded"."title" || ? WHERE NOT "reminders"."isFlagged""#,
            rows: {
                try insert.execute(db)
                return try Reminder.order(by: \.id).select { ($0.id, $0.title, $0.notes) }.fetchAll(db).map { "\($0.0) \($0.1): \($0.2)" }
            },
            ["1 Groceries: Milk, eggs", "2 Haircut: ", "3 Doctor appointment: ", "4 Take a walk: Take a walk again",
             "5 Buy concert tickets: ", "6 Pick up kids: ", "7 Haircut: "])
    }

    @Test func anUpdateFilterWithoutAnUpdateIsAnError() throws {
        let insert = Tag.insert { Tag.Draft(title: "car") } onConflictDoUpdate: { _, _ in } where: { row, _ in
            row.id.eq(1)
        }
        #expect(throws: TypedSQLError.self) { try insert.execute(db) }
        #expect(try Tag.fetchCount(db) == 5)
    }

    @Test func theUpsertsRenderForPostgreSQL() throws {
        let select = try Tag.insert { $0.title } select: {
            RemindersList.select { $0.title.lower() }
        } onConflict: { $0.title } where: { $0.id.gt(0) } doUpdate: { $0.title += "!" } where: { $0.id.neq(3) }.sqlStatement()
        #expect(try select.render(dialect: PostgreSQLDialect()).sql
            == #"INSERT INTO "tags" ("title") SELECT lower("remindersLists"."title") FROM "remindersLists" WHERE TRUE ON CONFLICT ("title") WHERE "tags"."id" > $1 DO UPDATE SET "title" = "tags"."title" || $2 WHERE "tags"."id" <> $3"#)
    }
}
