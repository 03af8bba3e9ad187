import CairnCoreData
import CairnTestSupport
import Foundation
import Testing

@Suite("predicateFormat round-trips: printing a predicate and parsing the text gives the same predicate")
struct FormatRoundTripTests {
    /// Parses `text`, failing the test with the text when it does not parse.
    static func reparse(_ text: String, of tree: FormatPredicate) -> FormatPredicate? {
        do {
            return try FormatPredicate(text)
        } catch {
            Issue.record("\(tree) printed as \(text.debugDescription), which does not parse: \(error)")
            return nil
        }
    }

    @Test(arguments: 0..<16)
    func generatedTrees(seed: Int) {
        var generator = FormatTreeGenerator(seed: UInt64(seed) &* 104_729 &+ 1)
        for _ in 0..<250 {
            let tree = generator.predicate(depth: 4)
            let printed = tree.predicateFormat
            guard let parsed = Self.reparse(printed, of: tree) else { return }
            #expect(parsed == tree, "printed as \(printed.debugDescription), parsed back as \(parsed.predicateFormat.debugDescription)")
            guard let again = Self.reparse(parsed.predicateFormat, of: parsed) else { return }
            #expect(again == parsed)
        }
    }

    /// Subscripts by keys that are comparison option letters, and the grouping that hid them.
    @Test(arguments: [
        ("n[#d] == 3", "n[d] == 3"),
        ("(a[c]) == 1", "a[c] == 1"),
        ("a[c] == 1", "a[c] == 1"),
        ("a[#c] ==[c] 'x'", "a[c] ==[c] \"x\""),
        ("a[cd][n] == 1", "a[cd][n] == 1"),
        ("a[SIZE] == 2", "a[SIZE] == 2"),
        ("a[#SIZE] == 2", "a[#SIZE] == 2"),
        ("a[FIRST] == 1 AND a[LAST] == 2", "a[FIRST] == 1 AND a[LAST] == 2"),
        ("a[0] == 1", "a[0] == 1"),
    ])
    func optionLetterSubscripts(format: String, printed: String) throws {
        guard let comparison = try Self.roundTrippedComparison(format, printed: printed) else { return }
        #expect(comparison.options == (format.contains("==[c]") ? .caseInsensitive : []))
        guard case .index = comparison.lhs else {
            Issue.record("\(format): the left side is \(comparison.lhs), not a subscript")
            return
        }
    }

    /// Parses `format`, checks that it prints as `printed` and reads back as itself, and
    /// returns its first comparison (recording an issue when there is none).
    static func roundTrippedComparison(_ format: String, printed: String) throws -> FormatComparison? {
        let predicate = try FormatPredicate(format)
        #expect(predicate.predicateFormat == printed)
        #expect(try FormatPredicate(predicate.predicateFormat) == predicate)
        guard case .comparison(let comparison) = predicate.and.first else {
            Issue.record("\(format) is not a comparison")
            return nil
        }
        return comparison
    }

    @Test func subscriptByAKeyReadsThatKey() throws {
        let predicate = try FormatPredicate("a[c] == 1")
        #expect(try predicate.evaluate(with: ["a": ["x": 1, "y": 2], "c": "x"]))
        #expect(try !predicate.evaluate(with: ["a": ["x": 1, "y": 2], "c": "y"]))
    }

    /// The seed tutorial's spelling: options before the operator, apart from the key.
    @Test(arguments: [
        ("name [c] == 'coffee'", #"name ==[c] "coffee""#),
        ("name\t[cd] BEGINSWITH[n] 'x'", #"name BEGINSWITH[cdn] "x""#),
        ("a.b [d] != 1", "a.b !=[d] 1"),
    ])
    func optionsBeforeTheOperatorApartFromTheKey(format: String, printed: String) throws {
        guard let comparison = try Self.roundTrippedComparison(format, printed: printed) else { return }
        #expect(!comparison.options.isEmpty, "\(format) lost its options")
        guard case .keyPath = comparison.lhs else {
            Issue.record("\(format): the left side is \(comparison.lhs), not a key path")
            return
        }
    }

    @Test func optionsBeforeTheOperatorSayWhereTheyGo() throws {
        let predicate = try FormatPredicate("name[c] == 'coffee'")
        let error = #expect(throws: FormatPredicateError.self) {
            try predicate.evaluate(with: ["name": "Coffee"])
        }
        #expect(error?.message.contains("comparison options go after the operator (`==[c]`)") == true)
    }

    @Test func negativeExtremeIntegersKeepTheirSignAndType() throws {
        #expect(try FormatPredicate("a == -9223372036854775808") == .comparison(
            FormatComparison(.keyPath(base: .evaluatedObject, path: ["a"]), .equalTo, .constant(.int(.min)))))
    }
}

extension FormatPredicate {
    /// The operands of an `AND`, or the predicate alone.
    var and: [FormatPredicate] {
        if case .and(let operands) = self { return operands }
        return [self]
    }
}
