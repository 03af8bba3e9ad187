import Cairn
import Testing

// The queries of seed 003 (SQLiteData's "Query Basics"), as written there, run on the
// reminders fixture. Only the CloudKit parts (`SyncMetadata`, `CKShare`) are left out.

@Selection
struct Stats {
    var allCount = 0
    var flaggedCount = 0
    var scheduledCount = 0
    var todayCount = 0
}

@Selection
struct ReminderListState: Identifiable, Hashable {
    var remindersList: RemindersList
    var remindersCount: Int

    var id: RemindersList.ID { remindersList.id }
}

@Selection
struct ListSummary: Hashable {
    var list: RemindersList
    var count: Int
}

@Suite("Typed SQL: seed 003 queries")
struct SeedQueryTests {
    let db: Database
    let searchText = "crows"

    init() throws { db = try RemindersDatabase.make() }

    @Test func orderingByKeyPath() throws {
        let query = Counter.order(by: \.id)
        try assertQuery(
            query, sql: #"SELECT "counters"."id", "counters"."count" FROM "counters" ORDER BY "counters"."id" ASC"#,
            rows: { try query.fetchAll(db).map(\.count) }, [3, 5])
    }

    @Test func filteringAndOrdering() throws {
        let query = Reminder.where { !$0.isCompleted }
            .order(by: \.position)
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."id", "reminders"."dueDate", "reminders"."isCompleted", "reminders"."isFlagged", "reminders"."notes", "reminders"."position", "reminders"."priority", "reminders"."remindersListID", "reminders"."status", "reminders"."title" FROM "reminders" WHERE NOT "reminders"."isCompleted" ORDER BY "reminders"."position" ASC"#,
            rows: { try query.fetchAll(db).map(\.id) }, [1, 4, 3, 6])
    }

    @Test func joinsWithGroupingIntoASelection() throws {
        let query = RemindersList
            .group(by: \.id)
            .order(by: \.position)
            .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) && !$1.isCompleted }
            .select {
                ReminderListState.Columns(
                    remindersList: $0,
                    remindersCount: $1.id.count()
                )
            }
        try assertQuery(
            query,
            sql: #"SELECT "remindersLists"."id", "remindersLists"."color", "remindersLists"."position", "remindersLists"."title", COUNT("reminders"."id") FROM "remindersLists" LEFT JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID" AND NOT "reminders"."isCompleted" GROUP BY "remindersLists"."id" ORDER BY "remindersLists"."position" ASC"#,
            rows: { try query.fetchAll(db).map { "\($0.remindersList.title): \($0.remindersCount)" } },
            ["Personal: 2", "Family: 2", "Business: 0"])
    }

    @Test func factsCount() throws {
        let query = Fact.count()
        try assertQuery(query, sql: #"SELECT COUNT(*) FROM "facts""#, rows: { try query.fetchAll(db) }, [3])
        #expect(try query.fetchOne(db) == 3)
    }

    @Test func multipleAggregatesWithSelection() throws {
        let query = Reminder.select {
            Stats.Columns(
                allCount: $0.count(filter: !$0.isCompleted),
                flaggedCount: $0.count(filter: $0.isFlagged && !$0.isCompleted),
                scheduledCount: $0.count(filter: $0.isScheduled),
                todayCount: $0.count(filter: $0.isToday)
            )
        }
        let stats = try #require(try query.fetchOne(db))
        let sql = try query.render().sql
        let expected = #"SELECT COUNT("reminders"."id") FILTER (WHERE NOT "reminders"."isCompleted"), COUNT("reminders"."id") FILTER (WHERE "reminders"."isFlagged" AND NOT "reminders"."isCompleted"), COUNT("reminders"."id") FILTER (WHERE "reminders"."dueDate" IS NOT NULL), COUNT("reminders"."id") FILTER (WHERE "reminders"."dueDate" >= ? AND "reminders"."dueDate" < ?) FROM "reminders""#
        #expect(sql == expected)
        let counts: [Int] = [stats.allCount, stats.flaggedCount, stats.scheduledCount, stats.todayCount]
        #expect(counts == [4, 2, 4, 2])
    }

    @Test func selectionColumnsWithClosureParameters() throws {
        let query = RemindersList
            .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
            .select { list, reminder in
                ReminderListState.Columns(
                    remindersList: list,
                    remindersCount: reminder.id.count()
                )
            }
        let states = try query.fetchAll(db)
        #expect(states.map(\.id) == [1])
        #expect(states.first?.remindersCount == 6)
    }

    @Test func filteringBuildingBlocks() throws {
        let incomplete = Reminder.where { $0.status.eq(.incomplete) }
        try assertQuery(
            incomplete.select(\.title), sql: #"SELECT "reminders"."title" FROM "reminders" WHERE "reminders"."status" = ?"#,
            arguments: [.integer(0)], rows: { try incomplete.select(\.title).fetchAll(db) },
            ["Groceries", "Doctor appointment", "Take a walk", "Pick up kids"])

        let negated = Reminder.where { !$0.isCompleted }
        #expect(try negated.fetchCount(db) == 4)

        let important = Reminder.where { $0.priority.gt(.low) }
        try assertQuery(
            important.select(\.id), sql: #"SELECT "reminders"."id" FROM "reminders" WHERE "reminders"."priority" > ?"#,
            arguments: [.integer(1)], rows: { try important.select(\.id).fetchAll(db) }, [1, 3, 5])

        let tags = Tag.where { $0.title.in(["Work", "Personal"]) }
        try assertQuery(
            tags, sql: #"SELECT "tags"."id", "tags"."title" FROM "tags" WHERE "tags"."title" IN (?, ?)"#,
            arguments: [.text("Work"), .text("Personal")],
            rows: { try tags.fetchAll(db).map(\.title) }, ["Personal", "Work"])

        let facts = Fact.where { $0.body.contains(searchText) }
        try assertQuery(
            facts, sql: #"SELECT "facts"."id", "facts"."body" FROM "facts" WHERE "facts"."body" LIKE ? ESCAPE ?"#,
            arguments: [.text("%crows%"), .text("\\")], rows: { try facts.fetchAll(db).map(\.id) }, [3])

        let scheduled = Reminder.where { $0.dueDate.isNot(nil) }
        try assertQuery(
            scheduled.select(\.id), sql: #"SELECT "reminders"."id" FROM "reminders" WHERE "reminders"."dueDate" IS NOT NULL"#,
            arguments: [], rows: { try scheduled.select(\.id).fetchAll(db) }, [1, 3, 5, 6])
    }

    @Test func orderingWithDirections() throws {
        let query = Reminder
            .order { $0.dueDate.desc() }
            .order { $0.position }
        try assertQuery(
            query.select(\.id),
            sql: #"SELECT "reminders"."id" FROM "reminders" ORDER BY "reminders"."dueDate" DESC, "reminders"."position" ASC"#,
            rows: { try query.fetchAll(db).map(\.id) }, [3, 6, 1, 5, 4, 2])
    }

    @Test func grouping() throws {
        let query = RemindersList
            .group(by: \.id)
            .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
            .select { list, reminder in
                ListSummary.Columns(
                    list: list,
                    count: reminder.id.count()
                )
            }
        let summaries = try query.fetchAll(db)
        #expect(summaries.map { "\($0.list.title) \($0.count)" } == ["Personal 3", "Family 3", "Business 0"])
    }

    @Test func joining() throws {
        let tagged = Tag
            .leftJoin(ReminderTag.all) { $0.primaryKey.eq($1.tagID) }
            .leftJoin(Reminder.all) { $1.reminderID.eq($2.id) }
        try assertQuery(
            tagged.order { ($0.id, $2.id) }.select { ($0.title, $2.title) },
            sql: #"SELECT "tags"."title", "reminders"."title" FROM "tags" LEFT JOIN "reminderTags" ON "tags"."id" = "reminderTags"."tagID" LEFT JOIN "reminders" ON "reminderTags"."reminderID" = "reminders"."id" ORDER BY "tags"."id" ASC, "reminders"."id" ASC"#,
            rows: {
                try tagged.order { ($0.id, $2.id) }.select { ($0.title, $2.title) }.fetchAll(db)
                    .map { "\($0.0)/\($0.1 ?? "-")" }
            },
            ["car/Haircut", "kids/Pick up kids", "Personal/Groceries", "Personal/Doctor appointment",
             "Personal/Pick up kids", "Work/-", "someday/-"])
        // The full rows decode as (Tag, ReminderTag?, Reminder?).
        let rows = try tagged.where { tag, _, _ in tag.title.eq("Work") }.fetchAll(db)
        #expect(rows.count == 1)
        #expect(rows.first?.0 == Tag(id: 4, title: "Work"))
        #expect(rows.first?.1 == nil)
        #expect(rows.first?.2 == nil)

        let withConditions = RemindersList
            .leftJoin(Reminder.all) {
                $0.id.eq($1.remindersListID) && !$1.isCompleted
            }
        let pairs = try withConditions.order { ($0.id, $1.id) }.fetchAll(db)
        #expect(pairs.map { "\($0.0.id):\($0.1?.id ?? 0)" } == ["1:1", "1:3", "2:4", "2:6", "3:0"])
    }

    @Test func having() throws {
        let query = Tag
            .withReminders
            .having { $2.count().gt(0) }  // Only tags with reminders
            .select { tag, _, _ in tag }
        try assertQuery(
            query,
            sql: #"SELECT "tags"."id", "tags"."title" FROM "tags" LEFT JOIN "reminderTags" ON "tags"."id" = "reminderTags"."tagID" LEFT JOIN "reminders" ON "reminderTags"."reminderID" = "reminders"."id" GROUP BY "tags"."id" HAVING COUNT("reminders"."id") > ?"#,
            arguments: [.integer(0)], rows: { try query.fetchAll(db).map(\.title) }, ["car", "kids", "Personal"])
    }

    @Test func count() throws {
        // Total count
        let total = try Reminder.fetchCount(db)

        // Filtered count
        let incomplete = try Reminder.where { !$0.isCompleted }.fetchCount(db)

        #expect(total == 6)
        #expect(incomplete == 4)

        // Conditional count in select
        let stats = try #require(try Reminder.select {
            Stats.Columns(
                allCount: $0.count(filter: !$0.isCompleted),
                flaggedCount: $0.count(filter: $0.isFlagged)
            )
        }.fetchOne(db))
        #expect(stats.allCount == 4)
        #expect(stats.flaggedCount == 3)
        #expect(stats.scheduledCount == 0)
    }
}
