import Cairn
import Foundation
import Testing

/// `join(…) { … }.select { ($0.a, $1.b, …) }` with one join has fixed-arity overloads for 2 to 8
/// columns (Select+JoinedTupleOverloads.swift, generated); a wider tuple, or a statement with
/// two joins, takes the variadic `select`. Every form must read what the joined structs read.
@Suite("Typed SQL: tuple selects across a join")
struct JoinedTupleSelectTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    /// Reminders with their list, in the statement's order.
    var remindersWithLists: SelectOf<Reminder, RemindersList> {
        Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }.order { reminder, _ in reminder.id }
    }

    /// The first `count` of the columns the tuples below select, alternating between the
    /// reminder and its list, from the structs.
    func fields(_ pair: (Reminder, RemindersList), _ count: Int) -> String {
        let (reminder, list) = pair
        let all: [Any] = [
            reminder.id, list.title, reminder.title, list.color, reminder.isFlagged, list.position,
            reminder.priority as Any, list.id, reminder.status,
        ]
        return all.prefix(count).map { "\($0)" }.joined(separator: "|")
    }

    func line(_ values: Any...) -> String { values.map { "\($0)" }.joined(separator: "|") }

    @Test func everyArityReadsWhatTheJoinedStructsRead() throws {
        let pairs = try remindersWithLists.fetchAll(db)
        #expect(pairs.count == 6)
        func expected(_ count: Int) -> [String] { pairs.map { fields($0, count) } }
        let query = remindersWithLists

        let two = try query.select { ($0.id, $1.title) }.fetchAll(db)
        #expect(two.map { line($0.0, $0.1) } == expected(2))
        let three = try query.select { ($0.id, $1.title, $0.title) }.fetchAll(db)
        #expect(three.map { line($0.0, $0.1, $0.2) } == expected(3))
        let four = try query.select { ($0.id, $1.title, $0.title, $1.color) }.fetchAll(db)
        #expect(four.map { line($0.0, $0.1, $0.2, $0.3) } == expected(4))
        let five = try query.select { ($0.id, $1.title, $0.title, $1.color, $0.isFlagged) }.fetchAll(db)
        #expect(five.map { line($0.0, $0.1, $0.2, $0.3, $0.4) } == expected(5))
        let six = try query.select { ($0.id, $1.title, $0.title, $1.color, $0.isFlagged, $1.position) }.fetchAll(db)
        #expect(six.map { line($0.0, $0.1, $0.2, $0.3, $0.4, $0.5) } == expected(6))
        let seven = try query
            .select { ($0.id, $1.title, $0.title, $1.color, $0.isFlagged, $1.position, $0.priority) }
            .fetchAll(db)
        #expect(seven.map { line($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6 as Any) } == expected(7))
        let eight = try query
            .select { ($0.id, $1.title, $0.title, $1.color, $0.isFlagged, $1.position, $0.priority, $1.id) }
            .fetchAll(db)
        #expect(eight.map { line($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6 as Any, $0.7) } == expected(8))
        // Nine columns: the variadic `select`.
        let nine = try query
            .select {
                ($0.id, $1.title, $0.title, $1.color, $0.isFlagged, $1.position, $0.priority, $1.id, $0.status)
            }
            .fetchAll(db)
        #expect(nine.map { line($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6 as Any, $0.7, $0.8) } == expected(9))
    }

    @Test func aJoinedTupleSelectKeepsTheClausesAndItsSQL() throws {
        let query = Reminder.where(\.isFlagged)
            .join(RemindersList.all) { $0.remindersListID.eq($1.id) }
            .order { ($1.title, $0.title.desc()) }
            .limit(2)
            .select { ($1.title, $0.title) }
        let rows = try query.fetchAll(db)
        try assertQuery(
            query,
            sql: #"SELECT "remindersLists"."title", "reminders"."title" FROM "reminders" JOIN "remindersLists" ON "reminders"."remindersListID" = "remindersLists"."id" WHERE "reminders"."isFlagged" ORDER BY "remindersLists"."title" ASC, "reminders"."title" DESC LIMIT ?"#,
            arguments: [.integer(2)], rows: { rows.map { "\($0.0): \($0.1)" } },
            ["Family: Buy concert tickets", "Personal: Groceries"])
        // Aggregates over a join decode through the same overloads.
        let counts = try RemindersList.join(Reminder.all) { $0.id.eq($1.remindersListID) }
            .group { list, _ in list.id }
            .order { list, _ in list.id }
            .select { ($0.title, $1.id.count(), $1.position.max()) }
            .fetchAll(db)
        #expect(counts.map { "\($0.0) \($0.1) \($0.2 ?? -1)" } == ["Personal 3 2", "Family 3 2"])
    }

    @Test func aLeftJoinsColumnsDecodeAsOptionalsAndNilForNoMatch() throws {
        // The condition is in ON: a joined statement's WHERE joins the outer WHERE, as in
        // StructuredQueries, and would drop the lists without a match.
        let rows: [(String, String?, Int?)] = try RemindersList
            .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) && $1.isFlagged }
            .order { ($0.position, $1.id) }
            .select { ($0.title, $1.title, $1.id) }
            .fetchAll(db)
        #expect(rows.map { "\($0.0) \($0.1 ?? "nil") \($0.2.map(String.init) ?? "nil")" } == [
            "Personal Groceries 1", "Personal Doctor appointment 3", "Family Buy concert tickets 5", "Business nil nil",
        ])
        // A right join makes the tables joined before it optional instead.
        let right: [(String?, String)] = try Reminder
            .rightJoin(RemindersList.all) { $0.remindersListID.eq($1.id) && $0.id.eq(4) }
            .order { $1.id }
            .select { ($0.title, $1.title) }
            .fetchAll(db)
        #expect(right.map { "\($0.0 ?? "nil") \($0.1)" } == ["nil Personal", "Take a walk Family", "nil Business"])
    }

    @Test func aTupleSelectAcrossTwoJoinsReadsEveryTable() throws {
        let rows = try Reminder
            .join(RemindersList.all) { $0.remindersListID.eq($1.id) }
            .join(ReminderTag.all) { $0.id.eq($2.reminderID) }
            .order { ($2.tagID, $0.id) }
            .select { ($0.title, $1.title, $2.tagID) }
            .fetchAll(db)
        #expect(rows.map { "\($0.0)/\($0.1)/\($0.2)" } == [
            "Haircut/Personal/1", "Pick up kids/Family/2", "Groceries/Personal/3", "Doctor appointment/Personal/3",
            "Pick up kids/Family/3",
        ])
    }
}
