import Foundation

/// A value as SQLite stores it: one of its five storage classes.
///
/// Every Swift value Cairn binds or reads passes through this type, so the query IR, the
/// engine and the surfaces above agree on one representation:
///
/// ```swift
/// let value: DatabaseValue = .text("Café")   // bound as ?1, SQLITE_TEXT
/// ```
public enum DatabaseValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A signed 64-bit integer (`SQLITE_INTEGER`).
    case integer(Int64)
    /// A 64-bit floating-point number (`SQLITE_FLOAT`).
    case real(Double)
    /// UTF-8 text (`SQLITE_TEXT`).
    case text(String)
    /// Bytes (`SQLITE_BLOB`).
    case blob(Data)

    /// Whether this is SQL `NULL`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension DatabaseValue: CustomStringConvertible {
    /// A literal-like rendering for diagnostics (`NULL`, `42`, `'text'`, `x'00ff'`). Text
    /// beyond 100 scalars and blobs beyond 32 bytes are cut, with their length
    /// (`x'0000…' (2147483648 bytes)`), so an error about a large value stays readable.
    /// Never used to build SQL: values are always bound.
    public var description: String {
        switch self {
        case .null:
            return "NULL"
        case .integer(let value):
            return String(value)
        case .real(let value):
            return String(value)
        case .text(let value):
            let scalars = value.unicodeScalars
            var shown = String.UnicodeScalarView()
            shown.append(contentsOf: scalars.prefix(100))
            let quoted = String(shown).replacingOccurrences(of: "'", with: "''")
            return shown.count == scalars.count ? "'\(quoted)'" : "'\(quoted)…' (\(value.utf8.count) bytes)"
        case .blob(let data):
            let digits = Array("0123456789abcdef")
            var hex = ""
            for byte in data.prefix(32) {
                hex.append(digits[Int(byte >> 4)])
                hex.append(digits[Int(byte & 0x0F)])
            }
            return data.count <= 32 ? "x'\(hex)'" : "x'\(hex)…' (\(data.count) bytes)"
        }
    }
}
