// Core Data's aggregate spelling with Core Data's imports: `NSExpression` here is Cairn's
// (Foundation's on Linux is a stub whose initializers are unavailable), found without
// ambiguity next to `import Foundation`.
import Foundation
import CoreData
import Testing

@Suite("Core Data's aggregate code, with `import Foundation` and `import CoreData`")
struct CoreDataImportAggregateTests {
    @Test func totalPerCategoryAsCoreDataCodeWritesIt() throws {
        let (_, context) = try storedExpenses()
        let keyPathExpression = NSExpression(forKeyPath: "amount")
        let sumExpression = NSExpression(forFunction: "sum:", arguments: [keyPathExpression])
        let sumDescription = NSExpressionDescription()
        sumDescription.name = "totalAmount"
        sumDescription.expression = sumExpression
        sumDescription.expressionResultType = .doubleAttributeType

        let request = NSFetchRequest<NSDictionary>(entityName: "StoredExpense")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["categoryName", sumDescription]
        request.propertiesToGroupBy = ["categoryName"]
        request.predicate = NSPredicate(format: "categoryName IN %@", ["Food", "Transport"])
        request.sortDescriptors = [NSSortDescriptor(key: "categoryName", ascending: true)]

        var totals: [String: Double] = [:]
        for result in try context.fetch(request) {
            if let category = result["categoryName"] as? String, let total = result["totalAmount"] as? Double {
                totals[category] = total
            }
        }
        #expect(totals == ["Food": 20.25, "Transport": 23])
    }
}
