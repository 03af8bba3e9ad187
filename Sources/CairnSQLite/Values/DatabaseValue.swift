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
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// Whether this is SQL `NULL`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension DatabaseValue: CustomStringConvertible {
    /// A literal-like rendering for diagnostics (`NULL`, `42`, `'text'`, `x'00ff'`).
    /// Never used to build SQL: values are always bound.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data): "x'" + data.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }
}
