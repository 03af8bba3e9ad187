import CairnSQLite
import Foundation
import Testing

/// SQLite's `uuid` extension functions, on every connection as on Apple's SQLite.
@Suite("uuid(), uuid_str() and uuid_blob()")
struct UUIDFunctionTests {
    let db: Database

    init() throws { db = try Database.inMemory() }

    @Test func uuidIsANewLowercaseVersion4UUID() throws {
        let values = try db.fetchAll(sql: "SELECT uuid() FROM (SELECT 1 UNION ALL SELECT 2)") { try $0.decode(String.self, at: 0) }
        #expect(values.count == 2 && values[0] != values[1])
        for text in values {
            #expect(text == text.lowercased() && text.count == 36)
            let uuid = try #require(UUID(uuidString: text))
            #expect(uuid.uuid.6 >> 4 == 4)  // the version
            #expect(uuid.uuid.8 >> 6 == 0b10)  // the RFC 4122 variant
        }
    }

    @Test func uuidStrAndUUIDBlobReadTheExtensionsSpellings() throws {
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let bytes = withUnsafeBytes(of: uuid.uuid) { Data($0) }
        for spelling in [
            "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "{e621e1f8-c36c-495a-93fc-0c247a3e6e5f}",
            "e621e1f8c36c495a93fc0c247a3e6e5f", "e6-21-e1-f8-c3-6c-49-5a-93-fc-0c-24-7a-3e-6e-5f",
        ] {
            #expect(try db.fetchValue(String.self, sql: "SELECT uuid_str(?)", arguments: [spelling])
                == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "\(spelling)")
            #expect(try db.fetchValue(Data.self, sql: "SELECT uuid_blob(?)", arguments: [spelling]) == bytes, "\(spelling)")
        }
        #expect(try db.fetchValue(String.self, sql: "SELECT uuid_str(?)", arguments: [bytes]) == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
        #expect(try db.fetchValue(Data.self, sql: "SELECT uuid_blob(uuid_str(?))", arguments: [bytes]) == bytes)
        for notAUUID: DatabaseValue in [
            .text("e621e1f8-c36c-495a-93fc-0c247a3e6e5"), .text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f0"),
            .text("{e621e1f8-c36c-495a-93fc-0c247a3e6e5f}}"), .text("g621e1f8-c36c-495a-93fc-0c247a3e6e5f"),
            .text(""), .blob(Data(repeating: 1, count: 15)), .integer(1), .null,
        ] {
            #expect(try db.fetchValue(String.self, sql: "SELECT uuid_str(?)", arguments: [notAUUID]) == nil, "\(notAUUID)")
            #expect(try db.fetchValue(Data.self, sql: "SELECT uuid_blob(?)", arguments: [notAUUID]) == nil, "\(notAUUID)")
        }
    }

    @Test("a schema's DEFAULT (uuid()) gives a row without an id one, with trusted_schema off")
    func uuidAsAColumnDefault() throws {
        try db.execute(sql: #"""
            CREATE TABLE "notes" (
              "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
              "body" TEXT NOT NULL);
            INSERT INTO "notes" ("id", "body") VALUES (NULL, 'first');
            INSERT INTO "notes" ("body") VALUES ('second');
            """#)
        let ids = try db.fetchValues(UUID.self, sql: #"SELECT "id" FROM "notes" ORDER BY "body""#)
        #expect(ids.count == 2 && ids[0] != ids[1])
        #expect(try db.fetchValue(String.self, sql: #"SELECT "id" FROM "notes" WHERE "id" = ?"#, arguments: [ids[0]])
            == ids[0].uuidString.lowercased())
    }
}
