import Cairn
import Foundation

/// Told what changed in a controller's results (Core Data's protocol, with its signatures;
/// every method is optional).
///
/// ```swift
/// final class ExpenseList: NSFetchedResultsControllerDelegate {
///     func controllerWillChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) {}
///     func controller(_ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChange anObject: Any,
///                     at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
///         guard let expense = anObject as? Expense else { return }
///         // .insert: newIndexPath; .delete and .update: indexPath; .move: both
///     }
///     func controllerDidChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) {}
/// }
/// ```
///
/// Calls come in Core Data's order: `controllerWillChangeContent`, sections, objects,
/// `controllerDidChangeContent`. A delegate that implements
/// ``controller(_:didChangeContentWith:)`` on a controller without sections hears only that.
///
/// The `controller` handed to each method is the typed controller's view as
/// `NSFetchedResultsController<any NSFetchRequestResult>` (Swift generics are not Objective-C's
/// lightweight generics, so it cannot be the same object): it reads the same results, and
/// `===` against the typed controller is false; compare `controller.fetchRequest.entityName`
/// or keep one delegate per controller.
@MainActor
public protocol NSFetchedResultsControllerDelegate: AnyObject {
    /// Before the first change of a batch is reported.
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>)
    /// An object was inserted (`newIndexPath`), deleted (`indexPath`), moved (both) or
    /// updated (`indexPath`).
    func controller(
        _ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
        for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?)
    /// A section was inserted or deleted.
    func controller(
        _ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChange sectionInfo: any NSFetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType)
    /// After the last change of a batch was reported.
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>)
    /// The index title of a section (by default the controller's
    /// ``NSFetchedResultsController/sectionIndexTitle(forSectionName:)``).
    func controller(
        _ controller: NSFetchedResultsController<any NSFetchRequestResult>, sectionIndexTitleForSectionName sectionName: String
    ) -> String?
    /// The change of a controller without sections as a difference of identifiers, instead of
    /// the other calls: removals carry the identifiers of the previous results, insertions
    /// those of the new ones (an inserted object's save changes its temporary identifier to a
    /// permanent one, which is reported as a removal and an insertion).
    func controller(
        _ controller: NSFetchedResultsController<any NSFetchRequestResult>,
        didChangeContentWith diff: CollectionDifference<NSManagedObjectID>)
}

extension NSFetchedResultsControllerDelegate {
    /// Does nothing: a delegate implements it to prepare for a batch of changes (for example,
    /// to begin a table view's updates).
    public func controllerWillChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) {}
    /// Does nothing: a delegate implements it to insert, delete, move or reload one object's
    /// row.
    public func controller(
        _ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
        for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?
    ) {}
    /// Does nothing: a delegate implements it to insert or delete a section.
    public func controller(
        _ controller: NSFetchedResultsController<any NSFetchRequestResult>, didChange sectionInfo: any NSFetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType
    ) {}
    /// Does nothing: a delegate implements it to finish a batch of changes (for example, to
    /// end a table view's updates).
    public func controllerDidChangeContent(_ controller: NSFetchedResultsController<any NSFetchRequestResult>) {}
    /// The controller's ``NSFetchedResultsController/sectionIndexTitle(forSectionName:)``, as
    /// in Core Data: the first letter of `sectionName`, uppercased, unless a subclass of the
    /// controller overrides it.
    public func controller(
        _ controller: NSFetchedResultsController<any NSFetchRequestResult>, sectionIndexTitleForSectionName sectionName: String
    ) -> String? {
        controller.core.defaultSectionIndexTitle(forSectionName: sectionName)
    }
    /// The default: the controller reports the change through the other methods instead, as
    /// Core Data does for a delegate without this method.
    public func controller(
        _ controller: NSFetchedResultsController<any NSFetchRequestResult>,
        didChangeContentWith diff: CollectionDifference<NSManagedObjectID>
    ) {
        // The delegate does not implement it: the controller goes on with the other calls.
        controller.core.differenceWasIgnored = true
    }
}
