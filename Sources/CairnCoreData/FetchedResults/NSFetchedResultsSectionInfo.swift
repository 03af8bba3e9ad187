import Cairn
import Foundation

/// One section of a fetched-results controller (Core Data's protocol).
public protocol NSFetchedResultsSectionInfo {
    /// The section key's value as text ("" for nil).
    var name: String { get }
    /// The title in the section index (by default the name's first letter, uppercased).
    var indexTitle: String? { get }
    /// How many objects the section holds.
    var numberOfObjects: Int { get }
    /// The section's objects, in fetch order.
    var objects: [Any]? { get }
}

/// A section of an ``NSFetchedResultsController``.
public struct FetchedResultsSection<Model: PersistentModel>: NSFetchedResultsSectionInfo {
    public let name: String
    public let indexTitle: String?
    /// The section's models.
    public let models: [Model]
    public var numberOfObjects: Int { models.count }
    public var objects: [Any]? { models }
}

/// What happened to an object or a section (Apple's raw values).
public enum NSFetchedResultsChangeType: UInt, Sendable {
    case insert = 1
    case delete = 2
    case move = 3
    case update = 4
}

/// Told what changed in a controller's results after a save (every method is optional). Calls
/// come in Core Data's order: `controllerWillChangeContent`, sections, objects,
/// `controllerDidChangeContent`.
@MainActor
public protocol NSFetchedResultsControllerDelegate: AnyObject {
    func controllerWillChangeContent(_ controller: AnyObject)
    func controller(
        _ controller: AnyObject, didChange sectionInfo: any NSFetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
        for type: NSFetchedResultsChangeType)
    func controller(
        _ controller: AnyObject, didChange anObject: Any, at indexPath: IndexPath?, for type: NSFetchedResultsChangeType,
        newIndexPath: IndexPath?)
    func controllerDidChangeContent(_ controller: AnyObject)
}

extension NSFetchedResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: AnyObject) {}
    public func controller(
        _ controller: AnyObject, didChange sectionInfo: any NSFetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
        for type: NSFetchedResultsChangeType
    ) {}
    public func controller(
        _ controller: AnyObject, didChange anObject: Any, at indexPath: IndexPath?, for type: NSFetchedResultsChangeType,
        newIndexPath: IndexPath?
    ) {}
    public func controllerDidChangeContent(_ controller: AnyObject) {}
}
