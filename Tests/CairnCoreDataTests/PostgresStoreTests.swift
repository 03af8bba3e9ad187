import CairnCoreData
import CairnPostgres
import CairnTestSupport
import Foundation
import Testing

/// The format-predicate table through `NSFetchRequest` on a PostgreSQL store: every format the
/// server runs returns the rows `evaluate(with:)` answers on the same objects, and so does every
/// format whose string comparisons run in Swift on the rows the server reads (`[c]`, `[d]`,
/// `MATCHES`, `lowercase()`).
@Suite("NSFetchRequest on a PostgreSQL store", .enabled(if: PostgresTestSchema.serverURL != nil, PostgresTestSchema.skipMessage))
struct PostgresFormatDifferentialTests {
    /// A container of the expenses, saved.
    static func savedExpenses(in configuration: ModelConfiguration) throws -> ModelContainer {
        let container = try ModelContainer(for: Schema([StoredExpense.self]), configurations: [configuration])
        let writer = ModelContext(container)
        for row in expenses() { writer.insert(StoredExpense(row: row)) }
        try writer.save()
        return container
    }

    @Test func fetchAgreesWithEvaluateOnTheSameObjects() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try Self.savedExpenses(in: ModelConfiguration(url: try #require(URL(string: url))))
            let context = ModelContext(container)
            let everything = try context.fetch(StoredExpense.fetchRequest()).sorted { $0.ref < $1.ref }
            #expect(everything.map(\.ref) == allIDs)
            var compared = 0
            var refused: [String] = []
            for testCase in FormatPredicateTableTests.all {
                let template = NSPredicate(format: testCase.format, argumentArray: testCase.arguments.map { $0 as Any })
                let predicate = testCase.variables.isEmpty
                    ? template : template.withSubstitutionVariables(testCase.variables.mapValues { $0 as Any })
                let request = StoredExpense.fetchRequest()
                request.predicate = predicate
                request.sortDescriptors = [NSSortDescriptor(key: "ref", ascending: true)]
                let fetched: [StoredExpense]
                do {
                    fetched = try context.fetch(request)
                } catch let error as FormatPredicateError where error.code == .unknownKey || error.code == .unsupported {
                    continue  // not columns of this model, or in-memory-only constructs (as on SQLite)
                } catch {
                    refused.append("\(testCase.format): \(error)")
                    continue
                }
                compared += 1
                let inMemory = everything.filter { predicate.evaluate(with: $0) }.map(\.ref)
                #expect(fetched.map(\.ref) == inMemory, "\(testCase.format)")
                #expect(try context.count(for: request) == inMemory.count, "\(testCase.format)")
            }
            #expect(refused.isEmpty, "refused on PostgreSQL: \(refused)")
            // A constant zero divisor answers NULL as on SQLite (`amount / 0 > 0`).
            #expect(compared >= 174, "only \(compared) formats ran on PostgreSQL")
        }
    }

