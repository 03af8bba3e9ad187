import Foundation

/// `MATCHES` patterns: compiling one (ICU syntax, the whole string must match) and saying in
/// words what is wrong with one that does not compile. Foundation's error for a bad pattern
/// carries no reason, so the common mistakes are found here by reading the pattern.
enum FormatRegularExpression {
    /// The anchored expression for `pattern` under `options`: `[c]` ignores case, `[d]` folds
    /// the pattern (the text is folded the same way before it is matched).
    static func compile(_ pattern: String, _ options: FormatComparisonOptions) throws(FormatPredicateError)
        -> NSRegularExpression
    {
        let source = options.contains(.diacriticInsensitive) ? FormatEvaluator.fold(pattern, [.diacriticInsensitive]) : pattern
        let regexOptions: NSRegularExpression.Options = options.contains(.caseInsensitive) ? [.caseInsensitive] : []
        do {
            // Check the pattern alone first, so wrapping it cannot repair a broken one.
            _ = try NSRegularExpression(pattern: source, options: regexOptions)
            return try NSRegularExpression(pattern: "\\A(?:" + source + ")\\z", options: regexOptions)
        } catch {
            throw invalid(pattern)
        }
    }

    /// Throws the error matching with `pattern` would, where the pattern is known before any
    /// text is (a constant in the predicate).
    static func check(_ pattern: String, _ options: FormatComparisonOptions, limits: FormatEvaluationLimits = .default)
        throws(FormatPredicateError)
    {
        guard pattern.count <= limits.maximumPatternLength else { throw tooLong(pattern, limits) }
        _ = try compile(pattern, options)
    }

    static func tooLong(_ pattern: String, _ limits: FormatEvaluationLimits) -> FormatPredicateError {
        FormatPredicateError(
            .regularExpression,
            "MATCHES pattern is \(pattern.count) characters long; the limit is \(limits.maximumPatternLength)")
    }

    static func invalid(_ pattern: String) -> FormatPredicateError {
        FormatPredicateError(
            .regularExpression,
            "MATCHES pattern \(FormatValue.quote(pattern)) is not a valid regular expression: \(problem(in: pattern)); "
                + "escape a character meant literally with a backslash (\\[, \\(, \\*), or pass "
                + "NSRegularExpression.escapedPattern(for:) of the text")
    }

    /// The first mistake found in `pattern`, with its offset in `Character`s.
    static func problem(in pattern: String) -> String {
        var openGroups: [Int] = []
        var openClass: Int?
        var escaped = false
        // Whether a quantifier here would have something to repeat.
        var repeatable = false
        var previous: Character?
        for (offset, character) in pattern.enumerated() {
            defer { previous = character }
            if escaped {
                escaped = false
                repeatable = true
                continue
            }
            if character == "\\" {
                escaped = true
                continue
            }
            if openClass != nil {
                if character == "]" { openClass = nil; repeatable = true }
                continue
            }
            switch character {
            case "[":
                openClass = offset
            case "(":
                openGroups.append(offset)
                repeatable = false
                continue
            case ")":
                guard openGroups.popLast() != nil else { return "')' at offset \(offset) closes no '('" }
            case "|":
                repeatable = false
                continue
            case "?" where previous == "(":
                // `(?:`, `(?i)`, `(?=`: a group's flags, not a quantifier.
                continue
            case "*", "+", "?", "{":
                if !repeatable { return "'\(character)' at offset \(offset) has nothing before it to repeat" }
                // `a*?` and `a*+` are lazy and possessive forms; a third quantifier is not.
                continue
            default:
                break
            }
            repeatable = true
        }
        if escaped { return "it ends with a lone backslash" }
        if let openClass { return "'[' at offset \(openClass) opens a character class that is never closed with ']'" }
        if let open = openGroups.last { return "'(' at offset \(open) is never closed with ')'" }
        return "ICU's regular-expression syntax rejects it"
    }
}
