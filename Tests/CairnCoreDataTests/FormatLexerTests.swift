@testable import CairnCoreData
import CairnTestSupport
import Testing

/// The lexer reads a format of one-byte (ASCII) characters as bytes and any other as
/// `Character`s. Both readings must give the same tokens, offsets and errors.
@Suite("Format lexer: reading bytes and reading Characters agree")
struct FormatLexerTests {
    static func both(_ format: String) -> (bytes: Result<[FormatToken], FormatPredicateError>,
                                           characters: Result<[FormatToken], FormatPredicateError>) {
        (Result { () throws(FormatPredicateError) in try FormatLexer.tokenize(format) },
         Result { () throws(FormatPredicateError) in try FormatLexer.tokenize(format, readsBytes: false) })
    }

    /// Every ASCII character, controls included; the characters formats are made of, more often.
    static let alphabet: [UInt8] = Array(0x00...0x7F) + Array("  ab_1.%@$#'\"()=<>!&|*".utf8)

    @Test("Random ASCII formats", arguments: 0..<4)
    func randomFormats(seed: Int) {
        var generator = SeededRandom(seed: UInt64(seed) &+ 0xC0FFEE)
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...24, using: &generator)
            let bytes = (0..<length).map { _ in Self.alphabet.randomElement(using: &generator) ?? 0x20 }
            let format = String(decoding: bytes, as: UTF8.self)
            let (fast, slow) = Self.both(format)
            #expect(fast == slow, "\(format.debugDescription)")
        }
    }

    /// The byte reading classifies each ASCII character as `Character`'s own properties do:
    /// white space separates, letters, digits and `_` continue a name, anything else does not.
    @Test("Each ASCII character is white space, part of a name, or neither, as Character says")
    func asciiClasses() {
        for byte in UInt8(0)...0x7F {
            let character = Character(Unicode.Scalar(byte))
            let format = "a" + String(character) + "b"
            let kinds = (try? FormatLexer.tokenize(format))?.map(\.kind)
            if character.isWhitespace {
                #expect(kinds == [.word("a"), .word("b"), .end], "\(byte)")
            } else if character.isLetter || character.isNumber || character == "_" {
                #expect(kinds == [.word(format), .end], "\(byte)")
            } else {
                // A symbol, the start of a literal or a name (`#b`, `$b`), or an error; never
                // a separator, never part of the name `a`.
                #expect(kinds != [.word("a"), .word("b"), .end] && kinds != [.word(format), .end], "\(byte)")
                #expect(kinds == nil || kinds?.first == .word("a"), "\(byte)")
            }
        }
    }

    @Test("Every format of the table, and mutations of it")
    func tableFormats() {
        var generator = SeededRandom(seed: 42)
        var compared = 0
        for testCase in FormatPredicateTableTests.all {
            for format in [testCase.format] + (0..<20).map({ _ in
                FormatPredicateFuzzTests.mutate(testCase.format, using: &generator)
            }) {
                let (fast, slow) = Self.both(format)
                #expect(fast == slow, "\(format.debugDescription)")
                compared += 1
            }
        }
        #expect(compared > 1_000)
    }

    @Test("Numbers, specifiers, names and symbols, token by token")
    func knownTokens() throws {
        let tokens = try FormatLexer.tokenize("a_1 >= 0x1F AND .5e-3 != %2$@ || $v == %lld <> 5. =< #in @count")
        #expect(tokens.map(\.kind) == [
            .word("a_1"), .symbol(">="), .integer(31), .word("AND"), .double(0.0005), .symbol("!="),
            .specifier("@", position: 2), .symbol("||"), .variable("v"), .symbol("=="), .specifier("lld", position: nil),
            .symbol("<>"), .double(5), .symbol("=<"), .escapedWord("in"), .atWord("count"), .end,
        ])
        #expect(tokens.map(\.offset) == [0, 4, 7, 12, 16, 22, 25, 30, 33, 36, 39, 44, 47, 50, 53, 57, 63])
    }

    /// A CR LF pair is one `Character`: such a format is read as `Character`s, and the offsets
    /// after it count the pair once (`b` is the 7th character and the 8th byte).
    @Test("CR LF and non-ASCII formats count characters")
    func characterOffsets() throws {
        for (format, offset) in [("a ==\r\n b", 6), ("é == b", 5), ("a\u{301} == b", 5)] {
            let tokens = try FormatLexer.tokenize(format)
            #expect(tokens.dropLast().last?.offset == offset, "\(format.debugDescription)")
        }
        #expect(throws: FormatPredicateError.self) { try FormatLexer.tokenize("a == 0x") }
        #expect(throws: FormatPredicateError.self) { try FormatLexer.tokenize("a == 0xé") }
        #expect(throws: FormatPredicateError.self) { try FormatLexer.tokenize("a == %y") }
    }

    /// A quote followed by a combining mark is still a quote (Swift would make the pair one
    /// `Character`); a decomposed letter continues a name. Offsets stay in Characters.
    @Test("Quotes and operators before a combining mark; decomposed names")
    func combiningMarks() throws {
        let accent = try FormatPredicate("name ENDSWITH \"\u{301}\"")
        #expect(accent == (try FormatPredicate("name ENDSWITH %@", arguments: ["\u{301}"])))
        #expect(try accent.evaluate(with: ["name": "cafe\u{301}"] as [String: Any]))
        let quoted = try FormatLexer.tokenize("x == '\u{308}a'")
        #expect(quoted.map(\.kind) == [.word("x"), .symbol("=="), .string("\u{308}a"), .end])
        let name = try FormatLexer.tokenize("cafe\u{301} == 1")
        #expect(name.map(\.kind) == [.word("cafe\u{301}"), .symbol("=="), .integer(1), .end])
        #expect(name.map(\.offset) == [0, 5, 8, 9])
        // A mark after an operator belongs to no token, as in Foundation's parser.
        #expect(throws: FormatPredicateError.self) { try FormatLexer.tokenize("x ==\u{301} 1") }
        #expect(try FormatPredicate("cafe\u{301} == 1").evaluate(with: ["cafe\u{301}": 1] as [String: Any]))
        do {
            _ = try FormatLexer.tokenize("e\u{301}e\u{301} == ~")
            Issue.record("'~' was accepted")
        } catch {
            #expect(error.offset == 6, "\(error)")
        }
    }
}
