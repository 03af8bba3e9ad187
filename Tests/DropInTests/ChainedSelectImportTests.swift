import StructuredQueries
import Testing

// `select` after `select`, and a join after `select`, as StructuredQueries code writes them:
// the columns add up, in the order written. The tables are EqualityOperatorTests' chores.

@Suite("import StructuredQueries: chained select")
struct ChainedSelectImportTests {
    let database: DatabaseQueue

    init() throws { database = try EqualityOperatorTests().database }

    @Test func selectAfterSelectAppends() throws {
        let query = Chore.select(\.id).where { $0.priority == 2 }.select(\.title)
        #expect(try query.render().sql
            == #"SELECT "chores"."id", "chores"."title" FROM "chores" WHERE "chores"."priority" IS ?"#)
        let rows = try database.read { db in try query.order(by: \.id).fetchAll(db) }
        #expect(rows.map { "\($0.0) \($0.1)" } == ["2 Laundry", "4 Email"])

        let three = Chore.select { $0.id }.select { ($0.title, $0.isDone) }
        let first = try database.read { db in try three.order(by: \.id).fetchOne(db) }
        #expect(first.map { "\($0.0) \($0.1) \($0.2)" } == "1 Dishes false")
    }

    @Test func aJoinAfterSelectThenSelectFromTheJoinedTable() throws {
        let query = Chore.select(\.title)
            .join(ChoreList.all) { $0.choreListID == $1.id }
            .where { chore, _ in !chore.isDone }
            .select { $1.title }
        #expect(try query.render().sql == #"""
            SELECT "chores"."title", "choreLists"."title" FROM "chores" JOIN "choreLists" ON "chores"."choreListID" = "choreLists"."id" WHERE NOT "chores"."isDone"
            """#)
        let rows = try database.read { db in try query.order { chore, _ in chore.id }.fetchAll(db) }
        #expect(rows.map { "\($0.0) in \($0.1)" } == ["Dishes in Home", "Report in Work", "Email in Work"])
    }
}
