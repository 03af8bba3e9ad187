import Foundation
import StructuredQueries
import Testing

// Written as swift-structured-queries code is: a `@Table` type selected into with its
// `Columns`, as the rows of a common table expression and of a view.

@Table
private struct Shift: Equatable {
    let id: Int
    var title = ""
    var isDone = false
    var assignee: String?
}

@Table
private struct OpenShift: Equatable {
    let isAssigned: Bool
    let title: String
}

@Table
private struct ShiftRow: Equatable {
    let shift: Shift
    let shout: String
}

@Suite("import StructuredQueries: a @Table's Columns")
struct TableColumnsImportTests {
    private func database() throws -> DatabaseQueue {
        let database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: #"""
                CREATE TABLE "shifts" (
                  "id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "isDone" INTEGER NOT NULL, "assignee" TEXT
                )
                """#)
            try Shift.insert {
                Shift(id: 1, title: "Groceries", assignee: "Ann")
                Shift(id: 2, title: "Laundry", isDone: true)
                Shift(id: 3, title: "More groceries")
            }.execute(db)
        }
        return database
    }

    @Test func aCommonTableExpressionOfATable() throws {
        let query = With {
            Shift.where { !$0.isDone }.select { OpenShift.Columns(isAssigned: $0.assignee != nil, title: $0.title) }
        } query: {
            OpenShift.where { $0.title.collate(.nocase).like("%groceries%") }.order(by: \.title)
        }
        let sql = try query.render().sql
        #expect(sql == #"WITH "openShifts"("isAssigned", "title") AS (SELECT "shifts"."assignee" IS NOT NULL, "#
            + #""shifts"."title" FROM "shifts" WHERE NOT "shifts"."isDone") SELECT "openShifts"."isAssigned", "#
            + #""openShifts"."title" FROM "openShifts" WHERE "openShifts"."title" COLLATE NOCASE LIKE ? "#
            + #"ORDER BY "openShifts"."title" ASC"#, "\(sql)")
        let rows = try database().read { db in try query.fetchAll(db) }
        #expect(rows == [OpenShift(isAssigned: true, title: "Groceries"), OpenShift(isAssigned: false, title: "More groceries")])
    }

    @Test func aWholeRowIsOneArgument() throws {
        let query = Shift.where { $0.id.eq(2) }.select { ShiftRow.Columns(shift: $0, shout: $0.title.upper()) }
        let rows = try database().read { db in try query.fetchAll(db) }
        #expect(rows == [ShiftRow(shift: Shift(id: 2, title: "Laundry", isDone: true), shout: "LAUNDRY")])
    }
}
