import Foundation
import SQLiteData
import Testing

// Dates as SQLiteData stores them: TEXT in UTC to the millisecond, in a STRICT `TEXT` column,
// with no representation named. Rows written by SQLiteData (here: SQL literals in its format)
// read back, compare with bound dates and work with SQLite's date functions; rows Cairn writes
// hold the same text.

@Table
struct Deadline: Codable, Hashable, Identifiable {
    let id: Int
    var dueDate: Date?
    var title = ""
    @Column(as: [Date].JSONRepresentation.self)
    var reminders: [Date] = []
}

/// The text StructuredQueries writes for a date: Foundation's ISO 8601 style with a space
/// between date and time and fractional seconds, in UTC.
private func structuredQueriesText(_ date: Date) -> String {
    date.formatted(.iso8601.year().month().day().dateTimeSeparator(.space).time(includingFractionalSeconds: true))
}

@Suite("import SQLiteData: dates stored as text")
struct DateTextImportTests {
    let database: DatabaseQueue

    /// 2026-05-10 09:30:00.250, 2026-05-11 00:00:00.000, 2025-12-31 23:59:59.999.
    static let dates = [
        Date(timeIntervalSinceReferenceDate: 800_098_200.25),
        Date(timeIntervalSinceReferenceDate: 800_150_400),
        Date(timeIntervalSinceReferenceDate: 788_918_399.999),
    ]

    init() throws {
        database = try DatabaseQueue()
        try database.write { db in
            try #sql(
                """
                CREATE TABLE "deadlines" (
                  "id" INTEGER PRIMARY KEY,
                  "dueDate" TEXT,
                  "title" TEXT NOT NULL DEFAULT '',
                  "reminders" TEXT NOT NULL DEFAULT '[]'
                ) STRICT
                """
            )
            .execute(db)
            try #sql(
                """
                INSERT INTO "deadlines" VALUES
                  (1, '2026-05-10 09:30:00.250', 'Taxes', '["2026-05-09 09:30:00.250"]'),
                  (2, '2026-05-11 00:00:00.000', 'Rent', '[]'),
                  (3, '2025-12-31 23:59:59.999', 'Report', '[]'),
                  (4, NULL, 'Someday', '[]')
                """
            )
            .execute(db)
        }
    }

    @Test func rowsSQLiteDataWroteReadBack() throws {
        let rows = try database.read { db in try Deadline.order(by: \.id).fetchAll(db) }
        #expect(rows.map(\.dueDate) == Self.dates + [nil])
        #expect(rows[0].reminders == [Self.dates[0].addingTimeInterval(-86_400)])
    }

    @Test func aBoundDateComparesWithTheStoredText() throws {
        let cutoff = Self.dates[0]
        try database.read { (db) throws in
            let before = Deadline.where { $0.dueDate.lt(cutoff) }.select(\.id)
            #expect(try before.render().arguments == [.text("2026-05-10 09:30:00.250")])
            #expect(try before.fetchAll(db) == [3])
            #expect(try Deadline.where { $0.dueDate.eq(cutoff) }.select(\.id).fetchAll(db) == [1])
            #expect(try Deadline.where { $0.dueDate.gte(cutoff) }.order(by: \.dueDate).select(\.id).fetchAll(db) == [1, 2])
            #expect(try Deadline.order { $0.dueDate.desc() }.select(\.id).fetchAll(db) == [2, 1, 3, 4])
        }
    }

    @Test func sqlitesDateFunctionsReadTheColumn() throws {
        try database.read { (db) throws in
            let days = try Deadline.where { $0.dueDate.isNot(nil) }.order(by: \.id)
                .select { #sql("date(\($0.dueDate))", as: String.self) }
                .fetchAll(db)
            #expect(days == ["2026-05-10", "2026-05-11", "2025-12-31"])
            let years = try Deadline.order(by: \.id).select { $0.dueDate.map(\.year) }.fetchAll(db)
            #expect(years == [2026, 2026, 2025, nil])
            let nextDay = try Deadline.find(3).select { $0.dueDate(.days(1)) }.fetchOne(db)
            #expect(nextDay == Date(timeIntervalSinceReferenceDate: 789_004_799.999))
        }
    }

    @Test func datesCairnWritesAreTheTextSQLiteDataWrites() throws {
        // Milliseconds from 1970 to 2099, each with 0.4 ms more: text truncates to the millisecond.
        var random = SystemRandomNumberGenerator()
        let milliseconds = (0..<200).map { _ in Int64.random(in: -978_307_200_000...3_124_137_599_999, using: &random) }
        let written = milliseconds.map { Date(timeIntervalSinceReferenceDate: Double($0) / 1000 + 0.000_4) }
        let wholeMilliseconds = milliseconds.map { Date(timeIntervalSinceReferenceDate: Double($0) / 1000) }
        try database.write { db in
            try Deadline.insert {
                for (offset, date) in written.enumerated() {
                    Deadline(id: 100 + offset, dueDate: date, title: "generated", reminders: [date])
                }
            }
            .execute(db)
            let stored = try #sql(
                #"SELECT "dueDate" FROM "deadlines" WHERE "id" >= 100 ORDER BY "id""#, as: String.self
            )
            .fetchAll(db)
            #expect(stored == written.map(structuredQueriesText))
            let json = try #sql(
                #"SELECT "reminders" FROM "deadlines" WHERE "id" >= 100 ORDER BY "id""#, as: String.self
            )
            .fetchAll(db)
            #expect(json == written.map { #"[""# + structuredQueriesText($0) + #""]"# })
            // Read back: each the date of the millisecond the text holds.
            let read = try Deadline.where { $0.id.gte(100) }.order(by: \.id).fetchAll(db)
            #expect(read.map(\.dueDate) == wholeMilliseconds)
            #expect(read.map(\.reminders) == wholeMilliseconds.map { [$0] })
        }
    }

    @Test func aWholeRowAsJSONKeepsItsDates() throws {
        try database.read { (db) throws in
            let objects = try Deadline.order(by: \.id).select { $0.jsonObject() }.fetchAll(db)
            #expect(objects == (try Deadline.order(by: \.id).fetchAll(db)))
        }
    }
}
