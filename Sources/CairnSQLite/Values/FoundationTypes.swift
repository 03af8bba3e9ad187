import CSQLite
import Foundation

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
