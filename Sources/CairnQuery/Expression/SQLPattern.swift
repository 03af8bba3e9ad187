/// Escaping of user text for `LIKE` and `GLOB` patterns, so wildcards in the text match
/// themselves. The escaped pattern is still bound as a value.
///
/// ```swift
/// let prefix = SQLPattern.escapingLike("50%_off") + "%"       // 50\%\_off%
/// SQLExpression.column("title").like(.value(.text(prefix)), escape: SQLPattern.likeEscape)
/// // "title" LIKE ? ESCAPE ?
///
/// let glob = SQLPattern.escapingGlob("a*b?") + "*"            // a[*]b[?]*
/// SQLExpression.column("title").glob(.value(.text(glob)))    // case-sensitive prefix match
/// ```
public enum SQLPattern {
    /// The escape character used by ``escapingLike(_:)``: a backslash.
    public static let likeEscapeCharacter: Character = "\\"

    /// The `ESCAPE` operand that goes with ``escapingLike(_:)``: a bound backslash.
    public static let likeEscape = SQLExpression.value(.text("\\"))

    /// `text` with `\`, `%` and `_` preceded by a backslash, for `LIKE … ESCAPE '\'`.
    ///
    /// Note that SQLite's `LIKE` ignores ASCII case; use ``escapingGlob(_:)`` for a
    /// case-sensitive match.
    ///
    /// The text is read by Unicode scalar, as SQLite reads a pattern: a `%` followed by a
    /// combining mark is one `Character` that is not `%`, but to SQLite it is still a wildcard
    /// and must be escaped.
    public static func escapingLike(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\\" || scalar == "%" || scalar == "_" { result.append("\\") }
            result.append(scalar)
        }
        return String(result)
    }

    /// `text` with `*`, `?` and `[` wrapped in brackets, so `GLOB` matches them literally
    /// (`GLOB` has no escape character; `]` alone is literal). Read by Unicode scalar, as
    /// ``escapingLike(_:)`` is.
    public static func escapingGlob(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "*", "?", "[":
                result.append("[")
                result.append(scalar)
                result.append("]")
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// The `LIKE … ESCAPE '\'` pattern that matches what a `GLOB` pattern matches (`*` → `%`,
    /// `?` → `_`, a bracketed single character → that character, `%`, `_` and `\` escaped), or
    /// `nil` for a pattern with a character class of more than one character, which `LIKE`
    /// cannot express.
    ///
    /// ```swift
    /// SQLPattern.like(fromGlob: "*50[%]*")  // "%50\%%"
    /// ```
    public static func like(fromGlob glob: String) -> String? {
        var result = String.UnicodeScalarView()
        var scalars = glob.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "*": result.append("%")
            case "?": result.append("_")
            case "[":
                // Only `[c]`, one character and its closing bracket, is a literal.
                guard let literal = scalars.next(), literal != "]", literal != "^", scalars.next() == "]" else { return nil }
                if literal == "\\" || literal == "%" || literal == "_" { result.append("\\") }
                result.append(literal)
            case "\\", "%", "_":
                result.append("\\")
                result.append(scalar)
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
