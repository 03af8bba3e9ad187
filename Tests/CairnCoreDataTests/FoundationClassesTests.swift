import CairnCoreData
import Testing

/// Cairn's initializers return Foundation's own classes, which keep working with Foundation's
/// other features (block predicates, key-path sort descriptors).
@Suite("NSPredicate and NSSortDescriptor are Foundation's classes, extended")
struct FoundationClassesTests {
    struct Row { var n: Int }

    @Test func blockAndValuePredicatesMixWithFormatPredicates() throws {
        let even = NSPredicate { object, _ in ((object as? [String: Any])?["amount"] as? Int).map { $0 % 2 == 0 } ?? false }
        let big = NSPredicate(format: "amount > 5")
        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [even, big])
        #expect(both.evaluate(with: ["amount": 8]))
        #expect(!both.evaluate(with: ["amount": 7]))
        #expect(try both.checkedEvaluate(with: ["amount": 8]))
        #expect(try [["amount": 2], ["amount": 6], ["amount": 9]].filtered(using: both).count == 1)
        // A block cannot become SQL: the error says so.
        #expect(even.formatError?.code == .unsupported)
        #expect(both.formatError?.message.contains("block") == true)
        #expect(NSPredicate(value: true).formatError == nil)
        #expect(NSCompoundPredicate(orPredicateWithSubpredicates: [NSPredicate(value: false), big]).formatPredicate
            .predicateFormat == "FALSEPREDICATE OR amount > 5")
    }

    @Test func formatPredicatesBehaveAsFoundationObjects() {
        let predicate = NSPredicate(format: "name BEGINSWITH[c] %@", "co")
        #expect(printed(predicate) == "name BEGINSWITH[c] \"co\"")
        #expect(predicate.isEqual(NSPredicate(format: "name beginswith[c] 'co'")))
        #expect(predicate.hash == NSPredicate(format: "name beginswith[c] 'co'").hash)
        #expect((predicate.copy() as? NSPredicate)?.evaluate(with: ["name": "Coffee"]) == true)
        #expect(predicate.description == "name BEGINSWITH[c] \"co\"")
        let made = NSPredicate(formatPredicate: .constant(true))
        #expect(made.evaluate(with: nil))
    }

    @Test func keyedSortDescriptorsCompareByKey() throws {
        let byName = NSSortDescriptor(key: "name", ascending: true, selector: Selector("caseInsensitiveCompare:"))
        #expect(byName.key == "name")
        #expect(byName.selector == Selector("caseInsensitiveCompare:"))
        #expect(byName.ascending)
        #expect(byName.compare(["name": "apple"], to: ["name": "Banana"]) == .orderedAscending)
        let reversed = try #require(byName.reversedSortDescriptor as? NSSortDescriptor)
        #expect(reversed.key == "name" && !reversed.ascending)
        #expect(reversed.compare(["name": "apple"], to: ["name": "Banana"]) == .orderedDescending)
        #expect(byName.isEqual(NSSortDescriptor(key: "name", ascending: true, selector: Selector("caseInsensitiveCompare:"))))
        #expect(!byName.isEqual(reversed))
        #expect(NSSortDescriptor(key: "x", ascending: true, selector: Selector("nope:")).selectorError?.code == .unsupported)
    }

    @Test func keyPathSortDescriptorsSortTheirOwnTypeAndRefuseOthers() throws {
        let byN = NSSortDescriptor(keyPath: \Row.n, ascending: false)
        #expect(try [Row(n: 1), Row(n: 3), Row(n: 2)].sortedArray(using: [byN]).map(\.n) == [3, 2, 1])
        #expect(byN.key == nil)
        // Foundation's compare(_:to:) would trap on a dictionary; Cairn throws.
        #expect(throws: FormatPredicateError.self) { try [["n": 1], ["n": 2]].sortedArray(using: [byN]) }
        #expect(throws: FormatPredicateError.self) { try byN.formatSortDescriptor() }
    }
}
