import Cairn
import Foundation
import Testing

@Table("owners")
struct Owner: Codable, Identifiable, Hashable, Sendable {
    let id: Int
    var name: String
    var isAdmin: Bool
}

@Table("gadgets")
struct Gadget: Codable, Identifiable, Hashable, Sendable {
    let id: Int
    var name: String
    var isActive: Bool
    var rating: Double
    var weight: Float?
    @Column(as: Date.TimeIntervalSinceReferenceDateRepresentation.self)
    var madeAt: Date
    @Column(as: Date.UnixTimeRepresentation.self)
    var soldAt: Date
    @Column(as: Date.ISO8601Representation?.self)
    var checkedAt: Date?
    var serial: UUID
    @Column(as: UUID.BytesRepresentation.self)
    var token: UUID
    var price: Decimal
    @Column(as: [String].JSONRepresentation.self)
    var labels: [String]
    var note: String?
    var ownerID: Owner.ID?
}

@Suite("Typed SQL: whole rows as JSON")
struct JSONObjectTests {
    let db: Database
    static let lamp = Gadget(
        id: 1, name: #"Lamp "L" ünï"#, isActive: true, rating: 0.1 + 0.2, weight: 1.1,
        madeAt: Date(timeIntervalSinceReferenceDate: 794_230_207.123456), soldAt: Date(timeIntervalSince1970: 1_778_371_200.5),
        checkedAt: Date(timeIntervalSinceReferenceDate: 800_000_000.341), serial: UUID(uuid: (
            0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF)),
        token: UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)),
        price: Decimal(string: "12.345")!, labels: ["desk", "led"], note: nil, ownerID: 1)
    static let fan = Gadget(
        id: 2, name: "Fan", isActive: false, rating: -1e-300, weight: nil, madeAt: Date(timeIntervalSinceReferenceDate: -0.5),
        soldAt: Date(timeIntervalSince1970: 0), checkedAt: nil, serial: UUID(uuid: (
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), token: UUID(uuid: (
            0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF)),
        price: 0, labels: [], note: "'quoted'", ownerID: nil)

    init() throws {
        db = try RemindersDatabase.make()
        try db.execute(sql: #"""
            CREATE TABLE "owners" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "isAdmin" INTEGER NOT NULL);
            CREATE TABLE "gadgets" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "isActive" INTEGER NOT NULL,
              "rating" REAL NOT NULL, "weight" REAL, "madeAt" REAL NOT NULL, "soldAt" REAL NOT NULL,
              "checkedAt" TEXT, "serial" TEXT NOT NULL, "token" BLOB NOT NULL, "price" TEXT NOT NULL,
              "labels" TEXT NOT NULL, "note" TEXT, "ownerID" INTEGER);
            """#)
        try Owner.insert {
            Owner(id: 1, name: "Blob", isAdmin: true)
            Owner(id: 2, name: "Blob Jr", isAdmin: false)
        }.execute(db)
        try Gadget.insert { Self.lamp; Self.fan }.execute(db)
    }

    @Test func jsonObjectDecodesBackIntoTheRow() throws {
        let rows = Owner.order(by: \.id).select { $0.jsonObject() }
        try assertQuery(
            rows,
            sql: #"""
                SELECT json_object('id', "owners"."id", 'name', "owners"."name", 'isAdmin', \#
                json(CASE "owners"."isAdmin" WHEN 0 THEN 'false' WHEN 1 THEN 'true' END)) \#
                FROM "owners" ORDER BY "owners"."id" ASC
                """#,
            rows: { try rows.fetchAll(db) },
            [Owner(id: 1, name: "Blob", isAdmin: true), Owner(id: 2, name: "Blob Jr", isAdmin: false)])
    }

    @Test func eachStorageIsWrittenAsTheDecoderReadsIt() throws {
        let objects = Gadget.order(by: \.id).select { $0.jsonObject() }
        let sql = try objects.render().sql
        #expect(sql.contains(#"'rating', CASE WHEN "gadgets"."rating" IS NULL THEN NULL ELSE json(printf('%!.17g', "gadgets"."rating")) END"#))
        #expect(sql.contains(#"'soldAt', CASE WHEN "gadgets"."soldAt" IS NULL THEN NULL ELSE json(printf('%!.17g', "gadgets"."soldAt" - 978307200)) END"#))
        #expect(sql.contains(#"'token', CASE WHEN "gadgets"."token" IS NULL THEN NULL ELSE printf('%s-%s-%s-%s-%s', substr(hex("gadgets"."token"), 1, 8)"#))
        #expect(sql.contains(#"'price', json("gadgets"."price"), 'labels', json("gadgets"."labels"), 'note', "gadgets"."note""#))
        #expect(try objects.render().arguments.isEmpty)
        // Every column, NULLs included, reads back as the row itself reads.
        #expect(try objects.fetchAll(db) == Gadget.order(by: \.id).fetchAll(db))
        #expect(try objects.fetchAll(db) == [Self.lamp, Self.fan])
    }

    @Test func realsAndDatesReadBackExactly() throws {
        var random = SystemRandomNumberGenerator()
        let gadgets = (3...202).map { id in
            Gadget(
                id: id, name: "", isActive: false, rating: Double(bitPattern: random.next()).belowSQLitesPrecisePrintf,
                weight: Float.random(in: -1e6...1e6), madeAt: Date(timeIntervalSinceReferenceDate: .random(in: -1e9...1e9)),
                soldAt: Date(timeIntervalSince1970: .random(in: 0...2e9)), checkedAt: nil, serial: UUID(), token: UUID(),
                price: 1, labels: [], note: nil, ownerID: nil)
        }
        try Gadget.insert { for gadget in gadgets { gadget } }.execute(db)
        let stored = try Gadget.where { $0.id.gte(3) }.order(by: \.id).fetchAll(db)
        let objects = try Gadget.where { $0.id.gte(3) }.order(by: \.id).select { $0.jsonObject() }.fetchAll(db)
        for (object, row) in zip(objects, stored) where object != row {
            Issue.record("rating \(row.rating) → \(object.rating), weight \(String(describing: row.weight)) → \(String(describing: object.weight)), madeAt \(row.madeAt.timeIntervalSinceReferenceDate) → \(object.madeAt.timeIntervalSinceReferenceDate), soldAt \(row.soldAt.timeIntervalSinceReferenceDate) → \(object.soldAt.timeIntervalSinceReferenceDate)")
        }
        #expect(objects.count == stored.count)
    }

    @Test func membersOfAnObjectByKeyPath() throws {
        let flags = Gadget.order(by: \.id).select { ($0.jsonObject().jsonExtract(\.isActive), $0.jsonObject().jsonExtract(\.rating)) }
        let rows = try flags.fetchAll(db)
        #expect(rows.map(\.0) == [true, false])
        #expect(rows.map(\.1) == [0.1 + 0.2, -1e-300])
    }

    @Test func jsonObjectOfAnOuterJoinsMissingRowIsNil() throws {
        let owners = Gadget.order(by: \.id).leftJoin(Owner.all) { $0.ownerID.eq($1.id) }.select { ($0.name, $1.jsonObject()) }
        #expect(try owners.render().sql == #"""
            SELECT "gadgets"."name", CASE WHEN "owners"."rowid" IS NOT NULL THEN json_object('id', "owners"."id", \#
            'name', "owners"."name", 'isAdmin', json(CASE "owners"."isAdmin" WHEN 0 THEN 'false' WHEN 1 THEN 'true' END)) END \#
            FROM "gadgets" LEFT JOIN "owners" ON "gadgets"."ownerID" = "owners"."id" ORDER BY "gadgets"."id" ASC
            """#)
        let rows = try owners.fetchAll(db)
        #expect(rows.map(\.1) == [Owner(id: 1, name: "Blob", isAdmin: true), nil])
    }

    @Test func jsonGroupArrayOfRows() throws {
        let perOwner = Owner.group(by: \.id).order(by: \.id).join(Gadget.all) { $0.id.eq($1.ownerID) }
            .select { ($0.name, $1.jsonGroupArray()) }
        let sql = try perOwner.render().sql
        #expect(sql.hasPrefix(#"SELECT "owners"."name", json_group_array(json_object('id', "gadgets"."id", 'name', "gadgets"."name", "#))
        let rows = try perOwner.fetchAll(db)
        #expect(rows.map(\.0) == ["Blob"])
        #expect(rows.map(\.1) == [[Self.lamp]])
    }

    @Test func jsonGroupArrayOfAnOuterJoinLeavesMissingRowsOut() throws {
        try db.execute(sql: #"UPDATE "gadgets" SET "ownerID" = 1 WHERE "id" = 2"#)
        let perOwner = Owner.group(by: \.id).order(by: \.id).leftJoin(Gadget.all) { $0.id.eq($1.ownerID) }
            .select { ($0.name, $1.jsonGroupArray(distinct: true)) }
        let sql = try perOwner.render().sql
        #expect(sql.hasPrefix(#"""
            SELECT "owners"."name", json_group_array(DISTINCT CASE WHEN "gadgets"."rowid" IS NOT NULL THEN \#
            json_object('id', "gadgets"."id", 'name', "gadgets"."name", 'isActive', \#
            json(CASE "gadgets"."isActive" WHEN 0 THEN 'false' WHEN 1 THEN 'true' END), 'rating',
            """#))
        #expect(sql.contains(#"'ownerID', "gadgets"."ownerID") END) FILTER (WHERE "gadgets"."rowid" IS NOT NULL) FROM "owners" LEFT JOIN"#))
        let rows = try perOwner.fetchAll(db)
        var fan = Self.fan
        fan.ownerID = 1
        #expect(rows.map(\.0) == ["Blob", "Blob Jr"])
        #expect(rows.map { Set($0.1) } == [[Self.lamp, fan], []])

        let active = Owner.group(by: \.id).order(by: \.id).leftJoin(Gadget.all) { $0.id.eq($1.ownerID) }
            .select { $1.jsonGroupArray(filter: $1.note.is(nil)) }
        #expect(try active.render().sql.contains(
            #"FILTER (WHERE "gadgets"."rowid" IS NOT NULL AND "gadgets"."note" IS NULL) FROM "owners" LEFT JOIN"#))
        #expect(try active.fetchAll(db) == [[Self.lamp], []])
    }

    @Test func orderedJsonGroupArrayOfRows() throws {
        let ordered = Owner.group(by: \.id).leftJoin(Gadget.all) { $0.id.eq($1.ownerID) }
            .select { $1.jsonGroupArray(order: $1.name.desc()) }
        #expect(try ordered.render().sql.contains(#" END ORDER BY "gadgets"."name" DESC) FILTER (WHERE "gadgets"."rowid" IS NOT NULL)"#))
    }

    @Test func aDataColumnCannotBeWritten() throws {
        try db.execute(sql: #"CREATE TABLE "blobs" ("id" INTEGER PRIMARY KEY, "bytes" BLOB NOT NULL)"#)
        try Blob.insert { Blob(id: 1, bytes: Data([0, 1])) }.execute(db)
        #expect(throws: (any Error).self) { try Blob.select { $0.jsonObject() }.fetchAll(db) }
    }
}

extension Double {
    /// The value with its exponent brought below 2^320 (about 2e96): SQLite's `printf` can
    /// change the 17th digit of larger magnitudes (as the docs say; with SQLite 3.40, from
    /// about 2^338 on, in 2,000 doubles per binary exponent), and infinities and NaN are not
    /// stored.
    fileprivate var belowSQLitesPrecisePrintf: Double {
        guard isFinite else { return 0 }
        return exponent < 320 ? self : Double(sign: sign, exponent: exponent % 320, significand: significand)
    }
}

@Table("blobs")
struct Blob: Codable, Identifiable, Hashable, Sendable {
    let id: Int
    var bytes: Data
}
