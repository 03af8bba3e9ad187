import Cairn
import Testing

// The reminders schema of SQLiteData's examples, with known data. Every typed SQL test runs
// against a fresh in-memory database filled by `RemindersDatabase.make()`.

@Table
struct RemindersList: Identifiable, Hashable, Sendable {
    let id: Int
    var color = 0x4a99ef
    var position = 0
    var title = ""
}

enum Priority: Int, QueryBindable, Sendable {
    case low = 1, medium, high
}

enum Status: Int, QueryBindable, Sendable {
    case incomplete, completed
}

@Table
struct Reminder: Identifiable, Hashable, Sendable {
    let id: Int
    var dueDate: Date?
    var isCompleted = false
    var isFlagged = false
    var notes = ""
    var position = 0
    var priority: Priority?
    var remindersListID: RemindersList.ID
    var status: Status = .incomplete
    var title = ""
}

@Table
struct Tag: Identifiable, Hashable, Sendable {
    let id: Int
    var title = ""
}

@Table
struct ReminderTag: Hashable, Sendable {
    var reminderID: Reminder.ID
    var tagID: Tag.ID
}

@Table
struct Fact: Identifiable, Hashable, Sendable {
    let id: Int
    var body = ""
}

@Table
struct Counter: Identifiable, Hashable, Sendable {
    let id: Int
    var count = 0
}

/// "Today" in the fixture data: 2026-05-10 00:00 UTC, and the day after.
let today = Date(timeIntervalSince1970: 1_778_371_200)
let tomorrow = today.addingTimeInterval(86_400)

extension Reminder.TableColumns {
    /// Reminders with a due date.
    var isScheduled: SQLQueryExpression<Bool> { dueDate.isNot(nil) }
    /// Reminders due on the fixture's "today".
    var isToday: SQLQueryExpression<Bool> { dueDate.gte(today) && dueDate.lt(tomorrow) }
}

extension Tag {
    /// Tags joined to their reminders (through reminderTags), grouped by tag.
    static let withReminders = Tag
        .group(by: \.id)
        .leftJoin(ReminderTag.all) { $0.primaryKey.eq($1.tagID) }
        .leftJoin(Reminder.all) { $1.reminderID.eq($2.id) }
}

enum RemindersDatabase {
    static let schema = """
        CREATE TABLE "remindersLists" (
          "id" INTEGER PRIMARY KEY, "color" INTEGER NOT NULL DEFAULT 0,
          "position" INTEGER NOT NULL DEFAULT 0, "title" TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE "reminders" (
          "id" INTEGER PRIMARY KEY, "dueDate" TEXT, "isCompleted" INTEGER NOT NULL DEFAULT 0,
          "isFlagged" INTEGER NOT NULL DEFAULT 0, "notes" TEXT NOT NULL DEFAULT '',
          "position" INTEGER NOT NULL DEFAULT 0, "priority" INTEGER,
          "remindersListID" INTEGER NOT NULL REFERENCES "remindersLists"("id") ON DELETE CASCADE,
          "status" INTEGER NOT NULL DEFAULT 0, "title" TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE "tags" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL UNIQUE COLLATE NOCASE);
        CREATE TABLE "reminderTags" (
          "reminderID" INTEGER NOT NULL REFERENCES "reminders"("id") ON DELETE CASCADE,
          "tagID" INTEGER NOT NULL REFERENCES "tags"("id") ON DELETE CASCADE
        );
        CREATE TABLE "facts" ("id" INTEGER PRIMARY KEY, "body" TEXT NOT NULL);
        CREATE TABLE "counters" ("id" INTEGER PRIMARY KEY, "count" INTEGER NOT NULL DEFAULT 0);
        """

    static let lists = [
        RemindersList(id: 1, color: 0x4a99ef, position: 0, title: "Personal"),
        RemindersList(id: 2, color: 0xed8935, position: 1, title: "Family"),
        RemindersList(id: 3, color: 0xb25dd3, position: 2, title: "Business"),
    ]

