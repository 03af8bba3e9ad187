import Cairn
import Foundation
import Testing

/// A JSON document with an optional array of `Codable` values and an optional dictionary.
@Table("wardrobes")
struct Wardrobe: Codable, Hashable, Sendable {
    var owner: String
    @Column(as: [BookShelf].JSONRepresentation?.self)
    var boxes: [BookShelf]?
    @Column(as: [String: Int].JSONRepresentation?.self)
    var sizes: [String: Int]?
}

@Table
struct House: Identifiable, Hashable, Sendable {
    let id: Int
    @Column(as: Wardrobe.JSONRepresentation.self)
    var wardrobe: Wardrobe
}

/// `jsonEach(\.path)` and `jsonAppend(\.path, …)` on optional members (`[String]?`): a member
/// that is absent (how `JSONEncoder` writes `nil`) or JSON `null` has no elements and stays as
/// it is.
@Suite("Typed SQL: JSON optional array members by key path")
struct JSONOptionalMemberTests {
    let db: Database

    init() throws {
        db = try RemindersDatabase.make()
        try db.execute(sql: #"CREATE TABLE "libraries" ("id" INTEGER PRIMARY KEY, "catalog" TEXT NOT NULL, "annex" TEXT)"#)
        try Library.insert {
            Library(id: 1, catalog: JSONArrayPathTests.main, annex: nil)
            Library(id: 2, catalog: JSONArrayPathTests.branch, annex: nil)
        }.execute(db)
        // A document written elsewhere, with the optional members as JSON null.
        try db.execute(sql: #"""
            INSERT INTO "libraries" VALUES (3, '{"name":"Null","aliases":null,"shelf":null,"shelves":[]}', NULL)
            """#)
        try db.execute(sql: #"CREATE TABLE "houses" ("id" INTEGER PRIMARY KEY, "wardrobe" TEXT NOT NULL)"#)
        try House.insert {
            House(id: 1, wardrobe: Wardrobe(owner: "Ann", boxes: [BookShelf(titles: ["Emma"])], sizes: ["coat": 40, "hat": 7]))
            House(id: 2, wardrobe: Wardrobe(owner: "Bo", boxes: nil, sizes: nil))
        }.execute(db)
    }

    @Test func eachOverAnOptionalArrayMember() throws {
        let counts = Library.order(by: \.id).select { ($0.id, $0.catalog.jsonEach(\.aliases).count()) }
        try assertQuery(
            counts,
            sql: #"""
                SELECT "libraries"."id", (SELECT COUNT(*) FROM json_each(json_extract("libraries"."catalog", ?))) \#
                FROM "libraries" ORDER BY "libraries"."id" ASC
                """#,
            arguments: [.text(#"$."aliases""#)],
            rows: { try counts.fetchAll(db).map { [$0.0, $0.1] } },
            [[1, 2], [2, 0], [3, 0]])
        let withHQ = Library.where { $0.catalog.jsonEach(\.aliases).where { $0.value.eq("hq") }.exists() }.select(\.id)
        try assertQuery(
            withHQ,
            sql: #"""
                SELECT "libraries"."id" FROM "libraries" WHERE EXISTS (SELECT "json_each"."key", "json_each"."value" \#
                FROM json_each(json_extract("libraries"."catalog", ?)) WHERE "json_each"."value" = ?)
                """#,
            rows: { try withHQ.fetchAll(db) },
            [1])
        // The non-optional member keeps its two-argument form.
        #expect(try Library.select { $0.catalog.jsonEach(\.shelves).count() }.render().sql
            == #"SELECT (SELECT COUNT(*) FROM json_each("libraries"."catalog", ?)) FROM "libraries""#)
    }

    @Test func eachOverOptionalMembersOfCodableValuesAndObjects() throws {
        let boxes = House.order(by: \.id).select {
            ($0.id, $0.wardrobe.jsonEach(\.boxes).where { $0.value.jsonArrayLength(\.titles).gt(0) }.count(),
             $0.wardrobe.jsonEach(\.sizes).where { $0.value.gt(10) }.count())
        }
        #expect(try boxes.render().sql == #"""
            SELECT "houses"."id", (SELECT COUNT(*) FROM json_each(json_extract("houses"."wardrobe", ?)) \#
            WHERE json_array_length("json_each"."value", ?) > ?), (SELECT COUNT(*) FROM \#
            json_each(json_extract("houses"."wardrobe", ?)) WHERE "json_each"."value" > ?) \#
            FROM "houses" ORDER BY "houses"."id" ASC
            """#)
        #expect(try boxes.fetchAll(db).map { [$0.0, $0.1, $0.2] } == [[1, 1, 1], [2, 0, 0]])
    }

    @Test func appendToAnOptionalArrayMember() throws {
        let append = Library.update { $0.catalog = $0.catalog.jsonAppend(\.aliases, "annex") }
        try assertQuery(
            append,
            sql: #"UPDATE "libraries" SET "catalog" = json_insert("libraries"."catalog", ?, ?)"#,
            arguments: [.text(#"$."aliases"[#]"#), .text("annex")],
            rows: {
                try append.execute(db)
                return try Library.order(by: \.id).select { $0.catalog.jsonExtract(\.aliases) }.fetchAll(db)
            },
            // An absent or null member stays nil, as `aliases?.append("annex")` leaves it.
            [["central", "hq", "annex"], nil, nil])
        #expect(try #sql(#"SELECT "catalog" FROM "libraries" WHERE "id" = 3"#, as: String.self).fetchOne(db)
            == #"{"name":"Null","aliases":null,"shelf":null,"shelves":[]}"#)
        let box = House.update { $0.wardrobe = $0.wardrobe.jsonAppend(\.boxes, BookShelf(titles: ["Dune"])) }
        #expect(try box.render().sql == #"UPDATE "houses" SET "wardrobe" = json_insert("houses"."wardrobe", ?, json(?))"#)
        try box.execute(db)
        #expect(try House.order(by: \.id).select { $0.wardrobe.jsonExtract(\.boxes) }.fetchAll(db)
            == [[BookShelf(titles: ["Emma"]), BookShelf(titles: ["Dune"])], nil])
    }
}
