import Cairn
import Testing

/// The SQL Docs/PostgreSQL.md shows for typed statements on PostgreSQL.
@Suite("Typed SQL: statements in PostgreSQL's dialect")
struct PostgresSQLTextTests {
    func postgreSQL(_ statement: SQLStatement) throws -> String {
        try statement.render(dialect: PostgreSQLDialect()).sql
    }

    @Test func theGuidesExamples() throws {
        let update = Reminder.where { $0.id.eq(1) }.update { $0.isCompleted = true }
        #expect(try postgreSQL(update.sqlStatement())
            == #"UPDATE "reminders" SET "isCompleted" = $1 WHERE "reminders"."id" = $2"#)
        let open = Reminder.where { !$0.isCompleted }.order(by: \.dueDate).select(\.title)
        #expect(try postgreSQL(.select(open.query))
            == #"SELECT "reminders"."title" FROM "reminders" WHERE NOT "reminders"."isCompleted" ORDER BY "reminders"."dueDate" ASC NULLS FIRST"#)
    }
}
