import Cairn
import CairnTestSupport
import Foundation
import Testing

@Table("attachments")
struct Attachment: Hashable, Sendable {
    @Column(primaryKey: true)
    var key: Int
    @Column("created_at", as: Date.UnixTimeRepresentation.self)
    var createdAt: Date
    @Column(as: Date.ISO8601Representation?.self)
    var editedAt: Date?
    @Column(as: UUID.BytesRepresentation.self)
    var token: UUID
    @Column(as: UUID.LowercasedRepresentation.self)
    var publicID: UUID
    @Column(as: [String].JSONRepresentation.self)
    var labels: [String] = []
    @Ephemeral
    var isSelected = false
}

@Suite("Typed SQL: column representations, @Column, @Ephemeral, decoding errors")
struct RepresentationTests {
    let db: Database
    let created = Date(timeIntervalSince1970: 1_700_000_000.5)
    let edited = Date(timeIntervalSince1970: 1_700_000_100.25)
    let token = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()

    init() throws {
        db = try RemindersDatabase.make()
        try db.execute(sql: """
            CREATE TABLE "attachments" ("key" INTEGER PRIMARY KEY, "created_at" REAL, "editedAt" TEXT, \
            "token" BLOB, "publicID" TEXT, "labels" TEXT)
            """)
    }

    @Test func representationsStoreAndReadBack() throws {
        let attachment = Attachment(
            key: 1, createdAt: created, editedAt: edited, token: token, publicID: token, labels: ["a", "b"],
            isSelected: true)
        try Attachment.insert { attachment }.execute(db)
        let stored = try db.fetchOne(sql: #"SELECT "created_at", "editedAt", typeof("token"), "publicID", "labels" FROM "attachments""#) { row in
            [row.databaseValue(at: 0), row.databaseValue(at: 1), row.databaseValue(at: 2), row.databaseValue(at: 3), row.databaseValue(at: 4)]
        }
        #expect(stored == [
            .real(1_700_000_000.5), .text("2023-11-14 22:15:00.250"), .text("blob"),
            .text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"), .text(#"["a","b"]"#),
        ])
        let read = try #require(try Attachment.all.fetchOne(db))
        #expect(read.createdAt == created)
        #expect(read.editedAt == edited)
        #expect(read.token == token)
        #expect(read.publicID == token)
        #expect(read.labels == ["a", "b"])
        #expect(read.isSelected == false)  // @Ephemeral: not stored, back to its default
        #expect(Attachment.columns.allColumns.map(\.name) == ["key", "created_at", "editedAt", "token", "publicID", "labels"])
        #expect(Attachment.columns.primaryKey.name == "key")
    }

    @Test func iso8601TextReadAndWrittenAgainIsTheSameText() throws {
        // A date read from stored text and written back must not move: the text is truncated
        // to the millisecond, and most dates read from `….mmm` are a hair below theirs.
        var random = SeededRandom(seed: 8601)
        for _ in 0..<2_000 {
            let milliseconds = Int64.random(in: -2_000_000_000_000...4_000_000_000_000, using: &random)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let text = try #require(Date.ISO8601Representation(queryOutput: date).databaseValue.textValueForTest)
            let read = try #require(Date.ISO8601Representation.fromDatabaseValue(.text(text)))
            #expect(read.databaseValue == .text(text), "\(text)")
            #expect(abs(read.queryOutput.timeIntervalSince(date)) < 0.000_5, "\(text)")
        }
        // A date between milliseconds is written as the millisecond it falls in, as
        // StructuredQueries' formatter truncates.
        let between = Date(timeIntervalSince1970: 1_700_000_100.2507)
        #expect(Date.ISO8601Representation(queryOutput: between).databaseValue == .text("2023-11-14 22:15:00.250"))
    }

    @Test func representationsCompareAndSelect() throws {
        try Attachment.insert {
            Attachment.Draft(createdAt: created, token: token, publicID: token)
            Attachment.Draft(createdAt: edited, editedAt: edited, token: UUID(), publicID: UUID(), labels: ["x"])
        }.execute(db)
        let query = Attachment
            .where { $0.createdAt.gt(created) }
            .select { ($0.key, $0.createdAt, $0.editedAt) }
        try assertQuery(
            query,
            sql: #"SELECT "attachments"."key", "attachments"."created_at", "attachments"."editedAt" FROM "attachments" WHERE "attachments"."created_at" > ?"#,
            arguments: [.real(1_700_000_000.5)],
            rows: { try query.fetchAll(db).map { "\($0.0) \($0.1 == edited) \($0.2 == edited)" } }, ["2 true true"])
        #expect(try Attachment.where { $0.editedAt.is(nil) }.select(\.key).fetchAll(db) == [1])
        #expect(try Attachment.where { $0.token.eq(token) }.select(\.key).fetchAll(db) == [1])
    }

    @Test func decodingErrorsNameTheColumnAndTheSQL() throws {
        try db.execute(sql: #"INSERT INTO "reminders" ("id", "remindersListID", "title", "isCompleted") VALUES (99, 1, 'Bad', 0)"#)
        try db.execute(sql: #"UPDATE "reminders" SET "priority" = 7 WHERE "id" = 99"#)  // no such Priority
        do {
            _ = try Reminder.where { $0.id.eq(99) }.fetchAll(db)
            Issue.record("decoding an unknown Priority should throw")
        } catch let error as RowDecodingError {
            #expect(error.columnName == "priority")
            #expect(error.sql.hasPrefix(#"SELECT "reminders"."id""#))
            #expect("\(error)".contains("priority"))
        }
    }
}

extension DatabaseValue {
    /// The text of a `.text` value.
    fileprivate var textValueForTest: String? {
        if case .text(let text) = self { text } else { nil }
    }
}
