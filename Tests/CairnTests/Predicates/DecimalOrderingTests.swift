import Cairn
import Foundation
import Testing

@Model
final class LedgerEntry {
    var memo: String
    var amount: Decimal
    var fee: Decimal?

    init(memo: String, amount: Decimal, fee: Decimal? = nil) {
        self.memo = memo
        self.amount = amount
        self.fee = fee
    }
}

/// `Decimal` is stored as exact text, whose text order ("10" < "9") is not numeric order;
/// comparisons and sorts must still give Foundation's answers.
@Suite("Decimal comparisons and sorts in SQL")
struct DecimalOrderingTests {
    static let amounts = ["9", "10", "-2.5", "0.001", "100.10", "-10", "9.0000000000000000001", "0"]

    func context() throws -> (ModelContext, [LedgerEntry]) {
        let container = try ModelContainer(
            for: LedgerEntry.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        var all: [LedgerEntry] = []
        for (i, text) in Self.amounts.enumerated() {
            let amount = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? 0
            let entry = LedgerEntry(memo: "m\(i)", amount: amount, fee: i.isMultiple(of: 3) ? nil : amount / 2)
            context.insert(entry)
            all.append(entry)
        }
        try context.save()
        return (context, all)
    }

    @Test func sortByDecimalIsNumeric() throws {
        let (context, all) = try context()
        for order in [SortOrder.forward, .reverse] {
            var descriptor = FetchDescriptor<LedgerEntry>(sortBy: [SortDescriptor(\.amount, order: order)])
            descriptor.includePendingChanges = false
            let fetched = try context.fetch(descriptor).map(\.memo)
            #expect(fetched == all.sorted(using: descriptor.sortBy).map(\.memo))
        }
        let byFee = FetchDescriptor<LedgerEntry>(sortBy: [SortDescriptor(\.fee), SortDescriptor(\.memo)])
        #expect(try context.fetch(byFee).map(\.memo) == all.sorted(using: byFee.sortBy).map(\.memo))
    }

    @Test(arguments: ["9", "10", "-2.5", "0", "9.5"])
    func comparisonsAreNumeric(_ text: String) throws {
        let (context, all) = try context()
        let bound = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? 0
        let predicates = [
            #Predicate<LedgerEntry> { $0.amount > bound },
            #Predicate<LedgerEntry> { $0.amount <= bound },
            #Predicate<LedgerEntry> { $0.amount == bound },
        ]
        for predicate in predicates {
            let fetched = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.memo)]))
            let expected = try all.filter { try predicate.evaluate($0) }.sorted { $0.memo < $1.memo }
            #expect(fetched.map(\.memo) == expected.map(\.memo))
        }
    }
}
