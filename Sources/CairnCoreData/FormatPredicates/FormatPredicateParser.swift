import Foundation

/// Parses the Core Data predicate format language into a ``FormatPredicate``, substituting
/// the arguments into the tree.
///
/// Precedence, lowest first: `OR`/`||`, `AND`/`&&`, `NOT`/`!`, then comparisons; in
/// expressions `+ -`, `* /`, `**` (right-associative), unary `-`, then `.key`/`[index]`.
/// Keywords are case-insensitive. Arguments are read left to right (`%@`, `%K`, `%d`, `%i`,
/// `%ld`, `%lld`, `%u`, `%f`, `%lf`, `%s`, …) or by position (`%2$@`).
///
/// ```swift
/// let predicate = try FormatPredicateParser.parse("%K BEGINSWITH[c] %@", arguments: ["name", "Star"])
/// predicate.predicateFormat  // name BEGINSWITH[c] "Star"
/// ```
///
/// As in Apple's grammar, comparison options follow the operator (`name ==[c] %@`) and a `[`
/// right after an expression opens a subscript: `name[c] == %@` reads key `c` of the object and
/// subscripts `name` with it. Options written before the operator and apart from the key
/// (`name [c] == %@`, as a widely read tutorial writes them) are options; printed, they follow
/// the operator (`name ==[c] "coffee"`), and a subscript prints with no space, so every
/// predicate reads back as itself.
public struct FormatPredicateParser {
    /// The deepest nesting of parentheses, `NOT`s and sub-expressions accepted, so a hostile
    /// format cannot exhaust the stack.
    public static let maximumDepth = 200

    let format: String
    let tokens: [FormatToken]
    let arguments: [Any?]
    var index = 0
    var nextArgument = 0
    var depth = 0
    /// Whether to reject, with their position, operands that can only fail when the predicate
    /// is evaluated or fetched with (see ``parse(_:arguments:validating:)``).
    var validates = false
    /// Whether specifiers become placeholders recorded in `slots` instead of their arguments
    /// (a ``FormatTemplate`` is being made).
    var recordsSlots = false
    /// The specifiers met while recording, each placeholder's index into them.
    var slots: [FormatTemplate.Slot] = []
    /// Cleared while recording when the parse looked inside what a specifier stands for, so
    /// that filling the placeholders in would not give the tree a parse with arguments gives.
    var slotsStandAlone = true

    init(format: String, arguments: [Any?]) throws(FormatPredicateError) {
        self.format = format
        self.tokens = try FormatLexer.tokenize(format)
        self.arguments = arguments
    }

    /// Parses a predicate, substituting `arguments` for the format specifiers in order.
    ///
    /// - Parameter format: the predicate in Core Data's format language.
    /// - Parameter arguments: the values of `%@`, `%K`, `%d`… in order (or by position).
    /// - Parameter validating: also reject what parses but can only fail later, when the
    ///   predicate is evaluated or fetched with: `BETWEEN` with a constant that is not two
    ///   bounds (`value BETWEEN 5`), `FUNCTION(receiver, "selector")` (Cairn calls no method
    ///   by name), and a constant `MATCHES` pattern that is not a valid regular expression.
    ///   `NSPredicate(validatingFormat:)` parses this way; `NSPredicate(format:)`, like
    ///   Apple's, does not.
    ///
    /// A format parsed before without `validating` is not parsed again: its tree is kept with
    /// a placeholder for each specifier (`FormatTemplate`), and the arguments are put in;
    /// the result, and any error, are those of a fresh parse.
    public static func parse(_ format: String, arguments: [Any?] = [], validating: Bool = false)
        throws(FormatPredicateError) -> FormatPredicate
    {
        if !validating, let template = FormatTemplate.cache.template(for: format),
            let predicate = template.filled(with: arguments, format: format)
        {
            return predicate
        }
        return try parseAfresh(format, arguments: arguments, validating: validating)
    }

    /// ``parse(_:arguments:validating:)`` from the text, without the kept templates.
    static func parseAfresh(_ format: String, arguments: [Any?], validating: Bool)
        throws(FormatPredicateError) -> FormatPredicate
    {
        var parser = try FormatPredicateParser(format: format, arguments: arguments)
        parser.validates = validating
        let predicate = try parser.parseOr()
        try parser.expectEnd()
        return predicate
    }

