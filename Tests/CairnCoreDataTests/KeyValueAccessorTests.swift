import CairnCoreData
import Foundation
import Testing

/// Key-value coding's edge cases in `evaluate(with:)`, as Foundation answers them: `@count` of
/// a dictionary counts its entries, and NSNumber's accessors read after a collection operator
/// or on a number (`scores.@avg.doubleValue`, `amount.intValue`).
@Suite("evaluate(with:): @count of a dictionary, NSNumber's accessors")
struct KeyValueAccessorTests {
    let object: [String: Any] = [
        "scores": [1, 2, 3], "ages": ["ann": 31, "bob": 42, "cy": 7], "empty": [String: Int](),
        "amount": 4.7, "loss": -2.5, "flag": true, "count": 3,
    ]

    func holds(_ format: String, _ arguments: [Any] = []) -> Bool {
        NSPredicate(format: format, argumentArray: arguments).evaluate(with: object)
    }

    @Test func countOfADictionaryIsItsNumberOfEntries() {
        #expect(holds("ages.@count == 3"))
        #expect(holds("empty.@count == 0"))
        #expect(holds("scores.@count == 3"))
        #expect(!holds("ages.@count == 1"))
    }

    @Test func aKeyPathAfterACollectionOperatorReadsEachElement() {
        #expect(holds("scores.@avg.doubleValue == 2"))
        #expect(holds("scores.@sum.intValue == 6"))
        #expect(holds("scores.@max.integerValue == 3"))
        #expect(!holds("scores.@sum.intValue == 7"))
    }

    @Test func numbersAnswerNSNumbersAccessors() {
        #expect(holds("amount.intValue == 4"))        // truncated toward zero
        #expect(holds("loss.intValue == -2"))
        #expect(holds("amount.doubleValue == 4.7"))
        #expect(holds("amount.floatValue == %@", [NSNumber(value: Double(Float(4.7)))]))
        #expect(holds("flag.boolValue == YES"))
        #expect(holds("flag.intValue == 1"))
        #expect(holds("count.boolValue == YES"))
        #expect(holds("amount.stringValue == '4.7'"))
        #expect(holds("count.stringValue == '3'"))
        // Another key on a number is still an error, and evaluates to false.
        #expect(!holds("amount.title == 'x'"))
        #expect(throws: FormatPredicateError.self) {
            try FormatPredicate("amount.title == 'x'").evaluate(with: object)
        }
    }
}
