import Foundation

// `MATCHES` of Core Data's format language: the whole string matches an ICU regular
// expression, within limits that keep any pattern and text bounded. `cairn_regexp` in SQL and
// CairnCoreData's in-memory evaluator both run this code.
extension PredicateFunctions {
    /// Limits that keep one `MATCHES` bounded whatever the pattern or text.
    package struct MatchLimits: Sendable, Hashable {
        /// The longest pattern accepted, in characters.
        package var maximumPatternLength: Int
        /// The longest string a pattern runs against, in UTF-16 code units.
        package var maximumMatchedLength: Int
        /// How long one match may run before it fails, in seconds.
        package var timeout: Double

        package init(maximumPatternLength: Int, maximumMatchedLength: Int, timeout: Double) {
            self.maximumPatternLength = maximumPatternLength
            self.maximumMatchedLength = maximumMatchedLength
            self.timeout = timeout
        }

        /// 1,000-character patterns, 1,000,000-unit strings, one second per match.
        package static let `default` = MatchLimits(
            maximumPatternLength: 1_000, maximumMatchedLength: 1_000_000, timeout: 1.0)
    }

    /// Why a `MATCHES` could not answer: a pattern that does not compile, or a pattern, text
    /// or run beyond the limits. The message says which, and what to do.
    package struct TextMatchError: Error, CustomStringConvertible {
        package let message: String
        package var description: String { message }
    }

    /// Compiled patterns of one evaluation (or one SQL call), by options and pattern. Not
    /// shared between threads: each evaluation makes its own.
    package final class RegexCache {
        var patterns: [String: NSRegularExpression] = [:]
        package init() {}
    }

    /// `MATCHES`: the whole of `string` matches `pattern` (ICU syntax); `[c]` ignores case,
    /// `[d]` folds diacritics of both.
    package static func matches(
        _ string: String, _ pattern: String, _ options: TextOptions, limits: MatchLimits, cache: RegexCache
    ) throws(TextMatchError) -> Bool {
        guard pattern.count <= limits.maximumPatternLength else { throw tooLong(pattern, limits) }
        let subject = options.contains(.diacriticInsensitive) ? fold(string, [.diacriticInsensitive]) : string
        let length = subject.utf16.count
        guard length <= limits.maximumMatchedLength else {
            throw TextMatchError(
                message: "MATCHES input is \(length) UTF-16 units long; the limit is \(limits.maximumMatchedLength)")
        }
        let key = "\(options.rawValue):" + pattern
        let expression: NSRegularExpression
        if let cached = cache.patterns[key] {
            expression = cached
        } else {
            expression = try compileRegularExpression(pattern, options)
            cache.patterns[key] = expression
        }
        var matched = false
        var timedOut = false
        let deadline = Date().addingTimeInterval(limits.timeout)
        expression.enumerateMatches(
            in: subject, options: [.reportProgress], range: NSRange(location: 0, length: length)
        ) { result, _, stop in
            if result != nil { matched = true }
            if matched {
                stop.pointee = true
            } else if Date() > deadline {
                timedOut = true
                stop.pointee = true
            }
        }
        if timedOut {
            throw TextMatchError(
                message: "MATCHES pattern \(jsonStringLiteral(pattern)) ran longer than \(limits.timeout) s and was stopped")
        }
        return matched
    }

    /// Throws the error matching with `pattern` would, where the pattern is known before any
    /// text is (a constant in the predicate).
    package static func checkPattern(_ pattern: String, _ options: TextOptions, limits: MatchLimits)
        throws(TextMatchError)
    {
        guard pattern.count <= limits.maximumPatternLength else { throw tooLong(pattern, limits) }
        _ = try compileRegularExpression(pattern, options)
    }

    /// The anchored expression for `pattern` under `options`: `[c]` ignores case, `[d]` folds
    /// the pattern (the text is folded the same way before it is matched).
    static func compileRegularExpression(_ pattern: String, _ options: TextOptions) throws(TextMatchError)
        -> NSRegularExpression
    {
        let source = options.contains(.diacriticInsensitive) ? fold(pattern, [.diacriticInsensitive]) : pattern
        let regexOptions: NSRegularExpression.Options = options.contains(.caseInsensitive) ? [.caseInsensitive] : []
        do {
            // Check the pattern alone first, so wrapping it cannot repair a broken one.
            _ = try NSRegularExpression(pattern: source, options: regexOptions)
            return try NSRegularExpression(pattern: "\\A(?:" + source + ")\\z", options: regexOptions)
        } catch {
            throw TextMatchError(
                message: "MATCHES pattern \(jsonStringLiteral(pattern)) is not a valid regular expression: "
                    + "\(patternProblem(pattern)); escape a character meant literally with a backslash (\\[, \\(, \\*), "
                    + "or pass NSRegularExpression.escapedPattern(for:) of the text")
        }
    }

    static func tooLong(_ pattern: String, _ limits: MatchLimits) -> TextMatchError {
        TextMatchError(
            message: "MATCHES pattern is \(pattern.count) characters long; the limit is \(limits.maximumPatternLength)")
    }

    /// The first mistake found in `pattern`, with its offset in `Character`s: Foundation's
    /// error for a bad pattern carries no reason, so the common mistakes are found by reading it.
    static func patternProblem(_ pattern: String) -> String {
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
