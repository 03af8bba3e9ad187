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
