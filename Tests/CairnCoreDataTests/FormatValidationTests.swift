import CairnCoreData
import Testing

@Suite("NSPredicate(validatingFormat:) rejects what would only fail at fetch time, with its position")
struct FormatValidationTests {
    /// Formats `NSPredicate(format:)` accepts, as Apple's does, that can only fail when used.
    static let lateFailures: [MalformedCase] = [
        MalformedCase("value BETWEEN 5", [], .syntax, at: 14, "BETWEEN needs two bounds, {low, high}, not 5"),
        MalformedCase("value BETWEEN {1, 2, 3}", [], .syntax, at: 14, "not 3 values"),
        MalformedCase("value BETWEEN {amount, 2, 3}", [], .syntax, at: 14, "not 3 values"),
        MalformedCase("value BETWEEN %@", [.array([.int(1)])], .argument, at: 14, "not 1 value"),
        MalformedCase("value BETWEEN 'ab'", [], .syntax, at: 14, "not \"ab\""),
        MalformedCase("FUNCTION(name, 'nope') == 1", [], .unsupported, at: 15, "FUNCTION(…, \"nope\") calls a method by name"),
        MalformedCase("name MATCHES '[unclosed'", [], .regularExpression, at: 13,
                      "MATCHES pattern \"[unclosed\" is not a valid regular expression: "
                          + "'[' at offset 0 opens a character class that is never closed"),
        MalformedCase("ANY tags MATCHES[c] %@", [.string("(a|b")], .regularExpression, at: 20, "'(' at offset 0 is never closed"),
        MalformedCase("name MATCHES 'a)'", [], .regularExpression, at: 13, "')' at offset 1 closes no '('"),
        MalformedCase("name MATCHES '(?:a)[b'", [], .regularExpression, at: 13, "'[' at offset 5 opens a character class"),
        MalformedCase("name MATCHES '*a'", [], .regularExpression, at: 13, "'*' at offset 0 has nothing before it to repeat"),
        MalformedCase("name MATCHES 'a\\\\'", [], .regularExpression, at: 13, "it ends with a lone backslash"),
    ]

    @Test(arguments: lateFailures)
    func validatingFormatRejects(_ testCase: MalformedCase) {
        let arguments = testCase.arguments.map { Optional<Any>($0) }
        let error = #expect(throws: FormatPredicateError.self) {
            _ = try FormatPredicateParser.parse(testCase.format, arguments: arguments, validating: true)
        }
        #expect(error?.code == testCase.code)
        #expect(error?.offset == testCase.offset)
        #expect(error?.message.contains(testCase.message) == true, "\(error?.message ?? "no error")")
        let caret = String(repeating: " ", count: testCase.offset + 4) + "^"
        #expect(error?.description.hasSuffix("\n" + caret) == true, "\(error?.description ?? "")")
        // Apple's NSPredicate(format:) accepts these, and so does Cairn's.
        #expect(NSPredicate(format: testCase.format, argumentArray: testCase.arguments).formatError == nil)
    }

    @Test func theInitializerValidates() {
        #expect(throws: FormatPredicateError.self) { _ = try NSPredicate(validatingFormat: "value BETWEEN 5") }
        #expect(throws: FormatPredicateError.self) { _ = try NSPredicate(validatingFormat: "FUNCTION(name, 'nope') == 1") }
        let error = #expect(throws: FormatPredicateError.self) {
            _ = try NSPredicate(validatingFormat: "name MATCHES %@", "[unclosed")
        }
        #expect(error?.offset == 13)
    }

    @Test(arguments: [
        "value BETWEEN {1, 5}", "value BETWEEN {amount, 5}", "value BETWEEN $RANGE", "value BETWEEN range",
        "name MATCHES '[a-z]+'", "name MATCHES $P", "name MATCHES notes", "name MATCHES[cd] 'caf[eé]'",
        "name MATCHES 'a*?b++'", "name MATCHES '\\\\[x\\\\]'",
    ])
    func validOperandsPass(format: String) throws {
        _ = try NSPredicate(validatingFormat: format)
    }

    @Test func boundsPassedAsAnArgumentPass() throws {
        _ = try NSPredicate(validatingFormat: "amount BETWEEN %@", [10, 60])
    }
}

@Suite("An invalid MATCHES pattern found at fetch or evaluation time names the predicate and the problem")
struct FormatPatternErrorTests {
    static func expectReadable(_ error: FormatPredicateError?, predicate: String) {
        #expect(error?.code == .regularExpression)
        let text = error.map { String(describing: $0) } ?? ""
        #expect(text.hasPrefix("in \(predicate): MATCHES pattern \"[unclosed\" is not a valid regular expression"), "\(text)")
        #expect(text.contains("'[' at offset 0 opens a character class that is never closed with ']'"))
        #expect(text.contains("escape a character meant literally with a backslash"))
        #expect(!text.contains("cairn_regexp") && !text.contains("Error Domain") && !text.contains("SQLite"))
    }

    @Test func aFetchWithABadPatternArgument() throws {
        let (_, context) = try storedExpenses()
        let request = StoredExpense.fetchRequest()
        request.predicate = NSPredicate(format: "name MATCHES %@", "[unclosed")
        let error = #expect(throws: FormatPredicateError.self) { _ = try context.fetch(request) }
        Self.expectReadable(error, predicate: #"name MATCHES "[unclosed""#)
    }

    @Test func aFetchWithABadPatternVariable() throws {
        let (_, context) = try storedExpenses()
        let request = StoredExpense.fetchRequest()
        request.predicate = NSPredicate(format: "NOT name MATCHES[c] $P").withSubstitutionVariables(["P": "[unclosed"])
        let error = #expect(throws: FormatPredicateError.self) { _ = try context.fetch(request) }
        Self.expectReadable(error, predicate: #"name MATCHES[c] "[unclosed""#)
    }

    @Test func anEvaluationWithABadPattern() throws {
        let predicate = NSPredicate(format: "name MATCHES %@", "[unclosed")
        let error = #expect(throws: FormatPredicateError.self) {
            _ = try predicate.checkedEvaluate(with: ["name": "Coffee"])
        }
        Self.expectReadable(error, predicate: #"name MATCHES "[unclosed""#)
    }
}