    /// Parses a lone expression (`"amount * 2"`), as `NSExpression(format:)` does.
    public static func parseExpression(_ format: String, arguments: [Any?] = [])
        throws(FormatPredicateError) -> FormatExpression
    {
        var parser = try FormatPredicateParser(format: format, arguments: arguments)
        let expression = try parser.parseExpression()
        try parser.expectEnd()
        return expression
    }

    // MARK: - Token access

    var current: FormatToken { tokens[min(index, tokens.count - 1)] }

    func peek(_ ahead: Int) -> FormatToken { tokens[min(index + ahead, tokens.count - 1)] }

    mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    func error(_ message: String, at token: FormatToken? = nil) -> FormatPredicateError {
        FormatPredicateError(.syntax, message, format: format, offset: (token ?? current).offset)
    }

    func describe(_ token: FormatToken) -> String {
        switch token.kind {
        case .end: "the end of the format"
        case .word(let word): "'\(word)'"
        case .escapedWord(let word): "'#\(word)'"
        case .atWord(let word): "'@\(word)'"
        case .variable(let name): "'$\(name)'"
        case .string: "a string"
        case .integer, .double: "a number"
        case .specifier(let letters, _): "'%\(letters)'"
        case .symbol(let symbol): "'\(symbol)'"
        }
    }

    mutating func expect(_ symbol: String, _ context: String) throws(FormatPredicateError) {
        guard current.isSymbol(symbol) else {
            throw error("expected '\(symbol)' \(context), found \(describe(current))")
        }
        advance()
    }

    func expectEnd() throws(FormatPredicateError) {
        guard current.kind == .end else {
            throw error("unexpected \(describe(current)) after a complete predicate")
        }
    }

