import Cairn
import Foundation
import Testing

/// `<`, `>`, `<=`, `>=` on columns and computed expressions, joined by `&&` and `||`, as
/// StructuredQueries code writes them (`check` renders and runs a condition on reminders).
extension OperatorTests {
    @Test func orderingOperatorsOnColumns() throws {
        try check({ $0.position > 1 }, #""reminders"."position" > ?"#, [3, 6])
        try check({ $0.position >= 1 }, #""reminders"."position" >= ?"#, [2, 3, 5, 6])
        try check({ $0.position < 1 }, #""reminders"."position" < ?"#, [1, 4])
        try check({ $0.position <= 1 }, #""reminders"."position" <= ?"#, [1, 2, 4, 5])
        // An optional column: NULL is never greater or smaller (reminder 4 has no priority).
        try check({ $0.priority > .low }, #""reminders"."priority" > ?"#, [1, 3, 5])
        try check({ $0.priority <= .medium }, #""reminders"."priority" <= ?"#, [2, 3, 6])
        try check({ $0.dueDate < today }, #""reminders"."dueDate" < ?"#, [5])
    }

    @Test func orderingOperatorBindsTheValue() throws {
        let query = Reminder.where { $0.title > "Doctor" }.select(\.id)
        try assertQuery(
            query, sql: #"SELECT "reminders"."id" FROM "reminders" WHERE "reminders"."title" > ?"#,
            arguments: [.text("Doctor")], rows: { try query.fetchAll(db).sorted() }, [1, 2, 3, 4, 6])
    }

    @Test func orderingOperatorsJoinedWithAndAndOr() throws {
        try check(
            { $0.position > 0 && $0.priority < .high },
            #""reminders"."position" > ? AND "reminders"."priority" < ?"#, [2, 3, 6])
        try check(
            { $0.isFlagged && $0.position >= 1 }, #""reminders"."isFlagged" AND "reminders"."position" >= ?"#, [3, 5])
        try check(
            { $0.position < 1 || $0.isFlagged }, #""reminders"."position" < ? OR "reminders"."isFlagged""#, [1, 3, 4, 5])
        try check({ $0.isFlagged && $0.isCompleted }, #""reminders"."isFlagged" AND "reminders"."isCompleted""#, [5])
        try check(
            { $0.position >= 0 && $0.priority > .low && !$0.isCompleted && $0.title.neq("") && $0.remindersListID < 3 },
            #""reminders"."position" >= ? AND "reminders"."priority" > ? AND NOT "reminders"."isCompleted" AND "reminders"."title" <> ? AND "reminders"."remindersListID" < ?"#,
            [1, 3])
    }

    @Test func orderingOperatorsOnComputedExpressions() throws {
        try check({ $0.position + 1 > 2 }, #""reminders"."position" + ? > ?"#, [3, 6])
        try check({ $0.title.length() <= 7 }, #"length("reminders"."title") <= ?"#, [2])
    }

    @Test func orderingOperatorInHaving() throws {
        let query = Reminder
            .group(by: \.isCompleted)
            .having { $0.id.count() > 3 }
            .select { ($0.isCompleted, $0.id.count()) }
        try assertQuery(
            query,
            sql: #"SELECT "reminders"."isCompleted", COUNT("reminders"."id") FROM "reminders" GROUP BY "reminders"."isCompleted" HAVING COUNT("reminders"."id") > ?"#,
            arguments: [.integer(3)], rows: { try query.fetchAll(db).map { "\($0.0) \($0.1)" } }, ["false 4"])
    }
}
