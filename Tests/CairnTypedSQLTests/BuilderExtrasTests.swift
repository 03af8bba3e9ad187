import Cairn
import Testing

/// A CTE row: the reminders lists whose reminders' average priority is high.
@Selection
struct HighPriorityList: Hashable, Sendable {
    let id: Int
}

/// A CTE row for recursive counting.
@Selection
struct Step: Hashable, Sendable {
    let value: Int
}

/// Another name for the reminders table, for self-joins.
enum Sibling: AliasName {}

/// An alias with a chosen name.
enum Earlier: AliasName {
    static var aliasName: String { "earlier" }
}

@Suite("Typed SQL: Case, table aliases, common table expressions, Values")
struct BuilderExtrasTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    // MARK: - Case

    @Test func searchedCaseWithElse() throws {
        let query = Reminder.order(by: \.id).select { Case().when($0.isCompleted, then: "done").else("to do") }
        try assertQuery(
            query,
            sql: #"SELECT CASE WHEN "reminders"."isCompleted" THEN ? ELSE ? END FROM "reminders" ORDER BY "reminders"."id" ASC"#,
            arguments: [.text("done"), .text("to do")],
            rows: { try query.fetchAll(db) }, ["to do", "done", "to do", "to do", "done", "to do"])
    }

    @Test func caseWithBaseAndNoElseIsOptional() throws {
        let query = Reminder.order(by: \.id).select {
            Case($0.priority).when(Priority.high, then: "!!!").when(Priority.medium, then: "!!")
        }
        try assertQuery(
            query,
            sql: #"SELECT CASE "reminders"."priority" WHEN ? THEN ? WHEN ? THEN ? END FROM "reminders" ORDER BY "reminders"."id" ASC"#,
            arguments: [.integer(3), .text("!!!"), .integer(2), .text("!!")],
            rows: { try query.fetchAll(db) }, ["!!!", nil, "!!", nil, "!!!", nil])
    }

    @Test func caseWithBindOperands() throws {
        // SQLiteData's Reminders example toggles a status in an update with #bind operands.
        let toggle = Reminder.where { $0.id.lte(2) }.update {
            $0.status = Case($0.status)
                .when(#bind(.incomplete), then: #bind(.completed))
                .else(#bind(.incomplete))
        }
        try assertQuery(
            toggle,
            sql: #"UPDATE "reminders" SET "status" = CASE "reminders"."status" WHEN ? THEN ? ELSE ? END WHERE "reminders"."id" <= ?"#,
            arguments: [.integer(0), .integer(1), .integer(0), .integer(2)],
            rows: { try toggle.execute(db); return try Reminder.where { $0.id.lte(2) }.order(by: \.id).select(\.status).fetchAll(db) },
            [Status.completed, Status.incomplete])
        // Every mix of #bind and plain operands, over several branches.
        let labels = Reminder.order(by: \.id).select {
            Case($0.priority)
                .when(#bind(.high), then: "high")
                .when(Priority.medium, then: #bind("medium"))
                .when(#bind(.low), then: #bind("low"))
                .else("none")
        }
        #expect(try labels.fetchAll(db) == ["high", "low", "medium", "none", "high", "low"])
        let flagged = Reminder.order(by: \.id).select { Case().when($0.isFlagged, then: #bind(1)).else(0) }
        #expect(try flagged.fetchAll(db) == [1, 0, 1, 0, 1, 0])
    }

    @Test func caseInsideAnAggregateOverAnOuterJoin() throws {
        let query = RemindersList
            .group(by: \.id)
            .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
            .order { list, _ in list.id }
            .select { ($0.title, Case().when($1.isFlagged, then: 1).else(0).sum()) }
        #expect(try query.render().sql == #"SELECT "remindersLists"."title", SUM(CASE WHEN "reminders"."isFlagged" THEN ? ELSE ? END) "#
            + #"FROM "remindersLists" LEFT JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID" "#
            + #"GROUP BY "remindersLists"."id" ORDER BY "remindersLists"."id" ASC"#)
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == ["Personal", "Family", "Business"])
        #expect(rows.map(\.1) == [2, 1, 0])
    }

    // MARK: - Table aliases

    @Test func aliasNames() {
        #expect(Sibling.aliasName == "siblings")
        #expect(Earlier.aliasName == "earlier")
        #expect(Reminder.as(Sibling.self).tableName == "reminders")
        #expect(Reminder.as(Sibling.self).tableAlias == "siblings")
        #expect(Reminder.tableAlias == nil)
    }

    @Test func selfJoinThroughAnAlias() throws {
        let query = Reminder
            .join(Reminder.as(Sibling.self).all) { $0.remindersListID.eq($1.remindersListID) && $0.id.lt($1.id) }
            .where { reminder, _ in reminder.remindersListID.eq(1) }
            .order { ($0.id, $1.id) }
            .select { ($0.id, $1.id) }
        #expect(try query.render().sql == #"SELECT "reminders"."id", "siblings"."id" FROM "reminders" "#
            + #"JOIN "reminders" AS "siblings" ON "reminders"."remindersListID" = "siblings"."remindersListID" "#
            + #"AND "reminders"."id" < "siblings"."id" WHERE "reminders"."remindersListID" = ? "#
            + #"ORDER BY "reminders"."id" ASC, "siblings"."id" ASC"#)
        #expect(try query.fetchAll(db).map { [$0.0, $0.1] } == [[1, 2], [1, 3], [2, 3]])
    }

    @Test func aliasedTableRowsDecodeAsTheBaseTable() throws {
        let query = Reminder.as(Earlier.self).where { $0.primaryKey.eq(2) }
        let rendered = try query.render()
        #expect(rendered.sql.hasPrefix(#"SELECT "earlier"."id", "earlier"."dueDate", "#))
        #expect(rendered.sql.hasSuffix(#"FROM "reminders" AS "earlier" WHERE "earlier"."id" = ?"#))
        let rows: [Reminder] = try query.fetchAll(db)
        #expect(rows == [RemindersDatabase.reminders[1]])
    }

    @Test func outerJoinOfAnAlias() throws {
        // Each reminder with the reminder just before it in its list (by position), if any.
        let query = Reminder
            .leftJoin(Reminder.as(Earlier.self).all) {
                $0.remindersListID.eq($1.remindersListID) && $1.position.eq(#sql("\($0.position) - 1", as: Int.self))
            }
            .order { reminder, _ in reminder.id }
            .select { ($0.title, $1.title) }
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == RemindersDatabase.reminders.map(\.title))
        #expect(rows.map(\.1) == [nil, "Groceries", "Haircut", nil, "Take a walk", "Buy concert tickets"])
    }

    // MARK: - Common table expressions

    @Test func commonTableExpression() throws {
        let query = With {
            RemindersList
                .group(by: \.id)
                .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
                .having { $1.priority.avg().gt(1.5) }
                .select { list, _ in HighPriorityList.Columns(id: list.id) }
        } query: {
            RemindersList.where { $0.id.in(HighPriorityList.select(\.id)) }.order(by: \.id)
        }
        try assertQuery(
            query,
            sql: #"WITH "highPriorityLists"("id") AS (SELECT "remindersLists"."id" FROM "remindersLists" "#
                + #"LEFT JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID" "#
                + #"GROUP BY "remindersLists"."id" HAVING AVG("reminders"."priority") > ?) "#
                + #"SELECT "remindersLists"."id", "remindersLists"."color", "remindersLists"."position", "#
                + #""remindersLists"."title" FROM "remindersLists" WHERE "remindersLists"."id" IN "#
                + #"(SELECT "highPriorityLists"."id" FROM "highPriorityLists") ORDER BY "remindersLists"."id" ASC"#,
            rows: { try query.fetchAll(db) }, Array(RemindersDatabase.lists.prefix(2)))
        #expect(try query.fetchCount(db) == 2)
    }

    @Test func recursiveCommonTableExpression() throws {
        let query = With {
            Values(Step.Columns(value: 1))
                .union(all: true, Step.where { $0.value.lt(5) }.select { Step.Columns(value: #sql("\($0.value) + 1")) })
        } query: {
            Step.select(\.value)
        }
        try assertQuery(
            query,
            sql: #"WITH "steps"("value") AS (SELECT ? UNION ALL SELECT "steps"."value" + 1 FROM "steps" "#
                + #"WHERE "steps"."value" < ?) SELECT "steps"."value" FROM "steps""#,
            arguments: [.integer(1), .integer(5)],
            rows: { try query.fetchAll(db) }, [1, 2, 3, 4, 5])
        // The CTE's rows decode as the @Selection type.
        let steps = try With {
            Values(Step.Columns(value: 10))
        } query: {
            Step.all
        }.fetchAll(db)
        #expect(steps == [Step(value: 10)])
    }

    // MARK: - Values

    @Test func valuesSelectsBoundValues() throws {
        let values = Values(1, "two", true)
        #expect(try values.render() == RenderedSQL(sql: "SELECT ?, ?, ?", arguments: [.integer(1), .text("two"), .integer(1)]))
        let row = try #require(try values.fetchOne(db))
        #expect(row.0 == 1 && row.1 == "two" && row.2)
        #expect(try Values(Step.Columns(value: 7)).fetchAll(db) == [Step(value: 7)])
    }

    @Test func valuesOfSQLTakesItsTypeFromWhereItIsUsed() throws {
        let insert = RemindersList.insert { $0.title } select: { Values(#sql("'Errands'")) }.returning(\.id)
        try assertQuery(
            insert, sql: #"INSERT INTO "remindersLists" ("title") SELECT 'Errands' RETURNING "remindersLists"."id""#,
            arguments: [], rows: { try insert.fetchAll(db) }, [4])
        let typed: Select<Int, NoTable, ()> = Values(#sql("6 * 7"))
        #expect(try typed.fetchAll(db) == [42])
    }

    @Test func valuesReadsNoTableSoAJoinIsAnError() throws {
        let joined = Values(1).join(Tag.all) { _, tag in tag.id.eq(1) }
        let error = #expect(throws: SQLRenderError.self) { try joined.fetchAll(db) }
        #expect(error?.description.contains("no table to join to") == true)
        #expect(throws: SQLRenderError.self) { try joined.render() }
    }
}
