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

/// Splits a format string into tokens, with offsets counted in `Character`s, as a user counts.
///
/// A format whose every character is one ASCII byte (nearly all of them) is read as bytes:
/// then a byte's index is its character offset, and a check such as "is this a digit" is a
/// comparison. Any other format is read by Unicode scalar, each scalar as a `Character` of its
/// own, where each of those checks is a call into the standard library's Unicode tables
/// (`asciiValue`, `isWhitespace` and `isNumber` cost about 300–400 instructions each; lexing
/// `minutes >= %d` cost 19,000 instructions, callgrind, Core Data W3). Both readings give the
/// same tokens.
///
/// Scalars, not grapheme clusters, because the grammar's punctuation is ASCII and a quote
/// followed by a combining mark must still be a quote (`ENDSWITH "\u{301}"` is a quote, an
/// accent and a quote, as Foundation's UTF-16 parser reads it). Offsets are reported in
/// `Character`s all the same (`characterOffsets`).
struct FormatLexer {
    let format: String
    /// The format's bytes, when every character is one ASCII byte.
    private let ascii: [UInt8]?
    /// The format's Unicode scalars, each as a `Character`, otherwise (empty when `ascii` is set).
    private let characters: [Character]
    /// For a format read by scalar: the `Character` offset at each scalar index (and at the end).
    private let characterOffsets: [Int]
    private let count: Int
    private var position = 0

    /// A lexer of `format`; `readsBytes: false` reads an ASCII format as `Character`s too (for
    /// tests that compare the two readings).
    init(_ format: String, readsBytes: Bool = true) {
        self.format = format
        let bytes = Array(format.utf8)
        if readsBytes, Self.isOneByteCharacters(bytes) {
            ascii = bytes
            characters = []
            characterOffsets = []
            count = bytes.count
        } else {
            ascii = nil
            characters = format.unicodeScalars.map(Character.init)
            var offsets: [Int] = []
            offsets.reserveCapacity(characters.count + 1)
            for (offset, character) in format.enumerated() {
                for _ in character.unicodeScalars { offsets.append(offset) }
            }
            offsets.append(format.count)
            characterOffsets = offsets
            count = characters.count
        }
    }

    /// The `Character` offset of the scalar at `index`, as errors and tokens report it.
    private func characterOffset(_ index: Int) -> Int {
        ascii != nil || characterOffsets.isEmpty ? index : characterOffsets[min(max(index, 0), characterOffsets.count - 1)]
    }

