import CairnCoreData
import Testing

/// The scalar columns of the fixture's expenses, as a stored model (`ref` is the fixture's id).
@Model
final class StoredExpense {
    var ref: Int
    var name: String?
    var amount: Double
    var categoryName: String?
    var isBusiness: Bool
    var notes: String?
    var date: Date?
    var first: String?

    init(row: [String: Any]) {
        ref = row["id"] as? Int ?? 0
        name = row["name"] as? String
        amount = (row["amount"] as? Double) ?? Double(row["amount"] as? Int ?? 0)
        categoryName = row["categoryName"] as? String
        isBusiness = row["isBusiness"] as? Bool ?? false
        notes = row["notes"] as? String
        date = row["date"] as? Date
        first = row["first"] as? String
    }
}

/// A container holding `expenses()` as saved `StoredExpense` rows, and a fresh context on it.
func storedExpenses() throws -> (ModelContainer, ModelContext) {
    let container = try ModelContainer(
        for: Schema([StoredExpense.self]), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
    let writer = ModelContext(container)
    for row in expenses() { writer.insert(StoredExpense(row: row)) }
    try writer.save()
    return (container, ModelContext(container))
}

@Suite("NSFetchRequest run through ModelContext on a real container")
struct NSFetchRequestContextTests {
    /// Every format of the table that SQL can run on these columns: the fetch returns what
    /// `evaluate(with:)` answers on the same model objects.
    @Test func fetchAgreesWithEvaluateOnTheSameObjects() throws {
        let (_, context) = try storedExpenses()
        let everything = try context.fetch(StoredExpense.fetchRequest())
        #expect(everything.map(\.ref) == allIDs)
        var compared = 0
        for testCase in FormatPredicateTableTests.all {
            let template = NSPredicate(format: testCase.format, argumentArray: testCase.arguments.map { $0 as Any })
            let predicate = testCase.variables.isEmpty
                ? template : template.withSubstitutionVariables(testCase.variables.mapValues { $0 as Any })
            let request = StoredExpense.fetchRequest()
            request.predicate = predicate
            let fetched: [StoredExpense]
            do {
                fetched = try context.fetch(request)
            } catch let error as FormatPredicateError where error.code == .unknownKey || error.code == .unsupported {
                continue  // relationships and arrays are not columns here; in-memory-only constructs
            }
            compared += 1
            let inMemory = everything.filter { predicate.evaluate(with: $0) }.map(\.ref)
            #expect(fetched.map(\.ref) == inMemory, "\(testCase.format)")
            #expect(try context.count(for: request) == inMemory.count, "\(testCase.format)")
        }
        #expect(compared >= 120, "only \(compared) formats ran in SQL")
    }

    @Test func sortLimitOffsetAndNaturalOrder() throws {
        let (_, context) = try storedExpenses()
        let request = StoredExpense.fetchRequest()
        request.predicate = NSPredicate(format: "amount > %f", 5.0)
        request.sortDescriptors = [NSSortDescriptor(key: "amount", ascending: false)]
        #expect(try context.fetch(request).map(\.ref) == [6, 4, 7, 5, 3, 10, 9])
        request.fetchOffset = 1
        request.fetchLimit = 3
        #expect(try context.fetch(request).map(\.ref) == [4, 7, 5])
        #expect(try context.count(for: request) == 3)

        let natural = StoredExpense.fetchRequest()
        natural.predicate = NSPredicate(format: "name BEGINSWITH[c] 'item'")
        natural.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true, selector: Selector("localizedStandardCompare:"))]
        #expect(try context.fetch(natural).compactMap(\.name) == ["Item9", "item10"])
    }

    /// A request typed as the model class returns the fetched array as it is; one typed more
    /// loosely gets the same objects, in the same order, through a cast of each; one typed as
    /// something the objects are not is an error that names both types.
    @Test func resultTypeOfTheRequest() throws {
        let (_, context) = try storedExpenses()
        func configured<T>(_ request: NSFetchRequest<T>) -> NSFetchRequest<T> {
            request.predicate = NSPredicate(format: "amount > %f", 5.0)
            request.sortDescriptors = [NSSortDescriptor(key: "amount", ascending: false)]
            return request
        }
        let exact = try context.fetch(configured(NSFetchRequest<StoredExpense>(entityName: "StoredExpense")))
        #expect(exact.map(\.ref) == [6, 4, 7, 5, 3, 10, 9])

        let loose = try context.fetch(configured(NSFetchRequest<any PersistentModel>(entityName: "StoredExpense")))
        #expect(loose.count == exact.count)
        #expect(zip(loose, exact).allSatisfy { $0 as AnyObject === $1 })
        let objects = try context.fetch(configured(NSFetchRequest<AnyObject>(entityName: "StoredExpense")))
        #expect(objects.compactMap { ($0 as? StoredExpense)?.ref } == exact.map(\.ref))

        let mismatched = configured(NSFetchRequest<NSDictionary>(entityName: "StoredExpense"))
        #expect { try context.fetch(mismatched) } throws: { error in
            let text = "\(error)"
            return text.contains("NSFetchRequest<NSDictionary>") && text.contains("StoredExpense")
        }
    }

    /// `==` on strings is `isEqual:`, a literal comparison: a decomposed "é" does not equal a
    /// precomposed one, in memory as in the SQL a fetch runs; `[d]` folds both and matches.
    @Test func stringEqualityIsLiteralInMemoryAndInSQL() throws {
        let container = try ModelContainer(
            for: Schema([StoredExpense.self]), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        let writer = ModelContext(container)
        writer.insert(StoredExpense(row: ["id": 1, "name": "Cafe\u{301}", "amount": 1.0]))
        writer.insert(StoredExpense(row: ["id": 2, "name": "Caf\u{E9}", "amount": 2.0]))
        try writer.save()
        let context = ModelContext(container)
        let everything = try context.fetch(StoredExpense.fetchRequest())
        for (format, expected) in [
            ("name == %@", [2]), ("name != %@", [1]), ("name IN {%@}", [2]), ("name ==[d] %@", [1, 2]),
        ] {
            let request = StoredExpense.fetchRequest()
            request.predicate = NSPredicate(format: format, "Caf\u{E9}")
            request.sortDescriptors = [NSSortDescriptor(key: "ref", ascending: true)]
            #expect(try context.fetch(request).map(\.ref) == expected, "\(format)")
            let predicate = try #require(request.predicate)
            #expect(everything.filter { predicate.evaluate(with: $0) }.map(\.ref).sorted() == expected, "\(format)")
        }
    }

    @Test func identifiersDictionariesAndCounts() throws {
        let (_, context) = try storedExpenses()
        let ids = NSFetchRequest<NSManagedObjectID>(entityName: "StoredExpense")
        ids.resultType = .managedObjectIDResultType
        ids.predicate = NSPredicate(format: "isBusiness == YES")
        let identifiers = try context.fetch(ids)
        #expect(identifiers.count == 3)
        #expect(identifiers.compactMap { (context.model(for: $0) as? StoredExpense)?.ref } == [3, 5, 7])

        let rows = NSFetchRequest<NSDictionary>(entityName: "StoredExpense")
        rows.resultType = .dictionaryResultType
        rows.propertiesToFetch = ["name", "amount"]
        rows.predicate = NSPredicate(format: "categoryName == 'Food'")
        let dictionaries = try context.fetch(rows)
        #expect(dictionaries.compactMap { $0["name"] as? String } == ["Coffee", "café", "Starbucks"])
        #expect(dictionaries.compactMap { $0["amount"] as? Double } == [4.5, 3, 12.75])

        let groups = NSFetchRequest<[String: Any]>(entityName: "StoredExpense")
        groups.resultType = .dictionaryResultType
        groups.propertiesToFetch = ["categoryName"]
        groups.propertiesToGroupBy = ["categoryName"]
        groups.havingPredicate = NSPredicate(format: "categoryName BEGINSWITH 'U' OR categoryName == 'Misc'")
        groups.sortDescriptors = [NSSortDescriptor(key: "categoryName", ascending: true)]
        #expect(try context.fetch(groups).compactMap { $0["categoryName"] as? String } == ["Misc", "Utilities"])

        let count = NSFetchRequest<NSNumber>(entityName: "StoredExpense")
        count.resultType = .countResultType
        count.predicate = NSPredicate(format: "notes != nil")
        #expect(try context.fetch(count) == [NSNumber(value: 8)])

        let distinct = NSFetchRequest<[String: Any]>(entityName: "StoredExpense")
        distinct.resultType = .dictionaryResultType
        distinct.propertiesToFetch = ["isBusiness"]
        distinct.returnsDistinctResults = true
        distinct.sortDescriptors = [NSSortDescriptor(key: "isBusiness", ascending: true)]
        #expect(try context.fetch(distinct).compactMap { $0["isBusiness"] as? Bool } == [false, true])
    }

    @Test func pendingChangesTakePartUnlessExcluded() throws {
        let (_, context) = try storedExpenses()
        let request = StoredExpense.fetchRequest()
        request.predicate = NSPredicate(format: "amount >= 100")
        #expect(try context.fetch(request).map(\.ref) == [6])
        context.insert(StoredExpense(row: ["id": 11, "amount": 250.0, "name": "Laptop"]))
        let six = try context.fetch(request)[0]
        six.amount = 1
        #expect(try context.fetch(request).map(\.ref) == [11])
        #expect(try context.count(for: request) == 1)
        request.includesPendingChanges = false
        #expect(try context.fetch(request).map(\.ref) == [6])
    }

    @Test func errorsSayWhatIsWrong() throws {
        let (_, context) = try storedExpenses()
        let request = StoredExpense.fetchRequest()
        request.predicate = NSPredicate(format: "amount >")
        #expect(throws: FormatPredicateError.self) { try context.fetch(request) }
        request.predicate = NSPredicate(format: "colour == 'red'")
        do {
            _ = try context.fetch(request)
            Issue.record("an unknown key fetched")
        } catch let error as FormatPredicateError {
            #expect(error.code == .unknownKey)
            #expect(error.message.contains("amount"))
        }
        request.predicate = nil
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true, selector: Selector("reverseCompare:"))]
        #expect(throws: FormatPredicateError.self) { try context.fetch(request) }
        #expect(throws: FormatPredicateError.self) { try context.fetch(NSFetchRequest<StoredExpense>(entityName: "Nope")) }
        let wrongType = NSFetchRequest<StoredExpense>(entityName: "StoredExpense")
        wrongType.resultType = .countResultType
        #expect(throws: FormatPredicateError.self) { try context.fetch(wrongType) }
    }
}
