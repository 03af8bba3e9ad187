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
struct FetchedResultsSection: NSFetchedResultsSectionInfo {
    let name: String
    let indexTitle: String?
    /// The section's models.
    let models: [any PersistentModel]
    var numberOfObjects: Int { models.count }
    var objects: [Any]? { models }
}

/// What happened to an object or a section (Apple's raw values).
///
/// ```swift
/// switch (type, indexPath, newIndexPath) {
/// case (.insert, _, let new?): tableView.insertRows(at: [new], with: .automatic)
/// case (.delete, let old?, _): tableView.deleteRows(at: [old], with: .automatic)
/// case (.move, let old?, let new?): tableView.moveRow(at: old, to: new)
/// case (.update, let old?, _): tableView.reloadRows(at: [old], with: .automatic)
/// default: break
/// }
/// ```
public enum NSFetchedResultsChangeType: UInt, Sendable {
    /// The object (at `newIndexPath`) or section (at its section index) is new in the results.
    case insert = 1
    /// The object (at `indexPath`) or section (at its section index) left the results.
    case delete = 2
    /// The object changed position, from `indexPath` to `newIndexPath`.
    case move = 3
    /// The object changed in place, at `indexPath`.
    case update = 4
}
