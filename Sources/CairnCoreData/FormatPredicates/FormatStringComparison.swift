import Cairn
import Foundation

/// The string comparisons Core Data sort descriptors name by selector, as total orders Cairn
/// implements identically in memory and as SQLite collations (Cairn's `PredicateFunctions`).
///
/// ```swift
/// FormatStringComparison.localizedStandardCompare.compare("File10", "file9")  // .orderedDescending
/// ```
public enum FormatStringComparison: String, Sendable, Hashable, CaseIterable {
    /// `compare:`: literal order, by Unicode scalar (SQLite's `BINARY` order of UTF-8).
    case compare = "compare:"
    /// `caseInsensitiveCompare:`: literal order after case folding; strings that differ only
    /// by case are equal.
    case caseInsensitiveCompare = "caseInsensitiveCompare:"
    /// `localizedCompare:`: case- and diacritic-folded order first, then unaccented before
    /// accented, then lowercase before uppercase.
    case localizedCompare = "localizedCompare:"
    /// `localizedCaseInsensitiveCompare:`: as `localizedCompare:` but strings that differ only
    /// by case are equal.
    case localizedCaseInsensitiveCompare = "localizedCaseInsensitiveCompare:"
    /// `localizedStandardCompare:`: Finder-like natural order: runs of digits compare by
    /// numeric value (`file9` before `file10`), letters case- and diacritic-insensitively,
    /// then the `localizedCompare:` tie-breaks.
    case localizedStandardCompare = "localizedStandardCompare:"

    /// The comparison a selector name spells (`"localizedStandardCompare:"`); nil if unknown.
    public init?(selector: String) {
        self.init(rawValue: selector)
    }

    /// Compares two strings, as the collation of the same order does in SQL (Cairn's
    /// `PredicateFunctions` implements both).
    public func compare(_ a: String, _ b: String) -> ComparisonResult {
        switch self {
        case .compare: PredicateFunctions.literalCompare(a, b)
        case .caseInsensitiveCompare: PredicateFunctions.caseInsensitiveOrder(a, b)
        case .localizedCompare: PredicateFunctions.localizedOrder(a, b, caseSensitive: true)
        case .localizedCaseInsensitiveCompare: PredicateFunctions.localizedOrder(a, b, caseSensitive: false)
        case .localizedStandardCompare: PredicateFunctions.localizedStandardOrder(a, b)
        }
    }

    /// The collation that orders text this way in SQL, or nil for `compare:` (SQLite's
    /// `BINARY`).
    var collationName: String? {
        switch self {
        case .compare: nil
        case .caseInsensitiveCompare: PredicateFunctions.caseInsensitiveCollationName
        case .localizedCompare: PredicateFunctions.localizedCollationName
        case .localizedCaseInsensitiveCompare: PredicateFunctions.localizedCaseInsensitiveCollationName
        case .localizedStandardCompare: PredicateFunctions.localizedStandardCollationName
        }
    }
}
