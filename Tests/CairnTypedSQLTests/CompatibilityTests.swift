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
        let writer: any DatabaseWriter = queue
        #expect(writer.path == ":memory:")  // `database.path`, as SQLiteData apps log it
        let pool = try defaultDatabase()
        #expect(pool.path.hasSuffix("/cairn.sqlite"))
    }

    @Test func insertDefaultValues() throws {
        let insert = Counter.insert()
        try assertQuery(
            insert, sql: #"INSERT INTO "counters" DEFAULT VALUES"#,
            rows: { try insert.execute(db); return try Counter.order(by: \.id).select(\.count).fetchAll(db) }, [3, 5, 0])
    }

    @Test func fetchOneOfATableAndOfAnOptionalRowWithAnimation() async throws {
        let queue = try DatabaseQueue()
        try await queue.write { db in
            try db.execute(sql: #"CREATE TABLE "tags" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL)"#)
        }
        let placeholder = Tag(id: 0, title: "none yet")
        let first = FetchOne(wrappedValue: placeholder, database: queue)
        #expect(first.wrappedValue == placeholder)  // no row: the given value
        try await queue.write { db in try Tag.insert { Tag(id: 7, title: "seven"); Tag(id: 8, title: "eight") }.execute(db) }
        try await first.load()
        #expect(first.wrappedValue == Tag(id: 7, title: "seven"))
        let eight = FetchOne(Tag.where { $0.id.eq(8) }, database: queue, animation: .default)
        #expect(eight.wrappedValue == Tag(id: 8, title: "eight"))
    }

    @Test func rawInterpolationTakesNumbers() throws {
        let months = 3
        let query = #sql("SELECT \(raw: months) * \(raw: 2.5)", as: Double.self)
        #expect(try query.render().sql == "SELECT 3 * 2.5")
        #expect(try query.fetchOne(db) == 7.5)
    }

    @Test func rowsHaveTheirPrimaryKey() throws {
        let tags = try Tag.order(by: \.id).fetchAll(db)
        #expect(tags.map(\.primaryKey) == tags.map(\.id))
        #expect(try Reminder.where { $0.id.in(tags.prefix(2).map(\.primaryKey)) }.fetchCount(db) == 2)
    }

    /// SQLiteData's most common line (31 times in its examples).
    @Test func dependencyReadsTheDefaultDatabase() throws {
        let pool = try defaultDatabase()
        try pool.write { db in try db.execute(sql: #"CREATE TABLE "tags" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL)"#) }
        struct TagsFeature {
            @Dependency(\.defaultDatabase) var database
            func add(_ title: String) throws {
                try database.write { db in try Tag.insert { Tag.Draft(title: title) }.execute(db) }
            }
        }
        prepareDependencies { $0.defaultDatabase = pool }
        try TagsFeature().add("errands")
        #expect(try pool.read { db in try Tag.select(\.title).fetchAll(db) } == ["errands"])
    }

    @Test func anUnsetDefaultDatabaseThrowsInsteadOfStandingIn() async throws {
        let unset = DependencyValues().defaultDatabase
        #expect(throws: LiveQueryError.self) { try unset.read { _ in 1 } }
        #expect(throws: LiveQueryError.self) { try unset.write { _ in 1 } }
        await #expect(throws: LiveQueryError.self) { try await unset.write { _ in 1 } }
    }

    @Test func statementTypeNames() throws {
        let joined: SelectOf<Reminder, RemindersList> = Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }
        let plain: SelectOf<Reminder> = Reminder.where(\.isFlagged)
        let flag: UpdateOf<Reminder> = Reminder.find(4).update { $0.isFlagged = true }
        #expect(try joined.fetchCount(db) == 6)
        try flag.execute(db)
        #expect(try plain.fetchCount(db) == 4)
    }
}
