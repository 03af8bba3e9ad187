// Core Data's imports: `NSComparisonPredicate` and `NSExpression` written as calls resolve to
// Cairn's (Foundation's on Linux are stubs whose initializers are unavailable). As a type
// annotation next to `import Foundation`, the name is ambiguous: write
// `CairnCoreData.NSComparisonPredicate`, or import only `CoreData`.
import Foundation
import CoreData
import Testing

@Suite("NSComparisonPredicate with `import Foundation` and `import CoreData`")
struct CoreDataImportComparisonTests {
    @Test func comparisonAsCoreDataCodeWritesIt() throws {
        let (_, context) = try storedExpenses()
        let request = NSFetchRequest<StoredExpense>(entityName: "StoredExpense")
        let predicate = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "categoryName"),
            rightExpression: NSExpression(forConstantValue: ["Food", "Transport"]),
            modifier: .direct, type: .in, options: [])
        request.predicate = predicate
        request.sortDescriptors = [NSSortDescriptor(key: "amount", ascending: false)]
        #expect(try context.fetch(request).map(\.ref) == [5, 3, 1, 2])
        let typed: CairnCoreData.NSComparisonPredicate.Operator = predicate.predicateOperatorType
        #expect(typed == .in && typed.rawValue == 10)
    }
}

/// The format initializers called on `NSComparisonPredicate` and `NSCompoundPredicate`: as
/// written they do not compile (they throw, and are deprecated with a message saying what to
/// write); with `try` they throw that message.
@Suite("NSComparisonPredicate(format:) and NSCompoundPredicate(format:) say to write NSPredicate(format:)")
struct SubclassFormatInitializerTests {
    @Test(arguments: [SubclassFormatCall.comparison, .comparisonArray, .compound, .compoundArray])
    func throwsWhatToWrite(_ call: SubclassFormatCall) throws {
        let error = try #require(throws: FormatPredicateError.self) { try call.run() }
        #expect(error.description.contains("makes an NSPredicate, not an object of that class"))
        #expect(error.description.contains("write NSPredicate(format:"))
    }

    @Test func helperOfAnNSPredicateExtensionStillParses() {
        let predicate = NSPredicate(attribute: "amount", value: 5)
        #expect(predicate.evaluate(with: ["amount": 5]) && !predicate.evaluate(with: ["amount": 6]))
    }
}

/// Each call, made from a deprecated witness so that the suite itself builds without a
/// deprecation warning.
enum SubclassFormatCall: Sendable, CustomTestStringConvertible {
    case comparison, comparisonArray, compound, compoundArray

    var testDescription: String { "\(self)" }

    func run() throws {
        try (self as any SubclassFormatCalling).call()
    }
}

protocol SubclassFormatCalling { func call() throws }

extension SubclassFormatCall: SubclassFormatCalling {
    @available(*, deprecated, message: "calls the subclass format initializers on purpose")
    func call() throws {
        switch self {
        case .comparison: _ = try NSComparisonPredicate(format: "amount > %d", 5)
        case .comparisonArray: _ = try NSComparisonPredicate(format: "amount > %d", argumentArray: [5])
        case .compound: _ = try NSCompoundPredicate(format: "amount > 5 AND amount < 9")
        case .compoundArray: _ = try NSCompoundPredicate(format: "amount > %d", argumentArray: [5])
        }
    }
}
