import CSQLite
import Foundation

// MARK: - Date

/// Stored as `REAL` seconds since 2001-01-01 00:00:00 UTC (Core Data's reference date,
/// `timeIntervalSinceReferenceDate`), so `ORDER BY` and comparisons work in SQL.
///
/// Reading also accepts an `INTEGER` (seconds since the same reference date) and `TEXT` in
/// ISO-8601 / SQLite form: `2024-05-01`, `2024-05-01 12:30`, `2024-05-01T12:30:45.250Z`,
/// `2024-05-01 12:30:45+02:00` (no zone means UTC, as SQLite's date functions assume).
///
/// ```swift
/// try db.execute(sql: "INSERT INTO workout (startedAt) VALUES (?)", arguments: [Date()])
/// // INSERT INTO workout (startedAt) VALUES (?)   -- ?1 = 786000000.0
/// ```
extension Date: DatabaseValueConvertible {
    /// The value as stored: seconds since 2001-01-01 00:00:00 UTC (Core Data's reference
    /// date), as REAL.
    @inlinable public var databaseValue: DatabaseValue { .real(timeIntervalSinceReferenceDate) }

    /// The stored value as a `Date`, or `nil` when it holds no valid one.
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Date? {
        switch databaseValue {
        case .real(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
        case .integer(let seconds): return Date(timeIntervalSinceReferenceDate: Double(seconds))
        case .text(let text): return ISO8601Text.parse(text)
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
            return readText(sqliteValue).flatMap(ISO8601Text.parse)
        default:
            return nil
        }
    }
}

/// A small allocation-free parser for the date texts SQLite and ISO-8601 use.
@usableFromInline
enum ISO8601Text {
    @usableFromInline
    static func parse(_ text: String) -> Date? {
        var utf8 = Array(text.utf8)[...]
        func number(_ digits: Int) -> Int? {
            guard utf8.count >= digits else { return nil }
            var value = 0
            for _ in 0..<digits {
                guard let byte = utf8.first, byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
                utf8 = utf8.dropFirst()
            }
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard utf8.first == byte else { return false }
            utf8 = utf8.dropFirst()
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var seconds = 0.0
        if let separator = utf8.first, separator == 84 || separator == 32 {  // 'T' or ' '
            utf8 = utf8.dropFirst()
            guard let hour = number(2), expect(58), let minute = number(2), hour < 24, minute < 60 else { return nil }
            seconds = Double(hour * 3600 + minute * 60)
            if expect(58) {
                guard let second = number(2), second < 61 else { return nil }
                seconds += Double(second)
                if expect(46) {  // '.'
                    var scale = 0.1
                    var sawDigit = false
                    while let byte = utf8.first, byte >= 48, byte <= 57 {
                        seconds += Double(byte - 48) * scale
                        scale /= 10
                        sawDigit = true
                        utf8 = utf8.dropFirst()
                    }
                    guard sawDigit else { return nil }
                }
            }
            if expect(90) || expect(122) {  // 'Z' / 'z'
            } else if let sign = utf8.first, sign == 43 || sign == 45 {  // '+' / '-'
                utf8 = utf8.dropFirst()
                guard let offsetHours = number(2) else { return nil }
                _ = expect(58)
                let offsetMinutes = number(2) ?? 0
                let offset = Double(offsetHours * 3600 + offsetMinutes * 60)
                seconds += sign == 43 ? -offset : offset
            }
        }
        guard utf8.isEmpty else { return nil }
        // Days from the civil date (proleptic Gregorian), then shift to the 2001 reference.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let daysSince1970 = era * 146_097 + dayOfEra - 719_468
        let unix = Double(daysSince1970) * 86_400 + seconds
        return Date(timeIntervalSince1970: unix)
    }
}

// MARK: - UUID

/// Stored as `TEXT` in lowercase, with hyphens (`e621e1f8-c36c-495a-93fc-0c247a3e6e5f`): the
/// text StructuredQueries and SQLiteData bind, and SQLite's `uuid` extension writes, so SQL
/// comparisons match rows they wrote. Reading accepts the text in any case, and a 16-byte
/// `BLOB`.
extension UUID: DatabaseValueConvertible {
    /// The value as stored: its lowercase text, as TEXT.
    public var databaseValue: DatabaseValue { .text(lowercasedText) }

    /// The stored value as a `UUID`, or `nil` when it holds no valid one.
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> UUID? {
        switch databaseValue {
        case .text(let text):
            return UUID(uuidString: text)
        case .blob(let data) where data.count == 16:
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &bytes) { $0.copyBytes(from: data) }
            return UUID(uuid: bytes)
        default:
            return nil
        }
    }

    /// `uuidString` in lowercase, written from the 16 bytes in one allocation (where
    /// `uuidString.lowercased()` makes two strings).
    package var lowercasedText: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = Self.hexDigit(byte >> 4)
                    text[position + 1] = Self.hexDigit(byte & 0x0F)
                    position += 2
                }
                return position
            }
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}

// MARK: - URL

/// Stored as `TEXT` (`absoluteString`); reading parses it with `URL(string:)`.
extension URL: DatabaseValueConvertible {
    /// The value as stored: its `absoluteString`, as TEXT.
    @inlinable public var databaseValue: DatabaseValue { .text(absoluteString) }

    /// The stored value as a `URL`, or `nil` when it holds no valid one.
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> URL? {
        if case .text(let text) = databaseValue { return URL(string: text) }
        return nil
    }
}

// MARK: - Decimal

/// Stored as `TEXT` (`description`, e.g. `"12.345"`), which is exact; SQL arithmetic on it
/// would go through `REAL`, so compare or sum in Swift when exactness matters. Reading also
/// accepts `INTEGER` (exact) and `REAL`.
extension Decimal: DatabaseValueConvertible {
    /// The value as stored: its exact decimal text, as TEXT.
    @inlinable public var databaseValue: DatabaseValue { .text(description) }

    /// The stored value as a `Decimal`, or `nil` when it holds no valid one.
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Decimal? {
        switch databaseValue {
        case .text(let text): return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        case .integer(let value): return Decimal(value)
        case .real(let value): return Decimal(value)
        default: return nil
        }
    }
}
