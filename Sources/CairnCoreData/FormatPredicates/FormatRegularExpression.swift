import Cairn
import Foundation

/// `MATCHES` patterns as format predicates check them: Cairn's `MATCHES`
/// (`PredicateFunctions.matches`, which `cairn_regexp` also runs) under a predicate's options
/// and limits, its errors as ``FormatPredicateError``s.
enum FormatRegularExpression {
    /// Throws the error matching with `pattern` would, where the pattern is known before any
    /// text is (a constant in the predicate).
    static func check(_ pattern: String, _ options: FormatComparisonOptions, limits: FormatEvaluationLimits = .default)
        throws(FormatPredicateError)
    {
        do {
            try PredicateFunctions.checkPattern(pattern, options.text, limits: limits.match)
        } catch {
            throw FormatPredicateError(error)
        }
    }
}

extension FormatPredicateError {
    /// A `MATCHES` that could not answer (bad pattern, or beyond the limits).
    init(_ error: PredicateFunctions.TextMatchError) {
        self.init(.regularExpression, error.message)
    }
}

extension FormatComparisonOptions {
    /// The `[c]` and `[d]` of these options, as Cairn's string functions take them (`[n]`
    /// changes nothing).
    var text: PredicateFunctions.TextOptions {
        PredicateFunctions.TextOptions(rawValue: rawValue).intersection([.caseInsensitive, .diacriticInsensitive])
    }
}

extension FormatEvaluationLimits {
    /// The limits of one `MATCHES`.
    var match: PredicateFunctions.MatchLimits {
        PredicateFunctions.MatchLimits(
            maximumPatternLength: maximumPatternLength, maximumMatchedLength: maximumMatchedLength,
            timeout: regularExpressionTimeout)
    }
}
