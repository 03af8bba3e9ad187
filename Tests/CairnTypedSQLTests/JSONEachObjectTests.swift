import Cairn
import Foundation
import Testing

@Table("warehouses")
struct Warehouse: Codable, Hashable, Sendable {
    var name: String
    @Column(as: [String: Int].JSONRepresentation.self)
    var stock: [String: Int]
    @Column(as: [String: BookShelf].JSONRepresentation.self)
    var aisles: [String: BookShelf]
}

@Table
struct Shop: Identifiable, Hashable, Sendable {
    let id: Int
    @Column(as: [String: Int].JSONRepresentation.self)
    var prices: [String: Int]
    @Column(as: [String: String].JSONRepresentation?.self)
    var notes: [String: String]?
    @Column(as: Warehouse.JSONRepresentation.self)
    var warehouse: Warehouse
}

@Suite("Typed SQL: json_each over JSON objects")
struct JSONEachObjectTests {
    let db: Database
    static let depot = Warehouse(
        name: "Depot", stock: ["apples": 3, "pears": 0],
        aisles: ["north": BookShelf(titles: ["Emma"]), #"a "q" ünï"#: BookShelf(titles: [])])

    init() throws {
        db = try RemindersDatabase.make()
        try db.execute(sql: #"CREATE TABLE "shops" ("id" INTEGER PRIMARY KEY, "prices" TEXT NOT NULL, "notes" TEXT, "warehouse" TEXT NOT NULL)"#)
        try Shop.insert {
            Shop(id: 1, prices: ["tea": 4, "cake": 7], notes: ["tea": "green"], warehouse: Self.depot)
            Shop(id: 2, prices: [:], notes: nil, warehouse: Warehouse(name: "Empty", stock: [:], aisles: [:]))
        }.execute(db)
    }

    @Test func membersByKey() throws {
        let cheap = Shop.where { $0.prices.jsonEach().where { $0.key.eq("tea") && $0.value.lt(5) }.exists() }.select(\.id)
        try assertQuery(
            cheap,
            sql: #"""
                SELECT "shops"."id" FROM "shops" WHERE EXISTS (SELECT "json_each"."key", "json_each"."value" \#
                FROM json_each("shops"."prices") WHERE "json_each"."key" = ? AND "json_each"."value" < ?)
                """#,
            arguments: [.text("tea"), .integer(5)],
            rows: { try cheap.fetchAll(db) }, [1])
        let rows = try [String: Int].JSONRepresentation(queryOutput: ["b": 2, #"a "q" ünï"#: 1]).jsonEach()
            .order(by: \.key).fetchAll(db)
        #expect(rows.map(\.key) == [#"a "q" ünï"#, "b"])
        #expect(rows.map(\.value) == [1, 2])
    }

    @Test func aNullObjectHasNoMembers() throws {
        let noted = Shop.order(by: \.id).select { ($0.id, $0.notes.jsonEach().count()) }
        #expect(try noted.render().sql == #"""
            SELECT "shops"."id", (SELECT COUNT(*) FROM json_each("shops"."notes")) FROM "shops" ORDER BY "shops"."id" ASC
            """#)
        #expect(try noted.fetchAll(db).map { [$0.0, $0.1] } == [[1, 1], [2, 0]])
        let green = Shop.where { $0.notes.jsonEach().where { $0.value.eq("green") }.exists() }.select(\.id)
        #expect(try green.fetchAll(db) == [1])
    }

    @Test func membersAtAPath() throws {
        let stocked = Shop.order(by: \.id).select {
            ($0.id, $0.warehouse.jsonEach(\.stock).where { $0.value.gt(0) }.count())
        }
        try assertQuery(
            stocked,
            sql: #"""
                SELECT "shops"."id", (SELECT COUNT(*) FROM json_each("shops"."warehouse", ?) \#
                WHERE "json_each"."value" > ?) FROM "shops" ORDER BY "shops"."id" ASC
                """#,
            arguments: [.text(#"$."stock""#), .integer(0)],
            rows: { try stocked.fetchAll(db).map { [$0.0, $0.1] } }, [[1, 1], [2, 0]])
    }

    @Test func codableValuesAreJSON() throws {
        let aisles = Warehouse.JSONRepresentation(queryOutput: Self.depot).jsonEach(\.aisles).order(by: \.key)
        #expect(try aisles.render().arguments.last == .text(#"$."aisles""#))
        let rows = try aisles.fetchAll(db)
        #expect(rows.map(\.key) == [#"a "q" ünï"#, "north"])
        #expect(rows.map(\.value) == [BookShelf(titles: []), BookShelf(titles: ["Emma"])])
        let titled = Shop.where {
            $0.warehouse.jsonEach(\.aisles).where { $0.value.jsonArrayLength(\.titles).gt(0) }.exists()
        }.select(\.id)
        #expect(try titled.render().sql.contains(#"json_array_length("json_each"."value", ?) > ?"#))
        #expect(try titled.fetchAll(db) == [1])
        let whole = try [String: BookShelf].JSONRepresentation(queryOutput: Self.depot.aisles).jsonEach()
            .where { $0.key.eq("north") }.select(\.value).fetchAll(db)
        #expect(whole == [BookShelf(titles: ["Emma"])])
    }
}
