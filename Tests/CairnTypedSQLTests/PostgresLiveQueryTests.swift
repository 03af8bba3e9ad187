import Cairn
import CairnTestSupport
import Foundation
import Testing

/// `@FetchAll`, `@FetchOne` and `@Fetch` on a `PostgresDatabase`: the same wrappers as on
/// SQLite, refreshed by the server's notifications after this pool's writes and other
/// clients' alike.
@Suite("Typed SQL: live wrappers on PostgreSQL", .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipMessage))
struct PostgresLiveQueryTests {
    /// A pool on a fresh schema holding the reminders fixture.
    func withReminders(_ body: (PostgresDatabase, String) async throws -> Void) async throws {
        try await PostgresTestSchema.withSchema { url in
            let database = try PostgresDatabase(url: url)
            defer { database.close() }
            try await database.write { db in
                try RemindersDatabase.fillListsAndReminders(db, schema: RemindersWorkload.postgreSQLSchema)
            }
            try await body(database, url)
        }
    }

    /// The tables of the current schema that carry the change trigger.
    func triggeredTables(_ database: PostgresDatabase) throws -> [String] {
        try database.read { db in
            try db.fetchAll(sql: """
                SELECT DISTINCT event_object_table FROM information_schema.triggers \
                WHERE trigger_schema = current_schema() AND trigger_name = '_cairn_changes' ORDER BY 1
                """) { try $0.decode(String.self, at: 0) }
        }
    }

    @Test func wrappersLoadWhatSQLiteLoadsAndRefreshAfterThePoolsWrites() async throws {
        try await withReminders { database, _ in
            let flagged = FetchAll(Reminder.where(\.isFlagged).order(by: \.id), database: database)
            let count = FetchOne(wrappedValue: 0, Reminder.count(), database: database)
            let first = FetchOne(Reminder.order(by: \.id), database: database)
            let sqlite = try makeReminderPool()
            let sqliteFlagged = FetchAll(Reminder.where(\.isFlagged).order(by: \.id), database: sqlite)
            #expect(flagged.wrappedValue == sqliteFlagged.wrappedValue)
            #expect(flagged.wrappedValue.map(\.id) == [1, 3, 5])
            #expect(count.wrappedValue == 6)
            #expect(first.wrappedValue?.id == 1)
            #expect(flagged.loadError == nil && count.loadError == nil)

            try await database.write { db in try Reminder.find(4).update { $0.isFlagged = true }.execute(db) }
            await waitUntil { flagged.wrappedValue.map(\.id) == [1, 3, 4, 5] }
            try await database.write { db in
                try Reminder.insert { Reminder.Draft(id: 7, remindersListID: 1, title: "Call") }.execute(db)
            }
            await waitUntil { count.wrappedValue == 7 }
            #expect(flagged.loadError == nil)
            // Only the table the queries read is watched.
            #expect(try triggeredTables(database) == ["reminders"])
        }
    }

    @Test func aWriteOfAnotherClientReachesTheWrappers() async throws {
        try await withReminders { database, url in
            let open = FetchAll(Reminder.where { !$0.isCompleted }.order(by: \.id).select(\.title), database: database)
            #expect(open.wrappedValue.count == 4)
            // Not Cairn: plain SQL, as psql or another program would write.
            let client = try PostgresConnection(url: url)
            try client.execute(sql: #"UPDATE "reminders" SET "title" = 'Renamed' WHERE "id" = 1"#)
            await waitUntil { open.wrappedValue.first == "Renamed" }
            #expect(open.loadError == nil)
        }
    }

    /// A joined query watches both its tables, as the server's plan names them.
    @Test func aJoinWatchesEachTableItReads() async throws {
        try await withReminders { database, _ in
            let lists = FetchAll(
                RemindersList.group(by: \.id).order(by: \.position)
                    .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
                    .select { ReminderListState.Columns(remindersList: $0, remindersCount: $1.id.count()) },
                database: database)
            #expect(lists.wrappedValue.map(\.remindersList.id) == [1, 2, 3])
            #expect(try triggeredTables(database) == ["reminders", "remindersLists"])
            try await database.write { db in try RemindersList.find(2).update { $0.title = "Errands" }.execute(db) }
            await waitUntil { lists.wrappedValue.contains { $0.remindersList.title == "Errands" } }
            try await database.write { db in try Reminder.where { $0.remindersListID.eq(2) }.delete().execute(db) }
            await waitUntil { lists.wrappedValue.first { $0.remindersList.id == 2 }?.remindersCount == 0 }
        }
    }

    @Test func theServerNamesTheTablesAStatementReads() throws {
        try PostgresTestServer.withDatabase { database in
            try database.write { db in
                try RemindersDatabase.fillListsAndReminders(db, schema: RemindersWorkload.postgreSQLSchema)
                _ = try db.execute(sql: #"CREATE VIEW "openReminders" AS SELECT * FROM "reminders" WHERE NOT "isCompleted""#)
            }
            try database.read { (db: PostgresConnection) throws in
                #expect(try db.readTables(sql: #"SELECT 1"#) == [])
                #expect(try db.readTables(sql: #"SELECT "title" FROM "openReminders" WHERE "id" = $1"#, arguments: [1]) == ["reminders"])
                #expect(try db.readTables(sql: """
                    SELECT "title" FROM "remindersLists" WHERE "id" IN (SELECT "remindersListID" FROM "reminders")
                    """) == ["remindersLists", "reminders"])
            }
            #expect(throws: PostgresError.self) {
                try database.read { try $0.readTables(sql: #"SELECT * FROM "nothing""#) }
            }
        }
    }

    /// A query that failed (its table did not exist yet) loads after the pool's write that
    /// creates it, and from then on refreshes.
    @Test func aFailedLoadRecoversAfterTheWriteThatMakesItWork() async throws {
        try await withReminders { database, _ in
            let facts = FetchAll(Fact.order(by: \.id), database: database)
            #expect(facts.loadError is PostgresError)
            try await database.write { db in
                _ = try db.execute(sql: #"CREATE TABLE "facts" ("id" BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "body" TEXT NOT NULL)"#)
                try Fact.insert { Fact.Draft(body: "first") }.execute(db)
            }
            await waitUntil { facts.wrappedValue.map(\.body) == ["first"] }
            #expect(facts.loadError == nil)
            try await database.write { db in try Fact.insert { Fact.Draft(body: "second") }.execute(db) }
            await waitUntil { facts.wrappedValue.map(\.body) == ["first", "second"] }
        }
    }

    /// A `FetchKeyRequest` takes SQLite's `Database`: on a server it is an error that says so.
    @Test func aFetchRequestOnAServerIsAnErrorThatSaysWhy() async throws {
        try await withReminders { database, _ in
            let counts = Fetch(wrappedValue: ListCounts.Value(), ListCounts(runs: RunCounter()), database: database)
            #expect(counts.wrappedValue == ListCounts.Value())
            let error = try #require(counts.loadError as? LiveQueryError)
            #expect(error.description.contains("FetchKeyRequest"))
        }
    }
}
