import CSQLite
import Foundation

/// Stored as `TEXT` in UTC, to the millisecond: `2026-03-01 09:30:00.250`. This is the text
/// StructuredQueries, SQLiteData and GRDB write, and SQLite's own `datetime('subsec')`: SQLite's
/// date functions read it, it sorts chronologically as text, and a database written by those
/// libraries compares and reads back as it does there.
///
/// Reading accepts that text and the other ISO 8601 / SQLite forms (`2026-03-01`,
/// `2026-03-01 09:30`, `2026-03-01T09:30:00.250Z`, `2026-03-01 09:30:00+02:00`; no zone means
/// UTC, as SQLite's date functions assume), and a number as seconds since 2001-01-01 00:00:00
/// UTC: how `@Model` attributes and Core Data store dates
/// (`Date.TimeIntervalSinceReferenceDateRepresentation` in typed SQL).
///
/// A date outside the years 0001–9999 has no such text; it is stored as that REAL number, which
/// reads back exactly.
///
/// ```swift
/// try db.execute(sql: "INSERT INTO workout (startedAt) VALUES (?)", arguments: [Date(timeIntervalSince1970: 0)])
/// // INSERT INTO workout (startedAt) VALUES (?)   -- ?1 = '1970-01-01 00:00:00.000'
/// ```
extension Date: DatabaseValueConvertible {
    /// The value as stored: `yyyy-MM-dd HH:mm:ss.SSS` in UTC, as TEXT.
    public var databaseValue: DatabaseValue {
        DateText.format(self).map(DatabaseValue.text) ?? .real(timeIntervalSinceReferenceDate)
    }

