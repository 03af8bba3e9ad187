import Cairn
import Foundation
import Testing

@Table("members")
struct Member: Equatable {
    let id: Int
    var name = ""
    @Column(lazyInitializable: true) let joinedAt: Date
    @Column(lazyInitializable: true) var teamID: Int
}

@Table("checkIns")
struct CheckIn: Equatable {
    var memberID: Int
    @Column(lazyInitializable: true) var sequence: Int
}

/// `@Column(lazyInitializable: true)`: the `Draft` may leave the column `nil`, and the
/// database fills it in, with a default or a trigger, as StructuredQueries' drafts do.
@Suite("Typed SQL: lazily initialized columns")
struct LazyInitializableTests {
    let db: Database
    static let joined = Date(timeIntervalSinceReferenceDate: 800_000_000)

    init() throws {
        db = try Database.inMemory()
        try db.execute(sql: #"""
            CREATE TABLE "members" (
              "id" INTEGER PRIMARY KEY,
              "name" TEXT NOT NULL,
              "joinedAt" REAL NOT NULL ON CONFLICT REPLACE DEFAULT 800000000,
              "teamID" INTEGER NOT NULL ON CONFLICT REPLACE DEFAULT 7);
            CREATE TABLE "checkIns" ("memberID" INTEGER NOT NULL, "sequence" INTEGER);
            CREATE TRIGGER "numberCheckIns" AFTER INSERT ON "checkIns" WHEN NEW."sequence" IS NULL BEGIN
              UPDATE "checkIns" SET "sequence" = (SELECT count(*) FROM "checkIns" WHERE "memberID" = NEW."memberID")
              WHERE rowid = NEW.rowid;
            END;
            """#)
    }

    @Test func aDraftLeavesTheColumnsToTheDatabase() throws {
        let insert = Member.insert {
            Member.Draft(name: "Blob")
            Member.Draft(name: "Blob Jr.", teamID: 3)
        }
        let rendered = try insert.render()
        #expect(rendered.sql == #"INSERT INTO "members" ("id", "name", "joinedAt", "teamID") VALUES (?, ?, ?, ?), (?, ?, ?, ?)"#)
        #expect(rendered.arguments == [.null, .text("Blob"), .null, .null, .null, .text("Blob Jr."), .null, .integer(3)])
        try insert.execute(db)
        #expect(try Member.order(by: \.id).fetchAll(db) == [
            Member(id: 1, name: "Blob", joinedAt: Self.joined, teamID: 7),
            Member(id: 2, name: "Blob Jr.", joinedAt: Self.joined, teamID: 3),
        ])
        // A draft of a stored row keeps its values.
        let stored = try #require(try Member.find(2).fetchOne(db))
        #expect(Member.Draft(stored).joinedAt == Self.joined)
    }

    @Test func aTableWithoutAKeyHasADraft() throws {
        try CheckIn.insert {
            CheckIn.Draft(memberID: 1)
            CheckIn.Draft(memberID: 1)
            CheckIn.Draft(memberID: 2, sequence: 9)
        }
        .execute(db)
        #expect(try CheckIn.all.fetchAll(db) == [
            CheckIn(memberID: 1, sequence: 1), CheckIn(memberID: 1, sequence: 2), CheckIn(memberID: 2, sequence: 9),
        ])
    }

    @Test("PostgreSQL takes each column's DEFAULT for a nil")
    func postgresWritesDefault() throws {
        let rendered = try Member.insert { Member.Draft(name: "Blob") }.sqlStatement().render(dialect: PostgreSQLDialect())
        #expect(rendered.sql == #"INSERT INTO "members" ("id", "name", "joinedAt", "teamID") VALUES (DEFAULT, $1, DEFAULT, DEFAULT)"#)
        #expect(rendered.arguments == [.text("Blob")])
    }
}
