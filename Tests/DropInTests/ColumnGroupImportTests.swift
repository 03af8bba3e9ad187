import Foundation
import SQLiteData
import Testing

// Written as sqlite-data code groups columns: a `@Selection` type used as a property of a
// `@Table`, its columns flattened into the table's.

@Selection
struct Timestamps: Equatable {
    var createdAt: Date
    var updatedAt: Date?
}

@Table
struct Parcel: Identifiable {
    let id: Int
    var label = ""
    var timestamps: Timestamps
}

@Selection
struct Dimensions: Equatable {
    var width = 0
    var height = 0
}

@Selection
struct Lid: Equatable {
    var isLocked = false
}

@Table
struct Crate {
    var label: String
    var dimensions = Dimensions()
    var lid: Lid?
}

@Suite("import SQLiteData: column groups")
struct ColumnGroupImportTests {
    @Test func aGroupIsReadWrittenAndQueriedThroughItsColumns() throws {
        let created = Date(timeIntervalSinceReferenceDate: 1_000)
        let database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: """
                CREATE TABLE "parcels" (
                  "id" INTEGER PRIMARY KEY, "label" TEXT NOT NULL, "createdAt" REAL NOT NULL, "updatedAt" REAL
                )
                """)
            try Parcel.insert { Parcel.Draft(label: "Books", timestamps: Timestamps(createdAt: created)) }.execute(db)
            try Parcel.insert { Parcel(id: 2, label: "Lamp", timestamps: Timestamps(createdAt: created)) }.execute(db)
            try Parcel.find(2).update { $0.timestamps.updatedAt = Optional(created) }.execute(db)
        }
        let touched = Parcel.where { $0.timestamps.updatedAt.isNot(nil) }.select(\.label)
        #expect(try touched.render().sql
            == #"SELECT "parcels"."label" FROM "parcels" WHERE "parcels"."updatedAt" IS NOT NULL"#)
        let (labels, parcels) = try database.read { db in
            (try touched.fetchAll(db), try Parcel.order(by: \.id).fetchAll(db))
        }
        #expect(labels == ["Lamp"])
        #expect(parcels.map(\.timestamps) == [
            Timestamps(createdAt: created), Timestamps(createdAt: created, updatedAt: created),
        ])
    }

    @Test func groupsAreComparedAssignedNamedAndOptional() throws {
        #expect(try Crate.where { $0.dimensions.eq(Dimensions()) }.select(\.label).render().sql
            == #"SELECT "crates"."label" FROM "crates" WHERE ("crates"."width", "crates"."height") = (?, ?)"#)
        #expect(try Crate.update { $0.dimensions = Dimensions(width: 2, height: 3) }.render().sql
            == #"UPDATE "crates" SET "width" = ?, "height" = ?"#)
        #expect(try Crate.insert { $0.dimensions } values: { Dimensions(width: 1, height: 1) }.render().sql
            == #"INSERT INTO "crates" ("width", "height") VALUES (?, ?)"#)
        let open = try Crate.insert { Crate(label: "open", lid: nil) }.render()
        #expect(open.sql == #"INSERT INTO "crates" ("label", "width", "height", "isLocked") VALUES (?, ?, ?, ?)"#)
        #expect(open.arguments == [.text("open"), .integer(0), .integer(0), .null])
    }
}
