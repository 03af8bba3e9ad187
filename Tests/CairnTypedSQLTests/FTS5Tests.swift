import Cairn
import Testing

@Table
struct ReminderText: FTS5 {
    let rowid: Int
    let title: String
    let notes: String
    let tags: String
}

/// A search result row, as SQLiteData's SearchReminders selects it.
@Selection
struct SearchRow {
    let notes: String
    let reminder: Reminder
    let remindersList: RemindersList
    let tags: String
    let title: String
}

/// SearchReminders' base query: optional text, one condition per tag, joined to the reminders.
func searchQuery(text: String, tags: [String]) -> SelectOf<ReminderText, Reminder> {
    ReminderText
        .where {
            if !text.isEmpty {
                $0.match(text)
            }
        }
        .where {
            for tag in tags {
                $0.tags.match(tag)
            }
        }
        .join(Reminder.all) { $0.rowid.eq($1.id) }
}

@Suite("Typed SQL: FTS5 full-text search")
struct FTS5Tests {
    let db: Database

    init() throws {
        // A trigger that writes an FTS5 table needs the schema trusted (Configuration.trustedSchema).
        var configuration = Configuration()
        configuration.trustedSchema = true
        db = try RemindersDatabase.make(configuration: configuration)
        try db.execute(sql: #"CREATE VIRTUAL TABLE "reminderTexts" USING fts5("title", "notes", "tags")"#)
        // The index follows the reminders, as SQLiteData's Reminders example keeps it.
        try Reminder.createTemporaryTrigger(
            after: .insert { new in
                ReminderText.insert { ($0.rowid, $0.title, $0.notes, $0.tags) } select: {
                    Values(new.id, new.title, new.notes, "")
                }
            }
        ).execute(db)
        try ReminderText.insert { ($0.rowid, $0.title, $0.notes, $0.tags) } select: {
            Reminder.select { ($0.id, $0.title, $0.notes, "") }
        }.execute(db)
        try ReminderText.where { $0.rowid.eq(6) }.update { $0.tags = "kids family" }.execute(db)
    }

    @Test func matchFindsRowsInAnyColumn() throws {
        let query = ReminderText.where { $0.match("milk OR kids") }.order(by: \.rowid).select(\.rowid)
        try assertQuery(
            query,
            sql: #"SELECT "reminderTexts"."rowid" FROM "reminderTexts" WHERE "reminderTexts" MATCH ? ORDER BY "reminderTexts"."rowid" ASC"#,
            arguments: [.text("milk OR kids")], rows: { try query.fetchAll(db) }, [1, 6])
        try Reminder.insert { Reminder.Draft(notes: "oat milk", remindersListID: 3, title: "Shop") }.execute(db)
        #expect(try query.fetchAll(db) == [1, 6, 7])  // indexed by the trigger
    }

    @Test func columnMatchSearchesOneColumnForAPhrase() throws {
        #expect(try ReminderText.where { $0.title.match("pick up") }.select(\.rowid).fetchAll(db) == [6])
        #expect(try ReminderText.where { $0.notes.match("kids") }.select(\.rowid).fetchAll(db) == [])
        #expect(try ReminderText.where { $0.tags.match("kids") }.select(\.rowid).fetchAll(db) == [6])
        // A quote in the phrase stays inside it, also before a combining mark.
        #expect(try ReminderText.where { $0.title.match(#"say "hi""#) }.fetchCount(db) == 0)
        let sneaky = ReminderText.where { $0.title.match("pick\"\u{301} OR milk") }
        #expect(try sneaky.render().arguments == [.text("title:\"pick\"\"\u{301} OR milk\"")])
        #expect(try sneaky.fetchCount(db) == 0)
    }

    @Test func highlightAndSnippetMarkTheMatches() throws {
        let marked = ReminderText.where { $0.match("eggs") }.select {
            ($0.notes.highlight("[", "]"), $0.notes.snippet("<", ">", "…", 1))
        }
        let row = try #require(try marked.fetchOne(db))
        #expect(row.0 == "Milk, [eggs]")
        #expect(row.1 == "…<eggs>")
    }

    @Test func aWeightForSomethingNotAColumnFailsTheQuery() throws {
        let query = ReminderText.where { $0.match("milk") }.order { $0.bm25([\.rank: 2]) }.select(\.rowid)
        #expect {
            try query.fetchAll(db)
        } throws: { error in
            "\(error)".contains("bm25_weight_needs_a_column_key_path")
        }
    }

