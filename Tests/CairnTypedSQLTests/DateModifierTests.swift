import Cairn
import CairnTestSupport
import Foundation
import Testing

/// One date in each of Cairn's date storages, and an optional one.
@Table
struct Appointment: Identifiable, Hashable, Sendable {
    let id: Int
    @Column(as: Date.TimeIntervalSinceReferenceDateRepresentation.self)
    var at: Date
    @Column(as: Date.UnixTimeRepresentation.self)
    var unix: Date
    @Column(as: Date.ISO8601Representation.self)
    var iso: Date
    var maybe: Date?
}

extension DateTimeModifier {
    fileprivate static let endOfMonth = Self.startOfMonth.months(1).days(-1)
}

/// A modifier and what Foundation's `Calendar`, in UTC, says it does to a date.
struct ModifierCase: CustomTestStringConvertible, Sendable {
    let name: String
    let modifier: DateTimeModifier
    /// The seconds a pure offset adds, applied one by one as the SQL does; `nil` for a calendar
    /// rule.
    let offsets: [Double]?
    let expected: @Sendable (Date) throws -> Date

    var testDescription: String { name }
}

private let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    return calendar
}()

private func required(_ date: Date?, _ what: String) throws -> Date {
    try #require(date, "Calendar could not compute \(what)")
}

/// SQLite's rule for months and years: the month moves, the day and time stay, and a day past
/// the month's end rolls into the next month (the first of the target month plus day − 1 days).
private func sqliteAdding(months: Int, to date: Date) throws -> Date {
    let parts = utc.dateComponents([.year, .month, .day], from: date)
    let start = try required(utc.date(from: DateComponents(year: parts.year, month: parts.month, day: 1)), "month start")
    let moved = try required(utc.date(byAdding: .month, value: months, to: start), "month move")
    let day = try required(utc.date(byAdding: .day, value: (parts.day ?? 1) - 1, to: moved), "day")
    return day.addingTimeInterval(date.timeIntervalSince(utc.startOfDay(for: date)))
}

private func startOf(_ components: Set<Calendar.Component>, _ date: Date) throws -> Date {
    try required(utc.date(from: utc.dateComponents(components, from: date)), "start of \(components)")
}

private func offset(_ name: String, _ modifier: DateTimeModifier, _ seconds: Double...) -> ModifierCase {
    ModifierCase(name: name, modifier: modifier, offsets: seconds) { date in
        seconds.reduce(date) { $0.addingTimeInterval($1) }
    }
}

private func calendar(_ name: String, _ modifier: DateTimeModifier, _ expected: @escaping @Sendable (Date) throws -> Date) -> ModifierCase {
    ModifierCase(name: name, modifier: modifier, offsets: nil, expected: expected)
}

private let modifierCases: [ModifierCase] = [
    offset("days(-7)", .days(-7), -604_800),
    offset("days(400)", .days(400), 34_560_000),
    offset("hours(5)", .hours(5), 18_000),
    offset("minutes(-90)", .minutes(-90), -5_400),
    offset("seconds(1.25)", .seconds(1.25), 1.25),
    offset("milliseconds(1500)", .milliseconds(1_500), 1.5),
    offset("milliseconds(-7)", .milliseconds(-7), -0.007),
    offset("days(1).hours(2)", .days(1).hours(2), 86_400, 7_200),
    calendar("months(1)", .months(1)) { try sqliteAdding(months: 1, to: $0) },
    calendar("months(-13)", .months(-13)) { try sqliteAdding(months: -13, to: $0) },
    calendar("years(1)", .years(1)) { try sqliteAdding(months: 12, to: $0) },
    calendar("years(-3)", .years(-3)) { try sqliteAdding(months: -36, to: $0) },
    calendar("startOfDay", .startOfDay) { utc.startOfDay(for: $0) },
    calendar("startOfMonth", .startOfMonth) { try startOf([.year, .month], $0) },
    calendar("startOfYear", .startOfYear) { try startOf([.year], $0) },
    calendar("weekday(0)", .weekday(0)) { date in
        let weekday = utc.component(.weekday, from: date) - 1
        return date.addingTimeInterval(Double((7 - weekday) % 7) * 86_400)
    },
    calendar("weekday(3)", .weekday(3)) { date in
        let weekday = utc.component(.weekday, from: date) - 1
        return date.addingTimeInterval(Double((3 - weekday + 7) % 7) * 86_400)
    },
    calendar("endOfMonth", .endOfMonth) { date in
        let next = try required(utc.date(byAdding: .month, value: 1, to: startOf([.year, .month], date)), "next month")
        return next.addingTimeInterval(-86_400)
    },
    calendar("startOfDay.days(-7)", .startOfDay.days(-7)) { utc.startOfDay(for: $0).addingTimeInterval(-604_800) },
    calendar("seconds(30).startOfDay", .seconds(30).startOfDay) { utc.startOfDay(for: $0.addingTimeInterval(30)) },
]

/// Whole milliseconds since 1970, the precision SQLite's date functions keep.
private func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

