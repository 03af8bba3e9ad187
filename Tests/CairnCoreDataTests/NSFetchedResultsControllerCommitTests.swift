@testable import CairnCoreData
import Testing

/// A second entity, so a test can write a table the controller's request does not read.
@Model
final class ExpenseReceipt {
    var text: String
    init(text: String) { self.text = text }
}

@MainActor
@Suite("NSFetchedResultsController follows the commits that write the tables it reads")
struct NSFetchedResultsControllerCommitTests {
    /// The fixture's expenses and an empty receipt table in one container, a context, and a
    /// controller over the expenses outside Groceries and Utilities, sectioned by category:
    /// Food [#3, #1, #2], Misc [#10, #9], Transport [#5].
    func setUp() throws -> (ModelContainer, NSFetchedResultsController<StoredExpense>, ChangeRecorder) {
        let container = try ModelContainer(
            for: Schema([StoredExpense.self, ExpenseReceipt.self]),
            configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
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
        return (container, controller, recorder)
    }

    /// Lets queued main-actor tasks run (turns of the actor, not time).
    func settle(until done: () -> Bool = { false }) async {
        for _ in 0..<10_000 where !done() { await Task.yield() }
    }

    @Test func anotherContextsSaveIsReportedWithCoreDataIndexPaths() async throws {
        let (container, controller, recorder) = try setUp()
        #expect(controller.fetchedObjects?.map(\.ref) == [3, 1, 2, 10, 9, 5])
        let other = ModelContext(container)
        let stored = try other.fetch(StoredExpense.fetchRequest())
        stored.first { $0.ref == 9 }?.notes = "receipt lost"      // an update in place
        if let uber = stored.first(where: { $0.ref == 5 }) { other.delete(uber) }  // empties Transport
        other.insert(StoredExpense(row: ["id": 11, "amount": 1.0, "categoryName": "Food"]))
        try other.save()
        await settle { !recorder.log.isEmpty }
        #expect(recorder.log == [
            "will", "section delete Transport @2", "delete #5 2.0→-", "insert #11 -→0.3", "update #9 1.1→-", "did",
        ])
        #expect(controller.fetchedObjects?.map(\.ref) == [3, 1, 2, 11, 10, 9])
        #expect(controller.sections?.map(\.name) == ["Food", "Misc"])
        #expect(controller.refetchCount == 1)
    }

    @Test func aRawSQLWriteIsReported() async throws {
        let (container, controller, recorder) = try setUp()
        try container.write(for: StoredExpense.self) { db in
            try db.execute(sql: #"UPDATE "StoredExpense" SET "amount" = ? WHERE "ref" = ?"#, arguments: [100.0, 9])
        }
        await settle { !recorder.log.isEmpty }
        #expect(controller.fetchedObjects?.map(\.ref) == [3, 1, 2, 9, 10, 5])
        #expect(controller.object(at: IndexPath(item: 0, section: 1))?.amount == 100)
        #expect(recorder.log.first == "will" && recorder.log.last == "did")
        #expect(recorder.log.contains { $0.hasPrefix("move #9 1.1→1.0") || $0.hasPrefix("move #10 1.0→1.1") })
        #expect(!recorder.log.contains { $0.hasPrefix("insert") || $0.hasPrefix("delete") })
    }

    @Test func commitsToOtherTablesCauseNoFetch() async throws {
        let (container, controller, recorder) = try setUp()
        let other = ModelContext(container)
        other.insert(ExpenseReceipt(text: "coffee"))
        try other.save()
        try container.write(for: ExpenseReceipt.self) { db in
            try db.execute(sql: #"UPDATE "ExpenseReceipt" SET "text" = ?"#, arguments: ["tea"])
        }
        await settle()
        #expect(controller.refetchCount == 0)
        #expect(recorder.log.isEmpty)
        // The same controller still hears its own table (the control for the turns above).
        try container.write(for: StoredExpense.self) { db in
            try db.execute(sql: #"DELETE FROM "StoredExpense" WHERE "ref" = ?"#, arguments: [1])
        }
        await settle { !recorder.log.isEmpty }
        #expect(controller.refetchCount == 1)
        #expect(recorder.log == ["will", "delete #1 0.1→-", "did"])
    }

    @Test func ownSavesAreReportedBeforeSaveReturnsAndOnlyOnce() async throws {
        let (_, controller, recorder) = try setUp()
        let context = try #require(controller.managedObjectContext.modelContext)
        let two = try #require(controller.object(at: IndexPath(item: 2, section: 0)))
        context.delete(two)
        try context.save()
        #expect(recorder.log == ["will", "delete #2 0.2→-", "did"])
        await settle()
        // Two fetches: one as the save processed the pending delete (reported then), one after
        // the commit (which found nothing new); the task the commit queued finds nothing pending.
        #expect(controller.refetchCount == 2)
        #expect(recorder.log.count == 3)
    }

    /// A controller that has followed a commit holds nothing that outlives it.
    @Test func aDroppedControllerReleasesItsContextAndContainer() async throws {
        weak var container: ModelContainer?
        weak var context: NSManagedObjectContext?
        weak var controller: NSFetchedResultsController<StoredExpense>?
        do {
            let (made, fetched, recorder) = try setUp()
            container = made
            context = fetched.managedObjectContext
            controller = fetched
            let writer = ModelContext(made)
            writer.insert(StoredExpense(row: ["id": 12, "amount": 2.0, "categoryName": "Food"]))
            try writer.save()
            await settle { !recorder.log.isEmpty }
            #expect(!recorder.log.isEmpty)
        }
        await settle { container == nil && context == nil && controller == nil }
        #expect(controller == nil)
        #expect(context == nil)
        #expect(container == nil)
    }
}

@Model
final class Voyage {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \VoyageStop.voyage) var stops: [VoyageStop] = []
    init(name: String) { self.name = name }
}

@Model
final class VoyageStop {
    var title: String
    var voyage: Voyage?
    init(title: String, voyage: Voyage? = nil) {
        self.title = title
        self.voyage = voyage
    }
}

@MainActor
@Suite("NSFetchedResultsController watches the tables its predicate reaches through relationships")
struct NSFetchedResultsControllerRelationshipTests {
    @Test func aWriteToARelatedTableRefetchesOnlyTheControllersThatReadIt() async throws {
        let container = try ModelContainer(
            for: Schema([Voyage.self, VoyageStop.self]), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        let writer = ModelContext(container)
        let alps = Voyage(name: "Alps"), coast = Voyage(name: "Coast")
        writer.insert(alps)
        writer.insert(coast)
        writer.insert(VoyageStop(title: "Paris", voyage: alps))
        writer.insert(VoyageStop(title: "Nice", voyage: coast))
        try writer.save()

        let throughParis = NSFetchRequest<Voyage>(entityName: "Voyage")
        throughParis.predicate = NSPredicate(format: "ANY stops.title == %@", "Paris")
        throughParis.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let viaParis = NSFetchedResultsController(
            fetchRequest: throughParis, managedObjectContext: ModelContext(container), sectionNameKeyPath: nil, cacheName: nil)
        try viaParis.performFetch()
        let recorder = ChangeRecorder()
        viaParis.delegate = recorder
        let all = NSFetchedResultsController(
            fetchRequest: Voyage.fetchRequest(), managedObjectContext: ModelContext(container), sectionNameKeyPath: nil,
            cacheName: nil)
        try all.performFetch()
        #expect(viaParis.fetchedObjects?.map(\.name) == ["Alps"])

        try container.write(for: VoyageStop.self) { db in
            try db.execute(sql: #"UPDATE "VoyageStop" SET "title" = ? WHERE "title" = ?"#, arguments: ["Paris", "Nice"])
        }
        for _ in 0..<10_000 where recorder.log.isEmpty { await Task.yield() }
        #expect(viaParis.fetchedObjects?.map(\.name) == ["Alps", "Coast"])
        #expect(recorder.log == ["will", "insert #-1 -→0.1", "did"])  // (the recorder prints #-1 for a non-expense)
        #expect(viaParis.refetchCount == 1)
        #expect(all.refetchCount == 0)
    }

    @Test func unsavedChangesRefetchOnlyTheControllersThatReadTheirEntity() throws {
        let container = try ModelContainer(
            for: Schema([Voyage.self, VoyageStop.self]), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        let context = ModelContext(container)
        let alps = Voyage(name: "Alps")
        let paris = VoyageStop(title: "Paris", voyage: alps)
        context.insert(alps)
        context.insert(paris)
        try context.save()

        let byName = NSFetchRequest<Voyage>(entityName: "Voyage")
        byName.predicate = NSPredicate(format: "name BEGINSWITH %@", "A")
        byName.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let named = NSFetchedResultsController(
            fetchRequest: byName, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        try named.performFetch()
        let throughStops = NSFetchRequest<Voyage>(entityName: "Voyage")
        throughStops.predicate = NSPredicate(format: "ANY stops.title == %@", "Lyon")
        throughStops.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let viaLyon = NSFetchedResultsController(
            fetchRequest: throughStops, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        try viaLyon.performFetch()

        paris.title = "Lyon"  // a stop's attribute: only the controller that reads stops can change
        context.processPendingChanges()
        #expect(named.refetchCount == 0)
        #expect(viaLyon.refetchCount == 1)

        alps.name = "Andes"  // a voyage's attribute: both read voyages
        context.processPendingChanges()
        #expect(named.refetchCount == 1)
        #expect(viaLyon.refetchCount == 2)

        context.insert(VoyageStop(title: "Lima", voyage: alps))  // an insert changes its voyage's stops too
        context.processPendingChanges()
        #expect(named.refetchCount == 2)
        #expect(viaLyon.refetchCount == 3)

        context.rollback()  // reverts what it must: every controller looks again
        #expect(named.refetchCount == 3)
        #expect(viaLyon.refetchCount == 4)
    }
}
