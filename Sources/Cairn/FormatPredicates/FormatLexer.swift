import Foundation

/// A token of the format language, with the `Character` offset where it starts.
struct FormatToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A bare word: a key, a keyword (`AND`, `any`), or a function name.
        case word(String)
        /// `#word`: a reserved word used as a key.
        case escapedWord(String)
        /// `@count`, `@sum`: a collection operator.
        case atWord(String)
        /// `$name`.
        case variable(String)
        /// A quoted literal, escapes resolved.
        case string(String)
        case integer(Int64)
        case double(Double)
        /// `%@`, `%K`, `%d`, `%2$@`…: the conversion letters and an explicit 1-based position.
        case specifier(String, position: Int?)
        /// Punctuation and operators: `( ) { } [ ] , . == = != <> < <= =< > >= => && || ! + - * / ** :=`.
        case symbol(String)
        case end
    }

    var kind: Kind
    var offset: Int

    /// The keyword this token spells (uppercased), if it is a bare word.
    var keyword: String? {
        if case .word(let word) = kind { return word.uppercased() }
        return nil
    }

    func isSymbol(_ symbol: String) -> Bool { kind == .symbol(symbol) }
    func isKeyword(_ word: String) -> Bool { keyword == word }
}

/// Splits a format string into tokens. Works on an array of `Character`s so every index is
/// checked and offsets are what a user counts.
struct FormatLexer {
    let format: String
    private let characters: [Character]
    private var position = 0

    init(_ format: String) {
        self.format = format
        self.characters = Array(format)
    }

