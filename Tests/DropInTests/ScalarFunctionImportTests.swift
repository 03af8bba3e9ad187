import StructuredQueries
import Testing

// StructuredQueries' scalar functions written as its documentation writes them.

@Table
struct Item {
    let id: Int
    var price = 0.0
    var title = ""
}

@Table
struct Asset {
    let id: Int
    var bytes: [UInt8] = []
}

@Suite("import StructuredQueries: scalar functions")
struct ScalarFunctionImportTests {
    @Test func numbersRoundAndKeepTheirType() throws {
        let database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: #"CREATE TABLE "items" ("id" INTEGER PRIMARY KEY, "price" REAL NOT NULL, "title" TEXT NOT NULL)"#)
            try Item.insert {
                Item.Draft(price: 2.25, title: "Tea")
                Item.Draft(price: -1.5, title: "")
            }.execute(db)
        }
        let rounded = Item.order(by: \.id).select { $0.price.round() }
        #expect(try rounded.render().sql == #"SELECT round("items"."price") FROM "items" ORDER BY "items"."id" ASC"#)
        #expect(try database.read { db in try rounded.fetchAll(db) } == [2.0, -2.0])
        let average = Item.select { $0.price.avg().round(2) }
        #expect(try average.render().sql == #"SELECT round(AVG("items"."price"), ?) FROM "items""#)
        #expect(try database.read { db in try average.fetchAll(db) } == [0.38])
        let signs = Item.order(by: \.id).select { ($0.price.abs(), $0.price.sign(), $0.title.nullif("")) }
        let rows = try database.read { db in try signs.fetchAll(db) }
        #expect(rows.map(\.0) == [2.25, 1.5])
        #expect(rows.map(\.1) == [1.0, -1.0])
        #expect(rows.map(\.2) == ["Tea", nil])
        let likely = Item.where { ($0.title == "Tea").likelihood(0.75) }.select(\.id)
        #expect(try likely.render().sql == #"SELECT "items"."id" FROM "items" WHERE likelihood("items"."title" = ?, 0.75)"#)
        #expect(try database.read { db in try likely.fetchAll(db) } == [1])
    }

    @Test func blobsAreArraysOfBytes() throws {
        let database = try DatabaseQueue()
        let randomize = Asset.where { $0.id == 1 }.update { $0.bytes = 1_024.randomblob() }
        #expect(try randomize.render().sql == #"UPDATE "assets" SET "bytes" = randomblob(?) WHERE "assets"."id" = ?"#)
        try database.write { db in
            try db.execute(sql: #"CREATE TABLE "assets" ("id" INTEGER PRIMARY KEY, "bytes" BLOB NOT NULL)"#)
            try Asset.insert { Asset(id: 1, bytes: [7]); Asset(id: 2, bytes: [7]) }.execute(db)
            try randomize.execute(db)
            try Asset.where { $0.id == 2 }.update { $0.bytes = 2.zeroblob() }.execute(db)
        }
        let assets = try database.read { db in try Asset.order(by: \.id).fetchAll(db) }
        #expect(assets.map(\.bytes.count) == [1_024, 2])
        #expect(try database.read { db in try Asset.order(by: \.id).select { $0.bytes.hex() }.fetchAll(db) }.last == "0000")
    }
}
