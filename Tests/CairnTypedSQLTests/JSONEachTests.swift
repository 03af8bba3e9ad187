import Cairn
import Foundation
import Testing

@Suite("Typed SQL: json_each")
struct JSONEachTests {
    let db: Database

    init() throws {
        db = try RemindersDatabase.make()
        try db.execute(sql: """
            CREATE TABLE "posts" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, \
            "tags" TEXT NOT NULL DEFAULT '[]', "scores" TEXT);
            CREATE TABLE "profiles" ("id" INTEGER PRIMARY KEY, "author" TEXT NOT NULL, "editor" TEXT);
            CREATE TABLE "libraries" ("id" INTEGER PRIMARY KEY, "catalog" TEXT NOT NULL, "annex" TEXT);
            """)
        try Post.insert {
            Post(id: 1, title: "Swift", tags: ["swift", "linux"], scores: [3, 1, 2])
            Post(id: 2, title: "Empty", tags: [], scores: [])
            Post(id: 3, title: "Nothing scored", tags: ["linux"], scores: nil)
        }.execute(db)
        try Profile.insert {
            Profile(id: 1, author: JSONKeyPathTests.blob, editor: nil)
            Profile(id: 2, author: JSONKeyPathTests.junior, editor: nil)
        }.execute(db)
        try Library.insert {
            Library(id: 1, catalog: JSONArrayPathTests.main, annex: nil)
            Library(id: 2, catalog: JSONArrayPathTests.branch, annex: nil)
        }.execute(db)
    }

    @Test func existsAmongTheElements() throws {
        let tagged = Post.where { $0.tags.jsonEach().where { $0.value.eq("linux") }.exists() }.select(\.id)
        try assertQuery(
            tagged,
            sql: #"""
                SELECT "posts"."id" FROM "posts" WHERE EXISTS (SELECT "json_each"."key", "json_each"."value" \#
                FROM json_each("posts"."tags") WHERE "json_each"."value" = ?)
                """#,
            arguments: [.text("linux")],
            rows: { try tagged.fetchAll(db) }, [1, 3])
    }

    @Test func elementsOfABoundArrayInOrder() throws {
        let elements = [String].JSONRepresentation(queryOutput: ["b", #"a "q" ünï"#, "c"]).jsonEach()
        try assertQuery(
            elements,
            sql: #"SELECT "json_each"."key", "json_each"."value" FROM json_each(?)"#,
            arguments: [.text(#"["b","a \"q\" ünï","c"]"#)],
            rows: { try elements.fetchAll(db).map { "\($0.key):\($0.value)" } }, ["0:b", #"1:a "q" ünï"#, "2:c"])
        let sorted = elements.order { $0.value.desc() }.select(\.value)
        #expect(try sorted.render().sql
            == #"SELECT "json_each"."value" FROM json_each(?) ORDER BY "json_each"."value" DESC"#)
        #expect(try sorted.fetchAll(db) == ["c", "b", #"a "q" ünï"#])
    }

    @Test func aNullArrayHasNoElements() throws {
        let unscored = Post.where { !$0.scores.jsonEach().exists() }.select(\.id)
        #expect(try unscored.render().sql.contains(#"FROM json_each("posts"."scores"))"#))
        #expect(try unscored.fetchAll(db) == [2, 3])
        let high = Post.where { $0.scores.jsonEach().where { $0.value.gt(2) }.exists() }.select(\.id)
        #expect(try high.fetchAll(db) == [1])
    }

    @Test func countOfElementsAsASubquery() throws {
        let counts = Post.order(by: \.id).select { ($0.id, $0.tags.jsonEach().count()) }
        #expect(try counts.render().sql == #"""
            SELECT "posts"."id", (SELECT COUNT(*) FROM json_each("posts"."tags")) FROM "posts" ORDER BY "posts"."id" ASC
            """#)
        #expect(try counts.fetchAll(db).map { [$0.0, $0.1] } == [[1, 2], [2, 0], [3, 1]])
    }

    @Test func codableElementsAreJSON() throws {
        let links = JSONKeyPathTests.blob.pastLinks
        let elements = [AuthorLink].JSONRepresentation(queryOutput: links).jsonEach()
        #expect(try elements.fetchAll(db).map(\.value) == links)
        let linked = Profile.where {
            $0.author.jsonEach(\.pastLinks).where { $0.value.jsonExtract(\.homepage).eq("old.example") }.exists()
        }.select(\.id)
        try assertQuery(
            linked,
            sql: #"""
                SELECT "profiles"."id" FROM "profiles" WHERE EXISTS (SELECT "json_each"."key", "json_each"."value" \#
                FROM json_each("profiles"."author", ?) WHERE json_extract("json_each"."value", ?) = ?)
                """#,
            arguments: [.text(#"$."pastLinks""#), .text(#"$."homepage""#), .text("old.example")],
            rows: { try linked.fetchAll(db) }, [1])
    }

    @Test func elementsAtAPath() throws {
        let tags = Author.JSONRepresentation(queryOutput: JSONKeyPathTests.blob).jsonEach(\.tags).select(\.value)
        #expect(try tags.fetchAll(db) == ["swift", "sql", "json"])
        // Through an optional object that is absent, and through a missing element: no rows.
        let titles = Library.order(by: \.id).select {
            ($0.id, $0.catalog.jsonEach(\.shelf.titles).count(), $0.catalog.jsonEach(\.shelves[0].titles).count())
        }
        #expect(try titles.fetchAll(db).map { [$0.0, $0.1, $0.2] } == [[1, 1, 3], [2, 0, 0]])
    }
}
