// Compound predicates and a convenience initializer of NSPredicate written as Core Data code
// writes them, with Core Data's imports. Here `NSCompoundPredicate(…)` is Foundation's own
// initializer (Swift does not let CoreData's shadow it in a file that imports Foundation).
import Foundation
import CoreData
import Testing

extension NSPredicate {
    /// A helper of the kind many Core Data projects keep.
    convenience init(attribute: String, value: Any) {
        self.init(format: "%K == %@", argumentArray: [attribute, value])
    }

    /// The same pattern through the variadic initializer.
    convenience init(attribute: String, greaterThan value: Int) {
        self.init(format: "%K > %d", attribute, value)
    }
}

extension NSSortDescriptor {
    /// The same pattern for sort descriptors.
    convenience init(newestFirstBy key: String) {
        self.init(key: key, ascending: false)
    }
}

/// Returns a compound typed as Foundation's class, as the seed's repository code does.
private func bothLimits() -> NSCompoundPredicate {
    NSCompoundPredicate(andPredicateWithSubpredicates: [NSPredicate(format: "X = 10"), NSPredicate(format: "Y = 30")])
}

@Suite("NSCompoundPredicate and NSPredicate helpers with `import Foundation` and `import CoreData`")
struct CoreDataImportCompoundTests {
    @Test func compoundsCompareByTree() {
        let compound = bothLimits()
        let format = NSPredicate(format: "X = 10 AND Y = 30")
        #expect(compound == format)
        #expect(format == compound)
        #expect(format.isEqual(compound))
        let a = NSPredicate(format: "X = 10"), b = NSPredicate(format: "Y = 30")
        let or = NSCompoundPredicate(orPredicateWithSubpredicates: [a, b])
        #expect(compound != or)
        #expect(or != compound)
        #expect(!format.isEqual(or))
        #expect(NSCompoundPredicate(type: .or, subpredicates: [a, b]) == or)
        #expect(NSCompoundPredicate(notPredicateWithSubpredicate: a) == NSPredicate(format: "NOT X = 10"))
    }

    @Test func convenienceInitializerOfAnExtensionParsesTheFormat() throws {
        let predicate = NSPredicate(attribute: "categoryName", value: "Food")
        #expect(type(of: predicate) != NSPredicate.self)
        #expect(printed(predicate) == #"categoryName == "Food""#)
        #expect(predicate.evaluate(with: ["categoryName": "Food"]))
        #expect(!predicate.evaluate(with: ["categoryName": "Misc"]))
        #expect(predicate == NSPredicate(format: "categoryName == 'Food'"))
        let (_, context) = try storedExpenses()
        let request = NSFetchRequest<StoredExpense>(entityName: "StoredExpense")
        request.predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [
            predicate, NSPredicate(attribute: "amount", greaterThan: 4),
        ])
        #expect(try context.fetch(request).map(\.ref) == [1, 3])
        request.sortDescriptors = [NSSortDescriptor(newestFirstBy: "amount")]
        #expect(try context.fetch(request).map(\.ref) == [3, 1])
        #expect(request.sortDescriptors?.first?.key == "amount")
    }
}
