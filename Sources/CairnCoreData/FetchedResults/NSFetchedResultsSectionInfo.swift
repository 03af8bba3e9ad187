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
public enum NSFetchedResultsChangeType: UInt, Sendable {
    case insert = 1
    case delete = 2
    case move = 3
    case update = 4
}