    mutating func enter() throws(FormatPredicateError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw error("nesting deeper than \(Self.maximumDepth) levels")
        }
    }

    // MARK: - Predicates

    mutating func parseOr() throws(FormatPredicateError) -> FormatPredicate {
        var operands = [try parseAnd()]
        while current.isKeyword("OR") || current.isSymbol("||") {
            advance()
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    mutating func parseAnd() throws(FormatPredicateError) -> FormatPredicate {
        var operands = [try parseNot()]
        while current.isKeyword("AND") || current.isSymbol("&&") {
            advance()
            operands.append(try parseNot())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    mutating func parseNot() throws(FormatPredicateError) -> FormatPredicate {
        try enter()
        defer { depth -= 1 }
        if current.isKeyword("NOT") || current.isSymbol("!") {
            advance()
            return .not(try parseNot())
        }
        return try parsePrimaryPredicate()
    }

    mutating func parsePrimaryPredicate() throws(FormatPredicateError) -> FormatPredicate {
        switch current.keyword {
        case "TRUEPREDICATE":
            advance()
            return .constant(true)
        case "FALSEPREDICATE":
            advance()
            return .constant(false)
        case "ANY", "SOME":
            advance()
            return .comparison(try parseComparison(modifier: .any))
        case "ALL":
            advance()
            return .comparison(try parseComparison(modifier: .all))
        case "NONE":
            advance()
            return .not(.comparison(try parseComparison(modifier: .any)))
        default:
            break
        }
        guard current.isSymbol("(") else { return .comparison(try parseComparison(modifier: .direct)) }

        // `(` opens either a parenthesized predicate or an expression such as `(a + b) > 2`:
        // try the predicate first and fall back when an operator follows the `)`.
        let saved = (index, nextArgument, depth)
        let predicateError: FormatPredicateError
        do {
            advance()
            let inner = try parseOr()
            try expect(")", "to close '('")
            if !continuesExpression(current) { return inner }
            predicateError = error("a parenthesized predicate cannot be compared")
        } catch {
            predicateError = error
        }
        (index, nextArgument, depth) = saved
        do {
            return .comparison(try parseComparison(modifier: .direct))
        } catch {
            // Report the attempt that got further into the format.
            throw (predicateError.offset ?? 0) > (error.offset ?? 0) ? predicateError : error
        }
    }

    func continuesExpression(_ token: FormatToken) -> Bool {
        if comparisonOperator(token) != nil { return true }
        switch token.kind {
        case .symbol(let symbol): return ["+", "-", "*", "/", "**", ".", "["].contains(symbol)
        default: return false
        }
    }

    func comparisonOperator(_ token: FormatToken) -> FormatOperator? {
        switch token.kind {
        case .symbol(let symbol):
            switch symbol {
            case "=", "==": return .equalTo
            case "!=", "<>": return .notEqualTo
            case "<": return .lessThan
            case "<=", "=<": return .lessThanOrEqualTo
            case ">": return .greaterThan
            case ">=", "=>": return .greaterThanOrEqualTo
            default: return nil
            }
        case .word(let word):
            switch word.uppercased() {
            case "BETWEEN": return .between
            case "IN": return .in
            case "CONTAINS": return .contains
            case "BEGINSWITH": return .beginsWith
            case "ENDSWITH": return .endsWith
            case "LIKE": return .like
            case "MATCHES": return .matches
            default: return nil
            }
        default:
            return nil
        }
    }

    mutating func parseComparison(modifier: FormatModifier) throws(FormatPredicateError) -> FormatComparison {
        let lhs = try parseExpression()
        guard let operatorType = comparisonOperator(optionsBeforeOperator() ? peek(3) : current) else {
            if current.kind == .end {
                throw error("expected a comparison operator (==, <, IN, CONTAINS, …) after the expression")
            }
            throw error("expected a comparison operator, found \(describe(current))")
        }
        var options = optionsBeforeOperator() ? try parseOptions() ?? [] : []
        let operatorToken = current
        advance()
        if let after = try parseOptions() { options.formUnion(after) }
        guard startsExpression(current) else {
            throw error("expected an expression after \(describe(operatorToken)), found \(describe(current))")
        }
        let rhsToken = current
        let rhs = try parseExpression()
        if validates { try validate(operatorType, rhs, options, at: rhsToken) }
        return FormatComparison(lhs, operatorType, rhs, modifier: modifier, options: options)
    }

    /// The checks of a validating parse on a comparison's right side.
    func validate(_ operatorType: FormatOperator, _ rhs: FormatExpression, _ options: FormatComparisonOptions,
                  at token: FormatToken) throws(FormatPredicateError)
    {
        func count(_ values: Int) -> String { values == 1 ? "1 value" : "\(values) values" }
        let code: FormatPredicateError.Code
        if case .specifier = token.kind { code = .argument } else { code = .syntax }
        switch (operatorType, rhs) {
        case (.between, .constant(.array(let bounds))) where bounds.count == 2:
            return
        case (.between, .constant(let value)):
            let found = if case .array(let values) = value { count(values.count) } else { value.predicateFormat }
            throw FormatPredicateError(
                code, "BETWEEN needs two bounds, {low, high}, not \(found)", format: format, offset: token.offset)
        case (.between, .aggregate(let bounds)) where bounds.count != 2:
            throw FormatPredicateError(
                code, "BETWEEN needs two bounds, {low, high}, not \(count(bounds.count))", format: format, offset: token.offset)
        case (.matches, .constant(.string(let pattern))):
            do {
                try FormatRegularExpression.check(pattern, options)
            } catch {
                throw FormatPredicateError(error.code, error.message, format: format, offset: token.offset)
            }
        default:
            return
        }
    }

    /// Whether the tokens at the cursor are options written before an operator and apart from
    /// what precedes them: ` [c] ==`. Without the space, `name[c]` is a subscript.
    func optionsBeforeOperator() -> Bool {
        guard current.isSymbol("["), case .word(let letters) = peek(1).kind, peek(2).isSymbol("]"),
            FormatComparisonOptions(letters: letters) != nil, comparisonOperator(peek(3)) != nil,
            current.offset > 0
        else { return false }
        let before = format.index(format.startIndex, offsetBy: current.offset - 1, limitedBy: format.endIndex)
        return before.map { format[$0].isWhitespace } ?? false
    }

    /// `[c]`, `[d]`, `[cd]`, `[n]` if the current tokens spell options.
    mutating func parseOptions() throws(FormatPredicateError) -> FormatComparisonOptions? {
        guard current.isSymbol("[") else { return nil }
        guard case .word(let letters) = peek(1).kind, peek(2).isSymbol("]") else {
            throw error("expected comparison options such as [c], [d], [cd] or [n]")
        }
        guard let options = FormatComparisonOptions(letters: letters) else {
            throw error("unknown comparison option '\(letters)'; use c, d, n", at: peek(1))
        }
        advance()
        advance()
        advance()
        return options
    }

    func startsExpression(_ token: FormatToken) -> Bool {
        switch token.kind {
        case .end: return false
        case .symbol(let symbol): return ["(", "{", "-"].contains(symbol)
        case .word(let word):
            return !["AND", "OR", "NOT"].contains(word.uppercased()) && comparisonOperator(token) == nil
        default: return true
        }
    }
}
