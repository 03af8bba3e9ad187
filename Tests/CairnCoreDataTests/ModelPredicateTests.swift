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

@Suite("Model objects and PersistentIdentifiers as %@ arguments")
struct IdentifierArgumentTests {
    @Test func modelArgumentMatchesThatModelInMemory() throws {
        let coffee = Purchase(title: "Coffee", amount: 4.5, quantity: 1, boughtAt: day(1))
        let tea = Purchase(title: "Tea", amount: 2, quantity: 1, boughtAt: day(1))
        let isCoffee = NSPredicate(format: "SELF == %@", coffee)
        #expect(isCoffee.formatError == nil)
        #expect(isCoffee.evaluate(with: coffee))
        #expect(!isCoffee.evaluate(with: tea))
        #expect(try [tea, coffee].filtered(using: NSPredicate(format: "SELF IN %@", [coffee])).map(\.title) == ["Coffee"])
    }

    @Test func identifiersCompileToPrimaryKeys() throws {
        let bob = try PersistentIdentifier.identifier(for: "default", entityName: "Owner", primaryKey: 2)
        let cheese = try PersistentIdentifier.identifier(for: "default", entityName: "Item", primaryKey: 6)
        let byOwner = try FormatPredicate("owner == %@", arguments: [bob])
        let rendered = try byOwner.sqlCondition(for: expenseEntity).render()
        #expect(rendered.sql == #""Expense"."owner" = ?"#)
        #expect(rendered.arguments == [.integer(2)])
        let db = try expenseDatabase()
        #expect(try sqlIDs(db, byOwner) == [5, 6, 7])
        #expect(try sqlIDs(db, try FormatPredicate("items CONTAINS %@", arguments: [cheese])) == [4])
        #expect(try sqlIDs(db, try FormatPredicate("ANY items == %@", arguments: [cheese])) == [4])
        #expect(try sqlIDs(db, try FormatPredicate("NONE items == %@", arguments: [cheese])) == [1, 2, 3, 5, 6, 7, 8, 9, 10])
        #expect(try sqlIDs(db, try FormatPredicate("SELF == %@", arguments: [try PersistentIdentifier.identifier(
            for: "default", entityName: "Expense", primaryKey: 3)])) == [3])
    }

    @Test func identifiersPrintAndParse() throws {
        let parsed = try FormatPredicate("owner == CAST('Owner/2', 'PersistentIdentifier')")
        #expect(parsed.predicateFormat == "owner == CAST(\"Owner/2\", \"PersistentIdentifier\")")
        #expect(try FormatPredicate(parsed.predicateFormat) == parsed)
        #expect(try sqlIDs(try expenseDatabase(), parsed) == [5, 6, 7])
        #expect(throws: FormatPredicateError.self) { try FormatPredicate("a == CAST('Owner', 'PersistentIdentifier')") }
    }

    @Test func unsavedModelCannotBeComparedInSQL() throws {
        let unsaved = Purchase(title: "Coffee", amount: 4.5, quantity: 1, boughtAt: day(1))
        #expect {
            try FormatPredicate("owner == %@", arguments: [unsaved]).sqlCondition(for: expenseEntity)
        } throws: { error in
            (error as? FormatPredicateError)?.message.contains("has not been saved") == true
        }
    }
}
