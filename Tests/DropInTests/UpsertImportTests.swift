import StructuredQueries
import Testing

// Inserts with conflict clauses as StructuredQueries code writes them (its InsertTests' spellings),
// with the SQL each renders and the rows it leaves.

@Table("shelves")
struct Shelf: Identifiable {
    let id: Int
    var label = ""
}

@Table
struct Sticker: Identifiable {
    let id: Int
    var label = ""
    var isFlagged = false
    var isRetired = false
}

@Suite("import StructuredQueries: insert … onConflict / doUpdate / onConflictDoUpdate / select")
struct UpsertImportTests {
    let database: DatabaseQueue

    init() throws {
        database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: #"CREATE TABLE "shelves" ("id" INTEGER PRIMARY KEY, "label" TEXT NOT NULL)"#)
            try db.execute(sql: """
                CREATE TABLE "stickers" ("id" INTEGER PRIMARY KEY, "label" TEXT NOT NULL UNIQUE,
                  "isFlagged" INTEGER NOT NULL DEFAULT 0, "isRetired" INTEGER NOT NULL DEFAULT 0)
                """)
            try Shelf.insert { Shelf(id: 1, label: "Kitchen"); Shelf(id: 2, label: "Garage") }.execute(db)
            try Sticker.insert { Sticker(id: 1, label: "kitchen", isFlagged: true) }.execute(db)
        }
    }

    func labels() throws -> [String] {
        try database.read { db in try Sticker.order(by: \.id).select(\.label).fetchAll(db) }
    }

    @Test func insertSelectOnConflictDoUpdate() throws {
        let insert = Sticker.insert {
            $0.label
        } select: {
            Shelf.select { $0.label.lower() }
        } onConflict: {
            $0.label
        } doUpdate: {
            $0.label = $1.label + "-copy"
        }
        #expect(try insert.render().sql == """
            INSERT INTO "stickers" ("label") SELECT lower("shelves"."label") FROM "shelves" WHERE 1 \
            ON CONFLICT ("label") DO UPDATE SET "label" = "excluded"."label" || ?
            """)
        try database.write { db in try insert.execute(db) }
        #expect(try labels() == ["kitchen-copy", "garage"])
    }

    @Test func doUpdateReadingTheStoredRowOnly() throws {
        try database.write { db in
            try Sticker.insert {
                $0.label
            } select: {
                Values("kitchen")
            } onConflict: {
                $0.label
            } doUpdate: {
                $0.label += "!"
            }.execute(db)
            try Sticker.insert {
                Sticker.Draft(label: "kitchen!")
            } onConflict: {
                $0.label
            } doUpdate: {
                $0.isRetired = true
            }.execute(db)
        }
        #expect(try database.read { db in try Sticker.find(1).select { ($0.label, $0.isRetired) }.fetchOne(db) }?.1 == true)
        #expect(try labels() == ["kitchen!"])
    }

    @Test func onConflictDoUpdateAndTheFilters() throws {
        try database.write { db in
            try Sticker.insert {
                $0.label
            } values: {
                "kitchen"
            } onConflictDoUpdate: {
                $0.label += " again"
            }.execute(db)
            // A flagged sticker is not updated.
            try Sticker.insert {
                Sticker.Draft(label: "kitchen again")
            } onConflict: {
                $0.label
            } where: {
                !$0.isRetired
            } doUpdate: {
                $0.isRetired = $1.isRetired
                $0.label = "never"
            } where: { row, _ in
                !row.isFlagged
            }.execute(db)
            try Sticker.insert {
                Sticker.Draft(label: "kitchen again", isFlagged: false)
            } onConflictDoUpdate: { updates, excluded in
                updates.isFlagged = excluded.isFlagged
            } where: { columns, excluded in
                columns.label.eq(excluded.label)
            }.execute(db)
        }
        let sticker = try database.read { db in try Sticker.find(1).fetchOne(db) }
        #expect(sticker?.label == "kitchen again" && sticker?.isFlagged == false && sticker?.isRetired == false)
    }

    @Test func onConflictAloneDoesNothing() throws {
        let insert = Sticker.insert { Sticker(id: 9, label: "kitchen") } onConflict: { $0.label }
        #expect(try insert.render().sql
            == #"INSERT INTO "stickers" ("id", "label", "isFlagged", "isRetired") VALUES (?, ?, ?, ?) ON CONFLICT ("label") DO NOTHING"#)
        try database.write { db in try insert.execute(db) }
        #expect(try labels() == ["kitchen"])
    }
}
