@testable import Cairn
import Foundation
import Testing

/// `jsonStringLiteral` writes the history's change documents and predicate formats: text that
/// needs no escape is quoted as it is, anything else escaped, and both read back as the text.
@Suite struct StringLiteralTests {
    @Test(arguments: [
        ("", #""""#),
        ("Workout", #""Workout""#),
        ("café 東京 🏃", #""café 東京 🏃""#),
        ("say \"hi\"", #""say \"hi\"""#),
        (#"C:\path"#, #""C:\\path""#),
        ("a\nb\tc\rd", #""a\nb\tc\rd""#),
        ("\u{1}x", #""\u0001x""#),
        ("x\u{7F}", #""x\u007f""#),
    ])
    func quotesAndEscapes(text: String, literal: String) throws {
        #expect(jsonStringLiteral(text) == literal)
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(jsonStringLiteral(text))]".utf8)) as? [String]
        #expect(decoded == [text])
    }
}
