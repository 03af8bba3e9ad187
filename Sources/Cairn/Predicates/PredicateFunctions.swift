import Foundation

/// The SQL functions and collations Cairn's compiled predicates and sorts call, `#Predicate`
/// and `SortDescriptor`'s as well as Core Data's format predicates and sort descriptors': the
/// one registry every connection of a container gets, each name once.
///
/// Each one runs the same Swift code as the in-memory path (Foundation's `evaluate` and
/// `sorted(using:)`, or CairnCoreData's `evaluate(with:)` and `sortedArray(using:)`), so a
/// fetch returns exactly the rows and order Swift would:
///
/// | SQL | Swift |
/// |---|---|
/// | `x COLLATE cairn_swift` | `String`'s `<` and `==` (Unicode canonical equivalence) |
/// | `x COLLATE cairn_lexical` | `String.StandardComparator.lexical` |
/// | `x COLLATE cairn_localized` | `localizedCompare:` as Core Data sorts by it: case- and diacritic-folded order, then unaccented before accented, then lowercase before uppercase |
/// | `x COLLATE cairn_localized_case_insensitive` | `localizedCaseInsensitiveCompare:` (as `cairn_localized`, without the case tie-break) |
/// | `x COLLATE cairn_localized_standard` | `localizedStandardCompare:` (Finder-like: digit runs by value) |
/// | `x COLLATE cairn_case_insensitive` | `caseInsensitiveCompare:` (literal order after case folding) |
/// | `x COLLATE cairn_decimal` | `Decimal`'s `<` and `==` on the exact text Cairn stores |
/// | `cairn_fold(x, flags)` | `x` case-folded (flags & 1, `[c]`) and diacritic-folded (flags & 2, `[d]`), then composed (NFC) |
/// | `cairn_localized_standard_contains(a, b)` | `a.localizedStandardContains(b)` |
/// | `cairn_localized_compare(a, b)` | `a.localizedCompare(b).rawValue` |
/// | `cairn_case_insensitive_compare(a, b)` | `a.caseInsensitiveCompare(b).rawValue` |
/// | `cairn_contains(a, b)` | `a.contains(b)` (Characters) |
/// | `cairn_starts_with(a, b)` | `a.starts(with: b)` (Characters) |
/// | `cairn_count(a)` | `a.count` (Characters) |
/// | `cairn_lower(a)`, `cairn_upper(a)` | `a.lowercased()`, `a.uppercased()` |
/// | `cairn_string_test(op, a, b, flags)` | Core Data's `a BEGINSWITH`/`ENDSWITH`/`CONTAINS`/`LIKE`/`IN b` under `[c]`/`[d]` flags; 0 for NULL or a value that is not text (`IN` on non-text is `==`) |
/// | `cairn_regexp(pattern, a, flags)` | Core Data's `a MATCHES pattern` (the whole string, ICU syntax), within limits; an error for an invalid or runaway pattern |
/// | `cairn_unwrap(x)` | `x!`: raises "Unexpectedly found nil" for `NULL` |
///
/// A text function returns `NULL` when an argument is not text.
///
/// ```swift
/// var configuration = Configuration()
/// configuration.addCairnPredicateSupport()
/// let db = try Database(path: path, configuration: configuration)
/// try db.fetchAll(sql: "SELECT title FROM Workout WHERE cairn_fold(title, 3) LIKE '%cafe%'") { … }
/// ```
public enum PredicateFunctions {
    static let unwrapName = "cairn_unwrap"
    static let containsName = "cairn_contains"
    static let startsWithName = "cairn_starts_with"
    static let characterCountName = "cairn_count"
    static let foldName = "cairn_fold"
    static let stringTestName = "cairn_string_test"
    static let regexpName = "cairn_regexp"
    static let lowerName = "cairn_lower"
    static let upperName = "cairn_upper"
    static let localizedStandardContainsName = "cairn_localized_standard_contains"
    static let localizedCompareName = "cairn_localized_compare"
    static let caseInsensitiveCompareName = "cairn_case_insensitive_compare"

