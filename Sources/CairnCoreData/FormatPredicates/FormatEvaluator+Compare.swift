import Cairn
import Foundation

extension FormatEvaluator {
    /// One comparison between two values, as `NSComparisonPredicate` evaluates it.
    ///
    /// nil equals only nil; an ordering comparison with nil, or between values of different
    /// kinds (a string and a number), is false; numbers of any type compare by value (`TRUE`
    /// is 1); `IN` and `CONTAINS` test membership for collections and substrings for strings.
    func test(
        _ lhs: FormatOperand, _ op: FormatOperator, _ rhs: FormatOperand, _ options: FormatComparisonOptions
    ) throws(FormatPredicateError) -> Bool {
        switch op {
        case .equalTo:
            return equal(lhs, rhs, options)
        case .notEqualTo:
            return !equal(lhs, rhs, options)
        case .lessThan:
            return order(lhs, rhs, options) == .orderedAscending
        case .lessThanOrEqualTo:
            guard let order = order(lhs, rhs, options) else { return false }
            return order != .orderedDescending
        case .greaterThan:
            return order(lhs, rhs, options) == .orderedDescending
        case .greaterThanOrEqualTo:
            guard let order = order(lhs, rhs, options) else { return false }
            return order != .orderedAscending
        case .between:
            let bounds = rhs.elements
            guard case .collection = rhs, bounds.count == 2 else {
                throw fail("BETWEEN needs a collection of two bounds, such as {1, 10}, not a \(rhs.kindName)")
            }
            guard let low = order(lhs, bounds[0], options), let high = order(lhs, bounds[1], options) else {
                return false
            }
            return low != .orderedAscending && high != .orderedDescending
        case .in:
            switch rhs {
            case .collection(let elements):
                return elements.contains { equal(lhs, $0, options) }
            case .value(.string(let haystack)):
                guard let needle = lhs.string else { return false }
                return PredicateFunctions.test(needle, .in, haystack, options.text)
            case .value(.null):
                return false
            default:
                return equal(lhs, rhs, options)
            }
        case .contains:
            switch lhs {
            case .collection(let elements):
                return elements.contains { equal($0, rhs, options) }
            case .value(.string(let haystack)):
                guard let needle = rhs.string else { return false }
                return PredicateFunctions.test(haystack, .contains, needle, options.text)
            default:
                return false
            }
        case .beginsWith, .endsWith, .like, .matches:
            guard let string = lhs.string, let pattern = rhs.string else { return false }
            switch op {
            case .beginsWith: return PredicateFunctions.test(string, .beginsWith, pattern, options.text)
            case .endsWith: return PredicateFunctions.test(string, .endsWith, pattern, options.text)
            case .like: return PredicateFunctions.test(string, .like, pattern, options.text)
            default: return try matches(string, pattern, options)
            }
        }
    }

    /// Equality as `isEqual:` after the string options: numbers by value, collections element
    /// by element, models by identity, other values by `==` (``FormatOpaqueValue``), and
    /// strings literally, as `NSString.isEqual(to:)` is
    /// documented to compare: `"Café"` precomposed is not `"Cafe\u{301}"`, which is also what
    /// the SQL a fetch runs (`IS ?`, by bytes) answers. With `[c]` or `[d]`, both sides are
    /// folded and normalized first (``fold(_:_:)``), so canonically equivalent text is equal.
    func equal(_ lhs: FormatOperand, _ rhs: FormatOperand, _ options: FormatComparisonOptions) -> Bool {
        if let a = lhs.number, let b = rhs.number { return a.compare(b) == .orderedSame }
        switch (lhs, rhs) {
        case (.value(.string(let a)), .value(.string(let b))):
            return fold(a, options).utf8.elementsEqual(fold(b, options).utf8)
        case (.value(let a), .value(let b)):
            return a == b
        case (.collection(let a), .collection(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, options) }
        case (.object(let a), .object(let b)):
            return FormatOperand.identity(of: a) === FormatOperand.identity(of: b)
        case (.object(let object), .value(.identifier(let identifier))),
            (.value(.identifier(let identifier)), .object(let object)):
            return (object as? PersistentModelReader)?.model.persistentModelID == identifier
        case (.object(let object), .value(.opaque(let value))), (.value(.opaque(let value)), .object(let object)):
            // An object that also answers keys (a class conforming to KeyValueReadable) passed
            // for `%@`, and the object evaluated.
            let base: Any = (object as? PersistentModelReader)?.model ?? object
            return FormatOpaqueValue(base) == value
        default:
            return false
        }
    }

    /// The order of two values of the same kind (numbers, strings, dates); nil otherwise.
    /// Strings are ordered by Unicode scalar, after ``fold(_:_:)``, as SQLite's `BINARY`
    /// comparison orders their UTF-8, so `<` agrees with `==` and with the SQL of a fetch.
    func order(_ lhs: FormatOperand, _ rhs: FormatOperand, _ options: FormatComparisonOptions) -> ComparisonResult? {
        if let a = lhs.number, let b = rhs.number { return a.compare(b) }
        switch (lhs, rhs) {
        case (.value(.string(let a)), .value(.string(let b))):
            return PredicateFunctions.literalCompare(fold(a, options), fold(b, options))
        case (.value(.date(let a)), .value(.date(let b))):
            return a == b ? .orderedSame : a < b ? .orderedAscending : .orderedDescending
        default:
            return nil
        }
    }

    /// The string with `[c]` and `[d]` applied: Unicode case and diacritic folding, then
    /// canonical composition (NFC), so that text that differs only in how it is encoded folds
    /// to the same scalars. The SQL of a fetch folds with the same function (`cairn_fold`).
    func fold(_ string: String, _ options: FormatComparisonOptions) -> String {
        Self.fold(string, options)
    }

    /// ``fold(_:_:)`` outside an evaluation (the SQL compiler folds constants with it).
    static func fold(_ string: String, _ options: FormatComparisonOptions) -> String {
        PredicateFunctions.fold(string, options.text)
    }

    // MARK: - MATCHES

    /// `MATCHES`: the whole string matches the ICU regular expression, within the limits.
    func matches(_ string: String, _ pattern: String, _ options: FormatComparisonOptions) throws(FormatPredicateError) -> Bool {
        do {
            return try PredicateFunctions.matches(string, pattern, options.text, limits: limits.match, cache: regexCache)
        } catch {
            throw FormatPredicateError(error)
        }
    }
}
