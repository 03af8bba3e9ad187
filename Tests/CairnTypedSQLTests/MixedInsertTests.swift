import Cairn
import Testing

/// One `insert` of whole rows and drafts, as StructuredQueries allows: each row keeps its key,
/// each draft lets the database assign one.
@Suite("Typed SQL: inserting rows and drafts together")
struct MixedInsertTests {
    let db: Database

    init() throws { db = try RemindersDatabase.make() }

    @Test func rowsKeepTheirKeysAndDraftsGetNewOnes() throws {
        let insert = Tag.insert {
            Tag(id: 100, title: "garden")
            Tag.Draft(title: "travel")
            [Tag(id: 200, title: "books")]
            for title in ["music", "art"] { Tag.Draft(title: title) }
        }
        try assertQuery(
            insert.returning(\Tag.TableColumns.id),
            sql: #"INSERT INTO "tags" ("id", "title") VALUES (?, ?), (?, ?), (?, ?), (?, ?), (?, ?) RETURNING "tags"."id""#,
            arguments: [
                .integer(100), .text("garden"), .null, .text("travel"), .integer(200), .text("books"),
                .null, .text("music"), .null, .text("art"),
            ],
            rows: { try insert.returning(\Tag.TableColumns.id).fetchAll(db) }, [100, 101, 200, 201, 202])
    }

    @Test func aMixedUpsertUpdatesTheRowWhoseKeyExists() throws {
        let existing = try #require(try Tag.order(by: \.id).fetchOne(db))
        try Tag.upsert {
            Tag(id: existing.id, title: "renamed")
            Tag.Draft(title: "new")
        }.execute(db)
        #expect(try Tag.find(existing.id).select(\.title).fetchOne(db) == "renamed")
        #expect(try Tag.where { $0.title.eq("new") }.fetchCount(db) == 1)
    }
}
