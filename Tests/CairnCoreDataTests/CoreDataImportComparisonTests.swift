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
