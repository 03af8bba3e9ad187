import Cairn
import Foundation
import Testing

/// One instant in each of Cairn's date storages, and optional ones.
@Table
struct Event: Identifiable, Hashable, Sendable {
    let id: Int
    var startsAt: Date
    @Column(as: Date.UnixTimeRepresentation.self)
    var createdAt: Date
    @Column(as: Date.ISO8601Representation.self)
    var publishedAt: Date
    @Column(as: Date.TimeIntervalSinceReferenceDateRepresentation?.self)
    var endsAt: Date?
    @Column(as: Date.ISO8601Representation?.self)
    var reviewedAt: Date?
}

@Suite("Typed SQL: date functions (strftime and date components)")
struct DateFunctionTests {
    let db: Database

    /// 2026-03-01T09:30:07.250Z (a Sunday, day 60), 2024-02-29T23:59:59.999Z (a Thursday,
    /// day 60, a millisecond before midnight) and 1969-12-31T23:59:59.500Z (a Wednesday, day
    /// 365, before the Unix epoch).
    static let instants = [
        Date(timeIntervalSince1970: 1_772_357_407.25),
        Date(timeIntervalSince1970: 1_709_251_199.999),
        Date(timeIntervalSince1970: -0.5),
    ]

    init() throws {
        db = try RemindersDatabase.make()
        try db.execute(sql: """
            CREATE TABLE "events" ("id" INTEGER PRIMARY KEY, "startsAt" TEXT NOT NULL, "createdAt" REAL NOT NULL, \
            "publishedAt" TEXT NOT NULL, "endsAt" REAL, "reviewedAt" TEXT)
            """)
        let instants = Self.instants
        try Event.insert {
            for (index, date) in instants.enumerated() {
                Event(
                    id: index + 1, startsAt: date, createdAt: date, publishedAt: date,
                    endsAt: index == 0 ? date : nil, reviewedAt: index == 0 ? date : nil)
            }
        }.execute(db)
    }

    @Test func strftimeReadsEachStorage() throws {
        let formatted = Event.order(by: \.id).select {
            ($0.startsAt.strftime("%Y-%m-%d %H:%M:%f"), $0.createdAt.strftime("%Y-%m-%d %H:%M:%f"),
             $0.publishedAt.strftime("%Y-%m-%d %H:%M:%f"))
        }
        try assertQuery(
            formatted,
            sql: #"SELECT strftime(?, "events"."startsAt"), strftime(?, "events"."createdAt", 'unixepoch'), strftime(?, "events"."publishedAt") FROM "events" ORDER BY "events"."id" ASC"#,
            arguments: Array(repeating: .text("%Y-%m-%d %H:%M:%f"), count: 3),
            rows: { try formatted.fetchAll(db).map { [$0.0, $0.1, $0.2] } },
            [
                Array(repeating: "2026-03-01 09:30:07.250", count: 3),
                Array(repeating: "2024-02-29 23:59:59.999", count: 3),
                Array(repeating: "1969-12-31 23:59:59.500", count: 3),
            ])
    }

    @Test func strftimeOfNullAndOfAnUnknownSubstitutionIsNil() throws {
        let optional = Event.order(by: \.id).select { ($0.endsAt.strftime("%Y"), $0.reviewedAt.strftime("%Y")) }
        #expect(try optional.fetchAll(db).map { [$0.0, $0.1] } == [["2026", "2026"], [nil, nil], [nil, nil]])
        // SQLite gives NULL for a substitution it does not know; the format is bound, not spliced.
        let unknown = Event.find(1).select { $0.startsAt.strftime("%Q'); DROP TABLE events; --") }
        #expect(try unknown.fetchOne(db) == .some(nil))
        #expect(try Event.fetchCount(db) == 3)
    }

