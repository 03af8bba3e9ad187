import Cairn
import Foundation
import Testing

@Table("shelves")
struct BookShelf: Codable, Hashable, Sendable {
    @Column(as: [String].JSONRepresentation.self)
    var titles: [String]
}

@Table("catalogs")
struct Catalog: Codable, Hashable, Sendable {
    var name: String
    @Column(as: [String].JSONRepresentation?.self)
    var aliases: [String]?
    @Column(as: BookShelf.JSONRepresentation?.self)
    var shelf: BookShelf?
    @Column(as: [BookShelf].JSONRepresentation.self)
    var shelves: [BookShelf]
}

@Table
struct Library: Identifiable, Hashable, Sendable {
    let id: Int
    @Column(as: Catalog.JSONRepresentation.self)
    var catalog: Catalog
    @Column(as: Catalog.JSONRepresentation?.self)
    var annex: Catalog?
}

@Suite("Typed SQL: JSON arrays by key path")
struct JSONArrayPathTests {
    let db: Database
    static let main = Catalog(
        name: "Main", aliases: ["central", "hq"], shelf: BookShelf(titles: ["Dune"]),
        shelves: [BookShelf(titles: ["Emma", "Ulysses", "Beloved"])])
    static let branch = Catalog(name: "Branch", aliases: nil, shelf: nil, shelves: [])

    init() throws {
        db = try RemindersDatabase.make()
        try db.execute(sql: #"CREATE TABLE "libraries" ("id" INTEGER PRIMARY KEY, "catalog" TEXT NOT NULL, "annex" TEXT)"#)
        try Library.insert {
            Library(id: 1, catalog: Self.main, annex: Self.branch)
            Library(id: 2, catalog: Self.branch, annex: nil)
        }.execute(db)
    }

    @Test func arrayLengthAtAPath() throws {
        let lengths = Library.order(by: \.id).select {
            ($0.catalog.jsonArrayLength(\.shelves), $0.catalog.jsonArrayLength(\.aliases),
             $0.catalog.jsonArrayLength(\.shelf.titles), $0.annex.jsonArrayLength(\.shelves))
        }
        #expect(try lengths.render().sql == #"""
            SELECT json_array_length("libraries"."catalog", ?), json_array_length("libraries"."catalog", ?), \#
            json_array_length("libraries"."catalog", ?), json_array_length("libraries"."annex", ?) \#
            FROM "libraries" ORDER BY "libraries"."id" ASC
            """#)
        #expect(try lengths.render().arguments == [
            .text(#"$."shelves""#), .text(#"$."aliases""#), .text(#"$."shelf"."titles""#), .text(#"$."shelves""#),
        ])
        let rows = try lengths.fetchAll(db)
        // An absent optional array (`aliases`), object (`shelf`) or column (`annex`) is nil.
        #expect(rows.map(\.0) == [1, 0])
        #expect(rows.map(\.1) == [2, nil])
        #expect(rows.map(\.2) == [1, nil])
        #expect(rows.map(\.3) == [0, nil])

        let filled = Library.where { $0.catalog.jsonArrayLength(\.shelves[0].titles).gt(2) }.select(\.id)
        try assertQuery(
            filled,
            sql: #"SELECT "libraries"."id" FROM "libraries" WHERE json_array_length("libraries"."catalog", ?) > ?"#,
            arguments: [.text(#"$."shelves"[0]."titles""#), .integer(2)],
            rows: { try filled.fetchAll(db) }, [1])
    }

    @Test func arrayLengthThroughAMissingElementIsADecodingError() throws {
        // The second library has no shelves: `shelves[0]` is NULL, not an `Int`.
        let lengths = Library.order(by: \.id).select { $0.catalog.jsonArrayLength(\.shelves[0].titles) }
        #expect(throws: (any Error).self) { try lengths.fetchAll(db) }
        #expect(try Library.find(1).select { $0.catalog.jsonArrayLength(\.shelves[0].titles) }.fetchOne(db) == 3)
    }

    @Test func appendAtAPath() throws {
        let append = Library.find(1).update {
            $0.catalog = $0.catalog.jsonAppend(\.shelves[0].titles, "Middlemarch")
                .jsonAppend(\.shelves[0].titles, $0.catalog.jsonExtract(\.name))
        }
        try assertQuery(
            append,
            sql: #"UPDATE "libraries" SET "catalog" = json_insert(json_insert("libraries"."catalog", ?, ?), ?, json_extract("libraries"."catalog", ?)) WHERE "libraries"."id" = ?"#,
            arguments: [
                .text(#"$."shelves"[0]."titles"[#]"#), .text("Middlemarch"), .text(#"$."shelves"[0]."titles"[#]"#),
                .text(#"$."name""#), .integer(1),
            ],
            rows: { try append.execute(db); return try Library.find(1).select(\.catalog).fetchAll(db) },
            [Catalog(
                name: "Main", aliases: ["central", "hq"], shelf: BookShelf(titles: ["Dune"]),
                shelves: [BookShelf(titles: ["Emma", "Ulysses", "Beloved", "Middlemarch", "Main"])])])
    }

    @Test func appendAWholeElementAtAPath() throws {
        let append = Library.update { $0.catalog = $0.catalog.jsonAppend(\.shelves, BookShelf(titles: [#"a "quoted" ünï"#])) }
        let rendered = try append.render()
        #expect(rendered.sql == #"UPDATE "libraries" SET "catalog" = json_insert("libraries"."catalog", ?, json(?))"#)
        #expect(rendered.arguments == [.text(#"$."shelves"[#]"#), .text(#"{"titles":["a \"quoted\" ünï"]}"#)])
        try append.execute(db)
        let shelves = try Library.order(by: \.id).select { $0.catalog.jsonExtract(\.shelves) }.fetchAll(db)
        #expect(shelves == [Self.main.shelves + [BookShelf(titles: [#"a "quoted" ünï"#])], [BookShelf(titles: [#"a "quoted" ünï"#])]])
    }

    @Test func appendThroughAMissingElementChangesNothing() throws {
        // SQLite's json_insert does not create an array element on the way: the path is absent.
        try Library.find(2).update { $0.catalog = $0.catalog.jsonAppend(\.shelves[0].titles, "Lost") }.execute(db)
        #expect(try Library.find(2).fetchOne(db)?.catalog == Self.branch)
    }
}
