import CairnCoreData
import Testing

/// A malformed format, the error code, the offset the error must point at, and words its
/// message must contain.
struct MalformedCase: Sendable, CustomTestStringConvertible {
    let format: String
    let arguments: [FormatValue]
    let code: FormatPredicateError.Code
    let offset: Int
    let message: String

    init(
        _ format: String, _ arguments: [FormatValue] = [], _ code: FormatPredicateError.Code = .syntax, at offset: Int,
        _ message: String = ""
    ) {
        self.format = format
        self.arguments = arguments
        self.code = code
        self.offset = offset
        self.message = message
    }

    var testDescription: String { format }
}

@Suite("Format predicate errors: malformed formats fail with the offset of the problem")
struct FormatPredicateErrorTests {
    static let malformed: [MalformedCase] = [
        MalformedCase("", at: 0),
        MalformedCase("   ", at: 3),
        MalformedCase("name ==", at: 7),
        MalformedCase("name == \"abc", at: 8),
        MalformedCase("name == 'é", at: 8),
        MalformedCase("name === 1", at: 7),
        MalformedCase("amount > 5 AND", at: 14),
        MalformedCase("amount > 5 AND OR id == 1", at: 15),
        MalformedCase("(amount > 5", at: 11),
        MalformedCase("amount > 5)", at: 10),
        MalformedCase("amount >> 5", at: 8),
        MalformedCase("name CONTAINS[x] \"a\"", at: 14),
        MalformedCase("name CONTAINS[] \"a\"", at: 13),
        MalformedCase("name BEGINSWITH", at: 15),
        MalformedCase("isBusiness", at: 10),
        MalformedCase("AND name == 1", at: 0),
        MalformedCase("name == %@", [], .argument, at: 8),
        MalformedCase("name == %@ AND amount > %f", [.string("x")], .argument, at: 24),
        MalformedCase("%K == 1", [.int(5)], .argument, at: 0),
        MalformedCase("%K == 1", [.string("a..b")], .argument, at: 0),
        MalformedCase("amount > %d", [.string("ten")], .argument, at: 9),
        MalformedCase("amount > %d", [.double(2.5)], .argument, at: 9),
        MalformedCase("amount > %f", [.string("ten")], .argument, at: 9),
        MalformedCase("name == %s", [.int(1)], .argument, at: 8),
        MalformedCase("name == %3$@", [.string("a")], .argument, at: 8),
        MalformedCase("name == %0$@", [.string("a")], at: 8),
        MalformedCase("name == $", at: 8),
        MalformedCase("name ~ 1", at: 5),
        MalformedCase("name == ?", at: 8),
        MalformedCase("foo(1) == 2", at: 0),
        MalformedCase("now(1) == 2", at: 0),
        MalformedCase("SUBQUERY(items, i, i.qty > 1).@count > 0", at: 16),
        MalformedCase("SUBQUERY(items, $i).@count > 0", at: 18),
        MalformedCase("amount > 0x", at: 9),
        MalformedCase("amount > 0b102", at: 9),
        MalformedCase("amount > 12abc", at: 11),
        MalformedCase("amount > 99999999999999999999999x", at: 32),
        MalformedCase("tags[ == 1", at: 6),
        MalformedCase("tags[1 == 1", at: 7),
        MalformedCase("{1, 2 == 1", at: 6),
        MalformedCase("CAST(1, \"NSFoo\") == 1", at: 8),
        MalformedCase("CAST(\"x\", \"NSDate\") == 1", at: 0),
        MalformedCase("FUNCTION(name, 1) == 1", at: 15),
        MalformedCase("name == \"x\" \"y\"", at: 12),
        MalformedCase("%z == 1", at: 0),
        MalformedCase("#", at: 0),
        MalformedCase("name == 1 AND #", at: 14),
        MalformedCase("name.", at: 5),
        MalformedCase("name.== 1", at: 5),
        MalformedCase("name == \"\\u{41}\"", at: 9),
        MalformedCase("NOT", at: 3),
        MalformedCase("ANY", at: 3),
        MalformedCase("ANY tags", at: 8),
        MalformedCase("first == 1", at: 0),
        MalformedCase("name == 1 &", at: 10),
        // The seed's "bad" interpolation: the quote in Joe's ends the literal, and the last quote
        // opens a string that never closes.
        MalformedCase("name CONTAINS 'Trader Joe's'", at: 27),
    ]

    @Test(arguments: malformed)
    func malformedFormatIsAnErrorAtItsOffset(_ testCase: MalformedCase) {
        do {
            let predicate = try FormatPredicate(testCase.format, arguments: testCase.arguments)
            Issue.record("parsed as \(predicate.predicateFormat)")
        } catch {
            #expect(error.code == testCase.code, "\(error)")
            #expect(error.offset == testCase.offset, "\(error)")
            #expect(error.format == testCase.format)
        }
    }

    @Test(arguments: malformed)
    func nsPredicateRecordsTheErrorAndMatchesNothing(_ testCase: MalformedCase) {
        let predicate = NSPredicate(format: testCase.format, argumentArray: testCase.arguments)
        #expect(predicate.formatError?.offset == testCase.offset)
        #expect(expenses().filter { predicate.evaluate(with: $0) }.isEmpty)
        #expect(printed(predicate) == testCase.format)
        #expect(throws: FormatPredicateError.self) { try predicate.checkedEvaluate(with: expenses()[0]) }
    }

