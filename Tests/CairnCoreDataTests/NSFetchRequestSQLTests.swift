import CairnCoreData
import Testing

@Suite("NSFetchRequest compiled to SQL and run on the fixture tables")
struct NSFetchRequestSQLTests {
    /// Stands in for the seed's Expense entity type.
    final class Expense {}

    func run(_ request: NSFetchRequest<Expense>) throws -> [[DatabaseValue]] {
        let rendered = try request.sqlSelect(for: expenseEntity).render()
        return try expenseDatabase().fetchAll(sql: rendered.sql, arguments: StatementArguments(rendered.arguments)) { row in
            (0..<row.count).map { row.databaseValue(at: $0) }
        }
    }

    @Test func objectsWithPredicateSortLimitAndOffset() throws {
        let request = NSFetchRequest<Expense>(entityName: "Expense")
        request.predicate = NSPredicate(format: "amount > %f", 5.0)
        request.sortDescriptors = [NSSortDescriptor(key: "amount", ascending: false)]
        request.fetchLimit = 3
        request.fetchOffset = 1
        let rendered = try request.sqlSelect(for: expenseEntity).render()
        #expect(rendered.sql == #"SELECT * FROM "Expense" WHERE "Expense"."amount" > ? ORDER BY "Expense"."amount" DESC, "Expense"."id" ASC LIMIT ? OFFSET ?"#)
        #expect(rendered.arguments == [.real(5), .integer(3), .integer(1)])
        #expect(try run(request).map { $0[0] } == [.integer(4), .integer(7), .integer(5)])
    }

    @Test func seedRepositoryRequest() throws {
        // The repository's fetch (seed lines 600-620): default sort newest first.
        func request(predicate: NSPredicate?, sortDescriptors: [NSSortDescriptor]?) -> NSFetchRequest<Expense> {
            let request = NSFetchRequest<Expense>(entityName: "Expense")
            request.predicate = predicate
            if let sortDescriptors = sortDescriptors, !sortDescriptors.isEmpty {
                request.sortDescriptors = sortDescriptors
            } else {
                request.sortDescriptors = [NSSortDescriptor(key: "date", ascending: false)]
            }
            return request
        }
        let newest = try run(request(predicate: nil, sortDescriptors: nil)).map { $0[0] }
        #expect(newest == (1...10).reversed().map { .integer(Int64($0)) })
        let search = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSPredicate(format: "name CONTAINS[cd] %@", "E"),
            NSPredicate(format: "date >= %@", day(3) as NSDate),
        ])
        let amountHighest = [NSSortDescriptor(key: "amount", ascending: false), NSSortDescriptor(key: "date", ascending: false)]
        #expect(try run(request(predicate: search, sortDescriptors: amountHighest)).map { $0[0] }
            == [.integer(4), .integer(7), .integer(5), .integer(10), .integer(9)])
    }

    @Test func countIdentifiersAndDictionaries() throws {
        let count = NSFetchRequest<Expense>(entityName: "Expense")
        count.resultType = .countResultType
        count.predicate = NSPredicate(format: "isBusiness == YES")
        #expect(try count.sqlSelect(for: expenseEntity).render().sql
            == #"SELECT COUNT(*) FROM "Expense" WHERE "Expense"."isBusiness" = ?"#)
        #expect(try run(count) == [[.integer(3)]])
        count.fetchLimit = 2
        #expect(try run(count) == [[.integer(2)]])

        let ids = NSFetchRequest<Expense>(entityName: "Expense")
        ids.resultType = .managedObjectIDResultType
        ids.predicate = NSPredicate(format: "ANY items.qty >= 3")
        #expect(try run(ids) == [[.integer(4)], [.integer(9)], [.integer(10)]])

        let categories = NSFetchRequest<Expense>(entityName: "Expense")
        categories.resultType = .dictionaryResultType
        categories.propertiesToFetch = ["categoryName"]
        categories.returnsDistinctResults = true
        categories.predicate = NSPredicate(format: "categoryName != nil")
        categories.sortDescriptors = [NSSortDescriptor(key: "categoryName", ascending: true)]
        let rendered = try categories.sqlSelect(for: expenseEntity).render().sql
        #expect(rendered.hasPrefix(#"SELECT DISTINCT "Expense"."categoryName" AS "categoryName" FROM "Expense""#))
        #expect(Set(try run(categories).map { $0[0] }) == [.text("Food"), .text("Groceries"), .text("Transport"), .text("Utilities"), .text("Misc")])
    }

    @Test func invalidRequestsAreErrors() {
        let broken = NSFetchRequest<Expense>(entityName: "Expense")
        broken.predicate = NSPredicate(format: "amount >")
        #expect(throws: FormatPredicateError.self) { try broken.sqlSelect(for: expenseEntity) }
        let badSort = NSFetchRequest<Expense>(entityName: "Expense")
        badSort.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true, selector: Selector("bogus:"))]
        #expect(throws: FormatPredicateError.self) { try badSort.sqlSelect(for: expenseEntity) }
        let wrongEntity = NSFetchRequest<Expense>(entityName: "Invoice")
        #expect(throws: FormatPredicateError.self) { try wrongEntity.sqlSelect(for: expenseEntity) }
        #expect(wrongEntity.description.contains("entity: Invoice"))
    }
}
