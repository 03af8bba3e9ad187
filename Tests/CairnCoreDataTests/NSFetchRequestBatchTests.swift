@testable import Cairn
import CairnCoreData
import Testing

/// The statements a connection runs, as text.
final class StatementLog {
    var sql: [String] = []
}

@Suite("NSFetchRequest.fetchBatchSize: identifiers first, objects a batch at a time")
struct NSFetchRequestBatchTests {
    /// `rows` saved expenses whose amount is their ref (1…rows), a fresh context, and the log
    /// of the statements the store's connection runs from now on.
    func setUp(rows: Int) throws -> (ModelContext, StatementLog) {
        let container = try ModelContainer(
            for: Schema([StoredExpense.self]), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        let writer = ModelContext(container)
        for ref in 1...rows {
            writer.insert(StoredExpense(row: ["id": ref, "amount": Double(ref), "name": "E\(ref)", "categoryName": "Food"]))
        }
        try writer.save()
        let log = StatementLog()
        try container.read(for: StoredExpense.self) { db in db.add { log.sql.append($0.sql) } }
        log.sql = []
        return (ModelContext(container), log)
    }

    func byAmountDescending(batchSize: Int) -> NSFetchRequest<StoredExpense> {
        let request = StoredExpense.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(key: "amount", ascending: false)]
        request.fetchBatchSize = batchSize
        return request
    }

    @Test func objectsLoadOneBatchPerSelectAsTheCollectionIsRead() throws {
        let (context, log) = try setUp(rows: 95)
        let expenses = try context.fetch(byAmountDescending(batchSize: 20))
        #expect(log.sql == [
            #"SELECT "StoredExpense"."id" FROM "StoredExpense" ORDER BY "StoredExpense"."amount" DESC, "StoredExpense"."id" ASC"#,
        ])
        #expect(expenses.count == 95)
        #expect(context.tracked.isEmpty)

        #expect(expenses[0].ref == 95)
        #expect(log.sql.count == 2)
        #expect(log.sql[1].contains(#"IN (SELECT value FROM json_each(?))"#))
        #expect(context.tracked.count == 20)
        #expect(expenses[19].ref == 76)
        #expect(log.sql.count == 2)  // same batch

        #expect(expenses.map(\.ref) == Array((1...95).reversed()))
        #expect(log.sql.count == 1 + 5)  // the identifiers, then one SELECT per batch of 20
        // The batch read last is what the context holds: memory stays flat.
        #expect(context.tracked.count == 15)
    }

    @Test func whereAnArrayIsAskedForEverythingLoadsAtOnce() throws {
        let (context, log) = try setUp(rows: 95)
        let expenses: [StoredExpense] = try context.fetch(byAmountDescending(batchSize: 20))
        #expect(expenses.map(\.ref) == Array((1...95).reversed()))
        #expect(log.sql.count == 1)
        #expect(context.tracked.count == 95)
    }

    @Test func limitOffsetAndPredicateApplyToTheIdentifiers() throws {
        let (context, log) = try setUp(rows: 95)
        let request = byAmountDescending(batchSize: 20)
        request.predicate = NSPredicate(format: "amount <= %d", 50)
        request.fetchOffset = 5
        request.fetchLimit = 30
        let expenses = try context.fetch(request)
        #expect(expenses.count == 30)
        #expect(expenses.map(\.ref) == Array((16...45).reversed()))
        #expect(log.sql.count == 1 + 2)
    }

    @Test func theSeedsRepositoryCodeWalksTheBatches() throws {
        let (context, log) = try setUp(rows: 45)
        let background = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        background.persistentStoreCoordinator = NSPersistentStoreCoordinator(container: context.container)
        var objectIDs: [NSManagedObjectID] = []
        background.performAndWait {
            let request: NSFetchRequest = StoredExpense.fetchRequest()
            request.sortDescriptors = [NSSortDescriptor(key: "amount", ascending: false)]
            request.fetchBatchSize = 20
            do {
                let backgroundExpenses = try background.fetch(request)
                objectIDs = backgroundExpenses.map { $0.objectID }
            } catch {
                Issue.record(error)
            }
        }
        #expect(objectIDs.count == 45)
        #expect(log.sql.count == 1 + 3)
        let main = NSManagedObjectContext(context)
        #expect(objectIDs.compactMap { main.object(with: $0) as? StoredExpense }.first?.ref == 45)
    }

    @Test func unsavedChangesOfTheEntityAreMergedAndLoadAtOnce() throws {
        let (context, _) = try setUp(rows: 45)
        context.insert(StoredExpense(row: ["id": 100, "amount": 1000.0]))
        let expenses = try context.fetch(byAmountDescending(batchSize: 20))
        #expect(expenses.count == 46)
        #expect(expenses.first?.ref == 100)
    }

    @Test func otherResultTypesIgnoreTheBatchSize() throws {
        let (context, _) = try setUp(rows: 45)
        let ids = NSFetchRequest<NSManagedObjectID>(entityName: "StoredExpense")
        ids.resultType = .managedObjectIDResultType
        ids.fetchBatchSize = 20
        #expect(try context.fetch(ids).count == 45)
    }
}
