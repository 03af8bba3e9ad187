import CairnCoreData
import Testing

// Core Data's layout for the compiler: a many-to-many join table (Z_1TAGS) and sub-entities
// sharing their root's table, told apart by Z_ENT.
let layoutTag = FormatSQLEntity(name: "Tag", table: "ZTAG", primaryKey: "Z_PK", attributes: ["name": "ZNAME"])
let layoutPost = FormatSQLEntity(
    name: "Post", table: "ZPOST", primaryKey: "Z_PK", attributes: ["title": "ZTITLE"],
    relationships: [
        "tags": FormatSQLRelationship(
            .manyToMany(joinTable: "Z_1TAGS", sourceColumn: "Z_1POSTS", destinationColumn: "Z_2TAGS"), destination: { layoutTag }),
        "notes": .toMany(foreignKey: "ZPOST") { layoutNote },
    ])
/// A sub-entity of Item (Z_ENT 3) whose rows share ZITEM with Task (Z_ENT 4).
let layoutNote: FormatSQLEntity = {
    var note = FormatSQLEntity(name: "Note", table: "ZITEM", primaryKey: "Z_PK", attributes: ["text": "ZTEXT"])
    note.rowRestriction = .init(column: "Z_ENT", values: [3])
    return note
}()

func layoutDatabase() throws -> Database {
    var configuration = Configuration()
    configuration.addCairnPredicateSupport()
    let db = try Database.inMemory(configuration: configuration)
    try db.execute(sql: """
        CREATE TABLE ZPOST (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZTITLE TEXT);
        CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZNAME TEXT);
        CREATE TABLE Z_1TAGS (Z_1POSTS INTEGER, Z_2TAGS INTEGER, PRIMARY KEY (Z_1POSTS, Z_2TAGS));
        CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZPOST INTEGER, ZTEXT TEXT);
        INSERT INTO ZPOST VALUES (1, 1, 'Swift'), (2, 1, 'SQLite'), (3, 1, 'Empty');
        INSERT INTO ZTAG VALUES (1, 2, 'lang'), (2, 2, 'db'), (3, 2, 'news');
        INSERT INTO Z_1TAGS VALUES (1, 1), (1, 3), (2, 2), (2, 3);
        -- Post 1 has one Note and two Tasks; a Task's text must not count as a Note's.
        INSERT INTO ZITEM VALUES (1, 3, 1, 'note'), (2, 4, 1, 'task'), (3, 4, 1, 'task'), (4, 3, 2, 'note');
        """)
    return db
}

func layoutTitles(_ format: String) throws -> [String] {
    let db = try layoutDatabase()
    let condition = try FormatPredicate(format).sqlCondition(for: layoutPost)
    let rendered = try SQLSelect([.column("ZTITLE", table: "ZPOST")], from: .table("ZPOST"))
        .where(condition).orderBy(SQLExpression.column("Z_PK", table: "ZPOST").ascending()).render()
    return try db.fetchAll(sql: rendered.sql, arguments: StatementArguments(rendered.arguments)) { try $0.decode(String.self, at: 0) }
}

@Suite("Format predicates over Core Data's store layout")
struct FormatSQLStoreLayoutTests {
    @Test("a many-to-many relationship reads its join table, correlated on both keys")
    func joinTableSQL() throws {
        let sql = try FormatPredicate("ANY tags.name == 'db'").sqlCondition(for: layoutPost).render().sql
        #expect(sql == #"EXISTS (SELECT ? FROM "ZTAG" AS "sub1" WHERE EXISTS (SELECT ? FROM "Z_1TAGS" AS "sub2" WHERE "sub2"."Z_1POSTS" = "ZPOST"."Z_PK" AND "sub2"."Z_2TAGS" = "sub1"."Z_PK") AND "sub1"."ZNAME" = ?)"#)
    }

    @Test("ANY, @count and SUBQUERY over a join table give the posts that have those tags", arguments: [
        ("ANY tags.name == 'news'", ["Swift", "SQLite"]),
        ("ANY tags.name == 'lang'", ["Swift"]),
        ("tags.@count == 0", ["Empty"]),
        ("tags.@count == 2", ["Swift", "SQLite"]),
        ("SUBQUERY(tags, $t, $t.name BEGINSWITH 'd').@count > 0", ["SQLite"]),
        ("NONE tags.name == 'news'", ["Empty"]),
    ])
    func joinTableRows(format: String, expected: [String]) throws {
        #expect(try layoutTitles(format) == expected)
    }

    @Test("a to-many into a shared table counts only the sub-entity's rows")
    func subEntityRows() throws {
        #expect(try layoutTitles("notes.@count == 1") == ["Swift", "SQLite"])
        #expect(try layoutTitles("ANY notes.text == 'task'") == [])
        let sql = try FormatPredicate("notes.@count > 0").sqlCondition(for: layoutPost).render().sql
        #expect(sql.contains(#""sub1"."ZPOST" = "ZPOST"."Z_PK" AND "sub1"."Z_ENT" IN ("#))
    }

    @Test("rowCondition restricts a shared table to the entity's Z_ENT values")
    func rowCondition() throws {
        #expect(layoutPost.rowCondition(alias: "ZPOST") == nil)
        let rendered = try #require(layoutNote.rowCondition(alias: "t")).render()
        #expect(rendered.sql.hasPrefix(#""t"."Z_ENT" IN (?"#))
        #expect(rendered.arguments.contains(.integer(3)))
    }
}
