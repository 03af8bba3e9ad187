import CairnCoreData
import Testing

@Model
final class Purchase {
    var title: String
    var amount: Double
    var quantity: Int
    var boughtAt: Date
    var note: String?

    init(title: String, amount: Double, quantity: Int, boughtAt: Date, note: String? = nil) {
        self.title = title
        self.amount = amount
        self.quantity = quantity
        self.boughtAt = boughtAt
        self.note = note
    }
}

@Suite("@Model objects with NSPredicate, FormatPredicate and NSSortDescriptor in memory")
struct ModelPredicateTests {
    func purchases() -> [Purchase] {
        [
            Purchase(title: "Coffee", amount: 4.5, quantity: 1, boughtAt: day(1)),
            Purchase(title: "café", amount: 3, quantity: 2, boughtAt: day(2), note: "with Sam"),
            Purchase(title: "Receipt 10", amount: 100, quantity: 10, boughtAt: day(3)),
            Purchase(title: "receipt 9", amount: 9.99, quantity: 9, boughtAt: day(4)),
        ]
    }

    @Test func predicatesReadModelProperties() throws {
        let all = purchases()
        #expect(try all.filtered(using: NSPredicate(format: "amount > %f", 5.0)).map(\.title) == ["Receipt 10", "receipt 9"])
        #expect(try all.filtered(using: NSPredicate(format: "title CONTAINS[cd] %@", "CAFE")).map(\.title) == ["café"])
        #expect(try all.filtered(using: NSPredicate(format: "note == nil")).count == 3)
        #expect(try all.filtered(using: NSPredicate(format: "boughtAt >= %@", day(3) as NSDate)).count == 2)
        #expect(try all.filtered(using: NSPredicate(format: "%K BETWEEN {2, 9}", "quantity")).map(\.quantity) == [2, 9])
        #expect(!NSPredicate(format: "noSuchProperty == 1").evaluate(with: all[0]))
        let model = all[0]
        #expect(try FormatPredicate("SELF == %@", arguments: [FormatValue.null]).evaluate(with: model) == false)
        #expect(NSPredicate(format: "title == 'Coffee'").evaluate(with: model))
    }

    @Test func sortDescriptorsReadModelProperties() throws {
        let natural = NSSortDescriptor(key: "title", ascending: true, selector: Selector("localizedStandardCompare:"))
        #expect(try purchases().sortedArray(using: [natural]).map(\.title) == ["café", "Coffee", "receipt 9", "Receipt 10"])
        let byAmount = NSSortDescriptor(key: "amount", ascending: false)
        #expect(try purchases().sortedArray(using: [byAmount]).map(\.quantity) == [10, 9, 1, 2])
    }

    @Test func entityOfAModelCompilesToSQL() throws {
        let entity = FormatSQLEntity(Schema.Entity.of(Purchase.self))
        #expect(entity.table == "Purchase")
        #expect(entity.validKeys == ["amount", "boughtAt", "note", "quantity", "title"])
        let sql = try NSPredicate(format: "title BEGINSWITH[c] %@ AND amount > 5", "rec").formatPredicate
            .sqlCondition(for: entity).render()
        #expect(sql.sql == #"cairn_fold("Purchase"."title", ?) GLOB ? AND "Purchase"."amount" > ?"#)
        #expect(sql.arguments == [.integer(1), .text("rec*"), .integer(5)])
        #expect(throws: FormatPredicateError.self) {
            try FormatPredicate("titel == 'x'").sqlCondition(for: entity)
        }
    }
}
