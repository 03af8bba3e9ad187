import Cairn
import Testing

/// StructuredQueries' insert spellings beside rows, named columns and conflict clauses: the
/// whole-row column list `{ $0 }`, expressions in `values:` rows, inserts of no rows (empty
/// text, nothing run), and `where:` without a conflict clause (no condition allowed: there is
/// no update to filter).
@Suite("Typed SQL: insert { $0 } values:, expressions in values:, inserts of no rows, insert … where:")
struct InsertSpellingTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    @Test func wholeRowColumnListInsertsTheRowsAsInsertDoes() throws {
        let insert = Tag.insert { $0 } values: { Tag(id: 100, title: "errands") }.returning(\.id)
        try assertQuery(
            insert, sql: #"INSERT INTO "tags" ("id", "title") VALUES (?, ?) RETURNING "tags"."id""#,
            arguments: [.integer(100), .text("errands")], rows: { try insert.fetchAll(db) }, [100])
        let rows = Tag.insert { $0 } values: {
            Tag(id: 101, title: "garden")
            Tag.Draft(title: "garage")
        }
        try assertQuery(
            rows, sql: #"INSERT INTO "tags" ("id", "title") VALUES (?, ?), (?, ?)"#,
            arguments: [.integer(101), .text("garden"), .null, .text("garage")],
            rows: { try rows.execute(db); return try Tag.where { $0.id.gt(100) }.order(by: \.id).select(\.title).fetchAll(db) },
            ["garden", "garage"])
    }

    @Test func valuesRowsOfExpressionsBesideRowsOfValues() throws {
        let insert = Reminder.insert {
            ($0.remindersListID, $0.title, $0.isCompleted, $0.priority)
        } values: {
            (1, "Groceries", true, .high)
            (#sql("3"), #sql("'Schedule doctor appointment'"), #sql("0"), #sql("NULL"))
        } onConflictDoUpdate: {
            $0.title += " Copy"
        }
        .returning(\.id)
        try assertQuery(
            insert,
            sql: #"INSERT INTO "reminders" ("remindersListID", "title", "isCompleted", "priority") VALUES (?, ?, ?, ?), "#
                + #"(3, 'Schedule doctor appointment', 0, NULL) ON CONFLICT DO UPDATE SET "title" = "reminders"."title" || ? "#
                + #"RETURNING "reminders"."id""#,
            arguments: [.integer(1), .text("Groceries"), .integer(1), .integer(3), .text(" Copy")],
            rows: { try insert.fetchAll(db) }, [7, 8])
        #expect(try Reminder.where { $0.id.gt(6) }.order(by: \.id).select { ($0.title, $0.priority) }.fetchAll(db).map { "\($0.0) \($0.1.map { "\($0)" } ?? "nil")" }
            == ["Groceries high", "Schedule doctor appointment nil"])
    }

    @Test func aSubqueryAndAColumnExpressionInAValuesRow() throws {
        let insert = Reminder.insert { ($0.remindersListID, $0.title) } values: {
            (RemindersList.where { $0.title.eq("Family") }.select(\.id), "Call mom".upper())
        }
        try assertQuery(
            insert,
            sql: #"INSERT INTO "reminders" ("remindersListID", "title") VALUES ((SELECT "remindersLists"."id" FROM "remindersLists" WHERE "remindersLists"."title" = ?), upper(?))"#,
            arguments: [.text("Family"), .text("Call mom")],
            rows: { try insert.execute(db); return try Reminder.where { $0.id.eq(7) }.select { ($0.remindersListID, $0.title) }.fetchAll(db).map { "\($0.0) \($0.1)" } },
            ["2 CALL MOM"])
    }

    @Test func anInsertOfNoRowsRendersNothingAndRunsNothing() throws {
        let count = try Reminder.fetchCount(db)
        let noRows = Reminder.insert { [] }
        #expect(noRows.isEmpty)
        #expect(try noRows.render().sql == "")
        try noRows.execute(db)
        let noValues = Reminder.insert(\.id) { return [] }
        #expect(try noValues.render() == RenderedSQL(sql: ""))
        try noValues.execute(db)
        #expect(try Tag.insert { [Tag]() }.returning(\.id).fetchAll(db) == [])
        #expect(try Tag.insert { [Tag]() } onConflict: { $0.id } doUpdate: { $0.title += "!" }.render().sql == "")
        #expect(try Reminder.fetchCount(db) == count)
        // No statement to hand a trigger: the insert has no SQL of its own.
        #expect(throws: TypedSQLError.self) { try noRows.sqlStatement() }
        #expect(!Reminder.insert { Reminder.Draft(remindersListID: 1) }.isEmpty)
    }

    @Test func whereWithoutAConflictClauseThatAddsNoConditionIsThePlainInsert() throws {
        let onlyFlagged = false
        let insert = Tag.insert { Tag.Draft(title: "errands") } where: {
            if onlyFlagged { $0.title.eq("x") }
        }
        try assertQuery(
            insert, sql: #"INSERT INTO "tags" ("id", "title") VALUES (?, ?)"#, arguments: [.null, .text("errands")],
            rows: { try insert.execute(db); return try Tag.where { $0.title.eq("errands") }.select(\.id).fetchAll(db) },
            [6])
        let named = Tag.insert { $0.title } values: { "garden" } where: { if onlyFlagged { $0.title.eq("x") } }
        #expect(try named.render().sql == #"INSERT INTO "tags" ("title") VALUES (?)"#)
        let selected = Tag.insert { $0.title } select: { Values("garage") } where: { if onlyFlagged { $0.title.eq("x") } }
        #expect(try selected.render().sql == #"INSERT INTO "tags" ("title") SELECT ?"#)
        try named.execute(db)
        try selected.execute(db)
        #expect(try Tag.where { $0.id.gt(6) }.order(by: \.id).select(\.title).fetchAll(db) == ["garden", "garage"])
    }

    @Test func whereWithAConditionButNoConflictClauseThrowsAndWritesNothing() throws {
        let count = try Tag.fetchCount(db)
        let rows = Tag.insert { Tag(id: 50, title: "x") } where: { $0.title.eq("x") }
        let error = #expect(throws: TypedSQLError.self) { try rows.execute(db) }
        #expect(error?.message.contains("no update to filter") == true)
        #expect(throws: TypedSQLError.self) { try Tag.insert { $0.title } values: { "x" } where: { $0.title.eq("x") }.execute(db) }
        #expect(throws: TypedSQLError.self) {
            try Tag.insert { $0.title } select: { Values("x") } where: { $0.title.eq("x") }.execute(db)
        }
        #expect(try Tag.fetchCount(db) == count)
    }
}