@Suite("Typed SQL: date modifiers and .now")
struct DateModifierTests {
    let db: Database
    /// Generated dates in whole milliseconds between 1901 and 2099, with month ends, a leap
    /// day and the last millisecond of a year among them.
    let dates: [Date]

    init() throws {
        db = try RemindersDatabase.make()
        try db.execute(sql: """
            CREATE TABLE "appointments" ("id" INTEGER PRIMARY KEY, "at" REAL NOT NULL, "unix" REAL NOT NULL, \
            "iso" TEXT NOT NULL, "maybe" TEXT)
            """)
        var random = SeededRandom(seed: 43)
        var dates = [
            Date(timeIntervalSince1970: 1_706_659_200.5),  // 2024-01-31T00:00:00.500Z
            Date(timeIntervalSince1970: 1_709_251_199.999),  // 2024-02-29T23:59:59.999Z
            Date(timeIntervalSince1970: 1_735_689_599.999),  // 2024-12-31T23:59:59.999Z
            Date(timeIntervalSince1970: -0.5),  // 1969-12-31T23:59:59.500Z
        ]
        for _ in 0..<60 {
            let millisecond = Int64.random(in: -2_177_452_800_000...4_102_444_799_999, using: &random)
            dates.append(Date(timeIntervalSince1970: Double(millisecond) / 1000))
        }
        self.dates = dates
        try Appointment.insert {
            for (index, date) in dates.enumerated() {
                Appointment(id: index + 1, at: date, unix: date, iso: date, maybe: index.isMultiple(of: 2) ? date : nil)
            }
        }.execute(db)
    }

