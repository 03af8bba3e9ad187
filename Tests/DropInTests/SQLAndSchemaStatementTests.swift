import Foundation
import StructuredQueries
import Testing

// Statements StructuredQueries code returns as `some Statement<Row>` besides selects and
// writes: hand-written `#sql`, trigger and view definitions.

@Table
struct Duty: Equatable {
    let id: Int
    var title = ""
    var log = ""
}

@Table @Selection
struct DutyTitle: Equatable {
    let title: String
}

private func dutyTitles() -> some Statement<String> {
    #sql("SELECT \(Duty.columns.title) FROM \(Duty.self) WHERE \(Duty.columns.id) > \(1) ORDER BY \(Duty.columns.id)", as: String.self)
}

private func clearDuties() -> some Statement<()> {
    #sql("DELETE FROM \(Duty.self)")
}

private func epoch() -> some Statement<Date.UnixTimeRepresentation> {
    #sql("SELECT 86400", as: Date.UnixTimeRepresentation.self)
}

private func logNewDuties() -> some Statement<()> {
    Duty.createTemporaryTrigger("duty_added", after: .insert { new in
        Duty.where { $0.id.eq(new.id) }.update { $0.log = "added" }
    })
}

private func choreTitleView() -> some Statement<()> {
    DutyTitle.createTemporaryView(as: Duty.select { DutyTitle.Columns(title: $0.title) })
}

@Suite("some Statement<Row>: #sql, triggers and views")
struct SQLAndSchemaStatementTests {
    private func database() throws -> DatabaseQueue {
        let database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: #"""
                CREATE TABLE "duties" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "log" TEXT NOT NULL DEFAULT '')
                """#)
            try Duty.insert {
                Duty(id: 1, title: "Sweep")
                Duty(id: 2, title: "Mop")
                Duty(id: 3, title: "Dust")
            }.execute(db)
        }
        return database
    }

    @Test func sqlOfValuesRunsAsWritten() throws {
        #expect(try SQLRenderCache.shared.render(dutyTitles().sqlStatement()).sql == #"""
            SELECT "duties"."title" FROM "duties" WHERE "duties"."id" > ? ORDER BY "duties"."id"
            """#)
        let database = try database()
        #expect(try database.read { db in try dutyTitles().fetchAll(db) } == ["Mop", "Dust"])
        #expect(try database.read { db in try dutyTitles().fetchOne(db) } == "Mop")
    }

    @Test func sqlWithoutRowsExecutes() throws {
        let database = try database()
        #expect(try SQLRenderCache.shared.render(clearDuties().sqlStatement()).sql == #"DELETE FROM "duties""#)
        try database.write { db in try clearDuties().execute(db) }
        #expect(try database.read { db in try Duty.fetchCount(db) } == 0)
        #expect(throws: TypedSQLError.self) {
            try database.write { db in try clearDuties().fetchAll(db) }
        }
    }

    @Test func aRepresentationDecodesWrappingItsValue() throws {
        let database = try database()
        let day = try database.read { db in try epoch().fetchOne(db) }
        #expect(day?.queryOutput == Date(timeIntervalSince1970: 86400))
    }

    @Test func aTriggerIsAStatementOfNoRows() throws {
        let database = try database()
        let sql = try SQLRenderCache.shared.render(logNewDuties().sqlStatement()).sql
        #expect(sql.hasPrefix(#"CREATE TEMPORARY TRIGGER "duty_added" AFTER INSERT ON "duties""#))
        try database.write { db in
            try logNewDuties().execute(db)
            try Duty.insert { Duty(id: 4, title: "Polish") }.execute(db)
        }
        #expect(try database.read { db in try Duty.order(by: \.id).select(\.log).fetchAll(db) } == ["", "", "", "added"])
    }

    @Test func aViewIsAStatementOfNoRows() throws {
        let database = try database()
        #expect(try SQLRenderCache.shared.render(choreTitleView().sqlStatement()).sql == #"""
            CREATE TEMPORARY VIEW "dutyTitles" ("title") AS SELECT "duties"."title" FROM "duties"
            """#)
        try database.write { db in try choreTitleView().execute(db) }
        #expect(try database.read { db in try DutyTitle.order(by: \.title).fetchAll(db) }
            == [DutyTitle(title: "Dust"), DutyTitle(title: "Mop"), DutyTitle(title: "Sweep")])
    }
}
