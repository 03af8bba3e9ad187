import Cairn
import Foundation
import Testing

@Table("links")
struct AuthorLink: Codable, Hashable, Sendable {
    var homepage: String
    var visits: Int
}

@Table("authors")
struct Author: Codable, Hashable, Sendable {
    var name: String
    var nickname: String?
    var isVerified: Bool
    var joinedAt: Date
    var externalID: UUID
    var rating: Double
    @Column(as: AuthorLink.JSONRepresentation.self)
    var links: AuthorLink
    @Column(as: AuthorLink.JSONRepresentation?.self)
    var backup: AuthorLink?
    @Column(as: [AuthorLink].JSONRepresentation.self)
    var pastLinks: [AuthorLink]
    @Column(as: [String].JSONRepresentation.self)
    var tags: [String]
}

@Table
struct Profile: Identifiable, Hashable, Sendable {
    let id: Int
    @Column(as: Author.JSONRepresentation.self)
    var author: Author
    @Column(as: Author.JSONRepresentation?.self)
    var editor: Author?
}

@Suite("Typed SQL: JSON functions by key path")
struct JSONKeyPathTests {
    let db: Database
    static let blob = Author(
        name: "Blob", nickname: nil, isVerified: true,
        joinedAt: Date(timeIntervalSinceReferenceDate: 794_230_207.25), externalID: UUID(uuid: (
            0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF)),
        rating: 4.7, links: AuthorLink(homepage: "pointfree.co", visits: 12), backup: nil,
        pastLinks: [AuthorLink(homepage: "example.com", visits: 3), AuthorLink(homepage: "old.example", visits: 1)],
        tags: ["swift", "sql", "json"])
    static let junior = Author(
        name: "Blob Jr", nickname: "Jr", isVerified: false, joinedAt: Date(timeIntervalSinceReferenceDate: -0.5),
        externalID: UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)), rating: 0.1,
        links: AuthorLink(homepage: "junior.dev", visits: 0), backup: AuthorLink(homepage: "backup.dev", visits: 2),
        pastLinks: [], tags: [])

    init() throws {
        db = try RemindersDatabase.make()
        try db.execute(sql: #"CREATE TABLE "profiles" ("id" INTEGER PRIMARY KEY, "author" TEXT NOT NULL, "editor" TEXT)"#)
        try Profile.insert {
            Profile(id: 1, author: Self.blob, editor: Self.junior)
            Profile(id: 2, author: Self.junior, editor: nil)
        }.execute(db)
    }

    @Test func extractReadsEachMemberTypeBack() throws {
        let members = Profile.order(by: \.id).select {
            ($0.author.jsonExtract(\.name), $0.author.jsonExtract(\.nickname), $0.author.jsonExtract(\.isVerified),
             $0.author.jsonExtract(\.joinedAt), $0.author.jsonExtract(\.externalID), $0.author.jsonExtract(\.rating))
        }
        #expect(try members.render().sql == #"""
            SELECT json_extract("profiles"."author", ?), json_extract("profiles"."author", ?), \#
            json_extract("profiles"."author", ?), json_extract("profiles"."author", ?), \#
            json_extract("profiles"."author", ?), json_extract("profiles"."author", ?) \#
            FROM "profiles" ORDER BY "profiles"."id" ASC
            """#)
        #expect(try members.render().arguments == [
            .text(#"$."name""#), .text(#"$."nickname""#), .text(#"$."isVerified""#), .text(#"$."joinedAt""#),
            .text(#"$."externalID""#), .text(#"$."rating""#),
        ])
        let rows = try members.fetchAll(db)
        for (row, author) in zip(rows, [Self.blob, Self.junior]) {
            #expect(row.0 == author.name && row.1 == author.nickname && row.2 == author.isVerified)
            #expect(row.3 == author.joinedAt && row.4 == author.externalID && row.5 == author.rating)
        }
        #expect(rows.count == 2)
    }

    @Test func extractNestedObjectsArraysAndIndexes() throws {
        let nested = Profile.find(1).select {
            ($0.author.jsonExtract(\.links.homepage), $0.author.jsonExtract(\.pastLinks[0].visits),
             $0.author.jsonExtract(\.tags[-1]), $0.author.jsonExtract(\.links), $0.author.jsonExtract(\.backup.homepage))
        }
        #expect(try nested.render().arguments == [
            .text(#"$."links"."homepage""#), .text(#"$."pastLinks"[0]."visits""#), .text(#"$."tags"[#-1]"#),
            .text(#"$."links""#), .text(#"$."backup"."homepage""#), .integer(1),
        ])
        let first = try #require(try nested.fetchOne(db))
        #expect(first.0 == "pointfree.co" && first.1 == 3 && first.2 == "json")
        #expect(first.3 == Self.blob.links && first.4 == nil)
        // A missing element is NULL: a non-optional result says it cannot decode it.
        #expect(throws: (any Error).self) { try Profile.find(2).select { $0.author.jsonExtract(\.tags[0]) }.fetchOne(db) }
        let whole = Profile.find(1).select { $0.author.jsonExtract(\.self) }
        #expect(try whole.fetchOne(db) == Self.blob)
    }

    @Test func extractFromAnOptionalColumnIsOptional() throws {
        let editors = Profile.order(by: \.id).select { ($0.editor.jsonExtract(\.name), $0.editor.jsonExtract(\.backup.visits)) }
        #expect(try editors.fetchAll(db).map { [$0.0, $0.1.map(String.init)] } == [["Blob Jr", "2"], [nil, nil]])
    }

    @Test func extractFilters() throws {
        let verified = Profile.where { $0.author.jsonExtract(\.isVerified) && $0.author.jsonExtract(\.links.visits).gt(10) }
            .select(\.id)
        try assertQuery(
            verified,
            sql: #"SELECT "profiles"."id" FROM "profiles" WHERE json_extract("profiles"."author", ?) AND json_extract("profiles"."author", ?) > ?"#,
            arguments: [.text(#"$."isVerified""#), .text(#"$."links"."visits""#), .integer(10)],
            rows: { try verified.fetchAll(db) }, [1])
    }

    @Test func setInsertReplaceRemoveWriteDocumentsThatDecode() throws {
        let update = Profile.find(1).update {
            $0.author = $0.author.jsonSet(\.name, "Blob Sr").jsonSet(\.links.visits, 13)
                .jsonInsert(\.nickname, "Senior").jsonRemove(\.pastLinks[0]).jsonReplace(\.tags[0], "swiftlang")
        }
        #expect(try update.render().sql == #"""
            UPDATE "profiles" SET "author" = json_replace(json_remove(json_insert(json_set(json_set(\#
            "profiles"."author", ?, ?), ?, ?), ?, ?), ?), ?, ?) WHERE "profiles"."id" = ?
            """#)
        #expect(try update.render().arguments == [
            .text(#"$."name""#), .text("Blob Sr"), .text(#"$."links"."visits""#), .integer(13),
            .text(#"$."nickname""#), .text("Senior"), .text(#"$."pastLinks"[0]"#), .text(#"$."tags"[0]"#),
            .text("swiftlang"), .integer(1),
        ])
        try update.execute(db)
        var expected = Self.blob
        expected.name = "Blob Sr"
        expected.links.visits = 13
        expected.nickname = "Senior"
        expected.pastLinks.removeFirst()
        expected.tags[0] = "swiftlang"
        #expect(try Profile.find(1).select(\.author).fetchOne(db) == expected)

        // Insert leaves a value that is there; replace and remove act only on one that is.
        try Profile.find(2).update {
            $0.author = $0.author.jsonInsert(\.nickname, "ignored").jsonReplace(\.tags[0], "none")
                .jsonSet(\.links, AuthorLink(homepage: "new.dev", visits: 7))
        }.execute(db)
        var junior = Self.junior
        junior.links = AuthorLink(homepage: "new.dev", visits: 7)
        #expect(try Profile.find(2).select(\.author).fetchOne(db) == junior)
        try Profile.find(2).update { $0.author = $0.author.jsonRemove(\.nickname).jsonRemove(\.backup) }.execute(db)
        junior.nickname = nil
        junior.backup = nil
        #expect(try Profile.find(2).select(\.author).fetchOne(db) == junior)
    }
}
