import Cairn
import Foundation
import Testing

/// Every column written with StructuredQueries' optional spellings (`Date?.UnixTimeRepresentation`
/// rather than `Date.UnixTimeRepresentation?`).
@Table("visits")
struct Visit: Hashable, Sendable {
    let id: Int
    @Column(as: Date?.UnixTimeRepresentation.self)
    var arrivedAt: Date?
    @Column(as: Date?.JulianDayRepresentation.self)
    var plannedAt: Date?
    @Column(as: Date?.ISO8601Representation.self)
    var leftAt: Date?
    @Column(as: UUID?.BytesRepresentation.self)
    var badge: UUID?
    @Column(as: UUID?.LowercasedRepresentation.self)
    var guest: UUID?
    @Column(as: UUID?.UppercasedRepresentation.self)
    var host: UUID?
    @Column(as: [String]?.JSONRepresentation.self)
    var notes: [String]?
}

@Suite("Typed SQL: optional representation spellings")
struct OptionalRepresentationTests {
    let db: Database
    static let instant = Date(timeIntervalSince1970: 1_700_000_000.5)
    static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()

    init() throws {
        db = try RemindersDatabase.make()
        try db.execute(sql: """
            CREATE TABLE "visits" ("id" INTEGER PRIMARY KEY, "arrivedAt" REAL, "plannedAt" REAL, "leftAt" TEXT, \
            "badge" BLOB, "guest" TEXT, "host" TEXT, "notes" TEXT)
            """)
    }

    @Test func theyAreTheOptionalRepresentations() {
        #expect(Date?.UnixTimeRepresentation.self == Optional<Date.UnixTimeRepresentation>.self)
        #expect(Date?.JulianDayRepresentation.self == Optional<Date.JulianDayRepresentation>.self)
        #expect(UUID?.UppercasedRepresentation.self == Optional<UUID.UppercasedRepresentation>.self)
        #expect([String]?.JSONRepresentation.self == Optional<[String].JSONRepresentation>.self)
    }

    @Test func valuesAreStoredAsTheirRepresentationAndNilAsNull() throws {
        let full = Visit(
            id: 1, arrivedAt: Self.instant, plannedAt: Date(timeIntervalSince1970: 0), leftAt: Self.instant,
            badge: Self.uuid, guest: Self.uuid, host: Self.uuid, notes: ["a"])
        let empty = Visit(id: 2, arrivedAt: nil, plannedAt: nil, leftAt: nil, badge: nil, guest: nil, host: nil, notes: nil)
        try Visit.insert { [full, empty] }.execute(db)
        let stored = try db.fetchAll(sql: #"""
            SELECT "arrivedAt", "plannedAt", "leftAt", typeof("badge"), "guest", "host", "notes" FROM "visits" ORDER BY "id"
            """#) { row in (0..<7).map { row.databaseValue(at: $0) } }
        #expect(stored == [
            [.real(1_700_000_000.5), .real(2_440_587.5), .text("2023-11-14 22:13:20.500"), .text("blob"),
             .text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"), .text("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), .text(#"["a"]"#)],
            // `nil` is NULL in every one of them, the JSON column included (not the text `null`).
            [.null, .null, .null, .text("null"), .null, .null, .null],
        ])
        #expect(try Visit.order(by: \.id).fetchAll(db) == [full, empty])
        #expect(try Visit.where { $0.notes.is(nil) }.select(\.id).fetchAll(db) == [2])
    }
}
