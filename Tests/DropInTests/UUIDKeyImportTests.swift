import Foundation
import SQLiteData
import Testing

// A schema as SQLiteData's documentation writes one: UUID keys that the database assigns with
// `DEFAULT (uuid())` when a draft leaves them out.

@Table
struct Checklist: Hashable, Identifiable {
    let id: UUID
    var position = 0
    var title = ""
}

@Table
struct ChecklistItem: Hashable, Identifiable {
    let id: UUID
    @Column(lazyInitializable: false)
    var checklistID: Checklist.ID
    var isDone = false
    var title = ""
}

@Suite("import SQLiteData: UUID keys a schema assigns")
struct UUIDKeyImportTests {
    let database: DatabaseQueue

    init() throws {
        database = try DatabaseQueue()
        try database.write { db in
            try #sql(
                """
                CREATE TABLE "checklists" (
                  "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
                  "position" INTEGER NOT NULL ON CONFLICT REPLACE DEFAULT 0,
                  "title" TEXT NOT NULL ON CONFLICT REPLACE DEFAULT ''
                ) STRICT
                """
            )
            .execute(db)
            try #sql(
                """
                CREATE TABLE "checklistItems" (
                  "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
                  "checklistID" TEXT NOT NULL REFERENCES "checklists"("id") ON DELETE CASCADE,
                  "isDone" INTEGER NOT NULL DEFAULT 0,
                  "title" TEXT NOT NULL ON CONFLICT REPLACE DEFAULT ''
                ) STRICT
                """
            )
            .execute(db)
        }
    }

    @Test func draftsWithoutAnIDGetOneAndQueriesFindIt() throws {
        let groceries = try database.write { db in
            try Checklist.insert { Checklist.Draft(title: "Groceries") }.execute(db)
            return try #require(try Checklist.where { $0.title.eq("Groceries") }.fetchOne(db))
        }
        try database.write { db in
            try ChecklistItem.insert {
                ChecklistItem.Draft(checklistID: groceries.id, title: "Milk")
                ChecklistItem.Draft(checklistID: groceries.id, isDone: true, title: "Bread")
            }
            .execute(db)
            try Checklist.upsert { Checklist.Draft(title: "Errands") }.execute(db)
        }
        try database.read { db in
            #expect(try Checklist.find(groceries.id).fetchOne(db) == groceries)
            let counts = try Checklist
                .group(by: \.id)
                .leftJoin(ChecklistItem.all) { $0.id.eq($1.checklistID) }
                .order(by: \.title)
                .select { ($0.title, $1.id.count()) }
                .fetchAll(db)
            #expect(counts.map(\.0) == ["Errands", "Groceries"])
            #expect(counts.map(\.1) == [0, 2])
            let open = try ChecklistItem.where { $0.checklistID.eq(groceries.id) && !$0.isDone }.select(\.title).fetchAll(db)
            #expect(open == ["Milk"])
            // The key the schema wrote is the text a bound UUID compares with.
            let text = try #sql("SELECT \(Checklist.columns.id) FROM \(Checklist.self) WHERE \(Checklist.columns.title) = 'Groceries'", as: String.self)
                .fetchOne(db)
            #expect(text == groceries.id.uuidString.lowercased())
        }
    }
}
