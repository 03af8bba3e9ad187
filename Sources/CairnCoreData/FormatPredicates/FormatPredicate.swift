import Foundation

/// A parsed Core Data format predicate: Cairn's name for the tree behind `NSPredicate`.
///
/// Parse once with arguments substituted into the tree, then evaluate in memory or compile to
/// SQL. `predicateFormat` prints a canonical format that parses back to an equal tree.
///
/// ```swift
/// let search = try FormatPredicate("name CONTAINS[cd] %@ AND amount > %f",
///                                  arguments: ["bucks", 50.0])
/// search.predicateFormat                    // name CONTAINS[cd] "bucks" AND amount > 50.0
/// try search.evaluate(with: ["name": "Starbucks", "amount": 72.5])   // true
/// ```
public indirect enum FormatPredicate: Sendable, Hashable {
    /// `TRUEPREDICATE` (`true`) or `FALSEPREDICATE` (`false`).
    case constant(Bool)
    /// `a AND b AND …` (`&&`); an empty list is true.
    case and([FormatPredicate])
    /// `a OR b OR …` (`||`); an empty list is false.
    case or([FormatPredicate])
    /// `NOT a` (`!`).
    case not(FormatPredicate)
    /// `lhs op[options] rhs`, optionally under `ANY`/`SOME`/`ALL` (`NONE` parses to
    /// `NOT ANY`).
    case comparison(FormatComparison)
}

/// One comparison: `ANY tags.name BEGINSWITH[cd] "sw"`.
public struct FormatComparison: Sendable, Hashable {
    /// The left expression.
    public var lhs: FormatExpression
    /// The operator.
    public var operatorType: FormatOperator
    /// The right expression.
    public var rhs: FormatExpression
    /// `ANY`/`SOME`, `ALL`, or none (`direct`).
    public var modifier: FormatModifier
    /// `[c]`, `[d]`, `[n]`.
    public var options: FormatComparisonOptions

    /// A comparison of `lhs` with `rhs`: what the parser builds for `lhs op[options] rhs`.
    ///
    /// ```swift
    /// let comparison = FormatComparison(
    ///     .keyPath(base: .evaluatedObject, path: ["tags", "name"]), .beginsWith,
    ///     .constant(.string("sw")), modifier: .any, options: [.caseInsensitive, .diacriticInsensitive])
    /// FormatPredicate.comparison(comparison).predicateFormat   // ANY tags.name BEGINSWITH[cd] "sw"
    /// ```
    ///
    /// - Parameters:
    ///   - lhs: The left expression.
    ///   - operatorType: The operator.
    ///   - rhs: The right expression.
    ///   - modifier: `ANY`, `ALL`, or none (the default).
    ///   - options: The string options written in brackets after the operator (none by default).
    public init(
        _ lhs: FormatExpression, _ operatorType: FormatOperator, _ rhs: FormatExpression,
        modifier: FormatModifier = .direct, options: FormatComparisonOptions = []
    ) {
        self.lhs = lhs
        self.operatorType = operatorType
        self.rhs = rhs
        self.modifier = modifier
        self.options = options
    }
}

/// The comparison operators; the raw value is the operator's spelling in a format string.
///
/// Comparisons are two-valued, in memory and in SQL: `nil` equals only `nil`, and an ordering
/// or string test with `nil` on either side is false (also under `NOT`).
///
/// ```swift
/// try FormatPredicate("name BEGINSWITH[c] %@", arguments: ["St*r"])
///     .sqlCondition(for: expense).render().sql
/// // cairn_fold("Expense"."name", ?) GLOB ?        (1, "st[*]r*")
/// ```
public enum FormatOperator: String, Sendable, Hashable, CaseIterable {
    /// `a < b`: numbers by value, strings literally (after `[c]`/`[d]` folding), dates
    /// chronologically. SQL `<`.
    case lessThan = "<"
    /// `a <= b` (also written `=<`). SQL `<=`.
    case lessThanOrEqualTo = "<="
    /// `a > b`. SQL `>`.
    case greaterThan = ">"
    /// `a >= b` (also written `=>`). SQL `>=`.
    case greaterThanOrEqualTo = ">="
    /// `a == b` (also written `=`): `nil` equals only `nil`. SQL `IS`, so never `NULL`.
    case equalTo = "=="
    /// `a != b` (also written `<>`): the negation of ``equalTo``. SQL `NOT (a IS b)`.
    case notEqualTo = "!="
    /// `s MATCHES regex`: the whole string matches an ICU regular expression, within
    /// ``FormatEvaluationLimits``. SQL calls `cairn_regexp`.
    case matches = "MATCHES"
    /// `s LIKE pattern`: the whole string matches a pattern where `*` is any run of characters
    /// and `?` one character. SQL `GLOB`, so `%` and `_` are literal.
    case like = "LIKE"
    /// `s BEGINSWITH prefix`. SQL: a range on the column that can use an index, or `GLOB`
    /// under `[c]`/`[d]`.
    case beginsWith = "BEGINSWITH"
    /// `s ENDSWITH suffix`. SQL `GLOB '*suffix'`.
    case endsWith = "ENDSWITH"
    /// `a IN collection`: `a` equals an element of an array or set (or a value of a
    /// dictionary), or is a substring of a string. SQL `IN (…)` with bound values, or `instr`
    /// for a string.
    case `in` = "IN"
    /// `s CONTAINS t`: `t` is a substring of `s`, or, with a collection on the left, one of its
    /// elements (the reverse of ``in``). SQL `GLOB '*t*'` or `IN (…)`.
    case contains = "CONTAINS"
    /// `a BETWEEN {low, high}`: `low <= a <= high`, bounds included. SQL `BETWEEN`.
    case between = "BETWEEN"
}

/// The aggregate qualifier of a comparison.
public enum FormatModifier: String, Sendable, Hashable {
    /// No qualifier.
    case direct
    /// `ANY` / `SOME`: true when the comparison holds for at least one element.
    case any = "ANY"
    /// `ALL`: true when it holds for every element (and for an empty collection).
    case all = "ALL"
}

/// String comparison options, written in brackets after the operator.
public struct FormatComparisonOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `[c]`: case-insensitive.
    public static let caseInsensitive = FormatComparisonOptions(rawValue: 1)
    /// `[d]`: diacritic-insensitive (`café` equals `cafe`).
    public static let diacriticInsensitive = FormatComparisonOptions(rawValue: 2)
    /// `[n]`: the strings are already normalized; accepted and ignored (no change in meaning).
    public static let normalized = FormatComparisonOptions(rawValue: 4)

    /// The bracket text: `"cd"`, `"n"`, `""`.
    public var letters: String {
        (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "")
            + (contains(.normalized) ? "n" : "")
    }

    /// Parses the letters between the brackets (any order, case-insensitive).
    init?(letters: String) {
        var options: FormatComparisonOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n": options.insert(.normalized)
            default: return nil
            }
        }
        if letters.isEmpty { return nil }
        self = options
    }
}
