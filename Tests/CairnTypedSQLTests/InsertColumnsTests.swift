import Cairn
import Testing

/// A value that has no SQLite representation (as a `UInt64` above `Int64.max`, or a JSON value
/// that does not encode, has).
struct Unstorable: QueryBindable, Sendable {
    struct Refused: Error {}
    var databaseValue: DatabaseValue { .null }
    func databaseValueForBinding() throws -> DatabaseValue { throw Refused() }
    static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Unstorable? { Unstorable() }
}

@Table("facts")
struct OddFact {
    let id: Int
    var body: Unstorable
}

@Suite("Typed SQL: inserts that name their columns (values: and select:)")
struct InsertColumnsTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    @Test func namedColumnsTakeValuesAndTheRestTheirDefaults() throws {
        let weekend = true
        let insert = Reminder.insert {
            ($0.remindersListID, $0.title, $0.priority)
        } values: {
            (1, "Call mom", Priority.high)
            if weekend { (3, "Mow the lawn", nil) }
            for title in ["Bread", "Jam"] { (2, title, Priority.low) }
        }
        try assertQuery(
            insert,
            sql: #"INSERT INTO "reminders" ("remindersListID", "title", "priority") VALUES (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?)"#,
            arguments: [.integer(1), .text("Call mom"), .integer(3), .integer(3), .text("Mow the lawn"), .null,
                        .integer(2), .text("Bread"), .integer(1), .integer(2), .text("Jam"), .integer(1)],
            rows: {
                try insert.execute(db)
                return try Reminder.where { $0.id.gt(6) }.order(by: \.id).fetchAll(db)
            },
            [
                Reminder(id: 7, priority: .high, remindersListID: 1, title: "Call mom"),
                Reminder(id: 8, remindersListID: 3, title: "Mow the lawn"),
                Reminder(id: 9, priority: .low, remindersListID: 2, title: "Bread"),
                Reminder(id: 10, priority: .low, remindersListID: 2, title: "Jam"),
            ])
    }

    @Test func oneColumnTakesAValueOrAnArrayOfThem() throws {
        let insert = Tag.insert { $0.title } values: {
            "errands"
            ["travel", "garden"]
        }
        try assertQuery(
            insert, sql: #"INSERT INTO "tags" ("title") VALUES (?), (?), (?)"#,
            arguments: [.text("errands"), .text("travel"), .text("garden")],
            rows: { try insert.execute(db); return try Tag.where { $0.id.gt(5) }.order(by: \.id).select(\.title).fetchAll(db) },
            ["errands", "travel", "garden"])
    }

    @Test func valuesAreBoundInTheColumnsRepresentation() throws {
        let due = today.addingTimeInterval(90)
        try Reminder.insert { ($0.remindersListID, $0.dueDate, $0.status) } values: {
            (2, due, Status.completed)
        }.execute(db)
        let row = try #require(try Reminder.find(7).fetchOne(db))
        #expect(row.dueDate == due && row.status == .completed && row.title == "" && !row.isFlagged)
    }

    @Test func namedColumnsUpsert() throws {
        let insert = Counter.insert { ($0.id, $0.count) } values: {
            (1, 10)
            (9, 4)
        } onConflict: {
            $0.id
        } doUpdate: {
            $0.count += $1.count
        }
        try assertQuery(
            insert,
            sql: #"INSERT INTO "counters" ("id", "count") VALUES (?, ?), (?, ?) ON CONFLICT ("id") DO UPDATE SET "count" = "counters"."count" + "excluded"."count""#,
            rows: { try insert.execute(db); return try Counter.order(by: \.id).select { ($0.id, $0.count) }.fetchAll(db).map { "\($0.0):\($0.1)" } },
            ["1:13", "2:5", "9:4"])
    }

    @Test func selectInsertsTheRowsOfAQuery() throws {
        let insert = Tag.insert { $0.title } select: {
            RemindersList.where { $0.position.gt(0) }.select { $0.title.lower() }
        }
        try assertQuery(
            insert,
            sql: #"INSERT INTO "tags" ("title") SELECT lower("remindersLists"."title") FROM "remindersLists" WHERE "remindersLists"."position" > ?"#,
            arguments: [.integer(0)],
            rows: { try insert.execute(db); return try Tag.where { $0.id.gt(5) }.order(by: \.title).select(\.title).fetchAll(db) },
            ["business", "family"])
    }

    @Test func selectFillsSeveralColumns() throws {
        // Tag every flagged reminder with "Work" (tag 4), in SQL.
        let insert = ReminderTag.insert { ($0.reminderID, $0.tagID) } select: {
            Reminder.where(\.isFlagged).select { ($0.id, #sql("4", as: Int.self)) }
        }
        try assertQuery(
            insert,
            sql: #"INSERT INTO "reminderTags" ("reminderID", "tagID") SELECT "reminders"."id", 4 FROM "reminders" WHERE "reminders"."isFlagged""#,
            rows: {
                try insert.execute(db)
                return try ReminderTag.where { $0.tagID.eq(4) }.order(by: \.reminderID).select(\.reminderID).fetchAll(db)
            },
            [1, 3, 5])
    }

    @Test func badColumnInsertsThrow() throws {
        // A value that cannot be bound is an error, not a NULL written in its place.
        #expect(throws: TypedSQLError.self) { try OddFact.insert { $0.body } values: { Unstorable() }.execute(db) }
        #expect(try Fact.fetchCount(db) == 3)
        // The UNIQUE title: a constraint violation is an error, and nothing of the statement lands.
        #expect(throws: DatabaseError.self) { try Tag.insert { $0.title } values: { "new"; "KIDS" }.execute(db) }
        #expect(try Tag.fetchCount(db) == 5)
    }
}
