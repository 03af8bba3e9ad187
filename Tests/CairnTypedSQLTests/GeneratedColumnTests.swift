import Cairn
import Testing

/// A table whose database computes two of its columns.
@Table("items")
private struct Item: Equatable {
    let id: Int
    var title = ""
    var quantity = 0
    @Column(generated: .virtual) let isOutOfStock: Bool
    @Column("label", generated: .stored) let displayName: String
}

/// `@Column(generated:)`: read like any column, filtered and sorted on, never written (SQLite
/// refuses a value for a generated column: "cannot INSERT into generated column").
@Suite("Typed SQL: generated columns")
struct GeneratedColumnTests {
    let db: Database

    init() throws {
        db = try Database.inMemory()
        try db.execute(sql: """
            CREATE TABLE "items" (
              "id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '', "quantity" INTEGER NOT NULL DEFAULT 0,
              "isOutOfStock" INTEGER GENERATED ALWAYS AS ("quantity" = 0) VIRTUAL,
              "label" TEXT GENERATED ALWAYS AS ("title" || ' ×' || "quantity") STORED
            )
            """)
    }

    @Test func insertingADraftLeavesThemToTheDatabase() throws {
        let insert = Item.insert { Item.Draft(title: "Pens", quantity: 3); Item.Draft(title: "Ink") }
        try assertQuery(
            insert, sql: #"INSERT INTO "items" ("id", "title", "quantity") VALUES (?, ?, ?), (?, ?, ?)"#,
            arguments: [.null, .text("Pens"), .integer(3), .null, .text("Ink"), .integer(0)],
            rows: { try insert.execute(db); return try Item.order(by: \.id).fetchAll(db) },
            [Item(id: 1, title: "Pens", quantity: 3, isOutOfStock: false, displayName: "Pens ×3"),
             Item(id: 2, title: "Ink", quantity: 0, isOutOfStock: true, displayName: "Ink ×0")])
    }

    @Test func wholeRowWritesSkipThem() throws {
        // A whole row carries the generated values it was read with; they are not sent back.
        try Item.insert { Item(id: 1, title: "Pens", quantity: 3, isOutOfStock: true, displayName: "ignored") }.execute(db)
        var pens = try #require(try Item.find(1).fetchOne(db))
        #expect(pens.displayName == "Pens ×3")
        #expect(!pens.isOutOfStock)

        pens.quantity = 0
        let update = Item.update(pens)
        try assertQuery(
            update, sql: #"UPDATE "items" SET "title" = ?, "quantity" = ? WHERE "items"."id" = ?"#,
            rows: { try update.execute(db); return try Item.find(1).select { ($0.isOutOfStock, $0.displayName) }.fetchAll(db).map { "\($0.0) \($0.1)" } },
            ["true Pens ×0"])

        let upsert = Item.upsert { Item.Draft(id: 1, title: "Pencils", quantity: 5) }
        try assertQuery(
            upsert,
            sql: #"INSERT INTO "items" ("id", "title", "quantity") VALUES (?, ?, ?) ON CONFLICT ("id") DO UPDATE SET "title" = "excluded"."title", "quantity" = "excluded"."quantity""#,
            rows: { try upsert.execute(db); return try Item.select(\.displayName).fetchAll(db) }, ["Pencils ×5"])

        let pencils = try #require(try Item.find(1).fetchOne(db))
        try Item.delete(pencils).execute(db)
        #expect(try Item.fetchCount(db) == 0)
    }

    @Test func queriesFilterSortAndSelectThem() throws {
        try Item.insert {
            Item.Draft(title: "Pens", quantity: 3)
            Item.Draft(title: "Ink")
            Item.Draft(title: "Clips")
        }.execute(db)
        let query = Item.where(\.isOutOfStock).order { $0.displayName.desc() }.select(\.displayName)
        try assertQuery(
            query,
            sql: #"SELECT "items"."label" FROM "items" WHERE "items"."isOutOfStock" ORDER BY "items"."label" DESC"#,
            rows: { try query.fetchAll(db) }, ["Ink ×0", "Clips ×0"])
    }

    @Test func assigningOneInAnUpdateIsSQLitesError() throws {
        try Item.insert { Item.Draft(title: "Pens", quantity: 3) }.execute(db)
        // The column is a `TableColumn` like the others, so the assignment compiles; SQLite
        // refuses it, and the error names the column.
        #expect {
            try Item.update { $0.displayName = "Markers" }.execute(db)
        } throws: { error in
            "\(error)".contains("label")
        }
    }
}
