import Foundation

// The SQL functions and collations compiled Core Data predicates and sort descriptors call
// (`CairnCoreData`'s `FormatSQLFunctions`). They live here because every store connection
// registers them, after ``PredicateFunctions/functions`` and ``PredicateFunctions/collations``.
extension PredicateFunctions {
    /// `cairn_fold(text, flags)`.
    package static let foldFunction = DatabaseFunction("cairn_fold", argumentCount: 2) { arguments in
        guard case .text(let text) = arguments[0] else { return nil }
        return fold(text, textOptions(arguments[1]))
    }

    /// `cairn_string_test(operator, lhs, rhs, flags)`.
    package static let stringTestFunction = DatabaseFunction("cairn_string_test", argumentCount: 4) { arguments in
        guard case .text(let name) = arguments[0] else { return false }
        return try stringTest(name, arguments[1], arguments[2], textOptions(arguments[3]))
    }

    /// `cairn_regexp(pattern, text, flags)`.
    package static let regexpFunction = DatabaseFunction("cairn_regexp", argumentCount: 3) { arguments in
        // Two-valued like every compiled comparison: a nil text or pattern does not match.
        guard case .text(let pattern) = arguments[0], case .text(let text) = arguments[1] else { return false }
        return try matches(text, pattern, textOptions(arguments[2]), limits: .default, cache: RegexCache())
    }

    /// `cairn_lower(text)`.
    package static let lowerFunction = DatabaseFunction("cairn_lower", argumentCount: 1) { arguments in
        guard case .text(let text) = arguments[0] else { return nil }
        return text.lowercased()
    }

    /// `cairn_upper(text)`.
    package static let upperFunction = DatabaseFunction("cairn_upper", argumentCount: 1) { arguments in
        guard case .text(let text) = arguments[0] else { return nil }
        return text.uppercased()
    }

    /// The functions of Core Data's format predicates.
    package static let coreDataFunctions = [foldFunction, regexpFunction, stringTestFunction, lowerFunction, upperFunction]

    /// The collations of Core Data's localized and case-insensitive sort selectors.
    package static let coreDataCollations = [
        DatabaseCollation("cairn_case_insensitive") { caseInsensitiveOrder($0, $1) },
        DatabaseCollation("cairn_localized") { localizedOrder($0, $1, caseSensitive: true) },
        DatabaseCollation("cairn_localized_case_insensitive") { localizedOrder($0, $1, caseSensitive: false) },
        DatabaseCollation("cairn_localized_standard") { localizedStandardOrder($0, $1) },
    ]

    /// The `[c]`/`[d]` flags argument of `cairn_fold`, `cairn_string_test` and `cairn_regexp`.
    private static func textOptions(_ value: DatabaseValue) -> TextOptions {
        guard case .integer(let flags) = value else { return [] }
        return TextOptions(rawValue: Int(truncatingIfNeeded: flags)).intersection([.caseInsensitive, .diacriticInsensitive])
    }
}
