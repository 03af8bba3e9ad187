import Cairn
import Testing

@Suite("Typed SQL: db.seed { }")
struct SeedTests {
    @Test func seedInsertsRunsOfOneTableInOrder() throws {
        let db = try RemindersDatabase.make()
        var traced: [String] = []
        db.add { traced.append($0.sql) }
        let withExtras = true
        try db.seed {
            RemindersList(id: 4, title: "Garden")
            RemindersList.Draft(title: "Travel")
            for title in ["Seeds", "Soil"] { Reminder.Draft(remindersListID: 4, title: title) }
            if withExtras { Tag(id: 6, title: "outdoors") }
            [ReminderTag(reminderID: 7, tagID: 6), ReminderTag(reminderID: 8, tagID: 6)]
            RemindersList.Draft(title: "Last")
        }
        #expect(traced.filter { $0.hasPrefix("INSERT") } == [
            #"INSERT INTO "remindersLists" ("id", "color", "position", "title") VALUES (?, ?, ?, ?), (?, ?, ?, ?)"#,
            #"INSERT INTO "reminders" ("id", "dueDate", "isCompleted", "isFlagged", "notes", "position", "priority", "remindersListID", "status", "title") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"#,
            #"INSERT INTO "tags" ("id", "title") VALUES (?, ?)"#,
            #"INSERT INTO "reminderTags" ("reminderID", "tagID") VALUES (?, ?), (?, ?)"#,
            #"INSERT INTO "remindersLists" ("id", "color", "position", "title") VALUES (?, ?, ?, ?)"#,
        ])
        #expect(try RemindersList.where { $0.id.gt(3) }.order(by: \.id).select(\.title).fetchAll(db) == ["Garden", "Travel", "Last"])
        #expect(try Reminder.where { $0.remindersListID.eq(4) }.order(by: \.id).select(\.title).fetchAll(db) == ["Seeds", "Soil"])
        #expect(try ReminderTag.where { $0.tagID.eq(6) }.fetchCount(db) == 2)
    }

    @Test func aFailedSeedLeavesNothing() throws {
        let db = try RemindersDatabase.make()
        #expect(throws: DatabaseError.self) {
            try db.seed {
                RemindersList(id: 4, title: "Garden")
                Tag(id: 1, title: "duplicate key")
            }
        }
        #expect(try RemindersList.fetchCount(db) == 3)
        #expect(try Tag.find(1).fetchOne(db)?.title == "car")
    }

    @Test func seedsPrepareOneInsertPerRunWithoutRunningThem() throws {
        let db = try RemindersDatabase.make()
        let seeds = Seeds {
            Tag(id: 7, title: "errand")
            Tag.Draft(title: "chore")
            RemindersList.Draft(title: "Errands")
            Tag(id: 9, title: "weekly")
        }
        let inserts = Array(seeds)
        #expect(try inserts.map { try SQLRenderCache.shared.render($0.sqlStatement()).sql } == [
            #"INSERT INTO "tags" ("id", "title") VALUES (?, ?), (?, ?)"#,
            #"INSERT INTO "remindersLists" ("id", "color", "position", "title") VALUES (?, ?, ?, ?)"#,
            #"INSERT INTO "tags" ("id", "title") VALUES (?, ?)"#,
        ])
        #expect(try Tag.where { $0.id.gt(6) }.fetchCount(db) == 0)
        for insert in inserts { try insert.execute(db) }
        #expect(try Tag.where { $0.id.gt(6) }.order(by: \.id).select(\.title).fetchAll(db) == ["errand", "chore", "weekly"])
        #expect(try RemindersList.where { $0.title.eq("Errands") }.fetchCount(db) == 1)
    }
}