    @Test func componentsAreIntegers() throws {
        let parts = Event.order(by: \.id).select {
            ($0.startsAt.year, $0.startsAt.month, $0.startsAt.day, $0.startsAt.hour, $0.startsAt.minute,
             $0.startsAt.second, $0.startsAt.weekday, $0.startsAt.dayOfYear)
        }
        #expect(try parts.render().sql.hasPrefix(
            #"SELECT CAST(strftime('%Y', "events"."startsAt") AS INTEGER), CAST(strftime('%m', "#))
        let rows = try parts.fetchAll(db).map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7] }
        #expect(rows == [
            [2026, 3, 1, 9, 30, 7, 0, 60],
            [2024, 2, 29, 23, 59, 59, 4, 60],
            [1969, 12, 31, 23, 59, 59, 3, 365],
        ])
        // The other storages give the same components.
        let others = Event.order(by: \.id).select {
            ($0.createdAt.year, $0.createdAt.dayOfYear, $0.publishedAt.month, $0.publishedAt.weekday)
        }
        try assertQuery(
            others,
            sql: #"SELECT CAST(strftime('%Y', "events"."createdAt", 'unixepoch') AS INTEGER), CAST(strftime('%j', "events"."createdAt", 'unixepoch') AS INTEGER), CAST(strftime('%m', "events"."publishedAt") AS INTEGER), CAST(strftime('%w', "events"."publishedAt") AS INTEGER) FROM "events" ORDER BY "events"."id" ASC"#,
            rows: { try others.fetchAll(db).map { [$0.0, $0.1, $0.2, $0.3] } },
            [[2026, 60, 3, 0], [2024, 60, 2, 4], [1969, 365, 12, 3]])
    }

    @Test func fractionalSecondIsReal() throws {
        let seconds = Event.order(by: \.id).select { ($0.startsAt.fractionalSecond, $0.createdAt.fractionalSecond) }
        try assertQuery(
            seconds,
            sql: #"SELECT CAST(strftime('%f', "events"."startsAt") AS REAL), CAST(strftime('%f', "events"."createdAt", 'unixepoch') AS REAL) FROM "events" ORDER BY "events"."id" ASC"#,
            rows: { try seconds.fetchAll(db).map { [$0.0, $0.1] } }, [[7.25, 7.25], [59.999, 59.999], [59.5, 59.5]])
    }

    @Test func componentsOfOptionalDatesAreOptional() throws {
        let parts = Event.order(by: \.id).select { ($0.endsAt.year, $0.reviewedAt.day, $0.endsAt.fractionalSecond) }
        let rows = try parts.fetchAll(db)
        #expect(rows.map { [$0.0, $0.1] } == [[2026, 1], [nil, nil], [nil, nil]])
        #expect(rows.map(\.2) == [7.25, nil, nil])
    }

    @Test func componentsFilterAndGroup() throws {
        let leapDays = Event.where { $0.startsAt.month.eq(2) && $0.startsAt.day.eq(29) }.select(\.id)
        try assertQuery(
            leapDays,
            sql: #"SELECT "events"."id" FROM "events" WHERE CAST(strftime('%m', "events"."startsAt") AS INTEGER) = ? AND CAST(strftime('%d', "events"."startsAt") AS INTEGER) = ?"#,
            arguments: [.integer(2), .integer(29)],
            rows: { try leapDays.fetchAll(db) }, [2])
        let perDayOfYear = Event.group(by: { $0.startsAt.dayOfYear }).order { $0.startsAt.dayOfYear }
            .select { ($0.startsAt.dayOfYear, $0.count()) }
        #expect(try perDayOfYear.render().sql.hasSuffix(
            #"GROUP BY CAST(strftime('%j', "events"."startsAt") AS INTEGER) ORDER BY CAST(strftime('%j', "events"."startsAt") AS INTEGER) ASC"#))
        #expect(try perDayOfYear.fetchAll(db).map { [$0.0, $0.1] } == [[60, 2], [365, 1]])
        #expect(try Event.where { $0.startsAt.year.lt(2000) }.fetchCount(db) == 1)
    }

    @Test func aBoundDateHasComponentsToo() throws {
        // A plain `Date` is an expression (bound), as in StructuredQueries.
        let year = Event.find(1).select { _ in Self.instants[1].year }
        try assertQuery(
            year,
            sql: #"SELECT CAST(strftime('%Y', ?) AS INTEGER) FROM "events" WHERE "events"."id" = ?"#,
            rows: { try year.fetchAll(db) }, [2024])
    }
}
