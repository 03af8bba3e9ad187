@testable import CairnCoreData
import Testing

/// A delegate written as Apple's documentation writes a table view's: Core Data's signatures,
/// a switch over the change type, and reads of the controller it is handed.
@MainActor
final class ExpenseTableDelegate: NSFetchedResultsControllerDelegate {
    var log: [String] = []

    func controller(
        _ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
        for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        guard let expense = anObject as? StoredExpense else { return log.append("not an expense") }
        switch type {
        case .insert: log.append("insert #\(expense.ref) at \(newIndexPath?.section ?? -1).\(newIndexPath?.row ?? -1)")
        case .delete: log.append("delete #\(expense.ref) at \(indexPath?.section ?? -1).\(indexPath?.row ?? -1)")
        case .update: log.append("update #\(expense.ref) at \(indexPath?.section ?? -1).\(indexPath?.row ?? -1)")
        case .move: log.append("move #\(expense.ref)")
        }
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) {
        let first = controller.object(at: IndexPath(row: 0, section: 0)) as? StoredExpense
        log.append("did \(controller.sections?.count ?? -1) \(first?.ref ?? -1)")
    }

    func controller(
        _ controller: NSFetchedResultsController<any NSFetchRequestResult>, sectionIndexTitleForSectionName sectionName: String
    ) -> String? {
        String(sectionName.prefix(2))
    }
}

/// A controller that titles sections by their whole name, lowercased.
final class LowercaseTitlesController: NSFetchedResultsController<StoredExpense> {
    override func sectionIndexTitle(forSectionName sectionName: String) -> String? { sectionName.lowercased() }
}

/// A delegate that applies changes as a difference of identifiers (a diffable data source).
@MainActor
final class DifferenceDelegate: NSFetchedResultsControllerDelegate {
    var differences: [CollectionDifference<NSManagedObjectID>] = []
    var otherCalls = 0

    func controller(
        _ controller: NSFetchedResultsController<any NSFetchRequestResult>,
        didChangeContentWith diff: CollectionDifference<NSManagedObjectID>
    ) {
        differences.append(diff)
    }
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) { otherCalls += 1 }
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) { otherCalls += 1 }
}

/// Records whether the context still had unsaved changes when each batch was reported.
@MainActor
final class SaveTimingDelegate: NSFetchedResultsControllerDelegate {
    var unsavedAtEachReport: [Bool] = []
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) {
        unsavedAtEachReport.append(controller.managedObjectContext.hasChanges)
    }
}

