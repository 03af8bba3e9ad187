import Foundation

#if !canImport(Darwin)
// UIKit and AppKit add sections and items to `IndexPath`; Linux has neither, and
// `NSFetchedResultsController` speaks in them.
extension IndexPath {
    /// `[section, item]`.
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    /// `[section, row]`.
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    /// The first index (0 when empty).
    public var section: Int { isEmpty ? 0 : self[0] }
    /// The second index (0 when there is none).
    public var item: Int { count > 1 ? self[1] : 0 }
    /// The second index (0 when there is none).
    public var row: Int { item }
}
#endif
