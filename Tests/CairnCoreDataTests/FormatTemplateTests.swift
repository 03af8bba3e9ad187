@testable import Cairn
@testable import CairnCoreData
import Foundation
import Testing

/// A format's parse with the kept template against a parse of the text: the same tree, or the
/// same error, for any arguments.
private func expectSameAsFreshParse(_ format: String, _ arguments: [Any?], sourceLocation: SourceLocation = #_sourceLocation) {
    let kept = Result { () throws(FormatPredicateError) in try FormatPredicateParser.parse(format, arguments: arguments) }
    let fresh = Result { () throws(FormatPredicateError) in
        try FormatPredicateParser.parseAfresh(format, arguments: arguments, validating: false)
    }
    switch (kept, fresh) {
    case (.success(let a), .success(let b)):
        #expect(a == b, "\(format)", sourceLocation: sourceLocation)
        #expect(a.predicateFormat == b.predicateFormat, sourceLocation: sourceLocation)
    case (.failure(let a), .failure(let b)):
        #expect(a == b, "\(format)", sourceLocation: sourceLocation)
    default:
        Issue.record("\(format): kept template gave \(kept), a fresh parse \(fresh)", sourceLocation: sourceLocation)
    }
}

@Suite("Format templates: a format text is parsed once, each call's arguments put in")
struct FormatTemplateTests {
    @Test func oneFormatWithDifferentArgumentsGivesEachItsOwnPredicate() throws {
        // A format no other test parses, so that the count below is this test's.
        let format = "id == %lld AND title != \"\(UUID().uuidString)\""
        #expect(!FormatTemplate.cache.holds(format))
        let predicates = (1...3).map { NSPredicate(format: format, Int64($0)) }
        #expect(FormatTemplate.cache.holds(format))
        #expect(FormatTemplate.cache.template(for: format)?.slots.count == 1)
        #expect(predicates.map { $0.formatPredicate.predicateFormat.prefix(9) } == ["id == 1 A", "id == 2 A", "id == 3 A"])
        for (key, predicate) in zip(1..., predicates) {
            let fresh = try FormatPredicateParser.parseAfresh(format, arguments: [Int64(key)], validating: false)
            #expect(predicate.formatPredicate == fresh)
            #expect(predicate.evaluate(with: ["id": key, "title": "x"]))
            #expect(!predicate.evaluate(with: ["id": key + 1, "title": "x"]))
        }
    }

    /// Formats whose parse builds around an argument, with arguments that build differently.
    static var shapes: [(String, [[Any?]])] { [
        ("%K == %@", [["name", "Coffee"], ["owner.name", 3], ["a.b.c", nil]]),
        ("%K.name == %@", [["owner", "Ada"], ["owner.manager", "Bo"]]),
        ("%@.name == 1", [[NSExpression(forKeyPath: "owner")], [NSExpression(forVariable: "x")], ["text"]]),
        ("amount IN {%@, %@}", [[1, 2], [1, NSExpression(forKeyPath: "other")], ["a", nil]]),
        ("{%@, {%@}} CONTAINS 1", [[1, 2], [NSExpression(forKeyPath: "k"), 2]]),
        ("%2$@ < %1$d AND %1$d > 0", [[5, "amount"], [7, 2.5]]),
        ("-%d < amount", [[3], [-4]]),
        ("(%d + 1) > 2 OR (id == %@)", [[1, 2], [0, "x"]]),
        ("SUBQUERY(%K, $x, $x.qty > %d).@count > 0", [["items", 1], ["lines", 2]]),
        ("ANY %K BEGINSWITH[cd] %@", [["tags.name", "sw"], ["tags", "é"]]),
        ("amount BETWEEN %@", [[[1, 5]], [[2.5, 7.5]]]),
        ("date > CAST(%@, \"NSDate\")", [[0.0], [86_400.0], ["nope"]]),
        ("a.%K == 1", [["b"], ["b.c"]]),
        ("FUNCTION(SELF, %@) == 1", [["selector:"]]),
        ("name == %s AND code == %c", [["x", 65], ["y", "z"]]),
        ("count == %d", [[1.0], [1.5], ["one"], [true]]),
        ("id == %lld", [[], [1, 2]]),
        ("id == %3$d", [[1, 2, 3], [1]]),
        ("%K == 1", [[""], ["a..b"], [5]]),
    ] }

    @Test(arguments: 0..<19)
    func templatesGiveTheTreeAndErrorsOfAFreshParse(_ index: Int) {
        let (format, argumentSets) = Self.shapes[index]
        #expect(Self.shapes.count == 19)
        for arguments in argumentSets + argumentSets {
            expectSameAsFreshParse(format, arguments)
        }
    }

    @Test func everyTableFormatParsesAsAFreshParseDoes() {
        for testCase in comparisonCases + stringCases + collectionCases + keyPathCases + compoundCases {
            let arguments = testCase.arguments.map { Optional($0 as Any) }
            expectSameAsFreshParse(testCase.format, arguments)
            expectSameAsFreshParse(testCase.format, arguments)
        }
        for testCase in FormatPredicateErrorTests.malformed {
            expectSameAsFreshParse(testCase.format, testCase.arguments.map { Optional($0 as Any) })
        }
    }

    @Test func aBadArgumentAfterAGoodOneIsTheParsesError() throws {
        let format = "minutes == %d AND id > %lld"
        #expect(NSPredicate(format: format, 30, Int64(1)).formatError == nil)
        let bad = NSPredicate(format: format, "thirty", Int64(1))
        let error = try #require(bad.formatError)
        #expect(error.code == .argument)
        #expect(error.offset == 11)
        #expect(error.message.contains("%d needs an integer"))
        #expect(!bad.evaluate(with: ["minutes": 30, "id": 2]))
        let missing = try #require(NSPredicate(format: format, 30).formatError)
        #expect(missing.message.contains("needs argument 2, but 1 was given"))
    }

    @Test func aMalformedFormatStaysAnErrorOnEveryParse() throws {
        for _ in 0..<3 {
            let error = try #require(NSPredicate(format: "id == %d AND", 1).formatError)
            #expect(error.code == .syntax)
            #expect(error.offset == 12)
        }
    }

    @Test func validatingParsesAreNotServedFromATemplate() {
        // `NSPredicate(format:)` takes a BETWEEN bound that is not two values; the validating
        // initializer refuses it, also after the format was kept.
        #expect(NSPredicate(format: "amount BETWEEN %@", 5).formatError == nil)
        #expect(throws: FormatPredicateError.self) { try NSPredicate(validatingFormat: "amount BETWEEN %@", 5) }
    }
}
