import Cairn
import Foundation
import Testing

/// The same typed statements on SQLite and on a PostgreSQL server, row for row: filters,
/// orderings (NULLs included), joins, groups and aggregates, text functions, writes with
/// `RETURNING` and upserts. Each statement's rows are compared as text, so a difference names
/// the statement and shows both answers.
@Suite("Typed SQL: SQLite and PostgreSQL answer alike")
struct PostgresDifferentialTests {
    @Test(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipMessage))
    func everyStatementAnswersAlike() throws {
        let sqlite = try DifferentialStatements.answers(on: DatabaseQueue.inMemory(), schema: RemindersDatabase.schema)
        let postgres = try PostgresTestServer.withDatabase { database in
            try DifferentialStatements.answers(on: database, schema: RemindersWorkload.postgreSQLSchema)
        }
        #expect(sqlite.count == postgres.count)
        for (sqliteAnswer, postgresAnswer) in zip(sqlite, postgres) {
            #expect(sqliteAnswer.rows == postgresAnswer.rows, "\(sqliteAnswer.name)")
            // A statement that throws on both sides would compare equal without testing anything.
            #expect(!sqliteAnswer.rows.contains { $0.hasPrefix("error:") }, "\(sqliteAnswer.name): \(sqliteAnswer.rows)")
        }
    }
}

/// The statements, written once against `QueryDatabase`.
enum DifferentialStatements {
    struct Answer {
        var name: String
        var rows: [String]
    }

