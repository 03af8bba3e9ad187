import Cairn
import Foundation
import Testing

@Table("observations")
struct SkyObservation: Codable, Identifiable, Hashable, Sendable {
    let id: Int
    @Column(as: Date.JulianDayRepresentation.self)
    var observedAt: Date
    @Column(as: Date.JulianDayRepresentation?.self)
    var confirmedAt: Date?
}

@Suite("Typed SQL: dates stored as Julian days")
struct JulianDayRepresentationTests {
    let db: Database

    /// 2026-03-01T09:30:07.250Z, 2024-02-29T23:59:59.999Z and 1969-12-31T23:59:59.500Z.
    static let instants = DateFunctionTests.instants

    init() throws {
        db = try RemindersDatabase.make()
        try db.execute(sql: """
            CREATE TABLE "observations" ("id" INTEGER PRIMARY KEY, "observedAt" REAL NOT NULL, "confirmedAt" REAL)
            """)
        let instants = Self.instants
        try SkyObservation.insert {
            for (index, date) in instants.enumerated() {
                SkyObservation(id: index + 1, observedAt: date, confirmedAt: index == 0 ? date : nil)
            }
        }.execute(db)
    }

    /// Whole milliseconds since 1970, what SQLite's date functions count in.
    func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    @Test func aDateIsBoundAsItsJulianDay() throws {
        let insert = SkyObservation.insert { ($0.id, $0.observedAt) } values: { (10, Date(timeIntervalSince1970: 0)) }
        #expect(try insert.render().sql == #"INSERT INTO "observations" ("id", "observedAt") VALUES (?, ?)"#)
        #expect(try insert.render().arguments == [.integer(10), .real(2_440_587.5)])
        try insert.execute(db)
        // What SQLite stores is the number its own date functions read as that day.
        let stored = try db.fetchAll(sql: #"SELECT "observedAt", datetime("observedAt") FROM "observations" WHERE "id" = 10"#) {
            [$0.databaseValue(at: 0), $0.databaseValue(at: 1)]
        }
        #expect(stored == [[.real(2_440_587.5), .text("1970-01-01 00:00:00")]])
        #expect(try SkyObservation.find(10).fetchOne(db)?.observedAt == Date(timeIntervalSince1970: 0))
    }

    @Test func datesReadBackToWithinAMillisecond() throws {
        let rows = try SkyObservation.order(by: \.id).fetchAll(db)
        #expect(rows.map { milliseconds($0.observedAt) } == Self.instants.map(milliseconds))
        #expect(rows.map { $0.confirmedAt.map(milliseconds) } == [milliseconds(Self.instants[0]), nil, nil])
    }

    @Test func aDayWrittenBySQLiteDecodes() throws {
        try db.execute(sql: """
            INSERT INTO "observations" ("id", "observedAt", "confirmedAt") \
            VALUES (20, julianday('2026-03-01 09:30:07.250'), 2451910)
            """)
        let row = try #require(try SkyObservation.find(20).fetchOne(db))
        #expect(milliseconds(row.observedAt) == 1_772_357_407_250)
        // An INTEGER Julian day is noon UTC of that day: 2451910 is 2000-12-31T12:00:00Z.
        #expect(row.confirmedAt == Date(timeIntervalSinceReferenceDate: -43_200))
    }

    @Test func aValueThatIsNotADayFailsTheFetch() throws {
        try db.execute(sql: #"INSERT INTO "observations" ("id", "observedAt") VALUES (30, 'yesterday')"#)
        #expect(throws: (any Error).self) { try SkyObservation.find(30).fetchOne(db) }
    }

    @Test func dateFunctionsReadTheColumnAsIs() throws {
        let parts = SkyObservation.order(by: \.id).select {
            ($0.observedAt.strftime("%Y-%m-%d %H:%M:%f"), $0.observedAt.year, $0.observedAt.dayOfYear, $0.confirmedAt.month)
        }
        #expect(try parts.render().sql.hasPrefix(
            #"SELECT strftime(?, "observations"."observedAt"), CAST(strftime('%Y', "observations"."observedAt") AS INTEGER)"#))
        let rows = try parts.fetchAll(db)
        #expect(rows.map(\.0) == ["2026-03-01 09:30:07.250", "2024-02-29 23:59:59.999", "1969-12-31 23:59:59.500"])
        #expect(rows.map(\.1) == [2026, 2024, 1969])
        #expect(rows.map(\.2) == [60, 60, 365])
        #expect(rows.map(\.3) == [3, nil, nil])
    }

    @Test func modifiersGoThroughJulianday() throws {
        let moved = SkyObservation.order(by: \.id).select { ($0.observedAt(.startOfMonth), $0.observedAt(.days(1)), $0.confirmedAt(.hours(-1))) }
        #expect(try moved.render().sql == #"""
            SELECT julianday("observations"."observedAt", ?), julianday("observations"."observedAt", ?), \#
            julianday("observations"."confirmedAt", ?) FROM "observations" ORDER BY "observations"."id" ASC
            """#)
        #expect(try moved.render().arguments == [.text("start of month"), .text("1 days"), .text("-1 hours")])
        let rows = try moved.fetchAll(db)
        let calendar = { () -> Calendar in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            return calendar
        }()
        for (row, instant) in zip(rows, Self.instants) {
            let startOfMonth = calendar.dateInterval(of: .month, for: instant)!.start
            #expect(milliseconds(row.0) == milliseconds(startOfMonth))
            #expect(milliseconds(row.1) == milliseconds(instant.addingTimeInterval(86_400)))
        }
        #expect(rows.map { $0.2.map(milliseconds) } == [milliseconds(Self.instants[0].addingTimeInterval(-3_600)), nil, nil])
    }

    @Test func nowIsSQLitesClockAsAJulianDay() throws {
        let before = Date()
        let now = SkyObservation.find(1).select { _ in _ModifiedDate<Date.JulianDayRepresentation>.now }
        #expect(try now.render().sql == #"SELECT julianday('now') FROM "observations" WHERE "observations"."id" = ?"#)
        let read = try #require(try now.fetchOne(db))
        #expect(abs(read.timeIntervalSince(before)) < 60)
        let recent = SkyObservation.where { $0.observedAt.gt(.now(.years(-1))) }
        #expect(try recent.render().sql.hasSuffix(#"WHERE "observations"."observedAt" > julianday('now', ?)"#))
        #expect(try recent.fetchAll(db).map(\.id) == (before.timeIntervalSince1970 < 1_803_893_407 ? [1] : []))
    }

    @Test func jsonObjectCarriesTheDateToTheMillisecond() throws {
        let objects = SkyObservation.order(by: \.id).select { $0.jsonObject() }
        #expect(try objects.render().sql.contains(
            #"'observedAt', CASE WHEN "observations"."observedAt" IS NULL THEN NULL ELSE json(printf('%!.17g', ((round(julianday("observations"."observedAt") * 86400000.0) - 211845067200000) / 1000.0))) END"#))
        let rows = try objects.fetchAll(db)
        #expect(rows.map { milliseconds($0.observedAt) } == Self.instants.map(milliseconds))
        #expect(rows.map { $0.confirmedAt.map(milliseconds) } == [milliseconds(Self.instants[0]), nil, nil])
    }
}