    /// The stored value as a `Date`, or `nil` when it holds no valid one.
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Date? {
        switch databaseValue {
        case .real(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
        case .integer(let seconds): return Date(timeIntervalSinceReferenceDate: Double(seconds))
        case .text(let text): return DateText.parse(text)
        default: return nil
        }
    }

    /// Reads the column's `sqlite3_value` directly, with no ``DatabaseValue`` in between; `nil`
    /// when it cannot be this type.
    @inlinable
    public static func decode(from sqliteValue: SQLiteValue, storageClass: Int32) -> Date? {
        switch storageClass {
        case SQLITE_FLOAT, SQLITE_INTEGER:
            return Date(timeIntervalSinceReferenceDate: sqlite3_value_double(sqliteValue))
        case SQLITE_TEXT:
            guard let text = sqlite3_value_text(sqliteValue) else { return nil }
            let count = Int(sqlite3_value_bytes(sqliteValue))
            return DateText.parse(UnsafeBufferPointer(start: text, count: count))
        default:
            return nil
        }
    }
}

/// The date text SQLite's date functions and StructuredQueries use, written and read without
/// Foundation's formatters (which allocate a formatter's state per call).
@usableFromInline
package enum DateText {
    /// `yyyy-MM-dd HH:mm:ss.SSS` in UTC, or nil for a date outside the years 0001–9999.
    ///
    /// The milliseconds are truncated, as StructuredQueries' formatter truncates them, except
    /// that a time within a microsecond below a millisecond counts as that millisecond (within
    /// the `Double`'s own rounding, for dates centuries away): a date read back from `….341` can
    /// be a `Double` a hair below .341, and truncating it would move the date back a millisecond
    /// on every read and write of a row.
    package static func format(_ date: Date) -> String? {
        let seconds = date.timeIntervalSinceReferenceDate
        let tolerance = max(0.001, 2000 * seconds.magnitude.ulp)
        let sinceReferenceDate = (seconds * 1000 + tolerance).rounded(.down)
        // 0001-01-01 and 10000-01-01 in milliseconds since 2001.
        guard sinceReferenceDate >= -63_113_904_000_000, sinceReferenceDate < 252_423_993_600_000 else { return nil }
        let total = Int64(sinceReferenceDate) + 978_307_200_000
        var days = total / 86_400_000
        var timeOfDay = total % 86_400_000
        if timeOfDay < 0 {
            days -= 1
            timeOfDay += 86_400_000
        }
        let (year, month, day) = civilDate(daysSince1970: days)
        return String(unsafeUninitializedCapacity: 23) { text in
            func put(_ value: Int64, digits: Int, at position: Int) {
                var remaining = value
                for offset in stride(from: digits - 1, through: 0, by: -1) {
                    text[position + offset] = UInt8(ascii: "0") + UInt8(remaining % 10)
                    remaining /= 10
                }
            }
            put(year, digits: 4, at: 0)
            text[4] = UInt8(ascii: "-")
            put(month, digits: 2, at: 5)
            text[7] = UInt8(ascii: "-")
            put(day, digits: 2, at: 8)
            text[10] = UInt8(ascii: " ")
            put(timeOfDay / 3_600_000, digits: 2, at: 11)
            text[13] = UInt8(ascii: ":")
            put(timeOfDay / 60_000 % 60, digits: 2, at: 14)
            text[16] = UInt8(ascii: ":")
            put(timeOfDay / 1000 % 60, digits: 2, at: 17)
            text[19] = UInt8(ascii: ".")
            put(timeOfDay % 1000, digits: 3, at: 20)
            return 23
        }
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    private static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The date an ISO 8601 / SQLite date text names, or nil when it is not one.
    package static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// The date the UTF-8 text names (`2026-03-01`, `2026-03-01 09:30`,
    /// `2026-03-01T09:30:00.250Z`, `2026-03-01 09:30:00+02:00`), or nil when it is not one.
    /// No zone means UTC, as SQLite's date functions assume.
    @usableFromInline
    package static func parse(_ utf8: UnsafeBufferPointer<UInt8>) -> Date? {
        var position = 0
        func number(_ digits: Int) -> Int? {
            guard utf8.count - position >= digits else { return nil }
            var value = 0
            for _ in 0..<digits {
                let byte = utf8[position]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
                position += 1
            }
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard position < utf8.count, utf8[position] == byte else { return false }
            position += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var secondsOfDay = 0
        var fraction = 0
        var scale = 1
        if expect(84) || expect(32) {  // 'T' or ' '
            guard let hour = number(2), expect(58), let minute = number(2), hour < 24, minute < 60 else { return nil }
            secondsOfDay = hour * 3600 + minute * 60
            if expect(58) {
                guard let second = number(2), second < 61 else { return nil }
                secondsOfDay += second
                if expect(46) {  // '.'
                    while position < utf8.count, utf8[position] >= 48, utf8[position] <= 57, scale < 1_000_000_000 {
                        fraction = fraction * 10 + Int(utf8[position] - 48)
                        scale *= 10
                        position += 1
                    }
                    guard scale > 1 else { return nil }
                    while position < utf8.count, utf8[position] >= 48, utf8[position] <= 57 { position += 1 }
                }
            }
            if expect(90) || expect(122) {  // 'Z' / 'z'
            } else if position < utf8.count, utf8[position] == 43 || utf8[position] == 45 {  // '+' / '-'
                let sign = utf8[position]
                position += 1
                guard let offsetHours = number(2) else { return nil }
                _ = expect(58)
                let offsetMinutes = number(2) ?? 0
                let offset = offsetHours * 3600 + offsetMinutes * 60
                secondsOfDay += sign == 43 ? -offset : offset
            }
        }
        guard position == utf8.count else { return nil }
        // Days from the civil date (proleptic Gregorian), then whole seconds since 2001.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let daysSince1970 = era * 146_097 + dayOfEra - 719_468
        let whole = daysSince1970 * 86_400 + secondsOfDay - 978_307_200
        // Counted in units of the fraction and divided once, the result is the `Double`
        // nearest the text: what `Date(timeIntervalSinceReferenceDate: 800_000_000.341)` holds
        // for `….341`, so a date written and read back is equal to itself.
        let (units, overflow) = whole.multipliedReportingOverflow(by: scale)
        if !overflow, abs(units) < 1 << 53 {
            return Date(timeIntervalSinceReferenceDate: Double(units + fraction) / Double(scale))
        }
        return Date(timeIntervalSinceReferenceDate: Double(whole) + Double(fraction) / Double(scale))
    }
}