    /// Whether each character of the UTF-8 `bytes` is one byte: all ASCII, and no CR LF pair
    /// (which is one `Character`).
    private static func isOneByteCharacters(_ bytes: [UInt8]) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if byte >= 0x80 || (previous == 0x0D && byte == 0x0A) { return false }
            previous = byte
        }
        return true
    }

    static func tokenize(_ format: String, readsBytes: Bool = true) throws(FormatPredicateError) -> [FormatToken] {
        var lexer = FormatLexer(format, readsBytes: readsBytes)
        var tokens: [FormatToken] = []
        tokens.reserveCapacity(lexer.count / 2 + 2)
        while true {
            var token = try lexer.next()
            token.offset = lexer.characterOffset(token.offset)
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func peek(_ ahead: Int = 0) -> Character? {
        let index = position + ahead
        guard index >= 0, index < count else { return nil }
        if let ascii { return Character(Unicode.Scalar(ascii[index])) }
        return characters[index]
    }

    /// The character `ahead` of the position as its ASCII byte; `nil` at the end and for a
    /// character that is not ASCII.
    private func peekByte(_ ahead: Int = 0) -> UInt8? {
        let index = position + ahead
        guard index >= 0, index < count else { return nil }
        if let ascii { return ascii[index] }
        return characters[index].asciiValue
    }

    private func error(_ message: String, at offset: Int) -> FormatPredicateError {
        FormatPredicateError(.syntax, message, format: format, offset: characterOffset(offset))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    private static func isLetterOrUnderscore(_ byte: UInt8) -> Bool {
        byte == 0x5F || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// Whether the character `ahead` is a digit (ASCII only, as `0`–`9` are the digits of a
    /// number literal).
    private func isDigit(at ahead: Int = 0) -> Bool {
        peekByte(ahead).map(Self.isDigit) ?? false
    }

    /// Whether the character `ahead` is white space (Unicode's, as `Character.isWhitespace`).
    private func isWhitespace(at ahead: Int = 0) -> Bool {
        if let byte = peekByte(ahead) { return byte == 0x20 || (0x09...0x0D).contains(byte) }
        return peek(ahead)?.isWhitespace ?? false
    }

    /// Whether the character `ahead` can start a name: `_` or a letter.
    private func isIdentifierStart(at ahead: Int = 0) -> Bool {
        if let byte = peekByte(ahead) { return Self.isLetterOrUnderscore(byte) }
        return peek(ahead)?.isLetter ?? false
    }

    /// Whether the character `ahead` can continue a name: a letter, digit, `_`, or a combining
    /// mark (of a decomposed letter such as `e\u{301}`).
    private func isIdentifierCharacter(at ahead: Int = 0) -> Bool {
        if let byte = peekByte(ahead) { return Self.isDigit(byte) || Self.isLetterOrUnderscore(byte) }
        guard let character = peek(ahead) else { return false }
        if character.isLetter || character.isNumber { return true }
        switch character.unicodeScalars.first?.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// The operator the two ASCII bytes spell, if any: `** == =< => != <> <= >= && || :=`.
    private static func pairSymbol(_ first: UInt8, _ second: UInt8) -> String? {
        switch (first, second) {
        case (0x2A, 0x2A): "**"
        case (0x3D, 0x3D): "=="
        case (0x3D, 0x3C): "=<"
        case (0x3D, 0x3E): "=>"
        case (0x21, 0x3D): "!="
        case (0x3C, 0x3E): "<>"
        case (0x3C, 0x3D): "<="
        case (0x3E, 0x3D): ">="
        case (0x26, 0x26): "&&"
        case (0x7C, 0x7C): "||"
        case (0x3A, 0x3D): ":="
        default: nil
        }
    }

    /// Whether the ASCII byte is a symbol of its own: `( ) { } [ ] , . = < > ! + - * /`.
    private static func isSingleSymbol(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x28, 0x29, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x2E, 0x3D, 0x3C, 0x3E, 0x21, 0x2B, 0x2D, 0x2A, 0x2F: true
        default: false
        }
    }

    mutating func next() throws(FormatPredicateError) -> FormatToken {
        while isWhitespace() { position += 1 }
        let start = position
        guard let character = peek() else { return FormatToken(kind: .end, offset: start) }
        guard let byte = peekByte() else {
            // Not ASCII: a letter starts a name; nothing else starts a token.
            if character.isLetter { return FormatToken(kind: .word(lexIdentifier()), offset: start) }
            throw error("unexpected character '\(character)'", at: start)
        }

        switch byte {
        case 0x22, 0x27:  // " '
            return FormatToken(kind: .string(try lexString(quote: character)), offset: start)
        case 0x30...0x39:
            return FormatToken(kind: try lexNumber(), offset: start)
        case 0x2E where isDigit(at: 1):  // .5
            return FormatToken(kind: try lexNumber(), offset: start)
        case _ where Self.isLetterOrUnderscore(byte):
            return FormatToken(kind: .word(lexIdentifier()), offset: start)
        case 0x23, 0x40, 0x24:  // # @ $
            position += 1
            guard isIdentifierStart() else { throw error("expected a name after '\(character)'", at: start) }
            let name = lexIdentifier()
            let kind: FormatToken.Kind =
                byte == 0x23 ? .escapedWord(name) : byte == 0x40 ? .atWord(name) : .variable(name)
            return FormatToken(kind: kind, offset: start)
        case 0x25:  // %
            return FormatToken(kind: try lexSpecifier(), offset: start)
        default:
            break
        }
        if let next = peekByte(1), let pair = Self.pairSymbol(byte, next) {
            position += 2
            return FormatToken(kind: .symbol(pair), offset: start)
        }
        if Self.isSingleSymbol(byte) {
            position += 1
            return FormatToken(kind: .symbol(String(character)), offset: start)
        }
        throw error("unexpected character '\(character)'", at: start)
    }

    private mutating func lexIdentifier() -> String {
        let start = position
        while isIdentifierCharacter() { position += 1 }
        if let ascii { return String(decoding: ascii[start..<position], as: UTF8.self) }
        return String(characters[start..<position])
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
        if peekByte() == 0x30, let prefix = peekByte(1), let radix = Self.radix(prefix) {
            position += 2
            var digits: [UInt8] = []
            while isIdentifierCharacter(), let digit = peekByte() {
                digits.append(digit)
                position += 1
            }
            // A non-ASCII letter after the prefix ends the digits here and fails below.
            guard !digits.isEmpty, !isIdentifierCharacter(),
                let value = Int64(String(decoding: digits, as: UTF8.self), radix: radix)
            else {
                throw error("invalid or too large base-\(radix) integer literal", at: start)
            }
            return .integer(value)
        }
        // The literal's ASCII text, as Swift's number parsers read it.
        var text: [UInt8] = []
        var isFloat = false
        takeDigits(into: &text)
        if peekByte() == 0x2E, isDigit(at: 1) {
            isFloat = true
            text.append(0x2E)
            position += 1
            takeDigits(into: &text)
        } else if peekByte() == 0x2E, !isIdentifierStart(at: 1), peekByte(1) != 0x40 {
            // `5.` is the float 5.0; `a.5` never starts here, and `5.x` is a key path on 5.
            isFloat = true
            position += 1
        }
        if let e = peekByte(), e == 0x65 || e == 0x45 {
            var lookahead = 1
            if let sign = peekByte(1), sign == 0x2B || sign == 0x2D { lookahead = 2 }
            if isDigit(at: lookahead) {
                isFloat = true
                text.append(0x65)
                if lookahead == 2, let sign = peekByte(1) { text.append(sign) }
                position += lookahead
                takeDigits(into: &text)
            }
        }
        if let character = peek(), isIdentifierStart() {
            throw error("unexpected '\(character)' after a number", at: position)
        }
        if text.first == 0x2E { text.insert(0x30, at: 0) }
        let literal = String(decoding: text, as: UTF8.self)
        if isFloat {
            guard let value = Double(literal) else { throw error("invalid number", at: start) }
            return .double(value)
        }
        if let value = Int64(literal) { return .integer(value) }
        // 2^63 is an integer only after a minus sign (`-9223372036854775808` is Int64.min):
        // the token carries it as Int64.min and the parser decides which it is.
        if literal.drop(while: { $0 == "0" }) == "9223372036854775808" { return .integer(.min) }
        guard let value = Double(literal) else { throw error("invalid number", at: start) }
        return .double(value)
    }

    /// Appends the ASCII digits at the position to `text` and moves past them.
    private mutating func takeDigits(into text: inout [UInt8]) {
        while let byte = peekByte(), Self.isDigit(byte) {
            text.append(byte)
            position += 1
        }
    }

    /// The radix a `0x`, `0o` or `0b` prefix letter names.
    private static func radix(_ letter: UInt8) -> Int? {
        switch letter {
        case 0x78, 0x58: 16  // x X
        case 0x6F, 0x4F: 8  // o O
        case 0x62, 0x42: 2  // b B
        default: nil
        }
    }

    // MARK: - Format specifiers

    /// `%@`, `%K`, `%d`, `%i`, `%ld`, `%lld`, `%u`, `%lu`, `%hi`, `%qi`, `%f`, `%lf`, `%e`,
    /// `%g`, `%s`, `%c`, `%x`, `%o`, and positional `%1$@`.
    private mutating func lexSpecifier() throws(FormatPredicateError) -> FormatToken.Kind {
        let start = position
        position += 1
        var argumentPosition: Int?
        var digits: [UInt8] = []
        var lookahead = 0
        while let byte = peekByte(lookahead), Self.isDigit(byte) {
            digits.append(byte)
            lookahead += 1
        }
        if !digits.isEmpty, peekByte(lookahead) == 0x24 {  // $
            guard let index = Int(String(decoding: digits, as: UTF8.self)), index >= 1 else {
                throw error("argument positions start at 1", at: start)
            }
            argumentPosition = index
            position += lookahead + 1
        }
        var spelling: [UInt8] = []
        while let byte = peekByte(), Self.isLengthModifier(byte) {
            spelling.append(byte)
            position += 1
        }
        guard let conversion = peekByte(), Self.isConversion(conversion) else {
            throw error("unknown format specifier", at: start)
        }
        position += 1
        spelling.append(conversion)
        return .specifier(String(decoding: spelling, as: UTF8.self), position: argumentPosition)
    }

    /// Whether the ASCII byte is a length modifier: one of `lhqLzjt`.
    private static func isLengthModifier(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x6C, 0x68, 0x71, 0x4C, 0x7A, 0x6A, 0x74: true
        default: false
        }
    }

    /// Whether the ASCII byte is a conversion letter: one of `@KdiDuUfFeEgGsScCxXoO`.
    private static func isConversion(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x40, 0x4B, 0x64, 0x69, 0x44, 0x75, 0x55, 0x66, 0x46, 0x65, 0x45, 0x67, 0x47, 0x73, 0x53, 0x63, 0x43,
            0x78, 0x58, 0x6F, 0x4F:
            true
        default: false
        }
    }
}