    @Test(arguments: modifierCases)
    func everyModifierOnEveryStorageMatchesCalendar(_ test: ModifierCase) throws {
        let moved = Appointment.order(by: \.id).select {
            ($0.at(test.modifier), $0.unix(test.modifier), $0.iso(test.modifier), $0.maybe(test.modifier))
        }
        let rows = try moved.fetchAll(db)
        try #require(rows.count == dates.count)
        for (index, (date, row)) in zip(dates, rows).enumerated() {
            let expected = try test.expected(date)
            let results = [row.0, row.1, row.2]
            #expect(results.map(milliseconds) == Array(repeating: milliseconds(expected), count: 3),
                    "\(test.name) of \(date)")
            #expect(row.3.map(milliseconds) == (index.isMultiple(of: 2) ? milliseconds(expected) : nil))
            if let offsets = test.offsets {
                // Offsets on REAL storage are additions of seconds, exact to the last bit.
                #expect(row.0 == offsets.reduce(date) { $0.addingTimeInterval($1) })
                let unix = offsets.reduce(date.timeIntervalSince1970) { $0 + $1 }
                #expect(row.1 == Date(timeIntervalSince1970: unix))
            }
        }
    }

    @Test func monthsRollOverAsSQLiteDoesNotAsCalendarClamps() throws {
        // January 31 plus one month: SQLite gives March 2 (2024 is a leap year); Calendar
        // stops at February 29.
        let moved = Appointment.find(1).select { $0.at(.months(1)) }
        let date = try #require(try moved.fetchOne(db))
        #expect(date == Date(timeIntervalSince1970: 1_709_337_600.5))  // 2024-03-02T00:00:00.500Z
        #expect(utc.date(byAdding: .month, value: 1, to: dates[0]) == Date(timeIntervalSince1970: 1_709_164_800.5))
    }

    @Test func sqlOfEachRoute() throws {
        let offsets = Appointment.select { ($0.at(.days(-7).hours(1)), $0.unix(.milliseconds(-1_500)), $0.iso(.days(1))) }
        #expect(try offsets.render().sql == #"""
            SELECT "appointments"."at" + ? + ?, "appointments"."unix" + ?, \#
            strftime('%Y-%m-%d %H:%M:%f', "appointments"."iso", ?) FROM "appointments"
            """#)
        #expect(try offsets.render().arguments == [.real(-604_800), .real(3_600), .real(-1.5), .text("1 days")])
        let calendar = Appointment.select { ($0.at(.startOfMonth), $0.unix(.months(1).endOfMonth)) }
        #expect(try calendar.render().sql == #"""
            SELECT ((round(julianday("appointments"."at" + 978307200, 'unixepoch', ?) * 86400000.0) - 211845067200000) / 1000.0), \#
            ((round(julianday("appointments"."unix", 'unixepoch', ?, ?, ?, ?) * 86400000.0) - 210866760000000) / 1000.0) \#
            FROM "appointments"
            """#)
        #expect(try calendar.render().arguments == [
            .text("start of month"), .text("1 months"), .text("start of month"), .text("1 months"), .text("-1 days"),
        ])
        let fractional = Appointment.select { $0.at(.seconds(-0.25).startOfDay) }
        #expect(try fractional.render().arguments == [.text("-0.250000 seconds"), .text("start of day")])
    }

    @Test func nowInEachStorage() throws {
        let before = Date()
        let now = Appointment.find(1).select { _ in
            (_ModifiedDate<Date.TimeIntervalSinceReferenceDateRepresentation>.now, _ModifiedDate<Date.UnixTimeRepresentation>.now,
             _ModifiedDate<Date.ISO8601Representation>.now)
        }
        #expect(try now.render().sql == #"""
            SELECT ((round(julianday('now') * 86400000.0) - 211845067200000) / 1000.0), \#
            ((round(julianday('now') * 86400000.0) - 210866760000000) / 1000.0), \#
            strftime('%Y-%m-%d %H:%M:%f', 'now') FROM "appointments" WHERE "appointments"."id" = ?
            """#)
        let row = try #require(try now.fetchOne(db))
        // One statement sees one 'now', in whole milliseconds.
        #expect(milliseconds(row.0) == milliseconds(row.1) && milliseconds(row.1) == milliseconds(row.2))
        #expect(abs(row.0.timeIntervalSince(before)) < 60)
    }

    @Test func comparingWithNowAsStructuredQueriesWrites() throws {
        let recent = Date().addingTimeInterval(-3 * 86_400)
        let old = Date().addingTimeInterval(-10 * 86_400)
        try Appointment.insert {
            Appointment(id: 1_001, at: recent, unix: recent, iso: recent, maybe: nil)
            Appointment(id: 1_002, at: old, unix: old, iso: old, maybe: nil)
        }.execute(db)
        // The generated dates reach 2099: only the two rows added here are recent or old.
        let lastWeek = Appointment.where {
            $0.at.gte(.now(.days(-7))) && $0.unix.gte(.now(.days(-7))) && $0.iso.gte(.now(.days(-7)))
        }.where { $0.id.gt(1_000) }.select(\.id)
        #expect(try lastWeek.render().sql.hasSuffix(#"""
            WHERE "appointments"."at" >= (((round(julianday('now', ?) * 86400000.0) - 211845067200000) / 1000.0)) \#
            AND "appointments"."unix" >= (((round(julianday('now', ?) * 86400000.0) - 210866760000000) / 1000.0)) \#
            AND "appointments"."iso" >= strftime('%Y-%m-%d %H:%M:%f', 'now', ?) AND "appointments"."id" > ?
            """#))
        #expect(try lastWeek.fetchAll(db) == [1_001])
        // Swift's operators, as StructuredQueries code writes them.
        let operators = Appointment.where { $0.at >= .now(.days(-7)) && $0.iso > .now(.days(-7)) && $0.id > 1_000 }
            .select(\.id)
        #expect(try operators.render().sql == #"SELECT "appointments"."id" FROM "appointments" WHERE "appointments"."at" >= (((round(julianday('now', ?) * 86400000.0) - 211845067200000) / 1000.0)) AND "appointments"."iso" > strftime('%Y-%m-%d %H:%M:%f', 'now', ?) AND "appointments"."id" > ?"#)
        #expect(try operators.fetchAll(db) == [1_001])
        let older = Appointment.where { $0.unix < .now(.days(-7)) && $0.id > 1_000 }.select(\.id)
        #expect(try older.fetchAll(db) == [1_002])
        #expect(try Appointment.where { $0.at(.days(7)) < .now && $0.id > 1_000 }.select(\.id).fetchAll(db) == [1_002])
        // Without modifiers, `.now` in `<` or `lt` is Foundation's `Date.now`, bound, on a `Date`
        // column and on a representation's.
        #expect(try Event.where { $0.startsAt < .now }.render().sql.hasSuffix(#"WHERE "events"."startsAt" < ?"#))
        #expect(try Event.where { $0.startsAt.lt(.now) }.render().sql.hasSuffix(#"WHERE "events"."startsAt" < ?"#))
        #expect(try Appointment.where { $0.at.lt(.now) }.render().sql.hasSuffix(#"WHERE "appointments"."at" < ?"#))
        #expect(try Appointment.where { $0.at < .now }.render().sql.hasSuffix(#"WHERE "appointments"."at" < ?"#))
        let cutoff = Date(timeIntervalSinceReferenceDate: 60)
        #expect(try Appointment.where { $0.at < cutoff && $0.unix >= cutoff }.render().arguments
            == [.real(60), .real(60 + Date.timeIntervalBetween1970AndReferenceDate)])
        // A column moved by a modifier compares with a column of its storage.
        let due = Appointment.where { $0.at(.days(7)).lt(.now) }.select(\.id)
        #expect(try due.fetchAll(db).contains(1_002))
        #expect(try !due.fetchAll(db).contains(1_001))
    }

    @Test func aNonFiniteOffsetIsNull() throws {
        let nan = Appointment.find(2).select { ($0.at(.seconds(.infinity)), $0.maybe(.seconds(.nan))) }
        #expect(try nan.render().arguments.first == .text("inf seconds"))
        #expect(throws: (any Error).self) { try nan.fetchOne(db) }
        let optional = Appointment.find(1).select { $0.maybe(.seconds(.nan)) }
        #expect(try optional.fetchOne(db) == .some(nil))
    }
}
