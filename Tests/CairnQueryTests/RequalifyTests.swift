import CairnQuery
import Testing

/// `SQLSelect.requalified(as:)`: a built select's source under a new name, every column of it
/// following, and nothing else.
@Suite("SELECT: renaming the source of a built select")
struct RequalifyTests {
    let tags = SQLTableSource.function("json_each", [.column("tags", table: "items")])

    @Test func everyClauseOfTheSourceFollowsTheAlias() throws {
        let select = SQLSelect([.column("key", table: "json_each"), .allColumns(of: "json_each")], from: tags)
            .where(.column("key", table: "json_each").greaterThan(int(0)))
            .groupBy(.column("value", table: "json_each"))
            .having(SQLExpression.raw("count(\(SQLExpression.column("value", table: "json_each"))) > 1"))
            .orderBy(SQLExpression.column("value", table: "json_each").ascending())
            .requalified(as: "firsts")
        #expect(try sqlite(select).sql == """
            SELECT "firsts"."key", "firsts".* FROM json_each("items"."tags") AS "firsts" WHERE "firsts"."key" > ? \
            GROUP BY "firsts"."value" HAVING count("firsts"."value") > 1 ORDER BY "firsts"."value" ASC
            """)
    }

    @Test func aTableAndTheJoinedSourcesThatReadItFollow() throws {
        let select = SQLSelect([.column("title", table: "trips")], from: .table("trips"))
            .join(.inner, .function("json_each", [.column("stops", table: "trips")]),
                  on: .column("key", table: "json_each").equals(.column("id", table: "trips")))
            .requalified(as: "outers")
        #expect(try sqlite(select).sql == """
            SELECT "outers"."title" FROM "trips" AS "outers" JOIN json_each("outers"."stops") \
            ON "json_each"."key" = "outers"."id"
            """)
    }

    @Test func aCorrelatedSubqueryFollowsUnlessItDeclaresTheNameItself() throws {
        let correlated = SQLSelect([.column("id", table: "lists")], from: .table("lists"))
            .where(.column("id", table: "lists").equals(.column("listID", table: "trips")))
        let own = SQLSelect([.column("id", table: "trips")], from: .table("trips"))
        let select = SQLSelect([.column("id", table: "trips")], from: .table("trips"))
            .where(SQLExpression.exists(correlated).and(.column("id", table: "trips").in(own)))
            .requalified(as: "outers")
        #expect(try sqlite(select).sql == """
            SELECT "outers"."id" FROM "trips" AS "outers" WHERE EXISTS (SELECT "lists"."id" FROM "lists" \
            WHERE "lists"."id" = "outers"."listID") AND "outers"."id" IN (SELECT "trips"."id" FROM "trips")
            """)
    }

    @Test func aSelectWithoutASourceOrUnderItsOwnNameIsUnchanged() throws {
        let bare = SQLSelect([int(1)])
        #expect(bare.requalified(as: "x") == bare)
        let same = SQLSelect([.column("id", table: "t")], from: .table("t"))
        #expect(same.requalified(as: "t") == same)
    }
}
