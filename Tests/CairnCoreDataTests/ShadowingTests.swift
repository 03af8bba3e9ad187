// A file that imports Foundation directly as well: the scoped imports make Cairn's classes
// win in type annotations (without them `NSPredicate` is ambiguous for type lookup).
import CairnCoreData
import class CairnCoreData.NSCompoundPredicate
import class CairnCoreData.NSPredicate
import class CairnCoreData.NSSortDescriptor
import Foundation
import Testing

@Suite("Shadowing Foundation's NSPredicate in a file that imports Foundation too")
struct ShadowingTests {
    @Test func scopedImportsSelectCairnsClasses() throws {
        let predicate: NSPredicate = NSPredicate(format: "amount > %d", 5)
        let compound: NSCompoundPredicate = NSCompoundPredicate(notPredicateWithSubpredicate: predicate)
        let sort: NSSortDescriptor = NSSortDescriptor(key: "amount", ascending: true)
        #expect(predicate.evaluate(with: ["amount": 6]))
        #expect(compound.predicateFormat == "NOT amount > 5")
        #expect(try [["amount": 2], ["amount": 1]].sortedArray(using: [sort]).compactMap { $0["amount"] } == [1, 2])
    }
}
