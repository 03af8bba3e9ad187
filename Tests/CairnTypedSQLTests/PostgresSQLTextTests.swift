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

    @Test func aBoundDivisorIsTypedInsideNullifSoThatZeroAnswersNull() throws {
        let halves = Reminder.select { ($0.id / 2, $0.id % 0) }
        #expect(try postgreSQL(.select(halves.query))
            == #"SELECT "reminders"."id" / nullif(CAST($1 AS BIGINT), 0), "reminders"."id" % nullif(CAST($2 AS BIGINT), 0) FROM "reminders""#)
        #expect(try halves.render().sql == #"SELECT "reminders"."id" / ?, "reminders"."id" % ? FROM "reminders""#)
        let byColumn = Reminder.update { $0.position /= $0.id }
        #expect(try postgreSQL(byColumn.sqlStatement())
            == #"UPDATE "reminders" SET "position" = "reminders"."position" / nullif("reminders"."id", 0)"#)
    }

    @Test func anOrderingOnAColumnThatHoldsNoNullLeavesOutTheNullsClause() throws {
        // A plain index on the column serves `DESC`, not `DESC NULLS LAST`.
        let newest = Reminder.order { $0.id.desc() }.select(\.title)
        #expect(try postgreSQL(.select(newest.query))
            == #"SELECT "reminders"."title" FROM "reminders" ORDER BY "reminders"."id" DESC"#)
        let byTitle = Reminder.order(by: \.title).select(\.id)
        #expect(try postgreSQL(.select(byTitle.query))
            == #"SELECT "reminders"."id" FROM "reminders" ORDER BY "reminders"."title" ASC"#)
        // An optional column, or any column of the optional side of an outer join, keeps
        // SQLite's order written out.
        let byDueDate = Reminder.order { $0.dueDate.desc() }.select(\.id)
        #expect(try postgreSQL(.select(byDueDate.query))
            == #"SELECT "reminders"."id" FROM "reminders" ORDER BY "reminders"."dueDate" DESC NULLS LAST"#)
        let joined = RemindersList.leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
            .order { $1.title.asc() }.select { ($0.title, $1.title) }
        #expect(try postgreSQL(.select(joined.query)).hasSuffix(#"ORDER BY "reminders"."title" ASC NULLS FIRST"#))
    }

    /// A draft without its key leaves the key to the database: SQLite takes a NULL integer key
    /// as "the next rowid", PostgreSQL refuses a NULL key and takes `DEFAULT` instead.
    @Test func aDraftWithoutItsKeyAsksTheDatabaseForOne() throws {
        let drafts = try Fact.insert { Fact.Draft(body: "new"); Fact.Draft(id: 9, body: "given") }.sqlStatement()
        #expect(try postgreSQL(drafts) == #"INSERT INTO "facts" ("id", "body") VALUES (DEFAULT, $1), ($2, $3)"#)
        let sqlite = try drafts.render(dialect: SQLiteDialect())
        #expect(sqlite.sql == #"INSERT INTO "facts" ("id", "body") VALUES (?, ?), (?, ?)"#)
        #expect(sqlite.arguments == [.null, .text("new"), .integer(9), .text("given")])
        // A full row binds its key as it is.
        let row = try Fact.insert { Fact(id: 3, body: "row") }.sqlStatement()
        #expect(try postgreSQL(row) == #"INSERT INTO "facts" ("id", "body") VALUES ($1, $2)"#)
    }
}
