import Foundation

/// The words that cannot be bare keys (write `#word` to use one as a key).
let formatReservedWords: Set<String> = [
    "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI",
    "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE",
    "YES", "FALSE", "NO", "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST",
    "TRUEPREDICATE", "FALSEPREDICATE", "FUNCTION",
]

extension FormatPredicateParser {
    // MARK: - Arithmetic

    // Left-associative chains (`1 + 1 + …`, `a[0][0]…`) build trees as deep as they are long,
    // so each link counts against the depth limit like a parenthesis does.

    mutating func parseExpression() throws(FormatPredicateError) -> FormatExpression {
        let savedDepth = depth
        defer { depth = savedDepth }
        try enter()
        var lhs = try parseMultiplicative()
        while case .symbol(let symbol) = current.kind, symbol == "+" || symbol == "-" {
            try enter()
            advance()
            lhs = .arithmetic(symbol == "+" ? .add : .subtract, lhs, try parseMultiplicative())
        }
        return lhs
    }

    mutating func parseMultiplicative() throws(FormatPredicateError) -> FormatExpression {
        let savedDepth = depth
        defer { depth = savedDepth }
        var lhs = try parsePower()
        while case .symbol(let symbol) = current.kind, symbol == "*" || symbol == "/" {
            try enter()
            advance()
            lhs = .arithmetic(symbol == "*" ? .multiply : .divide, lhs, try parsePower())
        }
        return lhs
    }

    mutating func parsePower() throws(FormatPredicateError) -> FormatExpression {
        let base = try parseUnary()
        guard current.isSymbol("**") else { return base }
        advance()
        try enter()
        defer { depth -= 1 }
        return .arithmetic(.power, base, try parsePower())
    }

    mutating func parseUnary() throws(FormatPredicateError) -> FormatExpression {
        guard current.isSymbol("-") else { return try parsePostfix() }
        advance()
        // `-5` is the constant -5; `-x` negates.
        switch current.kind {
        case .integer(let value) where !continuesPostfix(peek(1)):
            advance()
            // The lexer reads 9223372036854775808 (2^63) as Int64.min: after a minus it is exact.
            return .constant(.int(value == .min ? .min : -value))
        case .double(let value) where !continuesPostfix(peek(1)):
            advance()
            return .constant(.double(-value))
        default:
            try enter()
            defer { depth -= 1 }
            return .negate(try parseUnary())
        }
    }

    func continuesPostfix(_ token: FormatToken) -> Bool {
        token.isSymbol(".") || token.isSymbol("[")
    }

    // MARK: - Postfix: `.key`, `[index]`

    mutating func parsePostfix() throws(FormatPredicateError) -> FormatExpression {
        let savedDepth = depth
        defer { depth = savedDepth }
        var expression = try parsePrimary()
        while true {
            if current.isSymbol(".") {
                advance()
                let token = current
                let components: [String]
                switch token.kind {
                case .word(let word), .escapedWord(let word): components = [word]
                case .atWord(let word): components = ["@" + word]
                case .specifier(let letters, let position) where letters.last == "K":
                    // `$x.%K`, `a.%K`, `%K.%K`: the argument's key path continues the path.
                    guard case .keyPath(.evaluatedObject, let path) = try substitute(letters, position: position, at: token)
                    else { throw error("expected a key after '.', found \(describe(token))", at: token) }
                    components = path
                default:
                    throw error("expected a key or %K after '.', found \(describe(token))")
                }
                advance()
                expression = appending(components, to: expression)
            } else if current.isSymbol("[") && !optionsBeforeOperator() {
                try enter()
                advance()
                let index: FormatIndex
                switch current.keyword {
                case "FIRST" where peek(1).isSymbol("]"): index = .first
                case "LAST" where peek(1).isSymbol("]"): index = .last
                case "SIZE" where peek(1).isSymbol("]"): index = .size
                default: index = .expression(try parseExpression())
                }
                if case .first = index { advance() }
                if case .last = index { advance() }
                if case .size = index { advance() }
                try expect("]", "to close the index")
                expression = .index(expression, index)
            } else {
                return expression
            }
        }
    }

    func appending(_ components: [String], to base: FormatExpression) -> FormatExpression {
        if case .keyPath(let root, let path) = base { return .keyPath(base: root, path: path + components) }
        return .keyPath(base: base, path: components)
    }

    // MARK: - Primary

    mutating func parsePrimary() throws(FormatPredicateError) -> FormatExpression {
        let token = current
        switch token.kind {
        case .string(let text):
            advance()
            return .constant(.string(text))
        case .integer(let value):
            advance()
            // 2^63 without a minus sign does not fit an Int64 (see the lexer).
            return .constant(value == .min ? .double(-Double(value)) : .int(value))
        case .double(let value):
            advance()
            return .constant(.double(value))
        case .escapedWord(let word):
            advance()
            return .keyPath(base: .evaluatedObject, path: [word])
        case .atWord(let word):
            advance()
            return .keyPath(base: .evaluatedObject, path: ["@" + word])
        case .variable(let name):
            advance()
            return .variable(name)
        case .specifier(let letters, let position):
            advance()
            return try substitute(letters, position: position, at: token)
        case .symbol("("):
            advance()
            let inner = try parseExpression()
            try expect(")", "to close '('")
            return inner
        case .symbol("{"):
            advance()
            let elements = try parseList(closing: "}")
            // A list of constants is itself a constant, as an array argument for `%@` is.
            var constants: [FormatValue] = []
            for element in elements {
                guard case .constant(let value) = element else { return .aggregate(elements) }
                constants.append(value)
            }
            return .constant(.array(constants))
        case .word(let word):
            return try parseWord(word, token: token)
        case .end:
            throw error("expected an expression, found the end of the format")
        default:
            throw error("expected an expression, found \(describe(token))")
        }
    }