    static let reminders = [
        Reminder(id: 1, dueDate: today.addingTimeInterval(3_600), isFlagged: true, notes: "Milk, eggs",
                 position: 0, priority: .high, remindersListID: 1, title: "Groceries"),
        Reminder(id: 2, isCompleted: true, position: 1, priority: .low, remindersListID: 1,
                 status: .completed, title: "Haircut"),
        Reminder(id: 3, dueDate: today.addingTimeInterval(2 * 86_400), isFlagged: true, position: 2,
                 priority: .medium, remindersListID: 1, title: "Doctor appointment"),
        Reminder(id: 4, position: 0, remindersListID: 2, title: "Take a walk"),
        Reminder(id: 5, dueDate: today.addingTimeInterval(-86_400), isCompleted: true, isFlagged: true,
                 position: 1, priority: .high, remindersListID: 2, status: .completed, title: "Buy concert tickets"),
        Reminder(id: 6, dueDate: today.addingTimeInterval(7_200), position: 2, priority: .low,
                 remindersListID: 2, title: "Pick up kids"),
    ]

    static let tags = [
        Tag(id: 1, title: "car"), Tag(id: 2, title: "kids"), Tag(id: 3, title: "Personal"),
        Tag(id: 4, title: "Work"), Tag(id: 5, title: "someday"),
    ]

    static let reminderTags = [
        ReminderTag(reminderID: 1, tagID: 3), ReminderTag(reminderID: 3, tagID: 3),
        ReminderTag(reminderID: 6, tagID: 2), ReminderTag(reminderID: 6, tagID: 3),
        ReminderTag(reminderID: 2, tagID: 1),
    ]

    static let facts = [
        Fact(id: 1, body: "Swift was introduced in 2014"),
        Fact(id: 2, body: "SQLite is the most widely deployed database"),
        Fact(id: 3, body: "A group of crows is called a murder"),
    ]

    /// Creates `schema`'s tables on any connection and inserts the lists and reminders above
    /// through the typed `insert` statements: the start of the tests that run on SQLite and
    /// PostgreSQL alike.
    static func fillListsAndReminders(_ db: some QueryConnection, schema: String) throws {
        for statement in schema.split(separator: ";") where !statement.allSatisfy(\.isWhitespace) {
            try SQLQueryExpression<Void>(QueryFragment(stringLiteral: String(statement))).execute(db)
        }
        try RemindersList.insert { lists }.execute(db)
        try Reminder.insert { reminders }.execute(db)
    }

    /// A fresh in-memory database with the schema and the rows above, inserted through the
    /// typed `insert` statements.
    static func make(configuration: Configuration = Configuration()) throws -> Database {
        let db = try Database.inMemory(configuration: configuration)
        for statement in schema.split(separator: ";") where !statement.allSatisfy(\.isWhitespace) {
            try db.execute(sql: String(statement))
        }
        try RemindersList.insert { lists }.execute(db)
        try Reminder.insert { reminders }.execute(db)
        try Tag.insert { tags }.execute(db)
        try ReminderTag.insert { reminderTags }.execute(db)
        try Fact.insert { facts }.execute(db)
        try Counter.insert { Counter(id: 1, count: 3); Counter(id: 2, count: 5) }.execute(db)
        return db
    }
}

/// Renders and runs statements for SQL-and-rows assertions.
protocol RenderableStatement {
    func render() throws -> RenderedSQL
}

extension Select: RenderableStatement {}
extension Insert: RenderableStatement {}
extension Update: RenderableStatement {}
extension Delete: RenderableStatement {}

/// Checks a statement's SQL text (and arguments, if given) and the rows it returns, together,
/// as StructuredQueries' `assertQuery` does.
func assertQuery<Row: Equatable>(
    _ statement: some RenderableStatement,
    sql expectedSQL: String,
    arguments expectedArguments: [DatabaseValue]? = nil,
    rows: () throws -> [Row],
    _ expectedRows: [Row],
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let rendered = try statement.render()
    #expect(rendered.sql == expectedSQL, sourceLocation: sourceLocation)
    if let expectedArguments {
        #expect(rendered.arguments == expectedArguments, sourceLocation: sourceLocation)
    }
    #expect(try rows() == expectedRows, sourceLocation: sourceLocation)
}
