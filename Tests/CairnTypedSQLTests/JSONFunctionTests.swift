import Cairn
import Testing

@Table
struct Post: Identifiable, Hashable, Sendable {
    let id: Int
    var title = ""
    @Column(as: [String].JSONRepresentation.self)
    var tags: [String] = []
    @Column(as: [Int].JSONRepresentation?.self)
    var scores: [Int]?
}

@Suite("Typed SQL: JSON functions on JSON arrays")
struct JSONFunctionTests {
    let db: Database

    init() throws {
        db = try RemindersDatabase.make()
        try db.execute(sql: """
            CREATE TABLE "posts" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, \
            "tags" TEXT NOT NULL DEFAULT '[]', "scores" TEXT)
            """)
        try Post.insert {
            Post(id: 1, title: "Swift", tags: ["swift", "linux"], scores: [3, 1, 2])
            Post(id: 2, title: "Empty", tags: [], scores: [])
            Post(id: 3, title: "Nothing scored", tags: [#"say "hi" ünï 🙂"#], scores: nil)
        }.execute(db)
    }

    @Test func jsonArrayLengthCountsElements() throws {
        let lengths = Post.order(by: \.id).select { ($0.id, $0.tags.jsonArrayLength()) }
        try assertQuery(
            lengths,
            sql: #"SELECT "posts"."id", json_array_length("posts"."tags") FROM "posts" ORDER BY "posts"."id" ASC"#,
            rows: { try lengths.fetchAll(db).map { [$0.0, $0.1] } }, [[1, 2], [2, 0], [3, 1]])
        let several = Post.where { $0.tags.jsonArrayLength().gt(1) }.select(\.title)
        try assertQuery(
            several,
            sql: #"SELECT "posts"."title" FROM "posts" WHERE json_array_length("posts"."tags") > ?"#,
            arguments: [.integer(1)],
            rows: { try several.fetchAll(db) }, ["Swift"])
    }

    @Test func jsonArrayLengthOfAnOptionalArrayIsNilForNull() throws {
        let lengths = Post.order(by: \.id).select { $0.scores.jsonArrayLength() }
        try assertQuery(
            lengths,
            sql: #"SELECT json_array_length("posts"."scores") FROM "posts" ORDER BY "posts"."id" ASC"#,
            rows: { try lengths.fetchAll(db) }, [3, 0, nil])
    }

    @Test func jsonArrayLengthOfAnAggregatedArray() throws {
        let perList = RemindersList.group(by: \.id).order(by: \.id)
            .leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }
            .select { ($0.title, $1.title.jsonGroupArray(filter: $1.id.isNot(nil)).jsonArrayLength()) }
        #expect(try perList.render().sql.hasPrefix(
            #"SELECT "remindersLists"."title", json_array_length(json_group_array("reminders"."title") FILTER (WHERE "reminders"."id" IS NOT NULL)) FROM"#))
        #expect(try perList.fetchAll(db).map(\.1) == [3, 3, 0])
    }

    @Test func jsonArrayLengthOfTextThatIsNotJSONThrows() throws {
        try db.execute(sql: #"UPDATE "posts" SET "tags" = 'not json' WHERE "id" = 2"#)
        #expect(throws: (any Error).self) { try Post.select { $0.tags.jsonArrayLength() }.fetchAll(db) }
    }

    @Test func jsonAppendAddsAnElementInAnUpdate() throws {
        let append = Post.find(1).update { $0.tags = $0.tags.jsonAppend("server") }
        try assertQuery(
            append,
            sql: #"UPDATE "posts" SET "tags" = json_insert("posts"."tags", '$[#]', ?) WHERE "posts"."id" = ?"#,
            arguments: [.text("server"), .integer(1)],
            rows: { try append.execute(db); return try Post.find(1).select(\.tags).fetchAll(db) },
            [["swift", "linux", "server"]])
        // To an empty array, twice (nested calls), from a column and from text needing escapes.
        try Post.find(2).update { $0.tags = $0.tags.jsonAppend(#"a "quoted" \ ünï"#).jsonAppend($0.title) }.execute(db)
        #expect(try Post.find(2).fetchOne(db)?.tags == [#"a "quoted" \ ünï"#, "Empty"])
        #expect(try Post.find(3).fetchOne(db)?.tags == [#"say "hi" ünï 🙂"#])
    }

    @Test func jsonAppendToIntegersAndToNull() throws {
        try Post.update { $0.scores = $0.scores.jsonAppend(Int.max) }.execute(db)
        let scores = try Post.order(by: \.id).select(\.scores).fetchAll(db)
        // SQLite's json_insert of NULL is NULL: the unscored post stays unscored.
        let expected: [[Int]?] = [[3, 1, 2, Int.max], [Int.max], nil]
        #expect(scores == expected)
        let rendered = try Post.update { $0.scores = $0.scores.jsonAppend(7) }.render()
        #expect(rendered.sql == #"UPDATE "posts" SET "scores" = json_insert("posts"."scores", '$[#]', ?)"#)
        #expect(rendered.arguments == [.integer(7)])
    }
}
