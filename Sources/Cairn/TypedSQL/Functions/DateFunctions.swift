import Foundation

// SQLite's date and time functions on date columns, spelled as StructuredQueries spells them:
// `strftime(_:)` and the components `year`, `month`, `day`, `hour`, `minute`, `second`,
// `fractionalSecond`, `weekday` and `dayOfYear`.
//
// SQLite reads a date as a "time value" whose meaning depends on how it is stored, so each of
// Cairn's date storages says how to hand its column to SQLite:
//
// - `Date` and `Date.ISO8601Representation` (`2026-03-01 09:30:00.250`, the default):
//   `"t"."d"`, read as text;
// - `Date.TimeIntervalSinceReferenceDateRepresentation` (REAL seconds since 2001-01-01, how
//   `@Model` stores dates): `"t"."d" + 978307200, 'unixepoch'` (SQLite would read a bare
//   number as a Julian day);
// - `Date.UnixTimeRepresentation` (seconds since 1970): `"t"."d", 'unixepoch'`;
// - `Date.JulianDayRepresentation` (a REAL Julian day): `"t"."d"`, SQLite's own reading.
//
// Every function works in UTC, as SQLite does without the 'localtime' modifier.

/// A stored date that SQLite's date functions can read: `Date`, `Date.ISO8601Representation`,
/// `Date.TimeIntervalSinceReferenceDateRepresentation`, `Date.UnixTimeRepresentation`,
/// `Date.JulianDayRepresentation`, or an optional one (whose components are then optional).
public protocol _SQLiteDateValue: QueryRepresentable {
    /// `Int`, or `Int?` for an optional date.
    associatedtype _DateInteger: QueryRepresentable
    /// `Double`, or `Double?` for an optional date.
    associatedtype _DateReal: QueryRepresentable

    /// The arguments that give SQLite the stored date as a time value (the column, then any
    /// modifiers that say how to read it).
    static func _timeValue(_ date: SQLExpression) -> [SQLExpression]

    /// Whether the stored date is REAL seconds from an epoch, so that an offset is an addition.
    static var _storesSeconds: Bool { get }

    /// SQLite's time value with modifiers (`'now'`, `'-7 days'`…), turned into this storage.
    static func _dateStorage(_ timeValue: [SQLExpression]) -> SQLExpression
}

extension _SQLiteDateValue {
    /// Seconds since the epoch that is `epochJulianMilliseconds` milliseconds after the Julian
    /// day's origin, from SQLite's time value: SQLite counts whole milliseconds, and the Julian
    /// day in milliseconds (exact in a double) gives that count back without the rounding error
    /// of the Julian day itself.
    static func _seconds(since epochJulianMilliseconds: Int, _ timeValue: [SQLExpression]) -> SQLExpression {
        .raw(SQLFragment(segments: [
            .sql("((round("), .expression(.function("julianday", timeValue)),
            .sql(" * 86400000.0) - \(epochJulianMilliseconds)) / 1000.0)"),
        ], propagatesNull: true))
    }
}

extension Date: _SQLiteDateValue {
    public typealias _DateInteger = Int
    public typealias _DateReal = Double

    /// Seconds from 1970-01-01 to 2001-01-01, Core Data's reference date.
    static let referenceDateUnixTime = Int(Date.timeIntervalBetween1970AndReferenceDate)

    public static func _timeValue(_ date: SQLExpression) -> [SQLExpression] { [date] }

    public static var _storesSeconds: Bool { false }

    /// The column's own text form: `strftime('%Y-%m-%d %H:%M:%f', …)` writes
    /// `2026-03-01 09:30:00.250`, as binding a `Date` does.
    public static func _dateStorage(_ timeValue: [SQLExpression]) -> SQLExpression {
        .function("strftime", [.raw(SQLFragment(sql: "'%Y-%m-%d %H:%M:%f'"))] + timeValue)
    }
}

extension Date.TimeIntervalSinceReferenceDateRepresentation: _SQLiteDateValue {
    public typealias _DateInteger = Int
    public typealias _DateReal = Double

    public static func _timeValue(_ date: SQLExpression) -> [SQLExpression] {
        let unixTime = SQLFragment(
            segments: [.expression(date), .sql(" + \(Date.referenceDateUnixTime)")], propagatesNull: true)
        return [.raw(unixTime), .raw(SQLFragment(sql: "'unixepoch'"))]
    }

    public static var _storesSeconds: Bool { true }

    /// 2001-01-01 is Julian day 2451910.5.
    public static func _dateStorage(_ timeValue: [SQLExpression]) -> SQLExpression {
        _seconds(since: 211_845_067_200_000, timeValue)
    }
}

extension Date.UnixTimeRepresentation: _SQLiteDateValue {
    public typealias _DateInteger = Int
    public typealias _DateReal = Double

    public static func _timeValue(_ date: SQLExpression) -> [SQLExpression] {
        [date, .raw(SQLFragment(sql: "'unixepoch'"))]
    }

    public static var _storesSeconds: Bool { true }

    /// 1970-01-01 is Julian day 2440587.5.
    public static func _dateStorage(_ timeValue: [SQLExpression]) -> SQLExpression {
        _seconds(since: 210_866_760_000_000, timeValue)
    }
}