    /// `modulus:by:` divides doubles and answers NULL for a zero divisor on both stores, so a
    /// zero divisor matches nothing, where PostgreSQL's own `mod` would fail the fetch.
    @Test func modulusMatchesAsOnSQLiteZeroDivisorIncluded() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try Self.savedExpenses(in: ModelConfiguration(url: try #require(URL(string: url))))
            let sqlite = try Self.savedExpenses(in: ModelConfiguration(isStoredInMemoryOnly: true))
            for format in ["modulus(ref, 3) == 1", "modulus(amount, 2.5) < 1", "modulus(ref, 0) == 1", "modulus(ref, 0) == nil"] {
                let request = StoredExpense.fetchRequest()
                request.predicate = NSPredicate(format: format)
                request.sortDescriptors = [NSSortDescriptor(key: "ref", ascending: true)]
                let onServer = try ModelContext(container).fetch(request).map(\.ref)
                let onSQLite = try ModelContext(sqlite).fetch(request).map(\.ref)
                #expect(onServer == onSQLite, "\(format)")
                if format == "modulus(ref, 3) == 1" { #expect(onSQLite == [1, 4, 7, 10]) }
            }
        }
    }
}

/// A fetched-results controller over a PostgreSQL store reports another context's save with
/// Core Data's index paths, as it does over SQLite.
@MainActor
@Suite("NSFetchedResultsController on a PostgreSQL store",
       .enabled(if: PostgresTestSchema.serverURL != nil, PostgresTestSchema.skipMessage))
struct PostgresFetchedResultsTests {
    @Test func anotherContextsSaveIsReported() async throws {
        try await PostgresTestSchema.withSchema { url in
            let container = try ModelContainer(
                for: Schema([StoredExpense.self]), configurations: [ModelConfiguration(url: try #require(URL(string: url)))])
            let writer = ModelContext(container)
            for row in expenses() { writer.insert(StoredExpense(row: row)) }
            try writer.save()
            let request = StoredExpense.fetchRequest()
            request.predicate = NSPredicate(format: "NOT categoryName IN {'Groceries', 'Utilities'} AND categoryName != nil")
            request.sortDescriptors = [NSSortDescriptor(key: "categoryName", ascending: true),
                                       NSSortDescriptor(key: "amount", ascending: false)]
            let controller = NSFetchedResultsController(
                fetchRequest: request, managedObjectContext: ModelContext(container), sectionNameKeyPath: "categoryName",
                cacheName: nil)
            try controller.performFetch()
            let recorder = ChangeRecorder()
            controller.delegate = recorder
            #expect(controller.fetchedObjects?.map(\.ref) == [3, 1, 2, 10, 9, 5])

            let other = ModelContext(container)
            let stored = try other.fetch(StoredExpense.fetchRequest())
            stored.first { $0.ref == 9 }?.notes = "receipt lost"
            if let uber = stored.first(where: { $0.ref == 5 }) { other.delete(uber) }
            other.insert(StoredExpense(row: ["id": 11, "amount": 1.0, "categoryName": "Food"]))
            try other.save()
            for _ in 0..<10_000 where recorder.log.isEmpty { await Task.yield() }
            #expect(recorder.log == [
                "will", "section delete Transport @2", "delete #5 2.0→-", "insert #11 -→0.3", "update #9 1.1→-", "did",
            ])
            #expect(controller.fetchedObjects?.map(\.ref) == [3, 1, 2, 11, 10, 9])
        }
    }
}

/// Requests whose string comparisons or sort selectors a server cannot answer as Swift does
/// run them in Swift on the rows it reads: every result type, page and batch answers as the
/// same request on SQLite.
@Suite("NSFetchRequest in Swift on a PostgreSQL store",
       .enabled(if: PostgresTestSchema.serverURL != nil, PostgresTestSchema.skipMessage))
struct PostgresFetchRequestInSwiftTests {
    static let names = ["Café Ünïcode", "cafe latte", "CAFÉ noir", "Tea", "Coffee", nil, "café", "Bistro Café"]

    func fill(_ container: ModelContainer) throws {
        let context = ModelContext(container)
        for (index, name) in Self.names.enumerated() {
            var row: [String: Any] = [
                "id": index + 1, "amount": Double(index) * 1.5, "categoryName": index % 3 == 0 ? "Food" : "Travel",
            ]
            if let name { row["name"] = name }
            context.insert(StoredExpense(row: row))
        }
        try context.save()
    }

    func requests() -> [(String, NSFetchRequest<StoredExpense>)] {
        func request(_ format: String, _ arguments: [Any], sort: [NSSortDescriptor], limit: Int = 0, offset: Int = 0)
            -> (String, NSFetchRequest<StoredExpense>)
        {
            let request = StoredExpense.fetchRequest()
            request.predicate = NSPredicate(format: format, argumentArray: arguments)
            request.sortDescriptors = sort
            request.fetchLimit = limit
            request.fetchOffset = offset
            return ("\(format) \(sort.map(\.description)) limit \(limit) offset \(offset)", request)
        }
        let byName = NSSortDescriptor(key: "name", ascending: true, selector: Selector("caseInsensitiveCompare:"))
        let byAmount = NSSortDescriptor(key: "amount", ascending: false)
        return [
            request("name CONTAINS[cd] %@", ["cafe"], sort: [byAmount]),
            request("name BEGINSWITH[c] %@", ["caf"], sort: [byAmount], limit: 2, offset: 1),
            request("name MATCHES %@", ["[Cc].*"], sort: [byName]),
            request("amount > %@", [2.0], sort: [byName], limit: 3),
            request("name ==[cd] %@ OR amount < 2", ["CAFE"], sort: [byName, byAmount], offset: 1),
            request("lowercase(name) == %@", ["tea"], sort: []),
        ]
    }

