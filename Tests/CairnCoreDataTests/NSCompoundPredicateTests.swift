// `import CoreData` alone, as much Core Data code writes it: `NSCompoundPredicate(…)` is then
// Cairn's, which compares, hashes, prints and copies by its tree.
import CoreData
import Testing

@Suite("NSCompoundPredicate compares, hashes and prints by its tree")
struct NSCompoundPredicateTests {
    @Test func compoundEqualsTheFormatOfTheSameTree() {
        let compound = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSPredicate(format: "X = 10"), NSPredicate(format: "Y = 30"),
        ])
        let format = NSPredicate(format: "X = 10 AND Y = 30")
        #expect(compound.isEqual(format) && format.isEqual(compound))
        #expect(compound.hash == format.hash)
        #expect(Set<NSPredicate>([compound, format]).count == 1)
        #expect(printed(compound) == "X == 10 AND Y == 30")
        #expect(compound.description == "X == 10 AND Y == 30")
    }

    @Test func compoundsOfOtherTreesDiffer() {
        let a = NSPredicate(format: "X = 10"), b = NSPredicate(format: "Y = 30")
        let and = NSCompoundPredicate(andPredicateWithSubpredicates: [a, b])
        let or = NSCompoundPredicate(orPredicateWithSubpredicates: [a, b])
        let not = NSCompoundPredicate(notPredicateWithSubpredicate: a)
        #expect(!and.isEqual(or) && !or.isEqual(and))
        #expect(!and.isEqual(not))
        #expect(!and.isEqual(NSCompoundPredicate(andPredicateWithSubpredicates: [b, a])))
        #expect(not.isEqual(NSPredicate(format: "NOT X = 10")))
        #expect(!and.isEqual(NSPredicate(value: false)))
        #expect(Set<NSPredicate>([and, or, not]).count == 3)
    }

    @Test func compoundIsFoundationsClassAndEvaluates() {
        let compound = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSPredicate(format: "amount > %f", 50.0), NSPredicate(format: "isBusiness == NO"),
        ])
        #expect(compound.compoundPredicateType == .and)
        #expect(compound.subpredicates.count == 2)
        #expect(compound.evaluate(with: ["amount": 72.0, "isBusiness": false]))
        #expect(!compound.evaluate(with: ["amount": 72.0, "isBusiness": true]))
        let copy = compound.copy() as? NSCompoundPredicate
        #expect(copy?.isEqual(compound) == true)
        #expect(copy?.compoundPredicateType == .and)
    }

    @Test func compoundOfBlockPredicatesComparesItsParts() {
        let block = NSPredicate { _, _ in true }
        let a = NSCompoundPredicate(andPredicateWithSubpredicates: [block, NSPredicate(format: "X = 1")])
        let b = NSCompoundPredicate(andPredicateWithSubpredicates: [block, NSPredicate(format: "X = 1")])
        let c = NSCompoundPredicate(andPredicateWithSubpredicates: [NSPredicate { _, _ in true }, NSPredicate(format: "X = 1")])
        #expect(a.isEqual(b) && a.hash == b.hash)
        #expect(!a.isEqual(c))
        #expect(a.evaluate(with: ["X": 1]) && !a.evaluate(with: ["X": 2]))
    }

    @Test func aMalformedSubpredicateMakesTheCompoundFalse() {
        let not = NSCompoundPredicate(notPredicateWithSubpredicate: NSPredicate(format: "X =="))
        #expect(not.formatError != nil)
        #expect(!not.evaluate(with: ["X": 1]))
    }
}
