import CairnCoreData
import CairnTestSupport
import Foundation
import Testing

/// The format-predicate table through `NSFetchRequest` on a PostgreSQL store: every format the
/// server runs returns the rows `evaluate(with:)` answers on the same objects; a format with
/// no PostgreSQL translation is an error that says so, never other rows.
@Suite("NSFetchRequest on a PostgreSQL store", .enabled(if: PostgresTestSchema.serverURL != nil, PostgresTestSchema.skipMessage))
struct PostgresFormatDifferentialTests {
    @Test func fetchAgreesWithEvaluateOnTheSameObjects() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try ModelContainer(
                for: Schema([StoredExpense.self]), configurations: [ModelConfiguration(url: try #require(URL(string: url)))])
            let writer = ModelContext(container)
            for row in expenses() { writer.insert(StoredExpense(row: row)) }
            try writer.save()
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
                    // No PostgreSQL translation: the error must say so.
                    #expect("\(error)".contains("PostgreSQL"), "\(testCase.format): \(error)")
                    refused.append(testCase.format)
                    continue
                }
                compared += 1
                let inMemory = everything.filter { predicate.evaluate(with: $0) }.map(\.ref)
                #expect(fetched.map(\.ref) == inMemory, "\(testCase.format)")
                #expect(try context.count(for: request) == inMemory.count, "\(testCase.format)")
            }
            #expect(compared >= 125, "only \(compared) formats ran on PostgreSQL; refused: \(refused)")
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
