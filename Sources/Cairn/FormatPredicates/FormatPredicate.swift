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

/// The comparison operators.
public enum FormatOperator: String, Sendable, Hashable, CaseIterable {
    case lessThan = "<"
    case lessThanOrEqualTo = "<="
    case greaterThan = ">"
    case greaterThanOrEqualTo = ">="
    case equalTo = "=="
    case notEqualTo = "!="
    case matches = "MATCHES"
    case like = "LIKE"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case `in` = "IN"
    case contains = "CONTAINS"
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
