import Cairn
import CairnTestSupport
import Foundation
import Testing

// Aggregate `@DatabaseFunction`s as SQLiteData's documentation writes them.

@DatabaseFunction
func joined(_ titles: some Sequence<String>) -> String {
    titles.joined(separator: ", ")
}

@DatabaseFunction
func mode(priority priorities: some Sequence<Priority?>) -> Priority? {
    var occurrences: [Priority: Int] = [:]
    for priority in priorities {
        guard let priority else { continue }
        occurrences[priority, default: 0] += 1
    }
    return occurrences.max { $0.value < $1.value || ($0.value == $1.value && $0.key.rawValue < $1.key.rawValue) }?.key
}

@DatabaseFunction
func sum(of values: any Sequence<Int>) -> Int {
    values.reduce(0, +)
}

@DatabaseFunction
func interleaved(_ rows: some Sequence<(String, separator: String)>) -> String? {
    var result: String?
    for (text, separator) in rows {
        result = result.map { $0 + separator + text } ?? text
    }
    return result
}

@DatabaseFunction
func failingCount(_ ids: some Sequence<Int>) throws -> Int {
    throw FunctionFailure()
}

@Suite("Typed SQL: aggregate @DatabaseFunction")
struct AggregateDatabaseFunctionTests {
    let db: Database

    init() throws {
        db = try RemindersDatabase.make()
        db.add(function: $joined)
        db.add(function: $mode)
        db.add(function: $sum)
        db.add(function: $interleaved)
        db.add(function: $failingCount)
    }

    @Test func runsOncePerGroupWithTheGroupsValues() throws {
        let query = Reminder.group(by: \.remindersListID).order(by: \.remindersListID).select { $joined($0.title) }
        try assertQuery(
            query,
            sql: #"SELECT "joined"("reminders"."title") FROM "reminders" GROUP BY "reminders"."remindersListID" ORDER BY "reminders"."remindersListID" ASC"#,
            rows: { try query.fetchAll(db) },
            ["Groceries, Haircut, Doctor appointment", "Take a walk, Buy concert tickets, Pick up kids"])
    }

    @Test func labelsOptionalsAndJoins() throws {
        #expect(try Reminder.select { $mode(priority: $0.priority) }.fetchOne(db) == .some(.high))
        let query = RemindersList.group(by: \.id).order(by: \.id)
            .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
            .select { ($0.title, $mode(priority: $1.priority)) }
        let rows = try query.fetchAll(db)
        #expect(try query.render().sql.contains(#""mode"("reminders"."priority")"#))
        #expect(rows.map(\.0) == ["Personal", "Family", "Business"])
        #expect(rows.map(\.1) == [.high, .high, nil])
    }

    @Test func distinctAndFilter() throws {
        let distinct = Reminder.select { $sum($0.remindersListID, distinct: true) }
        try assertQuery(
            distinct, sql: #"SELECT "sum"(DISTINCT "reminders"."remindersListID") FROM "reminders""#,
            rows: { try distinct.fetchAll(db) }, [3])
        let filtered = Reminder.select { $sum(of: $0.id, filter: $0.isCompleted) }
        try assertQuery(
            filtered, sql: #"SELECT "sum"("reminders"."id") FILTER (WHERE "reminders"."isCompleted") FROM "reminders""#,
            rows: { try filtered.fetchAll(db) }, [7])
        // A group with no rows reaches the function as an empty sequence.
        #expect(try Reminder.where { $0.id.eq(0) }.select { $sum(of: $0.id) }.fetchAll(db) == [0])
    }

    @Test func severalArgumentsArriveAsTuples() throws {
        let query = Tag.order(by: \.id).select { $interleaved($0.title, separator: "+") }
        try assertQuery(
            query, sql: #"SELECT "interleaved"("tags"."title", ?) FROM "tags" ORDER BY "tags"."id" ASC"#,
            rows: { try query.fetchAll(db) }, [Optional("car+kids+Personal+Work+someday")])
    }

    @Test func errorsFailTheStatementAndFreeTheGroup() throws {
        #expect {
            try Reminder.select { $failingCount($0.id) }.fetchAll(db)
        } throws: { error in
            "\(error)".contains("failingCount: no reminders on Sundays")
        }
        #expect {
            try #sql("SELECT \"joined\"(id) FROM reminders", as: String.self).fetchAll(db)
        } throws: { error in
            "\(error)".contains("argument 1 (titles) of joined(…) is 1, which does not decode as String")
        }
        // The connection is still usable, and the function still works.
        #expect(try Reminder.where { $0.id.eq(4) }.select { $joined($0.title) }.fetchAll(db) == ["Take a walk"])
    }

    @Test func removedFunctionsAreNoLongerCallable() throws {
        db.remove(function: $joined)
        #expect {
            try Reminder.select { $joined($0.title) }.fetchAll(db)
        } throws: { error in
            "\(error)".contains("no such function: joined")
        }
    }
}

/// An engine-level aggregate that counts its live instances, to check that each group's
/// accumulator is freed, also when the statement fails mid-group.
final class CountingAggregate: DatabaseAggregate {
    static let live = Collected<Int>()
    var total = 0
    init() { Self.live.append(1) }
    deinit { Self.live.append(-1) }
    func step(_ arguments: [DatabaseValue]) throws {
        guard case .integer(let value) = arguments[0] else { return }
        if value < 0 { throw FunctionFailure() }
        total += Int(value)
    }
    func finalize() throws -> (any DatabaseValueConvertible)? { total }
}

@Suite("Engine: aggregate DatabaseFunction")
struct EngineAggregateTests {
    @Test func eachGroupsStateIsFreedAfterItsResultAndOnFailure() throws {
        let db = try Database.inMemory()
        db.add(function: DatabaseFunction("counting_total", argumentCount: 1, aggregate: { CountingAggregate() }))
        try db.execute(sql: "CREATE TABLE t(g INTEGER, v INTEGER)")
        try db.execute(sql: "INSERT INTO t VALUES (1, 1), (1, 2), (2, 5), (3, -1), (3, 4)")
        let sql = "SELECT counting_total(v) FROM t WHERE g < 3 GROUP BY g ORDER BY g"
        #expect(try db.fetchValues(Int.self, sql: sql) == [3, 5])
        #expect(try db.fetchValues(Int.self, sql: "SELECT counting_total(v) FROM t WHERE g > 5") == [0])
        #expect {
            try db.fetchValues(Int.self, sql: "SELECT counting_total(v) FROM t GROUP BY g")
        } throws: { error in
            "\(error)".contains("counting_total: no reminders on Sundays")
        }
        // Stopped after the first group, while the second one has had a row: reset mid-group.
        do {
            let cursor = try db.fetchCursor(sql: sql)
            #expect(try cursor.next() != nil)
        }
        #expect(try db.fetchValues(Int.self, sql: sql) == [3, 5])
        #expect(CountingAggregate.live.values.reduce(0, +) == 0)
        #expect(CountingAggregate.live.values.count >= 8)
    }
}
