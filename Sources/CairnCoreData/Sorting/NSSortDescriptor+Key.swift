import Cairn
import Foundation

extension NSSortDescriptor: CoreDataFactoryInitializable {}

// Foundation on Linux declares `init(key:ascending:)` and `key` but marks them unavailable;
// Swift prefers an available declaration, so these are the ones called. `Self: NSSortDescriptor`,
// so that a convenience initializer of an `NSSortDescriptor` extension reaches them (as for
// `NSPredicate(format:)`).
extension CoreDataFactoryInitializable where Self: NSSortDescriptor {
    /// `NSSortDescriptor(key: "date", ascending: false)`: sorts by the value of a key path.
    ///
    /// ```swift
    /// let newest = NSSortDescriptor(key: "date", ascending: false)
    /// try expenses.sortedArray(using: [newest])
    /// // SQL (NSFetchRequest.sqlSelect): ORDER BY "Expense"."date" DESC, "Expense"."id" ASC
    /// ```
    ///
    /// nil sorts first when ascending, as in SQLite.
    public init(key: String?, ascending: Bool) {
        self = Self.adopting(KeyedSortDescriptor(key: key, ascending: ascending, selector: nil), madeBy: "key")
    }

    /// `NSSortDescriptor(key: "name", ascending: true, selector: Selector("localizedStandardCompare:"))`.
    ///
    /// ```swift
    /// let natural = NSSortDescriptor(key: "name", ascending: true,
    ///                                selector: Selector("localizedStandardCompare:"))
    /// // SQL: ORDER BY "Expense"."name" COLLATE cairn_localized_standard ASC, "Expense"."id" ASC
    /// ```
    ///
    /// Supported selectors (the ones Core Data's SQLite store supports): `compare:`,
    /// `caseInsensitiveCompare:`, `localizedCompare:`, `localizedCaseInsensitiveCompare:`,
    /// `localizedStandardCompare:`.
    ///
    /// - Warning: Apple's initializer cannot throw, so an unknown selector is recorded in
    ///   `Foundation/NSSortDescriptor/selectorError`; `sortedArray(using:)` and fetches that
    ///   use the descriptor throw it, and `compare(_:to:)` answers `.orderedSame`.
    public init(key: String?, ascending: Bool, selector: Selector?) {
        self = Self.adopting(KeyedSortDescriptor(key: key, ascending: ascending, selector: selector), madeBy: "key")
    }
}

extension NSSortDescriptor {
    /// The key path sorted by (nil for a descriptor made from a Swift key path).
    public var key: String? { (self as? KeyedSortDescriptor)?.sortKey }

    /// The comparison selector (nil when none was given, which means `compare:`).
    public var selector: Selector? { (self as? KeyedSortDescriptor)?.sortSelector }

    /// Why the descriptor cannot sort: an unsupported selector or a missing key.
    public var selectorError: FormatPredicateError? { (self as? KeyedSortDescriptor)?.sortError }

    /// Cairn's descriptor, for sorting in memory and compiling to `ORDER BY`.
    ///
    /// - Throws: the ``selectorError``, or an `.unsupported` error for a descriptor made from
    ///   a Swift key path (`init(keyPath:ascending:)`), which has no key name SQL can use.
    public func formatSortDescriptor() throws(FormatPredicateError) -> FormatSortDescriptor {
        guard let keyed = self as? KeyedSortDescriptor else {
            throw FormatPredicateError(
                .unsupported,
                "a sort descriptor made from a Swift key path (\(keyPath)) has no key name; "
                    + "use NSSortDescriptor(key:ascending:) to fetch with it")
        }
        return try keyed.formatDescriptor()
    }
}

extension Array {
    /// The elements sorted by the descriptors in turn (stable), as `NSArray.sortedArray(using:)`.
    ///
    /// ```swift
    /// try expenses.sortedArray(using: [NSSortDescriptor(key: "amount", ascending: false)])
    /// ```
    ///
    /// - Throws: the `Foundation/NSSortDescriptor/selectorError` of a descriptor with an
    ///   unsupported selector, a `FormatPredicateError` if a key cannot be read, or one that
    ///   names a Swift key-path descriptor whose root type does not match an element (which
    ///   Foundation's `compare(_:to:)` would trap on).
    public func sortedArray(using sortDescriptors: [NSSortDescriptor]) throws(FormatPredicateError) -> [Element] {
        var keyed: [FormatSortDescriptor] = []
        for descriptor in sortDescriptors {
            guard let descriptor = descriptor as? KeyedSortDescriptor else { break }
            keyed.append(try descriptor.formatDescriptor())
        }
        if keyed.count == sortDescriptors.count { return try FormatSortDescriptor.sort(self, by: keyed) }

        // Some descriptors sort by Swift key paths: compare pairwise through `compare(_:to:)`,
        // after checking that every element has the key path's root type.
        for descriptor in sortDescriptors {
            if let keyed = descriptor as? KeyedSortDescriptor {
                _ = try keyed.formatDescriptor()
                continue
            }
            for element in self where (element as Any)[keyPath: descriptor.keyPath] == nil {
                throw FormatPredicateError(
                    .evaluation, "cannot sort a \(type(of: element as Any)) by the key path \(descriptor.keyPath)")
            }
        }
        let order = indices.sorted { i, j in
            for descriptor in sortDescriptors {
                switch descriptor.compare(self[i], to: self[j]) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return i < j
        }
        return order.map { self[$0] }
    }

    /// The elements that satisfy `predicate`, as `NSArray.filtered(using:)`.
    ///
    /// - Throws: the predicate's `Foundation/NSPredicate/formatError` or an evaluation error.
    public func filtered(using predicate: NSPredicate) throws(FormatPredicateError) -> [Element] {
        var result: [Element] = []
        for element in self where try predicate.checkedEvaluate(with: element) { result.append(element) }
        return result
    }
}