    static func tokenize(_ format: String) throws(FormatPredicateError) -> [FormatToken] {
        var lexer = FormatLexer(format)
        var tokens: [FormatToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func peek(_ ahead: Int = 0) -> Character? {
        let index = position + ahead
        return index >= 0 && index < characters.count ? characters[index] : nil
    }

    private func error(_ message: String, at offset: Int) -> FormatPredicateError {
        FormatPredicateError(.syntax, message, format: format, offset: offset)
    }

    private static let pairSymbols: Set<String> = [
        "**", "==", "=<", "=>", "!=", "<>", "<=", ">=", "&&", "||", ":=",
    ]
    private static let singleSymbols: Set<Character> = [
        "(", ")", "{", "}", "[", "]", ",", ".", "=", "<", ">", "!", "+", "-", "*", "/",
    ]

    mutating func next() throws(FormatPredicateError) -> FormatToken {
        while let character = peek(), character == " " || character.isWhitespace { position += 1 }
        let start = position
        guard let character = peek() else { return FormatToken(kind: .end, offset: start) }

        if character == "\"" || character == "'" {
            return FormatToken(kind: .string(try lexString(quote: character)), offset: start)
        }
        if character.isASCII, character.isNumber {
            return FormatToken(kind: try lexNumber(), offset: start)
        }
        if character == ".", let following = peek(1), following.isASCII, following.isNumber {
            return FormatToken(kind: try lexNumber(), offset: start)
        }
        if isIdentifierStart(character) {
            return FormatToken(kind: .word(lexIdentifier()), offset: start)
        }
        switch character {
        case "#", "@", "$":
            position += 1
            guard let first = peek(), isIdentifierStart(first) else {
                throw error("expected a name after '\(character)'", at: start)
            }
            let name = lexIdentifier()
            let kind: FormatToken.Kind =
                character == "#" ? .escapedWord(name) : character == "@" ? .atWord(name) : .variable(name)
            return FormatToken(kind: kind, offset: start)
        case "%":
            return FormatToken(kind: try lexSpecifier(), offset: start)
        default:
            break
        }
        if let next = peek(1) {
            let pair = String(character) + String(next)
            if Self.pairSymbols.contains(pair) {
                position += 2
                return FormatToken(kind: .symbol(pair), offset: start)
            }
        }
        if Self.singleSymbols.contains(character) {
            position += 1
            return FormatToken(kind: .symbol(String(character)), offset: start)
        }
        throw error("unexpected character '\(character)'", at: start)
    }

    private func isIdentifierStart(_ character: Character) -> Bool {
        // ASCII without Unicode property lookups (the common case, and most of lexing time).
        if let ascii = character.asciiValue {
            return ascii == 0x5F || (0x41...0x5A).contains(ascii) || (0x61...0x7A).contains(ascii)
        }
        return character.isLetter
    }

    /// A letter, digit or `_`.
    private func isIdentifierCharacter(_ character: Character) -> Bool {
        if let ascii = character.asciiValue { return (0x30...0x39).contains(ascii) || isIdentifierStart(character) }
        return character.isLetter || character.isNumber
    }

    private mutating func lexIdentifier() -> String {
        var name = ""
        while let character = peek(), isIdentifierCharacter(character) {
            name.append(character)
            position += 1
        }
        return name
    }

    // MARK: - Strings

    private mutating func lexString(quote: Character) throws(FormatPredicateError) -> String {
        let start = position
        position += 1
        var text = ""
        while let character = peek() {
            position += 1
            if character == quote { return text }
            guard character == "\\" else {
                text.append(character)
                continue
            }
            let escapeStart = position - 1
            guard let escaped = peek() else { break }
            position += 1
            switch escaped {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "0"..."7":
                var digits = String(escaped)
                while digits.count < 3, let more = peek(), ("0"..."7").contains(more) {
                    digits.append(more)
                    position += 1
                }
                text.unicodeScalars.append(try scalar(digits, radix: 8, at: escapeStart))
            case "x", "X":
                text.unicodeScalars.append(try scalar(takeHex(max: 2), radix: 16, at: escapeStart))
            case "u", "U":
                text.unicodeScalars.append(try scalar(takeHex(max: 4), radix: 16, at: escapeStart))
            default:
                // `\\`, `\'`, `\"` and any other character stand for themselves.
                text.append(escaped)
            }
        }
        throw error("unterminated string literal (missing \(quote))", at: start)
    }

    private mutating func takeHex(max: Int) -> String {
        var digits = ""
        while digits.count < max, let character = peek(), character.isHexDigit {
            digits.append(character)
            position += 1
        }
        return digits
    }

    private func scalar(_ digits: String, radix: Int, at offset: Int)
        throws(FormatPredicateError) -> Unicode.Scalar
    {
        guard let value = UInt32(digits, radix: radix), let scalar = Unicode.Scalar(value) else {
            throw error("invalid escape sequence in string literal", at: offset)
        }
        return scalar
    }

    // MARK: - Numbers

    private mutating func lexNumber() throws(FormatPredicateError) -> FormatToken.Kind {
        let start = position
        if peek() == "0", let prefix = peek(1), let radix = ["x": 16, "X": 16, "o": 8, "O": 8, "b": 2, "B": 2][prefix] {
            position += 2
            var digits = ""
            while let character = peek(), isIdentifierCharacter(character) {
                digits.append(character)
                position += 1
            }
            guard !digits.isEmpty, let value = Int64(digits, radix: radix) else {
                throw error("invalid or too large base-\(radix) integer literal", at: start)
            }
            return .integer(value)
        }
        var text = ""
        var isFloat = false
        while let character = peek(), character.isASCII, character.isNumber {
            text.append(character)
            position += 1
        }
        if peek() == ".", let digit = peek(1), digit.isASCII, digit.isNumber {
            isFloat = true
            text.append(".")
            position += 1
            while let character = peek(), character.isASCII, character.isNumber {
                text.append(character)
                position += 1
            }
        } else if peek() == ".", !(peek(1).map(isIdentifierStart) ?? false), peek(1) != "@" {
            // `5.` is the float 5.0; `a.5` never starts here, and `5.x` is a key path on 5.
            isFloat = true
            position += 1
        }
        if let e = peek(), e == "e" || e == "E" {
            var lookahead = 1
            if let sign = peek(1), sign == "+" || sign == "-" { lookahead = 2 }
            if let digit = peek(lookahead), digit.isASCII, digit.isNumber {
                isFloat = true
                text.append("e")
                if lookahead == 2, let sign = peek(1) { text.append(sign) }
                position += lookahead
                while let character = peek(), character.isASCII, character.isNumber {
                    text.append(character)
                    position += 1
                }
            }
        }
        if let character = peek(), isIdentifierStart(character) {
            throw error("unexpected '\(character)' after a number", at: position)
        }
        if text.hasPrefix(".") { text = "0" + text }
        if isFloat {
            guard let value = Double(text) else { throw error("invalid number", at: start) }
            return .double(value)
        }
        if let value = Int64(text) { return .integer(value) }
        guard let value = Double(text) else { throw error("invalid number", at: start) }
        return .double(value)
    }

    // MARK: - Format specifiers

    /// `%@`, `%K`, `%d`, `%i`, `%ld`, `%lld`, `%u`, `%lu`, `%hi`, `%qi`, `%f`, `%lf`, `%e`,
    /// `%g`, `%s`, `%c`, `%x`, `%o`, and positional `%1$@`.
    private mutating func lexSpecifier() throws(FormatPredicateError) -> FormatToken.Kind {
        let start = position
        position += 1
        var position_: Int?
        var digits = ""
        var lookahead = 0
        while let character = peek(lookahead), character.isASCII, character.isNumber {
            digits.append(character)
            lookahead += 1
        }
        if !digits.isEmpty, peek(lookahead) == "$" {
            guard let index = Int(digits), index >= 1 else {
                throw error("argument positions start at 1", at: start)
            }
            position_ = index
            position += lookahead + 1
        }
        var letters = ""
        while let character = peek(), ["l", "h", "q", "L", "z", "j", "t"].contains(character) {
            letters.append(character)
            position += 1
        }
        guard let conversion = peek(),
            "@KdiDuUfFeEgGsScCxXoO".contains(conversion)
        else {
            throw error("unknown format specifier", at: start)
        }
        position += 1
        return .specifier(letters + String(conversion), position: position_)
    }
}