    /// The collation ordering text as Swift's `String` `<`.
    public static let swiftCollationName = swiftStringCollation
    /// The collation ordering text as `String.compare(_:)`.
    public static let lexicalCollationName = "cairn_lexical"
    /// The collation ordering text as `localizedCompare:` (see the table above).
    public static let localizedCollationName = "cairn_localized"
    /// The collation ordering text as `localizedCaseInsensitiveCompare:`.
    public static let localizedCaseInsensitiveCollationName = "cairn_localized_case_insensitive"
    /// The collation ordering text as `localizedStandardCompare:` (natural order).
    public static let localizedStandardCollationName = "cairn_localized_standard"
    /// The collation ordering text as `caseInsensitiveCompare:`.
    public static let caseInsensitiveCollationName = "cairn_case_insensitive"
    /// The collation ordering `Decimal` values, which are stored as exact text ("10" < "9"
    /// in text order), by their numeric value.
    public static let decimalCollationName = "cairn_decimal"

    /// `Decimal` ordering of two stored decimal texts; text that is not a number sorts
    /// after every number, by its characters.
    public static func decimalCompare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        let locale = Locale(identifier: "en_US_POSIX")
        switch (Decimal(string: lhs, locale: locale), Decimal(string: rhs, locale: locale)) {
        case let (l?, r?): return l < r ? .orderedAscending : (l == r ? .orderedSame : .orderedDescending)
        case (nil, _?): return .orderedDescending
        case (_?, nil): return .orderedAscending
        case (nil, nil): return lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
        }
    }

    // MARK: - Semantics shared by SQL and memory

    /// `localizedStandardContains`: case- and diacritic-insensitive containment; an empty
    /// search string is contained nowhere (as on Apple platforms).
    public static func localizedStandardContains(_ string: String, _ other: String) -> Bool {
        string.range(of: other, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }

    /// `localizedCompare`.
    public static func localizedCompare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        lhs.localizedCompare(rhs)
    }

    /// `caseInsensitiveCompare`.
    public static func caseInsensitiveCompare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        lhs.caseInsensitiveCompare(rhs)
    }

    /// Swift's `String` ordering as a `ComparisonResult`.
    public static func swiftCompare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
    }

    /// The case- and diacritic-folded form `cairn_fold(text, 3)` answers (composed, NFC).
    public static func fold(_ text: String) -> String {
        fold(text, [.caseInsensitive, .diacriticInsensitive])
    }

    static func collectionContains<C: Collection>(_ base: C, _ other: C) -> Bool where C.Element: Equatable {
        base.contains(other)
    }

    static func sequenceStarts<S: Sequence>(_ base: S, with prefix: S) -> Bool where S.Element: Equatable {
        base.starts(with: prefix)
    }

    // MARK: - Registration

    /// Every function above, each name once.
    public static var functions: [DatabaseFunction] {
        [
            foldFunction,
            text1(characterCountName) { $0.count },
            lowerFunction,
            upperFunction,
            text2(containsName) { collectionContains($0, $1) },
            text2(startsWithName) { sequenceStarts($0, with: $1) },
            text2(localizedStandardContainsName) { localizedStandardContains($0, $1) },
            text2(localizedCompareName) { localizedCompare($0, $1).rawValue },
            text2(caseInsensitiveCompareName) { caseInsensitiveCompare($0, $1).rawValue },
            stringTestFunction,
            regexpFunction,
            // Not deterministic, so SQLite never evaluates it ahead of the CASE that guards it.
            DatabaseFunction(unwrapName, argumentCount: 1, isDeterministic: false) { arguments in
                guard let value = arguments.first, !value.isNull else {
                    throw PredicateEvaluationError.unexpectedNil
                }
                return value
            },
        ]
    }

    /// Every collation above, each name once.
    public static var collations: [DatabaseCollation] {
        [
            DatabaseCollation(swiftCollationName) { swiftCompare($0, $1) },
            DatabaseCollation(lexicalCollationName) { String.StandardComparator.lexical.compare($0, $1) },
            DatabaseCollation(localizedCollationName) { localizedOrder($0, $1, caseSensitive: true) },
            DatabaseCollation(localizedCaseInsensitiveCollationName) { localizedOrder($0, $1, caseSensitive: false) },
            DatabaseCollation(localizedStandardCollationName) { localizedStandardOrder($0, $1) },
            DatabaseCollation(caseInsensitiveCollationName) { caseInsensitiveOrder($0, $1) },
            DatabaseCollation(decimalCollationName) { decimalCompare($0, $1) },
        ]
    }

    /// `cairn_fold(text, flags)`.
    package static let foldFunction = DatabaseFunction(foldName, argumentCount: 2) { arguments in
        guard case .text(let text) = arguments[0] else { return nil }
        return fold(text, textOptions(arguments[1]))
    }

    /// `cairn_string_test(operator, lhs, rhs, flags)`.
    package static let stringTestFunction = DatabaseFunction(stringTestName, argumentCount: 4) { arguments in
        guard case .text(let name) = arguments[0] else { return false }
        return try stringTest(name, arguments[1], arguments[2], textOptions(arguments[3]))
    }

    /// `cairn_regexp(pattern, text, flags)`.
    package static let regexpFunction = DatabaseFunction(regexpName, argumentCount: 3) { arguments in
        // Two-valued like every compiled comparison: a nil text or pattern does not match.
        guard case .text(let pattern) = arguments[0], case .text(let text) = arguments[1] else { return false }
        return try matches(text, pattern, textOptions(arguments[2]), limits: .default, cache: RegexCache())
    }

    /// `cairn_lower(text)`.
    package static let lowerFunction = text1(lowerName) { $0.lowercased() }
    /// `cairn_upper(text)`.
    package static let upperFunction = text1(upperName) { $0.uppercased() }

    /// The `[c]`/`[d]` flags argument of `cairn_fold`, `cairn_string_test` and `cairn_regexp`.
    private static func textOptions(_ value: DatabaseValue) -> TextOptions {
        guard case .integer(let flags) = value else { return [] }
        return TextOptions(rawValue: Int(truncatingIfNeeded: flags)).intersection([.caseInsensitive, .diacriticInsensitive])
    }

    private static func text1(
        _ name: String, _ body: @escaping @Sendable (String) -> any DatabaseValueConvertible
    ) -> DatabaseFunction {
        DatabaseFunction(name, argumentCount: 1) { arguments in
            guard case .text(let text)? = arguments.first else { return nil }
            return body(text)
        }
    }

    private static func text2(
        _ name: String, _ body: @escaping @Sendable (String, String) -> any DatabaseValueConvertible
    ) -> DatabaseFunction {
        DatabaseFunction(name, argumentCount: 2) { arguments in
            guard arguments.count == 2, case .text(let lhs) = arguments[0], case .text(let rhs) = arguments[1] else {
                return nil
            }
            return body(lhs, rhs)
        }
    }
}

/// Raised inside SQL where Swift's `evaluate` would throw.
enum PredicateEvaluationError: Error, CustomStringConvertible {
    case unexpectedNil

    var description: String {
        "Unexpectedly found nil while unwrapping an Optional value in a predicate (a forced unwrap `!`)"
    }
}

extension Configuration {
    /// Registers Cairn's predicate functions and collations (``PredicateFunctions``) on every
    /// connection opened with this configuration. Containers do this for their stores; call it
    /// for a ``Database`` you open yourself to run Cairn's compiled queries on it.
    ///
    /// ```swift
    /// var configuration = Configuration()
    /// configuration.addCairnPredicateSupport()
    /// // SELECT * FROM "Workout" ORDER BY "title" COLLATE cairn_swift
    /// ```
    public mutating func addCairnPredicateSupport() {
        let functionNames = Set(functions.map(\.name))
        functions += PredicateFunctions.functions.filter { !functionNames.contains($0.name) }
        let collationNames = Set(collations.map(\.name))
        collations += PredicateFunctions.collations.filter { !collationNames.contains($0.name) }
    }
}
