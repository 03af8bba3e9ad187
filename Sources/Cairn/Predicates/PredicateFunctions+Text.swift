import Foundation

// Core Data's string comparisons (`[c]`/`[d]` folding, BEGINSWITH, ENDSWITH, CONTAINS, LIKE,
// IN on text, MATCHES): the one implementation that the SQL functions registered on every
// connection (`cairn_fold`, `cairn_string_test`, `cairn_regexp`) and CairnCoreData's in-memory
// evaluator both call, so a fetch and `evaluate(with:)` give the same answers. Strings compare
// by Unicode scalar, as SQLite's `BINARY`, `instr` and `GLOB` compare their UTF-8.
extension PredicateFunctions {
    /// The `[c]` and `[d]` options of a string comparison, with the bits `cairn_fold` and
    /// `cairn_string_test` take as their flags argument.
    package struct TextOptions: OptionSet, Sendable, Hashable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }

        /// `[c]`: case-insensitive.
        package static let caseInsensitive = TextOptions(rawValue: 1)
        /// `[d]`: diacritic-insensitive.
        package static let diacriticInsensitive = TextOptions(rawValue: 2)
    }

    /// The string with `[c]` and `[d]` applied: Unicode case and diacritic folding, then
    /// canonical composition (NFC), so that text that differs only in how it is encoded
    /// (`"Zürich"` precomposed, `"Zu\u{308}rich"` decomposed) folds to the same scalars.
    /// Without options the string is returned as it is: compared literally.
    package static func fold(_ string: String, _ options: TextOptions) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        if folding.isEmpty { return string }
        let folded = string.folding(options: folding, locale: nil)
        // ASCII text is already composed; composing it would only cost a Foundation round trip.
        if folded.utf8.allSatisfy({ $0 < 0x80 }) { return folded }
        return folded.precomposedStringWithCanonicalMapping
    }

    /// Order by Unicode scalar: UTF-8 byte order, which is scalar order and SQLite's `BINARY`.
    package static func literalCompare(_ a: String, _ b: String) -> ComparisonResult {
        var x = a.utf8.makeIterator(), y = b.utf8.makeIterator()
        while true {
            switch (x.next(), y.next()) {
            case (nil, nil): return .orderedSame
            case (nil, _): return .orderedAscending
            case (_, nil): return .orderedDescending
            case let (p?, q?) where p != q: return p < q ? .orderedAscending : .orderedDescending
            default: continue
            }
        }
    }

    /// A string test of Core Data's format language, after folding both sides.
    package enum TextTest: String, Sendable {
        /// `s BEGINSWITH prefix`.
        case beginsWith = "BEGINSWITH"
        /// `s ENDSWITH suffix`.
        case endsWith = "ENDSWITH"
        /// `s CONTAINS t`: `t` is a substring of `s`; the empty string is in every string.
        case contains = "CONTAINS"
        /// `s LIKE pattern`: `*` any run of scalars, `?` one, `\` escapes the next.
        case like = "LIKE"
        /// `t IN s`: `t` is a substring of `s` (``contains`` with its sides swapped).
        case `in` = "IN"
    }

    /// `string <test> pattern` under `options`, by Unicode scalar.
    package static func test(_ string: String, _ test: TextTest, _ pattern: String, _ options: TextOptions) -> Bool {
        let text = fold(string, options), other = fold(pattern, options)
        switch test {
        case .beginsWith: return text.utf8.starts(with: other.utf8)
        case .endsWith: return text.utf8.reversed().starts(with: other.utf8.reversed())
        case .contains: return substring(other, of: text)
        case .in: return substring(text, of: other)
        case .like: return like(Array(text.unicodeScalars), Array(other.unicodeScalars))
        }
    }

    /// Substring test by Unicode scalars, as SQL's `instr` and `GLOB` test; the empty string
    /// is in every string (as they also answer).
    package static func substring(_ needle: String, of haystack: String) -> Bool {
        haystack.utf8.firstRange(of: needle.utf8) != nil
    }

    /// `LIKE`: `*` matches any run of scalars, `?` exactly one, `\` escapes the next; by
    /// Unicode scalar, as the `GLOB` it compiles to matches.
    /// Linear backtracking on the last `*`, so no pattern can take exponential time.
    static func like(_ text: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
        var t = 0, p = 0
        var starPattern = -1, starText = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "*" {
                starPattern = p
                starText = t
                p += 1
                continue
            }
            if p < pattern.count {
                var literal = pattern[p]
                var width = 1
                if literal == "\\", p + 1 < pattern.count {
                    literal = pattern[p + 1]
                    width = 2
                } else if literal == "?" {
                    t += 1
                    p += 1
                    continue
                }
                if literal == text[t] {
                    t += 1
                    p += width
                    continue
                }
            }
            guard starPattern >= 0 else { return false }
            p = starPattern + 1
            starText += 1
            t = starText
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// `cairn_string_test(operator, lhs, rhs, flags)`: a string test whose right side is a
    /// column or an expression rather than a constant, on one row's values, answering as the
    /// in-memory evaluator does on the same values. Two-valued: a NULL or a value of another
    /// kind does not match, except that `IN` with a right side that is not text is `==`.
    static func stringTest(_ name: String, _ lhs: DatabaseValue, _ rhs: DatabaseValue, _ options: TextOptions)
        throws(TextMatchError) -> Bool
    {
        if name == "MATCHES" {
            guard case .text(let text) = lhs, case .text(let pattern) = rhs else { return false }
            return try matches(text, pattern, options, limits: .default, cache: RegexCache())
        }
        guard let test = TextTest(rawValue: name) else { return false }
        switch (lhs, rhs) {
        case (.text(let string), .text(let pattern)):
            return self.test(string, test, pattern, options)
        case (_, .null), (.null, _):
            return false
        case (.integer(let a), .integer(let b)) where test == .in:
            return a == b
        case (.integer(let a), .real(let b)) where test == .in:
            return Double(a) == b
        case (.real(let a), .integer(let b)) where test == .in:
            return a == Double(b)
        case (.real(let a), .real(let b)) where test == .in:
            return a == b
        case (.blob(let a), .blob(let b)) where test == .in:
            return a == b
        default:
            return false
        }
    }
}
