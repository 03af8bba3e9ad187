import Cairn
import Foundation

/// The `NSSortDescriptor` that `NSSortDescriptor(key:ascending:)` returns: Foundation's class,
/// specialized to sort by a key name and a comparison selector.
///
/// Foundation on Linux sorts by Swift key paths only; this subclass keeps the key and the
/// selector and overrides `compare(_:to:)`, `reversedSortDescriptor`, equality, hashing and
/// `description`, so code holding it as a plain `NSSortDescriptor` sorts by the key.
/// Foundation's `keyPath` and `comparator` properties of such a descriptor describe a
/// placeholder (the descriptor's own ``key``) and are not meaningful.
final class KeyedSortDescriptor: NSSortDescriptor {
    let sortKey: String?
    let sortSelector: Selector?
    let sortError: FormatPredicateError?

    init(key: String?, ascending: Bool, selector: Selector?) {
        sortKey = key
        sortSelector = selector
        if let selector, FormatStringComparison(selector: selector.name) == nil {
            sortError = FormatPredicateError(
                .unsupported,
                "sort selector '\(selector.name)' is not supported; use "
                    + FormatStringComparison.allCases.map(\.rawValue).joined(separator: ", "))
        } else if key?.isEmpty ?? true {
            sortError = FormatPredicateError(.unsupported, "a sort descriptor needs a key")
        } else {
            sortError = nil
        }
        // Foundation's only designated initializers take a Swift key path and read it through
        // a cast in `compare(_:to:)`, which is overridden below; the key path and comparator
        // given here are never used to sort.
        super.init(keyPath: \KeyedSortDescriptor.sortKey, ascending: ascending, comparator: { _, _ in .orderedSame })
    }

    /// Cairn's descriptor, or the ``selectorError``.
    func formatDescriptor() throws(FormatPredicateError) -> FormatSortDescriptor {
        if let sortError { throw sortError }
        let comparison = sortSelector.flatMap { FormatStringComparison(selector: $0.name) } ?? .compare
        return FormatSortDescriptor(key: sortKey ?? "", ascending: ascending, comparison: comparison)
    }

    /// Compares the values `key` reads from two objects, in this descriptor's direction;
    /// `.orderedSame` if the descriptor is invalid or the key cannot be read.
    override func compare(_ object1: Any, to object2: Any) -> ComparisonResult {
        guard let descriptor = try? formatDescriptor() else { return .orderedSame }
        return (try? descriptor.compare(object1, object2)) ?? .orderedSame
    }

    override var reversedSortDescriptor: Any {
        KeyedSortDescriptor(key: sortKey, ascending: !ascending, selector: sortSelector)
    }

    override var description: String {
        "(\(sortKey ?? "nil"), \(ascending ? "ascending" : "descending"), \(sortSelector?.name ?? "compare:"))"
    }

    override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? KeyedSortDescriptor else { return false }
        return other.sortKey == sortKey && other.ascending == ascending && other.sortSelector == sortSelector
    }

    override var hash: Int {
        var hasher = Hasher()
        hasher.combine(sortKey)
        hasher.combine(ascending)
        hasher.combine(sortSelector)
        return hasher.finalize()
    }

    /// Immutable, so a copy is the same object.
    override func copy(with zone: NSZone? = nil) -> Any { self }
}