    static func answers<Database: QueryDatabase>(on database: Database, schema: String) throws -> [Answer] {
        try database.write { db in try RemindersDatabase.fillListsAndReminders(db, schema: schema) }
        var answers: [Answer] = []
        func record(_ name: String, _ rows: () throws -> [Any]) {
            do {
                answers.append(Answer(name: name, rows: try rows().map { "\($0)" }))
            } catch {
                answers.append(Answer(name: name, rows: ["error: \(error)"]))
            }
        }
        try database.read { db in
            record("every column, by id") { try Reminder.order(by: \.id).fetchAll(db) }
            record("lookups by primary key") {
                try [1, 3, 999].map { try Reminder.find($0).fetchOne(db).map { "\($0)" } ?? "nil" }
                    + Reminder.find(2).fetchAll(db).map { "\($0)" }
            }
            record("a cursor over rows") {
                let cursor = try Reminder.order(by: \.id).fetchCursor(db)
                var rows: [Reminder] = []
                while let row = try cursor.next() { rows.append(row) }
                return rows
            }
            record("a cursor over selected columns") {
                let cursor = try Reminder.where { !$0.isCompleted }.order(by: \.title).select { ($0.id, $0.title) }.fetchCursor(db)
                var rows: [String] = []
                while let (id, title) = try cursor.next() { rows.append("\(id) \(title)") }
                return rows
            }
            record("contains, ASCII case ignored") { try Reminder.where { $0.title.contains("A") }.order(by: \.id).select(\.id).fetchAll(db) }
            record("hasPrefix") { try Reminder.where { $0.title.hasPrefix("take") }.select(\.id).fetchAll(db) }
            record("like") { try Reminder.where { $0.title.like("%a%t%") }.order(by: \.id).select(\.id).fetchAll(db) }
            record("in list") { try Reminder.where { $0.priority.in([.low, .medium]) }.order(by: \.id).select(\.id).fetchAll(db) }
            record("empty in list") { try Reminder.where { $0.id.in([Int]()) }.select(\.id).fetchAll(db) }
            record("between") { try Reminder.where { $0.position.between(1, and: 2) }.order(by: \.id).select(\.id).fetchAll(db) }
            record("is null") { try Reminder.where { $0.priority.is(nil) }.select(\.id).fetchAll(db) }
            record("is not null") { try Reminder.where { $0.priority.isNot(nil) }.order(by: \.id).select(\.id).fetchAll(db) }
            record("boolean logic") {
                try Reminder.where { $0.isCompleted || $0.priority.eq(.medium) && !$0.isFlagged }.order(by: \.id).select(\.id).fetchAll(db)
            }
            record("ascending with NULLs") { try Reminder.order { ($0.priority, $0.id) }.select(\.id).fetchAll(db) }
            record("descending with NULLs") { try Reminder.order { ($0.dueDate.desc(), $0.id) }.select(\.id).fetchAll(db) }
            record("text order") { try Reminder.order(by: \.title).select(\.title).fetchAll(db) }
            record("limit and offset") { try Reminder.order(by: \.id).limit(2, offset: 3).select(\.id).fetchAll(db) }
            record("distinct") { try Reminder.distinct().order(by: \.remindersListID).select(\.remindersListID).fetchAll(db) }
            record("count, sum, total, avg") {
                try Reminder.select { ($0.count(), $0.position.sum(), $0.position.total(), $0.position.avg()) }.fetchAll(db)
                    .map { "\($0.0) \($0.1 ?? -1) \($0.2) \($0.3 ?? -1)" }
            }
            record("aggregates of no rows") {
                try Reminder.where { $0.id.gt(100) }.select { ($0.position.sum(), $0.position.total(), $0.position.avg(), $0.id.max()) }
                    .fetchAll(db).map { "\($0.0 ?? -1) \($0.1) \($0.2 ?? -1) \($0.3 ?? -1)" }
            }
            record("count distinct and filter") {
                try Reminder.select { ($0.priority.count(distinct: true), $0.id.count(filter: $0.isFlagged)) }.fetchAll(db).map { "\($0.0) \($0.1)" }
            }
            record("group by with having") {
                try Reminder.group(by: \.remindersListID).having { $0.id.count().gt(1) }
                    .order(by: \.remindersListID)
                    .select { ($0.remindersListID, $0.id.count(), $0.position.max()) }.fetchAll(db)
                    .map { "\($0.0) \($0.1) \($0.2 ?? -1)" }
            }
            record("group concat") {
                try Reminder.where { $0.id.lte(3) }.select { $0.title.groupConcat(" | ") }.fetchAll(db).map { $0 ?? "NULL" }
            }
            record("join") {
                try RemindersList.join(Reminder.all) { $0.id.eq($1.remindersListID) }
                    .order { list, reminder in (list.id, reminder.id) }
                    .select { list, reminder in (list.title, reminder.title) }.fetchAll(db).map { "\($0.0)/\($0.1)" }
            }
            record("left join with count") {
                try RemindersList.group(by: \.id)
                    .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) && !$1.isCompleted }
                    .order { list, _ in list.id }
                    .select { ($0.title, $1.id.count()) }.fetchAll(db).map { "\($0.0) \($0.1)" }
            }
            record("text functions") {
                try Reminder.order(by: \.id).select { ($0.title.lower(), $0.title.upper(), $0.title.length()) }.fetchAll(db)
                    .map { "\($0.0) \($0.1) \($0.2)" }
            }
            record("quote, unicode, ltrim, rtrim, nullif") {
                try Reminder.order(by: \.id)
                    .select { ($0.title.quote(), $0.notes.unicode(), $0.title.ltrim("BCG"), $0.title.rtrim("s"), $0.notes.nullif("")) }
                    .fetchAll(db).map { "\($0.0) \(String(describing: $0.1)) \($0.2) \($0.3) \(String(describing: $0.4))" }
            }
            record("abs, sign and round") {
                let signs = Reminder.order(by: \.id).select { $0.position.sign() }
                let distances = Reminder.order(by: \.id).select { $0.position.abs() }
                let average = Reminder.select { $0.position.avg().round(2) }
                return [try signs.fetchAll(db), try distances.fetchAll(db), try average.fetchAll(db)] as [Any]
            }
            record("hex of zeroblob") { try Reminder.where { $0.id.eq(1) }.select { _ in 3.zeroblob().hex() }.fetchAll(db) }
            record("planner hints") {
                try Reminder.where { $0.isFlagged.likely().or($0.isCompleted.unlikely()).and($0.title.isNot("").likelihood(0.5)) }
                    .order(by: \.id).select(\.id).fetchAll(db)
            }
            record("arithmetic") {
                let doubled = Reminder.order(by: \.id).select { $0.position * 2 + 1 }
                let halved = Reminder.order(by: \.id).select { $0.id / 2 }
                let remainders = Reminder.order(by: \.id).select { $0.id % 4 }
                return [try doubled.fetchAll(db), try halved.fetchAll(db), try remainders.fetchAll(db)]
            }
            record("division and remainder by zero answer NULL") {
                // position is 0 in some rows: a column divisor, then bound ones.
                let byColumn = try Reminder.where { ($0.id / $0.position).gt(0) }.order(by: \.id).select(\.id).fetchAll(db)
                let byBoundZero = try Reminder.where { ($0.id / 0).gt(0) }.select(\.id).fetchAll(db)
                let remainders = try Reminder.order(by: \.id).select { ($0.id % 0, $0.id % $0.position, $0.id % 4) }.fetchAll(db)
                    .map { "\($0.0 ?? -1) \($0.1 ?? -1) \($0.2 ?? -1)" }
                return [byColumn, byBoundZero, remainders]
            }
            record("case") {
                try Reminder.order(by: \.id).select { Case().when($0.isCompleted, then: "done").else("to do") }.fetchAll(db)
            }
            record("exists") {
                try RemindersList.where { list in Reminder.where { $0.remindersListID.eq(list.id) && $0.isCompleted }.exists() }
                    .order(by: \.id).select(\.id).fetchAll(db)
            }
            record("fetchCount") { [try Reminder.where { !$0.isCompleted }.fetchCount(db)] }
        }
        try database.write { db in
            record("update returning") {
                try Reminder.where { $0.id.lte(2) }.update { $0.title += "?" }.returning(\.title).fetchAll(db).sorted()
            }
            record("update of whole rows") {
                for list in try RemindersList.order(by: \.id).fetchAll(db) {
                    var renamed = list
                    renamed.title += " (renamed)"
                    try RemindersList.update(renamed).execute(db)
                }
                return try RemindersList.order(by: \.id).fetchAll(db)
            }
            record("upsert") {
                try RemindersList.insert {
                    RemindersList(id: 1, color: 1, position: 9, title: "Renamed")
                } onConflict: { $0.id } doUpdate: { $0.title = $1.title }.execute(db)
                return try RemindersList.order(by: \.id).fetchAll(db)
            }
            record("upsert of a query's rows") {
                try RemindersList.insert { ($0.id, $0.title) } select: {
                    RemindersList.select { ($0.id, $0.title.upper()) }
                } onConflict: { $0.id } doUpdate: { $0.title = $1.title }.execute(db)
                return try RemindersList.order(by: \.id).select(\.title).fetchAll(db)
            }
            record("upsert reading the stored row, with filters") {
                try RemindersList.insert { ($0.id, $0.title) } select: {
                    RemindersList.where { $0.id.lte(2) }.select { ($0.id, $0.title) }
                } onConflict: { $0.id } where: { $0.id.gt(0) } doUpdate: { $0.position += 10 } where: { $0.id.neq(1) }
                    .execute(db)
                return try RemindersList.order(by: \.id).select(\.position).fetchAll(db)
            }
            record("upsert doing nothing") {
                try RemindersList.insert { RemindersList(id: 2, title: "ignored") } onConflict: { $0.id }.execute(db)
                return try RemindersList.order(by: \.id).select(\.title).fetchAll(db)
            }
            record("insert of no rows") {
                try RemindersList.insert { [] }.execute(db)
                return try RemindersList.insert { [] }.returning(\.id).fetchAll(db) + [RemindersList.fetchCount(db)]
            }
            record("insert of whole rows named { $0 }") {
                try RemindersList.insert { $0 } values: { RemindersList(id: 9, title: "Whole") }.returning(\.title).fetchAll(db)
            }
            record("insert of values and of expressions") {
                // The PostgreSQL schema's keys have no default: each row names its own.
                try Reminder.insert { ($0.id, $0.remindersListID, $0.title) } values: {
                    (100, 1, "Bound")
                    (101, RemindersList.where { $0.id.eq(2) }.select(\.id), "Written".upper())
                }.returning { ($0.remindersListID, $0.title) }.fetchAll(db).map { "\($0.0) \($0.1)" }
            }
            record("delete returning") {
                try Reminder.where(\.isCompleted).delete().returning(\.id).fetchAll(db).sorted()
            }
        }
        return answers
    }
}
