import StructuredQueries
import Testing

// `==` and `!=` as StructuredQueries code before 0.31 writes them, with the SQL each renders and
// the rows it keeps.

@Table
struct ChoreList: Identifiable {
    let id: Int
    var title = ""
}

@Table
struct Chore: Identifiable {
    let id: Int
    var title = ""
    var priority: Int?
    var choreListID = 0
    var isDone = false
}

@Suite("import StructuredQueries: == and !=")
struct EqualityOperatorTests {
    let database: DatabaseQueue

    init() throws {
        database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: #"CREATE TABLE "choreLists" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL)"#)
            try db.execute(sql: """
                CREATE TABLE "chores" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "priority" INTEGER,
                  "choreListID" INTEGER NOT NULL, "isDone" INTEGER NOT NULL)
                """)
            try ChoreList.insert { ChoreList(id: 1, title: "Home"); ChoreList(id: 2, title: "Work") }.execute(db)
            try Chore.insert {
                Chore(id: 1, title: "Dishes", priority: nil, choreListID: 1, isDone: false)
                Chore(id: 2, title: "Laundry", priority: 2, choreListID: 1, isDone: true)
                Chore(id: 3, title: "Report", priority: 3, choreListID: 2, isDone: false)
                Chore(id: 4, title: "Email", priority: 2, choreListID: 2, isDone: false)
            }.execute(db)
        }
    }

    /// The ids a filter keeps, after checking the `WHERE` clause it renders.
    func ids(
        _ filter: SelectOf<Chore>, where expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Int] {
        let query = filter.order(by: \.id).select(\.id)
        #expect(
            try query.render().sql
                == #"SELECT "chores"."id" FROM "chores" WHERE "# + expected + #" ORDER BY "chores"."id" ASC"#,
            sourceLocation: sourceLocation)
        return try database.read { db in try query.fetchAll(db) }
    }

    @Test func aValueOnTheLeftComparesAsOnTheRight() throws {
        #expect(try ids(Chore.where { "Report" == $0.title }, where: #""chores"."title" = ?"#) == [3])
        #expect(try ids(Chore.where { 2 != $0.choreListID }, where: #""chores"."choreListID" <> ?"#) == [1, 2])
        #expect(try ids(Chore.where { nil == $0.priority }, where: #""chores"."priority" IS NULL"#) == [1])
        #expect(try ids(Chore.where { 2 != $0.priority }, where: #""chores"."priority" IS NOT ?"#) == [1, 3])
    }

    @Test func nonOptionalColumnsCompareWithEqualsAndNotEquals() throws {
        #expect(try ids(Chore.where { $0.title == "Report" }, where: #""chores"."title" = ?"#) == [3])
        #expect(try ids(Chore.where { $0.title != "Report" }, where: #""chores"."title" <> ?"#) == [1, 2, 4])
        let list = 2
        #expect(try ids(Chore.where { $0.choreListID == list }, where: #""chores"."choreListID" = ?"#) == [3, 4])
        #expect(try Chore.where { $0.title == "Report" }.render().arguments == [.text("Report")])
    }

    /// An optional column compares as Swift's optionals do: `IS`, so a NULL is unequal to 2.
    @Test func optionalColumnsCompareWithIs() throws {
        #expect(try ids(Chore.where { $0.priority == 2 }, where: #""chores"."priority" IS ?"#) == [2, 4])
        #expect(try ids(Chore.where { $0.priority != 2 }, where: #""chores"."priority" IS NOT ?"#) == [1, 3])
        #expect(try ids(Chore.where { !($0.priority == 3) }, where: #"NOT "chores"."priority" IS ?"#) == [1, 2, 4])
    }

    @Test func optionalColumnsCompareWithNil() throws {
        #expect(try ids(Chore.where { $0.priority == nil }, where: #""chores"."priority" IS NULL"#) == [1])
        #expect(try ids(Chore.where { $0.priority != nil }, where: #""chores"."priority" IS NOT NULL"#) == [2, 3, 4])
    }

    @Test func columnsCompareWithColumns() throws {
        let joined = ChoreList.join(Chore.all) { $0.id == $1.choreListID }.where { list, _ in list.title == "Work" }.select { $1.title }
        #expect(try joined.render().sql == #"""
            SELECT "chores"."title" FROM "choreLists" JOIN "chores" ON "choreLists"."id" = "chores"."choreListID" \#
            WHERE "choreLists"."title" = ?
            """#)
        #expect(try database.read { db in try joined.fetchAll(db) }.sorted() == ["Email", "Report"])
        #expect(try ids(Chore.where { $0.priority == $0.choreListID }, where: #""chores"."priority" IS "chores"."choreListID""#) == [4])
        #expect(try ids(Chore.where { $0.choreListID != $0.priority }, where: #""chores"."choreListID" IS NOT "chores"."priority""#) == [1, 2, 3])
    }

    @Test func computedExpressionsCompareWithValues() throws {
        #expect(try ids(Chore.where { $0.title.lower() == "email" }, where: #"lower("chores"."title") = ?"#) == [4])
        let lists = Chore.where { !$0.isDone }.group(by: \.choreListID).having { $0.id.count() == 2 }.select(\.choreListID)
        #expect(try lists.render().sql.hasSuffix(#"GROUP BY "chores"."choreListID" HAVING COUNT("chores"."id") = ?"#))
        #expect(try database.read { db in try lists.fetchAll(db) } == [2])
    }

    @Test func conditionsJoinWithAndAndOr() throws {
        #expect(
            try ids(
                Chore.where { $0.choreListID == 2 && $0.priority != nil || $0.title == "Dishes" },
                where: #""chores"."choreListID" = ? AND "chores"."priority" IS NOT NULL OR "chores"."title" = ?"#)
                == [1, 3, 4])
    }

    /// PostgreSQL spells `IS` and `IS NOT` as `IS [NOT] DISTINCT FROM`.
    @Test func optionalComparisonsRenderOnPostgreSQL() throws {
        let filter = Chore.where { $0.priority != 2 && $0.priority == nil || $0.title == "Report" }.select(\.id)
        #expect(try SQLStatement.select(filter.query).render(dialect: PostgreSQLDialect()).sql == #"""
            SELECT "chores"."id" FROM "chores" WHERE "chores"."priority" IS DISTINCT FROM $1 AND \#
            "chores"."priority" IS NOT DISTINCT FROM NULL OR "chores"."title" = $2
            """#)
    }
}
