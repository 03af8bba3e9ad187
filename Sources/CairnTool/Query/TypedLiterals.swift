import Cairn
import CairnCoreData
import CairnSQLite
import Foundation

/// Reads strings in `--where` as the values they stand for where they meet a typed attribute:
/// `startedAt > "2024-03-01"` compares with the date, as `startedAt > CAST(730944000, "NSDate")` does,
/// and `id == "C4637490-BD7F-…"` with the 16 bytes Core Data stores a UUID as. Without this
/// SQLite would compare a number or a blob with text, which never matches.
struct TypedLiterals {
    let query: EntityQuery

    func rewrite(_ predicate: FormatPredicate) -> FormatPredicate {
        switch predicate {
        case .constant: return predicate
        case .and(let operands): return .and(operands.map(rewrite))
        case .or(let operands): return .or(operands.map(rewrite))
        case .not(let operand): return .not(rewrite(operand))
        case .comparison(var comparison):
            if isDate(comparison.lhs) {
                comparison.rhs = dates(in: comparison.rhs)
            } else if isDate(comparison.rhs) {
                comparison.lhs = dates(in: comparison.lhs)
            } else if query.type(of: comparison.lhs) == .uuid {
                comparison.rhs = uuids(in: comparison.rhs)
            } else if query.type(of: comparison.rhs) == .uuid {
                comparison.lhs = uuids(in: comparison.lhs)
            }
            return .comparison(comparison)
        }
    }

    /// A date attribute, or in a Cairn store that does not record its schema any REAL column:
    /// Cairn keeps dates there as seconds since 2001, and a date string compared with a
    /// number can only mean a date.
    func isDate(_ expression: FormatExpression) -> Bool {
        let type = query.type(of: expression)
        return type == .date || (type == .double && query.store.kind == .cairn && !query.store.model.typesRecorded)
    }

    /// A string constant (or a `{low, high}` of them) that reads as an ISO 8601 date.
    func dates(in expression: FormatExpression) -> FormatExpression {
        switch expression {
        case .constant(.string(let text)): Self.date(text).map { .constant(.date($0)) } ?? expression
        case .constant(.array(let values)): .constant(.array(values.map { value in
            if case .string(let text) = value, let date = Self.date(text) { .date(date) } else { value }
        }))
        case .aggregate(let elements): .aggregate(elements.map(dates))
        default: expression
        }
    }

    /// A UUID string (or a `{…}` of them) as the store keeps a UUID attribute: Core Data's 16
    /// bytes, or Cairn's lowercase text.
    func uuids(in expression: FormatExpression) -> FormatExpression {
        func stored(_ value: FormatValue) -> FormatValue {
            guard case .string(let text) = value, let uuid = UUID(uuidString: text) else { return value }
            if query.store.kind == .apple { return .data(withUnsafeBytes(of: uuid.uuid) { Data($0) }) }
            return .string(uuid.lowercasedText)
        }
        switch expression {
        case .constant(let value): return .constant(value.mapArray(stored) ?? stored(value))
        case .aggregate(let elements): return .aggregate(elements.map(uuids))
        default: return expression
        }
    }

    /// `2024-03-01`, `2024-03-01 09:30`, `2024-03-01T09:30:00Z`, `2024-03-01T09:30:00.250+02:00`;
    /// UTC when no zone is given: the date texts a `Date` column reads.
    static func date(_ text: String) -> Date? {
        DateText.parse(text.trimmingCharacters(in: .whitespaces))
    }
}

private extension FormatValue {
    /// An array with `transform` applied to each element; nil for any other value.
    func mapArray(_ transform: (FormatValue) -> FormatValue) -> FormatValue? {
        guard case .array(let values) = self else { return nil }
        return .array(values.map(transform))
    }
}
