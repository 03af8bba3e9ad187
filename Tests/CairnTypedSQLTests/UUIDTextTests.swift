import Cairn
import Foundation
import Testing

@Table("passes")
struct Pass: Equatable {
    let id: UUID
    var holder: UUID?
    var title: String
}

@Table("shoutedPasses")
struct ShoutedPass: Equatable {
    @Column(as: UUID.UppercasedRepresentation.self)
    let id: UUID
    var title: String
}

/// A `UUID` is bound as its lowercase text, as StructuredQueries and SQLiteData bind it, so
/// queries find the rows such code (or SQL with lowercase literals) wrote; any case is read.
@Suite("Typed SQL: UUIDs as lowercase text")
struct UUIDTextTests {
    let db: Database
    static let first = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    static let second = UUID(uuidString: "0B8F4C2A-7D1E-4F3B-9A6C-5E2D1F0A9B8C")!

    init() throws {
        db = try Database.inMemory()
        try db.execute(sql: #"""
            CREATE TABLE "passes" ("id" TEXT PRIMARY KEY NOT NULL, "holder" TEXT, "title" TEXT NOT NULL);
            INSERT INTO "passes" VALUES ('e621e1f8-c36c-495a-93fc-0c247a3e6e5f', '0b8f4c2a-7d1e-4f3b-9a6c-5e2d1f0a9b8c', 'lower');
            CREATE TABLE "shoutedPasses" ("id" TEXT PRIMARY KEY NOT NULL, "title" TEXT NOT NULL);
            INSERT INTO "shoutedPasses" VALUES ('E621E1F8-C36C-495A-93FC-0C247A3E6E5F', 'upper');
            """#)
    }

    @Test func comparisonsFindRowsWrittenInLowercase() throws {
        let query = Pass.where { $0.id.eq(Self.first) }
        #expect(try query.render().arguments == [.text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f")])
        #expect(try query.select(\.title).fetchAll(db) == ["lower"])
        #expect(try Pass.find(Self.first).select(\.title).fetchOne(db) == "lower")
        #expect(try Pass.where { $0.holder.eq(Self.second) }.select(\.title).fetchAll(db) == ["lower"])
        #expect(try Pass.where { $0.id.in([Self.second, Self.first]) }.fetchCount(db) == 1)
        #expect(try Pass.all.fetchAll(db) == [Pass(id: Self.first, holder: Self.second, title: "lower")])
    }

    @Test func writesStoreLowercaseAndReadAnyCase() throws {
        try Pass.insert { Pass(id: Self.second, holder: nil, title: "new") }.execute(db)
        try Pass.update { $0.holder = Self.first as UUID? }.where { $0.id.eq(Self.second) }.execute(db)
        let stored = try db.fetchAll(sql: #"SELECT "id", "holder" FROM "passes" WHERE "title" = 'new'"#) { row in
            [try row.decode(String.self, at: 0), try row.decode(String.self, at: 1)]
        }
        #expect(stored == [["0b8f4c2a-7d1e-4f3b-9a6c-5e2d1f0a9b8c", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"]])
        try db.execute(sql: #"UPDATE "passes" SET "holder" = upper("holder")"#)
        #expect(try Pass.where { $0.title.eq("new") }.select(\.holder).fetchOne(db) == Self.first)
    }

    @Test func anUppercasedRepresentationKeepsFoundationsText() throws {
        let query = ShoutedPass.where { $0.id.eq(UUID.UppercasedRepresentation(queryOutput: Self.first)) }
        #expect(try query.render().arguments == [.text("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")])
        #expect(try query.select(\.title).fetchAll(db) == ["upper"])
        #expect(try ShoutedPass.all.fetchAll(db) == [ShoutedPass(id: Self.first, title: "upper")])
    }
}
