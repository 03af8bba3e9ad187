import Cairn
import CairnSQLite
import Foundation

/// A stored value as a user thinks of it: dates in ISO 8601 (stored as seconds since
/// 2001-01-01), Bools, UUIDs, binary data as its size.
enum Cell: Equatable {
    case null
    /// A number, as its digits (so JSON and CSV print it unquoted).
    case number(String)
    case bool(Bool)
    case text(String)

    init(_ value: DatabaseValue, type: ValueType) {
        switch (value, type) {
        case (.null, _):
            self = .null
        case (.real(let seconds), .date):
            self = .text(Cell.iso8601(seconds))
        case (.integer(let seconds), .date):
            self = .text(Cell.iso8601(Double(seconds)))
        case (.integer(let int), .bool):
            self = int == 0 || int == 1 ? .bool(int == 1) : .number(String(int))
        case (.blob(let data), .uuid) where data.count == 16:
            self = .text(data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }.uuidString)
        case (.blob(let data), _):
            self = .text("<\(data.count) bytes>")
        case (.integer(let int), _):
            self = .number(String(int))
        case (.real(let double), _):
            self = double.isFinite ? .number(Cell.decimalText(double)) : .text(String(double))
        case (.text(let text), _):
            self = .text(text)
        }
    }

    /// The shortest digits that read back as `double` (`2.5`, `120`, not `120.0`).
    static func decimalText(_ double: Double) -> String {
        if double == double.rounded(), abs(double) < 1e15 { return String(Int64(double)) }
        return "\(double)"
    }

    /// `2024-03-01T09:30:00Z`, with milliseconds (rounded, as `sqlite3`'s `strftime('%f')`
    /// shows them) when the value has a fraction of a second.
    static func iso8601(_ secondsSince2001: Double) -> String {
        let milliseconds = (secondsSince2001 * 1000).rounded()
        guard milliseconds.magnitude < 1e17 else { return String(secondsSince2001) }
        let whole = (milliseconds / 1000).rounded(.down)
        let fraction = Int(milliseconds - whole * 1000)
        let text = Date(timeIntervalSinceReferenceDate: whole).formatted(Date.ISO8601FormatStyle())
        guard fraction != 0, text.hasSuffix("Z") else { return text }
        return text.dropLast() + "." + String(format: "%03d", fraction) + "Z"
    }

    /// The value as text for tables and CSV; `nil` for NULL.
    var plain: String? {
        switch self {
        case .null: nil
        case .number(let digits): digits
        case .bool(let bool): bool ? "true" : "false"
        case .text(let text): text
        }
    }

    /// The value as JSON.
    var json: String {
        switch self {
        case .null: "null"
        case .number(let digits): digits
        case .bool(let bool): bool ? "true" : "false"
        case .text(let text): Cell.jsonString(text)
        }
    }

    /// A JSON string literal, escaped as Cairn's predicate formats and history documents are.
    static func jsonString(_ text: String) -> String { jsonStringLiteral(text) }

    /// RFC 4180: quoted when it holds a comma, a quote or a line break; quotes doubled.
    static func csvField(_ text: String?) -> String {
        guard let text else { return "" }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
