import Cairn
import Foundation
import Testing

/// Typed statements written once against `QueryDatabase`/`QueryConnection` run on each kind of
/// database and answer what the same filters and sorts give over the Swift arrays the rows
/// came from.
@Suite("Typed SQL: one function, any QueryDatabase")
struct QueryDatabaseTests {
    /// What `RemindersWorkload.run` reads back, computed from `RemindersDatabase`'s arrays.
    static var expected: RemindersWorkload.Answers {
        let reminders = RemindersDatabase.reminders
        let open = reminders.filter { !$0.isCompleted }.sorted { ($0.title, $0.id) < ($1.title, $1.id) }
        var afterUpdate = reminders
        for index in afterUpdate.indices where afterUpdate[index].remindersListID == 2 {
            afterUpdate[index].position += 10
        }
        return RemindersWorkload.Answers(
            openTitles: open.map(\.title),
            flaggedCount: reminders.filter(\.isFlagged).count,
            firstHighPriority: reminders.filter { $0.priority == .high }.min { $0.id < $1.id }?.title,
            listPositions: afterUpdate.filter { $0.remindersListID == 2 && !$0.isCompleted }.map(\.position).sorted(),
            returnedIDs: reminders.filter(\.isCompleted).map(\.id).sorted(),
            remaining: reminders.filter { !$0.isCompleted }.count,
            rawCount: reminders.count - reminders.filter(\.isCompleted).count)
    }

    @Test func aQueueAnswersAsTheArraysDo() throws {
        let queue = try DatabaseQueue.inMemory()
        #expect(try RemindersWorkload.run(on: queue) == Self.expected)
    }

    @Test func aPoolAnswersAsTheArraysDo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-query-database-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pool = try DatabasePool(path: folder.appendingPathComponent("reminders.sqlite").path)
        #expect(try RemindersWorkload.run(on: pool) == Self.expected)
    }

    @Test(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipMessage))
    func aPostgreSQLServerAnswersAsTheArraysDo() throws {
        let answers = try PostgresTestServer.withDatabase { database in
            try RemindersWorkload.run(on: database, schema: RemindersWorkload.postgreSQLSchema)
        }
        #expect(answers == Self.expected)
    }

    @Test func aWriteThatThrowsLeavesNothingBehind() throws {
        let queue = try DatabaseQueue.inMemory()
        _ = try RemindersWorkload.run(on: queue)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try queue.write { db in
                try Reminder.delete().execute(db)
                throw Stop()
            }
        }
        #expect(try queue.read { db in try Reminder.fetchCount(db) } == Self.expected.remaining)
    }
}

/// The statements, generic over the database: nothing here names SQLite.
enum RemindersWorkload {
    struct Answers: Equatable {
        var openTitles: [String]
        var flaggedCount: Int
        var firstHighPriority: String?
        var listPositions: [Int]
        var returnedIDs: [Int]
        var remaining: Int
        var rawCount: Int
    }

    /// `RemindersDatabase.schema` as a PostgreSQL user writes it: `BOOLEAN` flags, 8-byte
    /// integers and floats.
    static let postgreSQLSchema = """
        CREATE TABLE "remindersLists" (
          "id" BIGINT PRIMARY KEY, "color" BIGINT NOT NULL DEFAULT 0,
          "position" BIGINT NOT NULL DEFAULT 0, "title" TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE "reminders" (
          "id" BIGINT PRIMARY KEY, "dueDate" TIMESTAMP, "isCompleted" BOOLEAN NOT NULL DEFAULT FALSE,
          "isFlagged" BOOLEAN NOT NULL DEFAULT FALSE, "notes" TEXT NOT NULL DEFAULT '',
          "position" BIGINT NOT NULL DEFAULT 0, "priority" BIGINT,
          "remindersListID" BIGINT NOT NULL REFERENCES "remindersLists"("id") ON DELETE CASCADE,
          "status" BIGINT NOT NULL DEFAULT 0, "title" TEXT NOT NULL DEFAULT ''
        )
        """

    static func run<Database: QueryDatabase>(on database: Database, schema: String = RemindersDatabase.schema) throws -> Answers {
        try database.write { db in try RemindersDatabase.fillListsAndReminders(db, schema: schema) }
        var answers = try database.read { db in
            Answers(
                openTitles: try Reminder.where { !$0.isCompleted }.order { ($0.title, $0.id) }.select(\.title).fetchAll(db),
                flaggedCount: try Reminder.where(\.isFlagged).fetchCount(db),
                firstHighPriority: try Reminder.where { $0.priority.eq(Priority.high) }.order(by: \.id)
                    .select(\.title).fetchOne(db),
                listPositions: [], returnedIDs: [], remaining: 0, rawCount: 0)
        }
        try database.write { db in
            try Reminder.where { $0.remindersListID.eq(2) }.update { $0.position += 10 }.execute(db)
            answers.returnedIDs = try Reminder.where(\.isCompleted).delete().returning(\.id).fetchAll(db).sorted()
        }
        try database.read { db in
            answers.listPositions = try Reminder.where { $0.remindersListID.eq(2) }.select(\.position).fetchAll(db).sorted()
            answers.remaining = try Reminder.fetchCount(db)
            answers.rawCount = try #sql("SELECT count(*) FROM \(Reminder.self)", as: Int.self).fetchOne(db) ?? -1
        }
        return answers
    }
}
