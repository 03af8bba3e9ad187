import CairnCoreData
import Testing

@Suite("explain(_:) of an NSFetchRequest")
struct NSFetchRequestExplainTests {
    @Test func showsTheSQLItsFetchRunsAndSQLitesPlan() throws {
        let (_, context) = try storedExpenses()
        let request = NSFetchRequest<StoredExpense>(entityName: "StoredExpense")
        request.predicate = NSPredicate(format: "amount > %f AND name BEGINSWITH %@", 10.0, "S")
        request.sortDescriptors = [NSSortDescriptor(key: "amount", ascending: false)]
        request.fetchLimit = 3
        let plan = try context.explain(request)
        #expect(plan.sql.hasPrefix(#"SELECT "id", "ref", "name", "amount""#), "\(plan.sql)")
        #expect(plan.sql.contains(
            #"FROM "StoredExpense" WHERE "StoredExpense"."amount" > ? AND "StoredExpense"."name" >= ? AND "StoredExpense"."name" < ?"#),
            "\(plan.sql)")
        #expect(plan.sql.hasSuffix(#"ORDER BY "StoredExpense"."amount" DESC, "StoredExpense"."id" ASC LIMIT ?"#), "\(plan.sql)")
        #expect(plan.arguments.first == .real(10))
        #expect(plan.details.contains { $0.hasPrefix("SCAN") }, "\(plan.details)")
        // The plan is of the statement the fetch runs: the same rows come back for it.
        let fetched = try context.fetch(request).map(\.ref)
        let expected = expenses()
            .filter { ($0["amount"] as? Double ?? Double($0["amount"] as? Int ?? 0)) > 10 && ($0["name"] as? String)?.hasPrefix("S") == true }
            .sorted { ($0["amount"] as? Double ?? 0) > ($1["amount"] as? Double ?? 0) }
            .prefix(3).map { $0["id"] as? Int ?? -1 }
        #expect(fetched == expected)
    }

    @Test func anUnknownEntityIsAnError() throws {
        let (_, context) = try storedExpenses()
        #expect(throws: FormatPredicateError.self) {
            try context.explain(NSFetchRequest<StoredExpense>(entityName: "Nope"))
        }
    }
}
