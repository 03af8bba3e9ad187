import Cairn
import Foundation

/// The SQL functions and collations compiled format predicates and sort descriptors call:
/// those of Cairn's one registry, `PredicateFunctions`, which every store's connections
/// have and `Configuration.addCairnPredicateSupport()` adds to a `Database` you open
/// yourself. Each runs the same Swift code as the in-memory evaluator, so both give the same
/// answers.
///
/// | SQL | meaning |
/// |---|---|
/// | `cairn_fold(text, flags)` | `[c]` (flags & 1) and `[d]` (flags & 2) folding of `text`; NULL in, NULL out |
/// | `cairn_regexp(pattern, text, flags)` | 1 if `text` MATCHES `pattern` (whole string, ICU), 0 if not or if either is NULL; errors for invalid or runaway patterns |
/// | `cairn_string_test(operator, lhs, rhs, flags)` | `BEGINSWITH`/`ENDSWITH`/`CONTAINS`/`LIKE`/`IN` with a non-constant right side |
/// | `cairn_lower(text)`, `cairn_upper(text)` | Unicode `lowercase()`/`uppercase()` |
/// | collation `cairn_case_insensitive` | `caseInsensitiveCompare:` |
/// | collation `cairn_localized` | `localizedCompare:` |
/// | collation `cairn_localized_case_insensitive` | `localizedCaseInsensitiveCompare:` |
/// | collation `cairn_localized_standard` | `localizedStandardCompare:` (natural order) |
public enum FormatSQLFunctions {
    /// `cairn_fold(text, flags)`.
    public static var fold: DatabaseFunction { PredicateFunctions.foldFunction }
    /// `cairn_regexp(pattern, text, flags)`.
    public static var regexp: DatabaseFunction { PredicateFunctions.regexpFunction }
    /// `cairn_string_test(operator, lhs, rhs, flags)` for operators whose right side is not a
    /// constant.
    public static var stringTest: DatabaseFunction { PredicateFunctions.stringTestFunction }
    /// `cairn_lower(text)`.
    public static var lower: DatabaseFunction { PredicateFunctions.lowerFunction }
    /// `cairn_upper(text)`.
    public static var upper: DatabaseFunction { PredicateFunctions.upperFunction }

    /// Every function of Cairn's registry (`PredicateFunctions.functions`), these included.
    public static var functions: [DatabaseFunction] { PredicateFunctions.functions }

    /// Every collation of Cairn's registry (`PredicateFunctions.collations`), the four of
    /// the localized and case-insensitive sort selectors included.
    public static var collations: [DatabaseCollation] { PredicateFunctions.collations }

    /// The collation for a sort comparison, or nil for `compare:` (SQLite's `BINARY`).
    public static func collationName(for comparison: FormatStringComparison) -> String? {
        comparison.collationName
    }
}
