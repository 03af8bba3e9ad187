import CairnQuery
import Testing

/// The usage examples given to the surfaces' authors, checked as written.
@Suite("Usage examples")
struct UsageExamplesTests {
    @Test("#Predicate shape: folded containment, a to-many EXISTS, nil-first sort, paging")
    func predicateShape() throws {
        // #Predicate<Reminder> { $0.title.localizedStandardContains(search) &&
        //                        $0.tags.contains { $0.name == "home" } }, sortBy: [\.due], fetchLimit 50
        let search = "cafe"
        let titleMatches = SQLExpression.function(
            "instr", .function("cairn_fold", .column("title", table: "t0")),
            .function("cairn_fold", .value(.text(search)))
        ).greaterThan(.value(.integer(0)))
        let hasHomeTag = SQLExpression.exists(
            SQLSelect([.value(.integer(1))], from: .table("Tag", as: "t1"))
                .where(SQLExpression.column("reminderID", table: "t1").equals(.column("id", table: "t0")))
                .where(SQLExpression.column("name", table: "t1").equals(.value(.text("home")))))
        let select = SQLSelect([.allColumns(of: "t0")], from: .table("Reminder", as: "t0"))
            .where(titleMatches.and(hasHomeTag))
            .orderBy(SQLExpression.column("due", table: "t0").ascending(nulls: .first))
            .limit(50)
        let rendered = try select.render()
        #expect(rendered.sql == """
            SELECT "t0".* FROM "Reminder" AS "t0" WHERE instr(cairn_fold("t0"."title"), cairn_fold(?)) > ? \
            AND EXISTS (SELECT ? FROM "Tag" AS "t1" WHERE "t1"."reminderID" = "t0"."id" AND "t1"."name" = ?) \
            ORDER BY "t0"."due" ASC NULLS FIRST LIMIT ?
            """)
        #expect(rendered.arguments == [.text("cafe"), .integer(0), .integer(1), .text("home"), .integer(50)])
    }

    @Test("NSPredicate shape: BEGINSWITH as an index range, @count as a scalar subquery, NOT/OR")
    func nsPredicateShape() throws {
        // name BEGINSWITH "Tr" AND (tags.@count > 2 OR NOT isArchived)
        let name = SQLExpression.column("name", table: "t0")
        let tagCount = SQLExpression.subquery(
            SQLSelect([.countAll], from: .table("Tag", as: "t1"))
                .where(SQLExpression.column("storeID", table: "t1").equals(.column("id", table: "t0"))))
        let condition = SQLExpression.and([
            name.greaterThanOrEqual(.value(.text("Tr"))),
            name.lessThan(.value(.text("Ts"))),
            tagCount.greaterThan(.value(.integer(2))).or(SQLExpression.column("isArchived", table: "t0").not()),
        ])
        let rendered = try SQLSelect(from: .table("Store", as: "t0")).where(condition).render()
        #expect(rendered.sql == """
            SELECT * FROM "Store" AS "t0" WHERE "t0"."name" >= ? AND "t0"."name" < ? \
            AND ((SELECT COUNT(*) FROM "Tag" AS "t1" WHERE "t1"."storeID" = "t0"."id") > ? OR NOT "t0"."isArchived")
            """)
        #expect(rendered.arguments == [.text("Tr"), .text("Ts"), .integer(2)])
    }

    @Test("Typed-builder shape: grouped aggregates with FILTER and HAVING; upsert RETURNING")
    func typedShape() throws {
        // RemindersList.leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
        //   .group { l, _ in l.id }.having { _, r in r.count().gt(0) }
        //   .select { l, r in (l.title, r.count(filter: r.isCompleted)) }
        let stats = SQLSelect([
            SQLSelectColumn(.column("title", table: "remindersLists")),
            SQLSelectColumn(.count(.column("id", table: "reminders"), filter: .column("isCompleted", table: "reminders")), as: "done"),
        ], from: .table("remindersLists"))
        .join(.left, .table("reminders"),
              on: SQLExpression.column("id", table: "remindersLists").equals(.column("remindersListID", table: "reminders")))
        .groupBy(.column("id", table: "remindersLists"))
        .having(SQLExpression.count(.column("id", table: "reminders")).greaterThan(.value(.integer(0))))
        #expect(try stats.render().sql == """
            SELECT "remindersLists"."title", COUNT("reminders"."id") FILTER (WHERE "reminders"."isCompleted") AS "done" \
            FROM "remindersLists" LEFT JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID" \
            GROUP BY "remindersLists"."id" HAVING COUNT("reminders"."id") > ?
            """)

        // Tag.upsert { Tag.Draft(title: "home") } .returning(\.id)
        let upsert = SQLInsert(into: "tags", columns: ["title", "count"], values: [[.value(.text("home")), .value(.integer(1))]])
            .onConflict(["title"], doUpdate: [SQLAssignment("count", SQLExpression.column("count").plus(.excluded("count")))])
            .returning([.column("id")])
        let rendered = try upsert.render()
        #expect(rendered.sql == """
            INSERT INTO "tags" ("title", "count") VALUES (?, ?) ON CONFLICT ("title") \
            DO UPDATE SET "count" = "count" + "excluded"."count" RETURNING "id"
            """)
        #expect(rendered.arguments == [.text("home"), .integer(1)])
    }

    @Test("Compiled-query cache shape: render once with parameters, bind per execution; PostgreSQL")
    func cacheShape() throws {
        let shape = SQLSelect(from: "reminders")
            .where(SQLExpression.column("priority").greaterThanOrEqual(.parameter(0)))
            .limit(.parameter(1)).offset(.parameter(2))
        let template = try shape.render()                  // once per shape
        let page = try template.binding([.integer(2), .integer(20), .integer(40)])  // per fetch
        #expect(page.sql == #"SELECT * FROM "reminders" WHERE "priority" >= ? LIMIT ? OFFSET ?"#)
        #expect(page.arguments == [.integer(2), .integer(20), .integer(40)])
        #expect(try shape.render(dialect: PostgreSQLDialect()).sql
            == #"SELECT * FROM "reminders" WHERE "priority" >= $1 LIMIT $2 OFFSET $3"#)
        #expect(shape.tableReferences.tables == ["reminders"])
    }
}
