import CairnCoreData
import Testing

/// Records every delegate call as text, in order.
@MainActor
final class ChangeRecorder: NSFetchedResultsControllerDelegate {
    var log: [String] = []

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) {
        log.append("will")
    }
    func controller(
        _ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChange sectionInfo: any NSFetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType
    ) {
        log.append("section \(type) \(sectionInfo.name) @\(sectionIndex)")
    }
    func controller(
        _ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
        for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        let ref = (anObject as? StoredExpense)?.ref ?? -1
        func text(_ path: IndexPath?) -> String { path.map { "\($0.section).\($0.item)" } ?? "-" }
        log.append("\(type) #\(ref) \(text(indexPath))→\(text(newIndexPath))")
    }
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) {
        log.append("did")
    }
}

@MainActor
@Suite("NSFetchedResultsController: sections, lookups and delegate changes after saves")
struct NSFetchedResultsControllerTests {
    func controller(_ context: ModelContext) throws -> NSFetchedResultsController<StoredExpense> {
        let request = StoredExpense.fetchRequest()
        request.predicate = NSPredicate(format: "NOT categoryName IN {'Groceries', 'Utilities'} AND categoryName != nil")
        request.sortDescriptors = [NSSortDescriptor(key: "categoryName", ascending: true),
                                   NSSortDescriptor(key: "amount", ascending: false)]
        let controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "categoryName", cacheName: "Expenses")
        try controller.performFetch()
        return controller
    }

    @Test func sectionsAndLookups() throws {
        let (_, context) = try storedExpenses()
        let controller = try controller(context)
        #expect(controller.fetchedObjects?.map(\.ref) == [3, 1, 2, 10, 9, 5])
        #expect(controller.sections?.map(\.name) == ["Food", "Misc", "Transport"])
        #expect(controller.sections?.map(\.numberOfObjects) == [3, 2, 1])
        #expect(controller.sections?.map(\.indexTitle) == ["F", "M", "T"])
        #expect(controller.sectionIndexTitles == ["F", "M", "T"])
        #expect((controller.sections?[1].objects as? [StoredExpense])?.map(\.ref) == [10, 9])
        let nine = try #require(controller.object(at: IndexPath(item: 1, section: 1)))
        #expect(nine.ref == 9)
        #expect(controller.indexPath(forObject: nine) == IndexPath(item: 1, section: 1))
        #expect(controller.object(at: IndexPath(item: 5, section: 1)) == nil)
        NSFetchedResultsController<StoredExpense>.deleteCache(withName: "Expenses")

        let unsectioned = NSFetchedResultsController(
            fetchRequest: StoredExpense.fetchRequest(), managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        #expect(unsectioned.sections == nil)
        try unsectioned.performFetch()
        #expect(unsectioned.sections?.map(\.numberOfObjects) == [10])
    }

    @Test func delegateHearsInsertsDeletesMovesUpdatesAndSections() throws {
        let (_, context) = try storedExpenses()
        let controller = try controller(context)
        let recorder = ChangeRecorder()
        controller.delegate = recorder

        // A new object in a new section.
        context.insert(StoredExpense(row: ["id": 11, "amount": 5.0, "categoryName": "Books"]))
        try context.save()
        #expect(recorder.log == ["will", "section insert Books @0", "insert #11 -→0.0", "did"])
        #expect(controller.sections?.map(\.name) == ["Books", "Food", "Misc", "Transport"])

        // An update that keeps its place, and one that moves.
        recorder.log = []
        let food = try #require(controller.sections?[1].objects as? [StoredExpense])
        food[0].notes = "edited"          // #3 stays first in Food
        try context.save()
        #expect(recorder.log == ["will", "update #3 1.0→-", "did"])
        recorder.log = []
        food[2].amount = 50               // #2 (3.0) becomes the most expensive food
        try context.save()
        #expect(recorder.log.first == "will" && recorder.log.last == "did")
        #expect(recorder.log.contains("move #2 1.2→1.0"))
        #expect(controller.sections?[1].objects.map { ($0 as? [StoredExpense])?.map(\.ref) ?? [] } == [2, 3, 1])

        // A delete that empties a section.
        recorder.log = []
        let transport = try #require(controller.object(at: IndexPath(item: 0, section: 3)))
        context.delete(transport)
        try context.save()
        #expect(recorder.log == ["will", "section delete Transport @3", "delete #5 3.0→-", "did"])

        // A save of rows the predicate leaves out writes the entity's table: the controller
        // fetches again, finds its results unchanged, and tells the delegate nothing (as Core
        // Data does).
        recorder.log = []
        let utilities = try context.fetch(StoredExpense.fetchRequest()).first { $0.ref == 6 }
        utilities?.notes = "paid"
        try context.save()
        #expect(recorder.log.isEmpty)
    }

    @Test func savesFromAnotherContextArriveOnTheMainActor() async throws {
        let (container, context) = try storedExpenses()
        let controller = try controller(context)
        let recorder = ChangeRecorder()
        controller.delegate = recorder
        let other = ModelContext(container)
        other.insert(StoredExpense(row: ["id": 11, "amount": 1.0, "categoryName": "Food"]))
        try other.save()
        // Delivered by a main-actor task: let it run (no timing involved, only turns).
        for _ in 0..<10_000 where recorder.log.isEmpty { await Task.yield() }
        #expect(recorder.log == ["will", "insert #11 -→0.3", "did"])
        #expect(controller.sections?.first?.numberOfObjects == 4)
    }

    @Test func changingTheRequestAndRefetching() throws {
        let (_, context) = try storedExpenses()
        let controller = try controller(context)
        // The seed's applyFilters: delete the cache, change the request, fetch again.
        NSFetchedResultsController<StoredExpense>.deleteCache(withName: "ExpenseCache")
        controller.fetchRequest.predicate = NSPredicate(format: "amount > %f", 10.0)
        controller.fetchRequest.sortDescriptors = [NSSortDescriptor(key: "categoryName", ascending: true)]
        try controller.performFetch()
        #expect(controller.sections?.map(\.name) == ["Food", "Groceries", "Transport", "Utilities"])
        controller.fetchRequest.predicate = NSPredicate(format: "amount >")
        #expect(throws: FormatPredicateError.self) { try controller.performFetch() }
    }
}
