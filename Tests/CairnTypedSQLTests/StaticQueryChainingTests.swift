import Cairn
import Testing

// Statements kept as static members of a table, chained onto another statement of the table by
// name (`@dynamicMemberLookup`), and the `+` that merges them, as in StructuredQueries.

extension RemindersList {
    /// As StructuredQueries' test schema declares it.
    static let withReminderCount = group(by: \.id)
        .join(Reminder.all) { $0.id.eq($1.remindersListID) }
        .select { $1.id.count() }
}

extension Reminder {
    /// A filter as a computed property.
    static var flagged: Where<Reminder> { Self.where(\.isFlagged) }
    /// As SQLiteData's Reminders example declares it.
    static let withTags = group(by: \.id)
        .leftJoin(ReminderTag.all) { $0.id.eq($1.reminderID) }
        .leftJoin(Tag.all) { $1.tagID.eq($2.id) }
    static let byTitle = Reminder.order(by: \.title)
    static let firstTwo = Reminder.limit(2)
    static let titles = Reminder.select(\.title)
}

extension Memo {
    static let startingWithT = Self.where { $0.title.like("T%") }
}

@Suite("Typed SQL: a table's static statements chained by name")
struct StaticQueryChainingTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    /// StructuredQueries' `SelectTests.dynamicMember`, as written there.
    @Test func aStaticSelectAddsItsColumnsJoinsAndGroupingKeepingTheLimit() throws {
        let query = RemindersList
            .limit(1)
            .select(\.title)
            .withReminderCount
        let rows: [(String, Int)] = try query.fetchAll(db)
        try assertQuery(
            query,
            sql: #"SELECT "remindersLists"."title", COUNT("reminders"."id") FROM "remindersLists" JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID" GROUP BY "remindersLists"."id" LIMIT ?"#,
            arguments: [.integer(1)],
            rows: { rows.map { "\($0.0) \($0.1)" } }, ["Personal 3"])
    }

    /// SQLiteData's Reminders example (`RemindersListsModel.tags`), as written there.
    @Test func theExampleAppsTagsWithReminders() throws {
        let query = Tag
            .order(by: \.title)
            .withReminders
            .having { $2.count().gt(0) }
            .select { tag, _, _ in tag }
        try assertQuery(
            query,
            sql: #"SELECT "tags"."id", "tags"."title" FROM "tags" LEFT JOIN "reminderTags" ON "tags"."id" = "reminderTags"."tagID" LEFT JOIN "reminders" ON "reminderTags"."reminderID" = "reminders"."id" GROUP BY "tags"."id" HAVING COUNT("reminders"."id") > ? ORDER BY "tags"."title" ASC"#,
            arguments: [.integer(0)],
            rows: { try query.fetchAll(db).map(\.title) }, ["car", "kids", "Personal"])
    }

    @Test func aStaticFilterAddsItsConditionToAFilter() throws {
        let query = Reminder.where { $0.position > 0 }.incomplete
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."id", "reminders"."dueDate", "reminders"."isCompleted", "reminders"."isFlagged", "reminders"."notes", "reminders"."position", "reminders"."priority", "reminders"."remindersListID", "reminders"."status", "reminders"."title" FROM "reminders" WHERE "reminders"."position" > ? AND NOT "reminders"."isCompleted""#,
            rows: { try query.fetchAll(db).map(\.id) }, [3, 6])
        // A condition both sides have is written once; a computed static chains as a stored one.
        let twice = Reminder.incomplete.flagged.incomplete
        try assertQuery(
            twice.select(\.id),
            sql: #"SELECT "reminders"."id" FROM "reminders" WHERE NOT "reminders"."isCompleted" AND "reminders"."isFlagged""#,
            rows: { try twice.select(\.id).fetchAll(db) }, [1, 3])
        // Named on the filter type: `Where<Reminder>.incomplete` is `Reminder.incomplete`.
        let open = Where<Reminder>.incomplete.select(\.id)
        try assertQuery(
            open, sql: #"SELECT "reminders"."id" FROM "reminders" WHERE NOT "reminders"."isCompleted""#,
            rows: { try open.fetchAll(db) }, [1, 3, 4, 6])
    }

    @Test func aStaticFilterOnASelectAndOnAll() throws {
        let selected = Reminder.select(\.title).incomplete.flagged
        try assertQuery(
            selected,
            sql: #"SELECT "reminders"."title" FROM "reminders" WHERE NOT "reminders"."isCompleted" AND "reminders"."isFlagged""#,
            rows: { try selected.fetchAll(db) }, ["Groceries", "Doctor appointment"])
        let fromAll = Reminder.all.incomplete.select(\.title)
        try assertQuery(
            fromAll,
            sql: #"SELECT "reminders"."title" FROM "reminders" WHERE NOT "reminders"."isCompleted""#,
            rows: { try fromAll.fetchAll(db) }, ["Groceries", "Doctor appointment", "Take a walk", "Pick up kids"])
    }

    @Test func theColumnsOfBothSidesAddUp() throws {
        let query = Reminder.select(\.id).incomplete.titles
        let rows: [(Int, String)] = try query.fetchAll(db)
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."id", "reminders"."title" FROM "reminders" WHERE NOT "reminders"."isCompleted""#,
            rows: { rows.map { "\($0.0) \($0.1)" } }, ["1 Groceries", "3 Doctor appointment", "4 Take a walk", "6 Pick up kids"])
        // The static side alone chose columns: the row is its columns.
        let titles: [String] = try Reminder.where { $0.id.eq(4) }.titles.fetchAll(db)
        #expect(titles == ["Take a walk"])
        // The left side joined a table and chose nothing: the row is still the static side's.
        let joined = Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }.where { $1.id.eq(2) }.titles
        try assertQuery(
            joined,
            sql: #"SELECT "reminders"."title" FROM "reminders" JOIN "remindersLists" ON "reminders"."remindersListID" = "remindersLists"."id" WHERE "remindersLists"."id" = ?"#,
            rows: { try joined.fetchAll(db) }, ["Take a walk", "Buy concert tickets", "Pick up kids"])
    }

    @Test func joinsOfTheStaticStatementAreAppended() throws {
        let joined = Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }.withTags
        #expect(try joined.render().sql.hasPrefix(#"SELECT "reminders"."id", "reminders"."dueDate", "reminders"."isCompleted", "reminders"."isFlagged", "reminders"."notes", "reminders"."position", "reminders"."priority", "reminders"."remindersListID", "reminders"."status", "reminders"."title", "remindersLists"."id", "remindersLists"."color", "remindersLists"."position", "remindersLists"."title", "reminderTags"."reminderID", "reminderTags"."tagID", "tags"."id", "tags"."title" FROM "reminders" JOIN "remindersLists" ON "reminders"."remindersListID" = "remindersLists"."id" LEFT JOIN "reminderTags" ON "reminders"."id" = "reminderTags"."reminderID" LEFT JOIN "tags" ON "reminderTags"."tagID" = "tags"."id" GROUP BY "reminders"."id""#))
        // Every table's row decodes: (Reminder, RemindersList, ReminderTag?, Tag?).
        let rows = try joined.order { reminder, _, _, _ in reminder.id }.fetchAll(db)
        #expect(rows.map { "\($0.0.title)/\($0.1.title)" }
            == ["Groceries/Personal", "Haircut/Personal", "Doctor appointment/Personal", "Take a walk/Family",
                "Buy concert tickets/Family", "Pick up kids/Family"])
        // Grouped by reminder: a reminder with two tags shows one of them.
        #expect(rows.prefix(5).map { $0.3?.title } == ["Personal", "car", "Personal", nil, nil])
        #expect(rows.last.map { [2, 3].contains($0.2?.tagID) } == true)

        let counted = Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }
            .withTags
            .select { ($0.title, $1.title, $3.id.count()) }
            .order { reminder, _, _, _ in reminder.id }
        let counts = try counted.fetchAll(db)
        try assertQuery(
            counted,
            sql: #"SELECT "reminders"."title", "remindersLists"."title", COUNT("tags"."id") FROM "reminders" JOIN "remindersLists" ON "reminders"."remindersListID" = "remindersLists"."id" LEFT JOIN "reminderTags" ON "reminders"."id" = "reminderTags"."reminderID" LEFT JOIN "tags" ON "reminderTags"."tagID" = "tags"."id" GROUP BY "reminders"."id" ORDER BY "reminders"."id" ASC"#,
            rows: { counts.map { "\($0.0)/\($0.1)/\($0.2)" } },
            ["Groceries/Personal/1", "Haircut/Personal/1", "Doctor appointment/Personal/1", "Take a walk/Family/0",
             "Buy concert tickets/Family/0", "Pick up kids/Family/2"])
    }

    @Test func orderingsConcatenateOnceAndTheRightLimitWins() throws {
        let ordered = Reminder.order(by: \.position).byTitle.select(\.title)
        try assertQuery(
            ordered,
            sql: #"SELECT "reminders"."title" FROM "reminders" ORDER BY "reminders"."position" ASC, "reminders"."title" ASC"#,
            rows: { try ordered.fetchAll(db) },
            ["Groceries", "Take a walk", "Buy concert tickets", "Haircut", "Doctor appointment", "Pick up kids"])
        #expect(try Reminder.byTitle.byTitle.render().sql.hasSuffix(#"ORDER BY "reminders"."title" ASC"#))

        // The right side's LIMIT replaces the left's, and its OFFSET with it (it has none).
        let limited = Reminder.order(by: \.id).limit(5, offset: 1).firstTwo.select(\.id)
        try assertQuery(
            limited,
            sql: #"SELECT "reminders"."id" FROM "reminders" ORDER BY "reminders"."id" ASC LIMIT ?"#,
            arguments: [.integer(2)],
            rows: { try limited.fetchAll(db) }, [1, 2])
        // Without one, the left side's stays.
        let kept = Reminder.order(by: \.id).limit(1, offset: 2).incomplete.select(\.id)
        try assertQuery(
            kept,
            sql: #"SELECT "reminders"."id" FROM "reminders" WHERE NOT "reminders"."isCompleted" ORDER BY "reminders"."id" ASC LIMIT ? OFFSET ?"#,
            arguments: [.integer(1), .integer(2)],
            rows: { try kept.fetchAll(db) }, [4])
    }

    @Test func plusMergesTwoStatementsOfATable() throws {
        let query = Reminder.select(\.id).where(\.isFlagged).distinct()
            + Reminder.select { ($0.title, $0.isCompleted) }.order(by: \.id)
        let rows: [(Int, String, Bool)] = try query.fetchAll(db)
        try assertQuery(
            query,
            sql: #"SELECT DISTINCT "reminders"."id", "reminders"."title", "reminders"."isCompleted" FROM "reminders" WHERE "reminders"."isFlagged" ORDER BY "reminders"."id" ASC"#,
            rows: { rows.map { "\($0.0) \($0.1) \($0.2)" } },
            ["1 Groceries false", "3 Doctor appointment false", "5 Buy concert tickets true"])
        // Two statements that each select a number merge too: `+` between them is not
        // arithmetic on two subqueries.
        let numbers: Select<(Int, Int), Reminder, ()> = Reminder.select(\.id) + Reminder.select(\.position)
        #expect(try numbers.where { $0.id.eq(3) }.fetchAll(db).map { "\($0.0) \($0.1)" } == ["3 2"])
    }

    @Test func aDefaultScopeBothSidesApplyIsWrittenOnce() throws {
        let memos = try Database.inMemory()
        try memos.execute(sql: #"CREATE TABLE "memos" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "isDeleted" INTEGER NOT NULL)"#)
        try Memo.insert {
            Memo(id: 1, title: "Taxes")
            Memo(id: 2, title: "Trip", isDeleted: true)
            Memo(id: 3, title: "Groceries")
        }.execute(memos)
        let query = Memo.where { $0.id.gt(0) }.startingWithT.select(\.title)
        try assertQuery(
            query,
            sql: #"SELECT "memos"."title" FROM "memos" WHERE NOT "memos"."isDeleted" AND "memos"."id" > ? AND "memos"."title" LIKE ?"#,
            rows: { try query.fetchAll(memos) }, ["Taxes"])
        // The unscoped side keeps none of its own; the static side brings the scope.
        let unscoped = Memo.unscoped.startingWithT.select(\.id)
        #expect(try unscoped.fetchAll(memos) == [1])
    }
}