extension Date.JulianDayRepresentation: _SQLiteDateValue {
    public typealias _DateInteger = Int
    public typealias _DateReal = Double

    public static func _timeValue(_ date: SQLExpression) -> [SQLExpression] { [date] }

    /// Days, not seconds: an offset goes through `julianday(…)` like a calendar modifier.
    public static var _storesSeconds: Bool { false }

    public static func _dateStorage(_ timeValue: [SQLExpression]) -> SQLExpression {
        .function("julianday", timeValue)
    }
}

extension Date.ISO8601Representation: _SQLiteDateValue {
    public typealias _DateInteger = Int
    public typealias _DateReal = Double

    public static func _timeValue(_ date: SQLExpression) -> [SQLExpression] { Date._timeValue(date) }

    public static var _storesSeconds: Bool { false }

    public static func _dateStorage(_ timeValue: [SQLExpression]) -> SQLExpression { Date._dateStorage(timeValue) }
}

extension Optional: _SQLiteDateValue where Wrapped: _SQLiteDateValue {
    public typealias _DateInteger = Int?
    public typealias _DateReal = Double?

    public static func _timeValue(_ date: SQLExpression) -> [SQLExpression] { Wrapped._timeValue(date) }

    public static var _storesSeconds: Bool { Wrapped._storesSeconds }

    public static func _dateStorage(_ timeValue: [SQLExpression]) -> SQLExpression {
        Wrapped._dateStorage(timeValue)
    }
}

extension QueryExpression where QueryValue: _SQLiteDateValue {
    /// `strftime(format, date…)`: the date formatted by SQLite, in UTC; `nil` for a NULL date.
    ///
    /// ```swift
    /// Reminder.select { $0.dueDate.strftime("%Y-%m-%d") }
    /// // SELECT strftime(?, "reminders"."dueDate") FROM "reminders"
    /// @Column(as: Date.UnixTimeRepresentation.self) var startsAt: Date
    /// Event.select { $0.startsAt.strftime("%H:%M") }
    /// // SELECT strftime(?, "events"."startsAt", 'unixepoch') FROM "events"
    /// ```
    ///
    /// The format is bound. Its substitutions are SQLite's (`%Y %m %d %H %M %S %f %j %w %s %J
    /// %%`; <https://sqlite.org/lang_datefunc.html>); an unknown one makes the result `nil`.
    public func strftime(_ format: String) -> SQLQueryExpression<String?> {
        SQLQueryExpression(.function("strftime", [.value(.text(format))] + QueryValue._timeValue(sqlExpression)))
    }

    /// The year, `CAST(strftime('%Y', date…) AS INTEGER)`.
    ///
    /// ```swift
    /// Event.group(by: { $0.startsAt.year }).select { ($0.startsAt.year, $0.count()) }
    /// // SELECT CAST(strftime('%Y', "events"."startsAt", 'unixepoch') AS INTEGER), COUNT("events"."id")
    /// // FROM "events" GROUP BY CAST(strftime('%Y', "events"."startsAt", 'unixepoch') AS INTEGER)
    /// ```
    ///
    /// On an optional date the component is optional (`nil` for NULL); StructuredQueries'
    /// spelling there, `$0.date.map(\.year)`, gives the same SQL.
    public var year: SQLQueryExpression<QueryValue._DateInteger> { component("%Y", as: .integer) }

    /// The month, 1–12 (`%m`).
    public var month: SQLQueryExpression<QueryValue._DateInteger> { component("%m", as: .integer) }

    /// The day of the month, 1–31 (`%d`).
    public var day: SQLQueryExpression<QueryValue._DateInteger> { component("%d", as: .integer) }

    /// The hour, 0–23 (`%H`).
    public var hour: SQLQueryExpression<QueryValue._DateInteger> { component("%H", as: .integer) }

    /// The minute, 0–59 (`%M`).
    public var minute: SQLQueryExpression<QueryValue._DateInteger> { component("%M", as: .integer) }

    /// The whole seconds, 0–59 (`%S`).
    public var second: SQLQueryExpression<QueryValue._DateInteger> { component("%S", as: .integer) }

    /// The seconds with milliseconds, `CAST(strftime('%f', date…) AS REAL)`: 7.25 for
    /// 09:30:07.250 (SQLite gives three decimals).
    public var fractionalSecond: SQLQueryExpression<QueryValue._DateReal> { component("%f", as: .real) }

    /// The day of the week, 0 for Sunday to 6 for Saturday (`%w`).
    public var weekday: SQLQueryExpression<QueryValue._DateInteger> { component("%w", as: .integer) }

    /// The day of the year, 1–366 (`%j`).
    public var dayOfYear: SQLQueryExpression<QueryValue._DateInteger> { component("%j", as: .integer) }

    /// `CAST(strftime('<format>', date…) AS <type>)`, with the format written in the SQL: it
    /// is one of the fixed strings above, never a user's value.
    private func component<Result>(_ format: String, as type: SQLType) -> SQLQueryExpression<Result> {
        let formatted = SQLExpression.function(
            "strftime", [.raw(SQLFragment(sql: "'\(format)'"))] + QueryValue._timeValue(sqlExpression))
        return SQLQueryExpression(formatted.cast(as: type))
    }
}
