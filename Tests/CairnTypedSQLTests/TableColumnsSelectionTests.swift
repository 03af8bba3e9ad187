import Cairn
import Foundation
import Testing

// `@Table` rows selected into with their generated `Columns`, as StructuredQueries' `@Table`
// allows: a common table expression's rows, a column group, a representation, optionals.

@Table
private struct IncompleteReminder: Equatable {
    var isFlagged: Bool
    var title: String
}

@Selection
private struct Span: Equatable {
    var startsAt: Date
    var endsAt: Date?
}

/// A table holding a column group.
@Table
private struct Booking: Equatable {
    var title: String
    var span: Span
}

/// A table with a column stored in another representation, with a default.
@Table
private struct Deadline: Equatable {
    var title: String
    @Column(as: Date.UnixTimeRepresentation.self) var dueAt = Date(timeIntervalSince1970: 60)
}

/// A table with optional columns: one stored in one column, one a whole row.
@Table
private struct ReminderInList: Equatable {
    var title: String
    var dueDate: Date?
    var list: RemindersList?
}

@Suite("Typed SQL: a @Table's Columns")
struct TableColumnsSelectionTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    @Test func aCommonTableExpressionSelectsIntoATable() throws {
        let query = With {
            Reminder.where { !$0.isCompleted }
                .select { IncompleteReminder.Columns(isFlagged: $0.isFlagged, title: $0.title) }
        } query: {
            IncompleteReminder.where { $0.title.collate(.nocase).contains("groceries") }
        }
        try assertQuery(
            query,
            sql: #"WITH "incompleteReminders"("isFlagged", "title") AS (SELECT "reminders"."isFlagged", "#
                + #""reminders"."title" FROM "reminders" WHERE NOT "reminders"."isCompleted") "#
                + #"SELECT "incompleteReminders"."isFlagged", "incompleteReminders"."title" FROM "incompleteReminders" "#
                + #"WHERE "incompleteReminders"."title" COLLATE NOCASE LIKE ? ESCAPE ?"#,
            arguments: [.text("%groceries%"), .text("\\")],
            rows: { try query.fetchAll(db) }, [IncompleteReminder(isFlagged: true, title: "Groceries")])
    }

    @Test func aTableColumnsTakesAWholeRowForAColumnGroup() throws {
        let span = Span(startsAt: today, endsAt: tomorrow)
        let query = With {
            Values(Booking.Columns(title: "Offsite", span: Span.Columns(startsAt: today, endsAt: Optional(tomorrow))))
        } query: {
            Booking.where { $0.span.endsAt.isNot(nil) }
        }
        try assertQuery(
            query,
            sql: #"WITH "bookings"("title", "startsAt", "endsAt") AS (SELECT ?, ?, ?) "#
                + #"SELECT "bookings"."title", "bookings"."startsAt", "bookings"."endsAt" FROM "bookings" "#
                + #"WHERE "bookings"."endsAt" IS NOT NULL"#,
            rows: { try query.fetchAll(db) }, [Booking(title: "Offsite", span: span)])
        // A table's own columns stand for the group: `$0` of the `Booking` CTE itself.
        let copied = With {
            Values(Booking.Columns(title: "Offsite", span: Span.Columns(startsAt: today)))
        } query: {
            Booking.select { Booking.Columns(title: $0.title.upper(), span: $0.span) }
        }
        let copiedSQL = try copied.render().sql
        #expect(copiedSQL.hasSuffix(
            #"AS (SELECT ?, ?, NULL) SELECT upper("bookings"."title"), "bookings"."startsAt", "bookings"."endsAt" FROM "bookings""#),
            "\(copiedSQL)")
        #expect(try copied.fetchAll(db) == [Booking(title: "OFFSITE", span: Span(startsAt: today))])
    }

    @Test func aRepresentationColumnTakesAnExpressionOfTheRepresentation() throws {
        let query = With {
            Values(Deadline.Columns(title: "Launch", dueAt: #bind(today, as: Date.UnixTimeRepresentation.self)))
                .union(all: true, Values(Deadline.Columns(title: "Epoch")))
        } query: {
            Deadline.order(by: \.dueAt)
        }
        let rendered = try query.render()
        // The default (a `Date`) is bound as its representation: seconds since 1970.
        #expect(rendered.arguments == [.text("Launch"), .real(1_778_371_200), .text("Epoch"), .real(60)])
        #expect(try query.fetchAll(db) == [
            Deadline(title: "Epoch", dueAt: Date(timeIntervalSince1970: 60)), Deadline(title: "Launch", dueAt: today),
        ])
    }

    @Test func optionalColumnsLeftOutSelectNull() throws {
        let query = Reminder.where { $0.id.lte(2) }.order(by: \.id).select { ReminderInList.Columns(title: $0.title) }
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."title", NULL, NULL, NULL, NULL, NULL FROM "reminders" "#
                + #"WHERE "reminders"."id" <= ? ORDER BY "reminders"."id" ASC"#,
            rows: { try query.fetchAll(db) },
            [ReminderInList(title: "Groceries"), ReminderInList(title: "Haircut")])
        // Given, they select the columns, a left join's optional row included.
        let joined = Reminder.leftJoin(RemindersList.all) { $0.remindersListID.eq($1.id) }
            .where { reminder, _ in reminder.id.eq(1) }
            .select { ReminderInList.Columns(title: $0.title, dueDate: $0.dueDate, list: $1) }
        #expect(try joined.fetchAll(db) == [
            ReminderInList(title: "Groceries", dueDate: today.addingTimeInterval(3_600), list: RemindersDatabase.lists[0]),
        ])
    }
}
