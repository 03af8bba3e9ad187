import Cairn
import Foundation
import Testing

/// `select { ($0.a, $0.b, …) }` on one table has fixed-arity overloads for 2 to 8 columns
/// (Select+TupleOverloads.swift, generated), as `Reminder.select` and as `Select.select`; a
/// wider tuple takes the variadic `select`. Every arity must read what the row's struct reads.
@Suite("Typed SQL: tuple selects")
struct TupleSelectTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    /// The first `count` of the columns the tuples below select, from the struct.
    func fields(_ reminder: Reminder, _ count: Int) -> String {
        let all: [Any] = [
            reminder.id, reminder.title, reminder.isFlagged, reminder.notes, reminder.position,
            reminder.priority as Any, reminder.remindersListID, reminder.status, reminder.isCompleted,
        ]
        return all.prefix(count).map { "\($0)" }.joined(separator: "|")
    }

    func line(_ values: Any...) -> String { values.map { "\($0)" }.joined(separator: "|") }

    @Test func everyArityReadsWhatTheStructReads() throws {
        let reminders = try Reminder.all.fetchAll(db)
        #expect(reminders.count >= 6)
        func expected(_ count: Int) -> [String] { reminders.map { fields($0, count) } }

        let two = try Reminder.select { ($0.id, $0.title) }.fetchAll(db)
        #expect(two.map { line($0.0, $0.1) } == expected(2))
        let three = try Reminder.all.select { ($0.id, $0.title, $0.isFlagged) }.fetchAll(db)
        #expect(three.map { line($0.0, $0.1, $0.2) } == expected(3))
        let four = try Reminder.select { ($0.id, $0.title, $0.isFlagged, $0.notes) }.fetchAll(db)
        #expect(four.map { line($0.0, $0.1, $0.2, $0.3) } == expected(4))
        let five = try Reminder.all.select { ($0.id, $0.title, $0.isFlagged, $0.notes, $0.position) }.fetchAll(db)
        #expect(five.map { line($0.0, $0.1, $0.2, $0.3, $0.4) } == expected(5))
        let six = try Reminder.select { ($0.id, $0.title, $0.isFlagged, $0.notes, $0.position, $0.priority) }
            .fetchAll(db)
        #expect(six.map { line($0.0, $0.1, $0.2, $0.3, $0.4, $0.5 as Any) } == expected(6))
        let seven = try Reminder.all
            .select { ($0.id, $0.title, $0.isFlagged, $0.notes, $0.position, $0.priority, $0.remindersListID) }
            .fetchAll(db)
        #expect(seven.map { line($0.0, $0.1, $0.2, $0.3, $0.4, $0.5 as Any, $0.6) } == expected(7))
        let eight = try Reminder
            .select { ($0.id, $0.title, $0.isFlagged, $0.notes, $0.position, $0.priority, $0.remindersListID, $0.status) }
            .fetchAll(db)
        #expect(eight.map { line($0.0, $0.1, $0.2, $0.3, $0.4, $0.5 as Any, $0.6, $0.7) } == expected(8))
        // Nine columns: the variadic `select`.
        let nine = try Reminder.all
            .select {
                ($0.id, $0.title, $0.isFlagged, $0.notes, $0.position, $0.priority, $0.remindersListID, $0.status,
                 $0.isCompleted)
            }
            .fetchAll(db)
        #expect(nine.map { line($0.0, $0.1, $0.2, $0.3, $0.4, $0.5 as Any, $0.6, $0.7, $0.8) } == expected(9))
    }

    @Test func aTupleSelectKeepsTheStatementsClausesAndItsSQL() throws {
        let query = Reminder.where { $0.isFlagged }.order { $0.title.desc() }.limit(2).select { ($0.id, $0.title) }
        let rows = try query.fetchAll(db)
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."id", "reminders"."title" FROM "reminders" WHERE "reminders"."isFlagged" ORDER BY "reminders"."title" DESC LIMIT ?"#,
            arguments: [.integer(2)], rows: { rows.map { "\($0.0) \($0.1)" } }, ["1 Groceries", "3 Doctor appointment"])
        // Columns that are expressions, and aggregates, decode through the same overloads.
        let counts = try Reminder.select { ($0.count(), $0.position.sum(), $0.title.length()) }.fetchAll(db)
        #expect(counts.count == 1)
        #expect(counts.first?.0 == 6)
    }
}
