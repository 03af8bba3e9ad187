import CairnSQLite
import Foundation

/// The SQL functions and collations compiled format predicates and sort descriptors call.
/// Register them on every connection (`configuration.functions += FormatSQLFunctions.functions`,
/// `configuration.collations += FormatSQLFunctions.collations`). Each runs the same Swift code
/// as the in-memory evaluator, so both give the same answers.
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
    public static let fold = DatabaseFunction("cairn_fold", argumentCount: 2) { arguments in
        guard case .text(let text) = arguments[0] else { return nil }
        return FormatEvaluator.fold(text, options(arguments[1]))
    }

    /// `cairn_regexp(pattern, text, flags)`.
    public static let regexp = DatabaseFunction("cairn_regexp", argumentCount: 3) { arguments in
        // Two-valued like every compiled comparison: a nil text or pattern does not match.
        guard case .text(let pattern) = arguments[0], case .text(let text) = arguments[1] else { return false }
        let evaluator = FormatEvaluator(variables: [:], limits: .default)
        return try evaluator.matches(text, pattern, options(arguments[2]))
    }

    /// `cairn_string_test(operator, lhs, rhs, flags)` for operators whose right side is not a
    /// constant.
    public static let stringTest = DatabaseFunction("cairn_string_test", argumentCount: 4) { arguments in
        guard case .text(let name) = arguments[0], let op = FormatOperator(rawValue: name) else { return false }
        let evaluator = FormatEvaluator(variables: [:], limits: .default)
        return try evaluator.test(operand(arguments[1]), op, operand(arguments[2]), options(arguments[3]))
    }

    /// `cairn_lower(text)`.
    public static let lower = DatabaseFunction("cairn_lower", argumentCount: 1) { arguments in
        guard case .text(let text) = arguments[0] else { return nil }
        return text.lowercased()
    }

    /// `cairn_upper(text)`.
    public static let upper = DatabaseFunction("cairn_upper", argumentCount: 1) { arguments in
        guard case .text(let text) = arguments[0] else { return nil }
        return text.uppercased()
    }

    /// Every function above.
    public static let functions = [fold, regexp, stringTest, lower, upper]

    /// The collation for a sort comparison, or nil for `compare:` (SQLite's `BINARY`).
    public static func collationName(for comparison: FormatStringComparison) -> String? {
        switch comparison {
        case .compare: nil
        case .caseInsensitiveCompare: "cairn_case_insensitive"
        case .localizedCompare: "cairn_localized"
        case .localizedCaseInsensitiveCompare: "cairn_localized_case_insensitive"
        case .localizedStandardCompare: "cairn_localized_standard"
        }
    }

    /// The four collations of the localized and case-insensitive sort selectors.
    public static let collations: [DatabaseCollation] = FormatStringComparison.allCases.compactMap { comparison in
        collationName(for: comparison).map { name in DatabaseCollation(name) { comparison.compare($0, $1) } }
    }

    static func options(_ value: DatabaseValue) -> FormatComparisonOptions {
        guard case .integer(let flags) = value else { return [] }
        return FormatComparisonOptions(rawValue: Int(truncatingIfNeeded: flags))
    }

    static func operand(_ value: DatabaseValue) -> FormatOperand {
        switch value {
        case .null: .null
        case .integer(let int): .value(.int(int))
        case .real(let double): .value(.double(double))
        case .text(let text): .value(.string(text))
        case .blob(let data): .value(.data(data))
        }
    }
}