    @Test func rankAndWeightedBM25OrderTheMatches() throws {
        try db.execute(sql: #"DELETE FROM "reminderTexts""#)
        try ReminderText.insert {
            ReminderText(rowid: 1, title: "paint", notes: "the fence", tags: "")
            ReminderText(rowid: 2, title: "fence", notes: "paint paint paint the garden shed", tags: "")
        }.execute(db)
        let paint = ReminderText.where { $0.match("paint") }
        // Three matches in a long column outrank one in a short column, unless the title counts more.
        #expect(try paint.order(by: \.rank).select(\.rowid).fetchAll(db) == [2, 1])
        let byTitle = paint.order { $0.bm25([\.title: 10, \.notes: 0.1]) }.select(\.rowid)
        #expect(try byTitle.fetchAll(db) == [1, 2])
        let byNotes = paint.order { $0.bm25([\.title: 0.1, \.notes: 10]) }.select(\.rowid)
        #expect(try byNotes.fetchAll(db) == [2, 1])
        #expect(try paint.select { $0.bm25() }.fetchAll(db).allSatisfy { $0 < 0 })
    }

    @Test func anUntrustedSchemaRefusesTheIndexingTrigger() throws {
        let strict = try RemindersDatabase.make()  // defensive: trusted_schema = OFF
        try strict.execute(sql: #"CREATE VIRTUAL TABLE "reminderTexts" USING fts5("title", "notes", "tags")"#)
        try Reminder.createTemporaryTrigger(
            after: .insert { new in ReminderText.insert { $0.title } select: { Values(new.title) } }
        ).execute(strict)
        #expect {
            try Reminder.insert { Reminder.Draft(remindersListID: 1, title: "x") }.execute(strict)
        } throws: { error in
            "\(error)".contains("unsafe use of virtual table")
        }
        #expect(try Reminder.fetchCount(strict) == 6)  // the failed insert left nothing
    }

    @Test func theSearchRemindersQueriesRunAsWritten() throws {
        let completed = try searchQuery(text: "", tags: []).where { $1.isCompleted }.count().fetchOne(db)
        #expect(completed == 2)
        let showCompleted = false
        let rows = try searchQuery(text: "pick OR walk OR concert", tags: [])
            .where {
                if !showCompleted {
                    !$1.isCompleted
                }
            }
            .order { ($1.isCompleted, $1.id) }
            .join(RemindersList.all) { $1.remindersListID.eq($2.id) }
            .select {
                SearchRow.Columns(
                    notes: $0.notes.snippet("**", "**", "...", 64).replace("\n", " "),
                    reminder: $1,
                    remindersList: $2,
                    tags: $0.tags.highlight("**", "**"),
                    title: $0.title.highlight("**", "**")
                )
            }
            .fetchAll(db)
        #expect(rows.map(\.title) == ["Take a **walk**", "**Pick** up kids"])
        #expect(rows.map(\.reminder.id) == [4, 6] && rows.allSatisfy { $0.remindersList.title == "Family" })
        #expect(try searchQuery(text: "", tags: ["kids"]).select { $1.title }.fetchAll(db) == ["Pick up kids"])
    }

    /// `insert { Table.Columns(…) }`: a row of expressions, one per column, as a trigger
    /// writes the index from a `new` row.
    @Test func aRowOfColumnsInsertsItsExpressions() throws {
        let insert = ReminderText.insert {
            ReminderText.Columns(rowid: 100, title: "Plan".upper(), notes: #sql("'by hand'"), tags: "")
            ReminderText.Columns(rowid: 101, title: "second", notes: "", tags: "x")
        }
        #expect(try insert.render().sql == #"INSERT INTO "reminderTexts" ("rowid", "title", "notes", "tags") "#
            + #"VALUES (?, upper(?), 'by hand', ?), (?, ?, ?, ?)"#)
        try insert.execute(db)
        let rows = try ReminderText.where { $0.rowid.gte(100) }.order(by: \.rowid).select { ($0.title, $0.notes, $0.tags) }.fetchAll(db)
        #expect(rows.map(\.0) == ["PLAN", "second"] && rows.map(\.1) == ["by hand", ""] && rows.map(\.2) == ["", "x"])
    }

    @Test func searchJoinsTheRowsItIndexes() throws {
        let found = Reminder.join(ReminderText.all) { $0.id.eq($1.rowid) }
            .where { $1.match("walk OR concert") }
            .order { reminder, _ in reminder.id }
            .select { reminder, _ in reminder.title }
        #expect(try found.fetchAll(db) == ["Take a walk", "Buy concert tickets"])
    }
}