    @Test func everyResultTypeAnswersAsOnSQLite() throws {
        let sqlite = try ModelContainer(
            for: Schema([StoredExpense.self]), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        try fill(sqlite)
        try PostgresTestSchema.withSchema { url in
            let server = try ModelContainer(
                for: Schema([StoredExpense.self]), configurations: [ModelConfiguration(url: try #require(URL(string: url)))])
            try fill(server)
            let (local, remote) = (ModelContext(sqlite), ModelContext(server))
            for (label, request) in requests() {
                let expected = try local.fetch(request).map(\.ref)
                #expect(try remote.fetch(request).map(\.ref) == expected, "\(label)")
                #expect(try remote.count(for: request) == expected.count, "\(label)")
                request.fetchBatchSize = 2
                let batched: FetchResultsCollection<StoredExpense> = try remote.fetch(request)
                #expect(batched.map(\.ref) == expected, "batched: \(label)")
                request.fetchBatchSize = 0

                let identifiers = NSFetchRequest<NSManagedObjectID>(entityName: "StoredExpense")
                identifiers.resultType = .managedObjectIDResultType
                identifiers.predicate = request.predicate
                identifiers.sortDescriptors = request.sortDescriptors
                identifiers.fetchLimit = request.fetchLimit
                identifiers.fetchOffset = request.fetchOffset
                let models = try remote.fetch(identifiers).compactMap { remote.model(for: $0) as? StoredExpense }
                #expect(models.map(\.ref) == expected, "identifiers: \(label)")
            }
        }
    }

    /// Swift chooses the rows by the predicate; the server fetches, groups, adds up, sorts and
    /// pages the rows chosen, as the same request does on SQLite.
    @Test func dictionariesAnswerAsOnSQLite() throws {
        let sqlite = try ModelContainer(
            for: Schema([StoredExpense.self]), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        try fill(sqlite)
        let total = NSExpressionDescription()
        total.name = "total"
        total.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "amount")])
        total.expressionResultType = .doubleAttributeType
        func request(_ properties: [Any], groupBy: [Any]? = nil, sort: [NSSortDescriptor] = [], limit: Int = 0)
            -> NSFetchRequest<NSDictionary>
        {
            let request = NSFetchRequest<NSDictionary>(entityName: "StoredExpense")
            request.resultType = .dictionaryResultType
            request.predicate = NSPredicate(format: "name CONTAINS[cd] %@", "cafe")
            request.propertiesToFetch = properties
            request.propertiesToGroupBy = groupBy
            request.sortDescriptors = sort
            request.fetchLimit = limit
            return request
        }
        let requests = [
            request(["ref", "name"], sort: [NSSortDescriptor(key: "amount", ascending: false)], limit: 3),
            request([total]),
            request(["categoryName", total], groupBy: ["categoryName"], sort: [NSSortDescriptor(key: "categoryName", ascending: true)]),
        ]
        try PostgresTestSchema.withSchema { url in
            let server = try ModelContainer(
                for: Schema([StoredExpense.self]), configurations: [ModelConfiguration(url: try #require(URL(string: url)))])
            try fill(server)
            let (local, remote) = (ModelContext(sqlite), ModelContext(server))
            for (index, request) in requests.enumerated() {
                let expected: [NSDictionary] = try local.fetch(request)
                let fetched: [NSDictionary] = try remote.fetch(request)
                #expect(!expected.isEmpty, "request \(index)")
                #expect(fetched == expected, "request \(index)")
            }
            let first: [NSDictionary] = try local.fetch(requests[0])
            #expect(first.compactMap { $0["ref"] as? Int } == [8, 7, 3])
        }
    }

    @Test func unsavedChangesStayOutOfARequestThatExcludesThem() throws {
        try PostgresTestSchema.withSchema { url in
            let server = try ModelContainer(
                for: Schema([StoredExpense.self]), configurations: [ModelConfiguration(url: try #require(URL(string: url)))])
            try fill(server)
            let context = ModelContext(server)
            context.insert(StoredExpense(row: ["id": 99, "name": "CAFE unsaved", "amount": 1.0]))
            let request = StoredExpense.fetchRequest()
            request.predicate = NSPredicate(format: "name CONTAINS[cd] %@", "cafe")
            request.sortDescriptors = [NSSortDescriptor(key: "ref", ascending: true)]
            #expect(try context.fetch(request).map(\.ref) == [1, 2, 3, 7, 8, 99])
            request.includesPendingChanges = false
            #expect(try context.fetch(request).map(\.ref) == [1, 2, 3, 7, 8])
        }
    }
}