@MainActor
@Suite("NSFetchedResultsController reports its context's unsaved changes when they are processed")
struct NSFetchedResultsControllerPendingTests {
    /// Food [#3, #1, #2], Misc [#10, #9], Transport [#5], over a context of its own.
    func setUp() throws -> (ModelContext, NSFetchedResultsController<StoredExpense>, ChangeRecorder) {
        let (_, context) = try storedExpenses()
        let request = StoredExpense.fetchRequest()
        request.predicate = NSPredicate(format: "NOT categoryName IN {'Groceries', 'Utilities'} AND categoryName != nil")
        request.sortDescriptors = [NSSortDescriptor(key: "categoryName", ascending: true),
                                   NSSortDescriptor(key: "amount", ascending: false)]
        let controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "categoryName", cacheName: nil)
        try controller.performFetch()
        let recorder = ChangeRecorder()
        controller.delegate = recorder
        return (context, controller, recorder)
    }

    func expense(_ ref: Int, in controller: NSFetchedResultsController<StoredExpense>) throws -> StoredExpense {
        try #require(controller.fetchedObjects?.first { $0.ref == ref })
    }

    @Test func editsDeletesAndInsertsAreReportedAtProcessPendingChanges() throws {
        let (context, controller, recorder) = try setUp()
        try expense(9, in: controller).notes = "receipt lost"           // an update in place
        context.delete(try expense(5, in: controller))                  // empties Transport
        try expense(1, in: controller).categoryName = "Groceries"        // no longer matches
        context.insert(StoredExpense(row: ["id": 11, "amount": 1.0, "categoryName": "Food"]))
        #expect(recorder.log.isEmpty)
        #expect(controller.fetchedObjects?.map(\.ref) == [3, 1, 2, 10, 9, 5])

        context.processPendingChanges()
        #expect(recorder.log == [
            "will", "section delete Transport @2", "delete #5 2.0→-", "delete #1 0.1→-", "insert #11 -→0.2",
            "update #9 1.1→-", "did",
        ])
        #expect(controller.fetchedObjects?.map(\.ref) == [3, 2, 11, 10, 9])
        #expect(controller.sections?.map(\.name) == ["Food", "Misc"])

        // The save writes what was already reported: the delegate hears nothing more.
        recorder.log = []
        try context.save()
        #expect(recorder.log.isEmpty)
        #expect(controller.fetchedObjects?.map(\.ref) == [3, 2, 11, 10, 9])
        #expect(controller.refetchCount == 2)
    }

    @Test func saveProcessesPendingChangesBeforeItWrites() throws {
        let (context, controller, recorder) = try setUp()
        let timing = SaveTimingDelegate()
        controller.delegate = timing
        try expense(2, in: controller).amount = 50       // the most expensive food now
        try context.save()
        #expect(timing.unsavedAtEachReport == [true])
        #expect(controller.fetchedObjects?.map(\.ref) == [2, 3, 1, 10, 9, 5])

        controller.delegate = recorder
        try expense(2, in: controller).amount = 1
        try context.save()
        #expect(recorder.log == ["will", "move #2 0.0→0.2", "did"])
    }

    @Test func processingTwiceReportsOnce() throws {
        let (context, controller, recorder) = try setUp()
        context.delete(try expense(10, in: controller))
        context.processPendingChanges()
        context.processPendingChanges()
        #expect(recorder.log == ["will", "delete #10 1.0→-", "did"])
        #expect(controller.refetchCount == 1)
    }

    @Test func rollbackReportsTheReverts() throws {
        let (context, controller, recorder) = try setUp()
        let coreData = controller.managedObjectContext
        context.insert(StoredExpense(row: ["id": 11, "amount": 1.0, "categoryName": "Misc"]))
        coreData.processPendingChanges()
        #expect(recorder.log == ["will", "insert #11 -→1.2", "did"])
        recorder.log = []
        coreData.rollback()
        #expect(recorder.log == ["will", "delete #11 1.2→-", "did"])
        #expect(controller.fetchedObjects?.map(\.ref) == [3, 1, 2, 10, 9, 5])
    }

    @Test func aRequestWithoutPendingChangesHearsOnlySaves() throws {
        let (context, controller, recorder) = try setUp()
        controller.fetchRequest.includesPendingChanges = false
        try controller.performFetch()
        context.delete(try expense(10, in: controller))
        context.processPendingChanges()
        #expect(recorder.log.isEmpty)
        try context.save()
        #expect(recorder.log == ["will", "delete #10 1.0→-", "did"])
    }

    @Test func aDelegateWithApplesSignaturesReadsTheController() throws {
        let (context, controller, _) = try setUp()
        let delegate = ExpenseTableDelegate()
        controller.delegate = delegate
        try controller.performFetch()
        // The delegate titles sections by their first two letters.
        #expect(controller.sectionIndexTitles == ["Fo", "Mi", "Tr"])
        context.insert(StoredExpense(row: ["id": 11, "amount": 99.0, "categoryName": "Books"]))
        context.delete(try expense(3, in: controller))
        context.processPendingChanges()
        #expect(delegate.log == ["delete #3 at 0.0", "insert #11 at 0.0", "did 4 11"])
        #expect(controller.sectionIndexTitles == ["Bo", "Fo", "Mi", "Tr"])
    }

    @Test func aSubclassTitlesSectionsUnlessTheDelegateDoes() throws {
        let (_, context) = try storedExpenses()
        let request = StoredExpense.fetchRequest()
        request.predicate = NSPredicate(format: "categoryName != nil")
        request.sortDescriptors = [NSSortDescriptor(key: "categoryName", ascending: true)]
        let controller = LowercaseTitlesController(
            fetchRequest: request, managedObjectContext: NSManagedObjectContext(context), sectionNameKeyPath: "categoryName", cacheName: nil)
        let recorder = ChangeRecorder()     // implements no title method: the controller's is used
        controller.delegate = recorder
        try controller.performFetch()
        #expect(controller.sectionIndexTitles == ["food", "groceries", "misc", "transport", "utilities"])
        let titled = ExpenseTableDelegate()
        controller.delegate = titled
        try controller.performFetch()
        #expect(controller.sectionIndexTitles == ["Fo", "Gr", "Mi", "Tr", "Ut"])
    }

    @Test func aDifferenceDelegateHearsOnlyTheDifference() throws {
        let (_, context) = try storedExpenses()
        let request = StoredExpense.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(key: "amount", ascending: true)]
        let controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        try controller.performFetch()
        let delegate = DifferenceDelegate()
        controller.delegate = delegate
        let tea = StoredExpense(row: ["id": 11, "amount": 1.0, "categoryName": "Food"])
        context.insert(tea)
        context.processPendingChanges()
        #expect(delegate.otherCalls == 0)
        let temporary = tea.persistentModelID
        #expect(delegate.differences.count == 1)
        #expect(delegate.differences.first.map(Array.init) == [.insert(offset: 1, element: temporary, associatedWith: nil)])
        #expect(controller.fetchedObjects?.map(\.ref) == [8, 11, 2, 1, 9, 10, 3, 5, 7, 4, 6])

        // The save gives the insert its permanent identifier, which the difference reports.
        try context.save()
        let permanent = tea.persistentModelID
        #expect(permanent != temporary)
        #expect(delegate.differences.count == 2)
        #expect(delegate.differences.last.map(Array.init) == [
            .remove(offset: 1, element: temporary, associatedWith: nil),
            .insert(offset: 1, element: permanent, associatedWith: nil),
        ])
        #expect(delegate.otherCalls == 0)
    }
}
