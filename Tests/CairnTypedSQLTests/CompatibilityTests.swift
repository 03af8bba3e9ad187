import Cairn
import CairnTestSupport
import Foundation
import Testing

/// Spellings SQLiteData apps use, found by compiling its examples against Cairn: each failed to
/// compile before.
@Suite("Typed SQL: SQLiteData spellings")
struct CompatibilityTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    @Test func noneSelectsNoRow() throws {
        let query = Tag.none
        try assertQuery(
            query, sql: #"SELECT "tags"."id", "tags"."title" FROM "tags" WHERE ?"#, arguments: [.integer(0)],
            rows: { try query.fetchAll(db) }, [Tag]())
        #expect(try Tag.none.fetchCount(db) == 0)
    }

    @Test func textFunctions() throws {
        let query = Reminder.find(1).select {
            ($0.notes.replace(", ", " & "), $0.notes.substr(1, 4), $0.title.substr(4), $0.notes.instr("eggs"), $0.notes.trim("Mgs"))
        }
        #expect(try query.render().sql
            == #"SELECT replace("reminders"."notes", ?, ?), substr("reminders"."notes", ?, ?), substr("reminders"."title", ?), instr("reminders"."notes", ?), trim("reminders"."notes", ?) FROM "reminders" WHERE "reminders"."id" = ?"#)
        let row = try #require(try query.fetchOne(db))
        #expect(row.0 == "Milk & eggs")
        #expect(row.1 == "Milk")
        #expect(row.2 == "ceries")
        #expect(row.3 == 7)
        #expect(row.4 == "ilk, e")  // M, then s, g, g from the ends
        #expect(try Reminder.find(4).select { $0.title.trim() }.fetchOne(db) == "Take a walk")
    }

    @Test func ifnullGivesTheOtherValueForNull() throws {
        let query = Reminder.order(by: \.id).select { $0.priority.ifnull(Priority.medium) }
        #expect(try query.render().sql.hasPrefix(#"SELECT ifnull("reminders"."priority", ?)"#))
        #expect(try query.fetchAll(db) == [.high, .low, .medium, .medium, .high, .low])
    }

    @Test func anInMemoryQueueAndChainedPreparation() throws {
        let calls = Collected<String>()
        var configuration = Configuration()
        configuration.prepareDatabase { _ in calls.append("first") }
        configuration.prepareDatabase { db in
            calls.append("second")
            try db.execute(sql: "CREATE TABLE prepared (x)")
        }
        let queue = try DatabaseQueue(configuration: configuration)
        try queue.write { db in try db.execute(sql: "INSERT INTO prepared VALUES (1)") }
        #expect(calls.values == ["first", "second"])
        #expect(try DatabaseQueue().read { db in try db.fetchAll(sql: "SELECT 1") { _ in 1 } } == [1])
    }
}