    @Test func descriptionShowsTheFormatWithACaretUnderTheProblem() {
        do {
            let predicate = try FormatPredicate("name == AND amount > 5")
            Issue.record("parsed as \(predicate)")
        } catch {
            #expect(error.description == """
                expected an expression after '==', found 'AND' at offset 8
                    name == AND amount > 5
                            ^
                """)
        }
    }

    @Test func deepNestingIsAnErrorNotAStackOverflow() throws {
        for opener in ["(", "NOT ", "-", "!", "{"] {
            let format = String(repeating: opener, count: 20_000) + "a == 1"
            #expect(throws: FormatPredicateError.self) { try FormatPredicate(format) }
        }
        for separator in [" ** ", " + ", " * ", " - "] {
            let chain = "a == " + Array(repeating: "2", count: 10_000).joined(separator: separator)
            #expect(throws: FormatPredicateError.self) { try FormatPredicate(chain) }
        }
        #expect(throws: FormatPredicateError.self) {
            try FormatPredicate("a" + String(repeating: "[0]", count: 10_000) + " == 1")
        }
        // Long flat chains are fine: AND/OR lists and dotted paths do not nest.
        let conjunction = Array(repeating: "id > 0", count: 10_000).joined(separator: " AND ")
        #expect(try matchingIDs(try FormatPredicate(conjunction)) == allIDs)
        #expect(try FormatPredicate("a" + String(repeating: ".b", count: 10_000) + " == 1").predicateFormat.count > 20_000)
    }

    @Test func nestingWithinTheLimitParses() throws {
        let format = String(repeating: "(", count: 50) + "id == 1" + String(repeating: ")", count: 50)
        #expect(try matchingIDs(try FormatPredicate(format)) == [1])
    }

    @Test func missingSubstitutionVariableIsAnError() throws {
        let template = try FormatPredicate("amount > $LIMIT AND name == $NAME")
        #expect(template.variableNames == ["LIMIT", "NAME"])
        #expect {
            _ = try template.substituting(["LIMIT": 5])
        } throws: { error in
            (error as? FormatPredicateError)?.code == .missingVariable
                && "\(error)".contains("$NAME")
        }
        #expect(throws: FormatPredicateError.self) { try template.evaluate(with: expenses()[0]) }

        let nsTemplate = NSPredicate(format: "amount > $LIMIT")
        let missing = nsTemplate.withSubstitutionVariables([:])
        #expect(missing.formatError?.code == .missingVariable)
        #expect(!missing.evaluate(with: ["amount": 100]))
        let filled = nsTemplate.withSubstitutionVariables(["LIMIT": 50])
        #expect(printed(filled) == "amount > 50")
        #expect(filled.evaluate(with: ["amount": 100]))
        #expect(!filled.evaluate(with: ["amount": 10]))
    }

    @Test func subqueryVariableIsNotASubstitutionVariable() throws {
        let predicate = try FormatPredicate("SUBQUERY(items, $i, $i.qty > $MIN).@count > 0")
        #expect(predicate.variableNames == ["MIN"])
        let substituted = try predicate.substituting(["MIN": 5])
        #expect(substituted.predicateFormat == "SUBQUERY(items, $i, $i.qty > 5).@count > 0")
        #expect(try matchingIDs(substituted) == [9])
    }

    @Test func evaluationErrorsAreThrownNotCrashes() throws {
        let row: [String: Any] = ["amount": 5, "name": "x", "tags": ["a", "b"]]
        for format in [
            "amount BETWEEN 1", "name.@sum.x > 1", "tags.@foo == 1", "amount.foo == 1",
            "name + 1 == 2", "FUNCTION(name, 'lowercaseString') == 'x'", "-name == 1",
            "name MATCHES '('", "lowercase(amount) == 'x'", "modulus(amount, 0) == 1",
            "tags[name] == 1", "$UNSET == 1", "CAST(tags, 'NSDate') == nil",
        ] {
            let predicate = try FormatPredicate(format)
            #expect(throws: FormatPredicateError.self, "\(format)") { try predicate.evaluate(with: row) }
            #expect(!NSPredicate(formatPredicate: predicate).evaluate(with: row))
        }
    }

    @Test func regularExpressionsAreBoundedInLengthAndTime() throws {
        let long = try FormatPredicate("name MATCHES %@", arguments: [String(repeating: "a", count: 1_001)])
        #expect {
            try long.evaluate(with: ["name": "a"])
        } throws: { ($0 as? FormatPredicateError)?.code == .regularExpression }

        // Catastrophic backtracking is stopped by the time limit and reported, not hung on.
        let runaway = try FormatPredicate("name MATCHES '(a+)+$'")
        let subject = String(repeating: "a", count: 40) + "b"
        #expect {
            try runaway.evaluate(with: ["name": subject], limits: FormatEvaluationLimits(regularExpressionTimeout: 0.05))
        } throws: { ($0 as? FormatPredicateError)?.code == .regularExpression }
    }
}
