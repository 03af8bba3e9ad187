import Cairn
import Foundation
import Testing

// Swift's comparison operators in queries, written as StructuredQueries users write them.
@Suite("Typed SQL: comparison operators")
struct ComparisonOperatorTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    /// The SQL of a condition on reminders, and the ids of the reminders it keeps.
    func check(
        _ condition: (Reminder.TableColumns) -> SQLQueryExpression<Bool>, _ sql: String, _ ids: [Int],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let query = Reminder.where(condition).order(by: \.id).select(\.id)
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."id" FROM "reminders" WHERE "# + sql + #" ORDER BY "reminders"."id" ASC"#,
            rows: { try query.fetchAll(db) }, ids, sourceLocation: sourceLocation)
    }

    @Test func orderingAgainstValues() throws {
        try check({ $0.position > 1 }, #""reminders"."position" > ?"#, [3, 6])
        try check({ $0.position >= 1 }, #""reminders"."position" >= ?"#, [2, 3, 5, 6])
        try check({ $0.position < 1 }, #""reminders"."position" < ?"#, [1, 4])
        try check({ $0.position <= 1 }, #""reminders"."position" <= ?"#, [1, 2, 4, 5])
        try check({ $0.priority > .low }, #""reminders"."priority" > ?"#, [1, 3, 5])
        try check({ $0.dueDate < today }, #""reminders"."dueDate" < ?"#, [5])
        try check({ $0.title >= "P" }, #""reminders"."title" >= ?"#, [4, 6])
    }

    @Test func equalityAgainstValues() throws {
        try check({ $0.position == 1 }, #""reminders"."position" = ?"#, [2, 5])
        try check({ $0.position != 1 }, #""reminders"."position" <> ?"#, [1, 3, 4, 6])
        try check({ $0.title == "Haircut" }, #""reminders"."title" = ?"#, [2])
        try check({ $0.isFlagged == true }, #""reminders"."isFlagged" = ?"#, [1, 3, 5])
        try check({ $0.status != .completed }, #""reminders"."status" <> ?"#, [1, 3, 4, 6])
    }

    /// An optional left side compares with `IS`, as StructuredQueries renders it: a NULL
    /// equals NULL, and `!=` keeps the rows whose value is NULL.
    @Test func equalityOfOptionals() throws {
        try check({ $0.priority == nil }, #""reminders"."priority" IS ?"#, [4])
        try check({ $0.priority != nil }, #""reminders"."priority" IS NOT ?"#, [1, 2, 3, 5, 6])
        try check({ $0.priority == .high }, #""reminders"."priority" IS ?"#, [1, 5])
        try check({ $0.priority != .high }, #""reminders"."priority" IS NOT ?"#, [2, 3, 4, 6])
        try check({ $0.dueDate == $0.dueDate }, #""reminders"."dueDate" IS "reminders"."dueDate""#, [1, 2, 3, 4, 5, 6])
        // `nil` against a column that is not optional is `IS NULL` too, never Swift's `false`.
        try check({ $0.id == nil }, #""reminders"."id" IS ?"#, [])
        try check({ $0.id != nil }, #""reminders"."id" IS NOT ?"#, [1, 2, 3, 4, 5, 6])
    }

    @Test func betweenExpressions() throws {
        try check({ $0.position == $0.remindersListID }, #""reminders"."position" = "reminders"."remindersListID""#, [2, 6])
        try check({ $0.position != $0.remindersListID }, #""reminders"."position" <> "reminders"."remindersListID""#, [1, 3, 4, 5])
        try check({ $0.position > $0.remindersListID }, #""reminders"."position" > "reminders"."remindersListID""#, [3])
        try check({ $0.position <= $0.remindersListID }, #""reminders"."position" <= "reminders"."remindersListID""#, [1, 2, 4, 5, 6])
        try check({ $0.position < $0.title.length() - 8 }, #""reminders"."position" < length("reminders"."title") - ?"#, [1, 3, 4, 5, 6])
    }

    /// A join condition between columns; in `having`, a column compared inside the aggregate's
    /// filter (an aggregate itself is compared with `gt`, `gte`…: see ComparisonOperators.swift).
    @Test func joinConditionAndHaving() throws {
        let query = RemindersList
            .join(Reminder.all) { $0.id == $1.remindersListID }
            .where { $1.priority == nil || $1.position > 1 }
            .order { $1.id }
            .select { ($0.title, $1.title) }
        try assertQuery(
            query,
            sql: #"SELECT "remindersLists"."title", "reminders"."title" FROM "remindersLists" JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID" WHERE "reminders"."priority" IS ? OR "reminders"."position" > ? ORDER BY "reminders"."id" ASC"#,
            rows: { try query.fetchAll(db).map { "\($0.0): \($0.1)" } },
            ["Personal: Doctor appointment", "Family: Take a walk", "Family: Pick up kids"])

        let busyLists = Reminder
            .group(by: \.remindersListID)
            .having { $0.id.count().gt(2) && $0.isCompleted.count(filter: $0.isCompleted == true).gte(1) }
            .select(\.remindersListID)
        try assertQuery(
            busyLists,
            sql: #"SELECT "reminders"."remindersListID" FROM "reminders" GROUP BY "reminders"."remindersListID" HAVING COUNT("reminders"."id") > ? AND COUNT("reminders"."isCompleted") FILTER (WHERE "reminders"."isCompleted" = ?) >= ?"#,
            rows: { try busyLists.fetchAll(db) }, [1, 2])
        let none = Reminder.group(by: \.remindersListID).having { $0.id.count().gt(3) }.select(\.remindersListID)
        #expect(try none.fetchAll(db) == [])
    }

    /// Six terms, as a filter screen builds them: each operator and `&&`.
    @Test func sixTermFilter() throws {
        try check(
            {
                $0.position >= 0 && $0.priority != nil && $0.title != "" && $0.remindersListID == 1
                    && $0.id < 10 && $0.isFlagged == true
            },
            #""reminders"."position" >= ? AND "reminders"."priority" IS NOT ? AND "reminders"."title" <> ? AND "reminders"."remindersListID" = ? AND "reminders"."id" < ? AND "reminders"."isFlagged" = ?"#,
            [1, 3])
    }

    /// The operators apply only where a side is a query expression: comparing plain values
    /// (and `@Table` values) is still Swift's comparison, giving `Bool`.
    @Test func plainValuesKeepSwiftsOperators() throws {
        let one = 1, two = 2
        let less = one < two, equal = one == two, notEqual = "a" != "b", greater = today > tomorrow
        let optional: Int? = nil
        let isNil = optional == nil, isSome = optional != nil
        let priority: Priority? = .high
        let isHigh = priority == .high
        let results: [Bool] = [less, equal, notEqual, greater, isNil, isSome, isHigh]
        #expect(results == [true, false, true, false, true, false, true])
        let reminders = try Reminder.order(by: \.id).fetchAll(db)
        #expect(reminders.map(\.id) == [1, 2, 3, 4, 5, 6])
        #expect(reminders[0] == reminders[0] && reminders[0] != reminders[1])
    }
}
