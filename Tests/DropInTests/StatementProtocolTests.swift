import Foundation
import SQLiteData
import Testing

// Written as sqlite-data code is: statements returned as `some Statement<Row>`, their
// concrete types hidden, then rendered and run.

@Table
struct Errand: Identifiable, Equatable {
    let id: Int
    var title = ""
    var isDone = false
}

private func doneErrands() -> some Statement<Errand> {
    Errand.where { $0.isDone }.order(by: \.id).select { $0 }
}

private func errandTitles() -> some Statement<String> {
    Errand.order { $0.title.desc() }.select(\.title)
}

private func addErrand(_ title: String) -> some Statement<Errand> {
    Errand.insert { Errand.Draft(title: title) }.returning(\.self)
}

private func finishErrand(_ id: Int) -> some Statement<String> {
    Errand.where { $0.id.eq(id) }.update { $0.isDone = true }.returning(\.title)
}

private func removeDoneErrands() -> some Statement<Int> {
    Errand.where { $0.isDone }.delete().returning(\.id)
}

private func removeEveryErrand() -> some Statement<()> {
    Errand.delete()
}

@Suite("some Statement<Row>")
struct StatementProtocolTests {
    private func database() throws -> DatabaseQueue {
        let database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: #"""
                CREATE TABLE "errands" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "isDone" INTEGER NOT NULL)
                """#)
            try Errand.insert {
                Errand(id: 1, title: "Dishes", isDone: true)
                Errand(id: 2, title: "Laundry", isDone: false)
                Errand(id: 3, title: "Bins", isDone: true)
            }.execute(db)
        }
        return database
    }

    @Test func aSelectRunsThroughTheProtocol() throws {
        let sql = try SQLRenderCache.shared.render(doneErrands().sqlStatement()).sql
        #expect(sql == #"""
            SELECT "errands"."id", "errands"."title", "errands"."isDone" FROM "errands" WHERE "errands"."isDone" ORDER BY "errands"."id" ASC
            """#)
        let database = try database()
        let done = try database.read { db in try doneErrands().fetchAll(db) }
        #expect(done == [Errand(id: 1, title: "Dishes", isDone: true), Errand(id: 3, title: "Bins", isDone: true)])
        #expect(try database.read { db in try doneErrands().fetchOne(db) } == Errand(id: 1, title: "Dishes", isDone: true))
        #expect(try database.read { db in try errandTitles().fetchAll(db) } == ["Laundry", "Dishes", "Bins"])
    }

    @Test func writesWithReturningRunThroughTheProtocol() throws {
        let database = try database()
        let added = try database.write { db in try addErrand("Windows").fetchOne(db) }
        #expect(added == Errand(id: 4, title: "Windows", isDone: false))
        #expect(try SQLRenderCache.shared.render(finishErrand(2).sqlStatement()).sql == #"""
            UPDATE "errands" SET "isDone" = ? WHERE "errands"."id" = ? RETURNING "errands"."title"
            """#)
        #expect(try database.write { db in try finishErrand(2).fetchAll(db) } == ["Laundry"])
        #expect(try SQLRenderCache.shared.render(removeDoneErrands().sqlStatement()).sql == #"""
            DELETE FROM "errands" WHERE "errands"."isDone" RETURNING "errands"."id"
            """#)
        #expect(try database.write { db in try removeDoneErrands().fetchAll(db) }.sorted() == [1, 2, 3])
        #expect(try database.read { db in try Errand.fetchAll(db) } == [Errand(id: 4, title: "Windows", isDone: false)])
        try database.write { db in try removeEveryErrand().execute(db) }
        #expect(try database.read { db in try Errand.fetchCount(db) } == 0)
    }

    @Test func aStatementWithoutRowsSaysSoWhenFetched() throws {
        let database = try database()
        #expect(throws: TypedSQLError.self) {
            try database.write { db in try removeEveryErrand().fetchAll(db) }
        }
        #expect(try database.read { db in try Errand.fetchCount(db) } == 3)
    }
}