    /// Comma-separated expressions up to `closing` (consumed).
    mutating func parseList(closing: String) throws(FormatPredicateError) -> [FormatExpression] {
        var elements: [FormatExpression] = []
        if current.isSymbol(closing) {
            advance()
            return elements
        }
        while true {
            elements.append(try parseExpression())
            if current.isSymbol(closing) {
                advance()
                return elements
            }
            try expect(",", "or '\(closing)' in the list")
        }
    }

    mutating func parseWord(_ word: String, token: FormatToken) throws(FormatPredicateError) -> FormatExpression {
        let keyword = word.uppercased()
        switch keyword {
        case "TRUE", "YES":
            advance()
            return .constant(.bool(true))
        case "FALSE", "NO":
            advance()
            return .constant(.bool(false))
        case "NULL", "NIL":
            advance()
            return .constant(.null)
        case "SELF":
            advance()
            return .evaluatedObject
        case "SUBQUERY":
            return try parseSubquery()
        case "FUNCTION":
            return try parseCustomFunction()
        case "CAST":
            return try parseCast()
        default:
            break
        }
        if formatReservedWords.contains(keyword) {
            throw error("'\(word)' is a reserved word; write #\(word) to use it as a key")
        }
        advance()
        guard current.isSymbol("(") else { return .keyPath(base: .evaluatedObject, path: [word]) }
        guard let function = FormatFunction(name: word) else {
            throw error(
                "unknown function '\(word)'; known: "
                    + FormatFunction.allCases.map(\.rawValue).joined(separator: ", "), at: token)
        }
        advance()
        let arguments = try parseList(closing: ")")
        guard function.arity.contains(arguments.count) else {
            throw error("\(word)() takes \(arityText(function.arity)), not \(arguments.count)", at: token)
        }
        return .function(function, arguments)
    }

    func arityText(_ arity: ClosedRange<Int>) -> String {
        if arity.upperBound == Int.max { return "at least \(arity.lowerBound) argument(s)" }
        if arity.lowerBound == arity.upperBound { return "\(arity.lowerBound) argument(s)" }
        return "\(arity.lowerBound) to \(arity.upperBound) arguments"
    }

    /// `SUBQUERY(collection, $variable, predicate)`.
    mutating func parseSubquery() throws(FormatPredicateError) -> FormatExpression {
        advance()
        try expect("(", "after SUBQUERY")
        let collection = try parseExpression()
        try expect(",", "after the SUBQUERY collection")
        guard case .variable(let name) = current.kind else {
            throw error("expected the SUBQUERY iteration variable ($x), found \(describe(current))")
        }
        advance()
        try expect(",", "after the SUBQUERY variable")
        let predicate = try parseOr()
        try expect(")", "to close SUBQUERY")
        return .subquery(collection: collection, variable: name, predicate: predicate)
    }

    /// `FUNCTION(receiver, "selector:", arguments…)`.
    mutating func parseCustomFunction() throws(FormatPredicateError) -> FormatExpression {
        advance()
        try expect("(", "after FUNCTION")
        let receiver = try parseExpression()
        try expect(",", "after the FUNCTION receiver")
        let selectorToken = current
        guard case .constant(.string(let selector)) = try parseExpression() else {
            throw error("FUNCTION needs the selector name as a string", at: selectorToken)
        }
        if validates {
            throw FormatPredicateError(
                .unsupported,
                "FUNCTION(…, \(FormatValue.quote(selector))) calls a method by name, which Cairn neither evaluates nor "
                    + "fetches with; use a built-in function instead ("
                    + FormatFunction.allCases.map { $0.rawValue + "()" }.joined(separator: ", ") + ")",
                format: format, offset: selectorToken.offset)
        }
        var arguments: [FormatExpression] = []
        if current.isSymbol(",") {
            advance()
            arguments = try parseList(closing: ")")
        } else {
            try expect(")", "to close FUNCTION")
        }
        return .customFunction(receiver: receiver, selector: selector, arguments: arguments)
    }

    /// `CAST(value, "NSDate")`; constants are converted at parse time.
    mutating func parseCast() throws(FormatPredicateError) -> FormatExpression {
        let castToken = current
        advance()
        try expect("(", "after CAST")
        let slotsBefore = slots.count
        let value = try parseExpression()
        // A constant is converted here: a placeholder would stay a CAST.
        if slots.count != slotsBefore { slotsStandAlone = false }
        try expect(",", "after the CAST value")
        let typeToken = current
        guard case .constant(.string(let type)) = try parseExpression() else {
            throw error("CAST needs the class name as a string, e.g. \"NSDate\"", at: typeToken)
        }
        try expect(")", "to close CAST")
        guard ["NSDate", "NSNumber", "NSString", "NSUUID", "NSData", "NSDecimalNumber", "PersistentIdentifier"].contains(type)
        else {
            throw error("CAST to '\(type)' is not supported; use NSDate, NSNumber, NSString, NSUUID or NSData", at: typeToken)
        }
        guard case .constant(let constant) = value else { return .cast(value, type: type) }
        do {
            return .constant(try FormatEvaluator.cast(constant, to: type))
        } catch {
            throw FormatPredicateError(.syntax, error.message, format: format, offset: castToken.offset)
        }
    }
}
