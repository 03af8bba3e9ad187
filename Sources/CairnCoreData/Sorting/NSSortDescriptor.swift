import Cairn
import Foundation

/// Core Data's `NSSortDescriptor`: a key path, a direction and a comparison selector.
///
/// ```swift
/// let natural = NSSortDescriptor(key: "name", ascending: true,
///                                selector: Selector("localizedStandardCompare:"))
/// try expenses.sortedArray(using: [natural, NSSortDescriptor(key: "date", ascending: false)])
/// // SQL (NSFetchRequest.sqlSelect): ORDER BY "Expense"."name" COLLATE cairn_localized_standard ASC,
/// //   "Expense"."date" DESC, "Expense"."id" ASC
/// ```
///
/// Supported selectors (the ones Core Data's SQLite store supports): `compare:`,
/// `caseInsensitiveCompare:`, `localizedCompare:`, `localizedCaseInsensitiveCompare:`,
/// `localizedStandardCompare:`. nil sorts first when ascending, as in SQLite.
///
/// - Warning: Apple's initializer cannot throw, so an unknown selector is recorded in
///   ``selectorError``; `sortedArray(using:)` and fetches that use the descriptor throw it, and
///   ``compare(_:to:)`` answers `.orderedSame`.
public final class NSSortDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The key path sorted by.
    public let key: String?
    /// `true` for smallest first.
    public let ascending: Bool
    /// The comparison selector (`compare:` when none was given).
    public let selector: Selector?
    /// Why the selector cannot be used, if it cannot.
    public let selectorError: FormatPredicateError?

    /// `NSSortDescriptor(key: "date", ascending: false)`.
    public convenience init(key: String?, ascending: Bool) {
        self.init(key: key, ascending: ascending, selector: nil)
    }

    /// `NSSortDescriptor(key: "name", ascending: true, selector: Selector("localizedStandardCompare:"))`.
    public init(key: String?, ascending: Bool, selector: Selector?) {
        self.key = key
        self.ascending = ascending
        self.selector = selector
        if let selector, FormatStringComparison(selector: selector.name) == nil {
            selectorError = FormatPredicateError(
                .unsupported,
                "sort selector '\(selector.name)' is not supported; use "
                    + FormatStringComparison.allCases.map(\.rawValue).joined(separator: ", "))
        } else if key?.isEmpty ?? true {
            selectorError = FormatPredicateError(.unsupported, "a sort descriptor needs a key")
        } else {
            selectorError = nil
        }
    }

    /// The same key and selector, in the other direction.
    public var reversedSortDescriptor: Any {
        NSSortDescriptor(key: key, ascending: !ascending, selector: selector)
    }

    /// Cairn's descriptor, or the ``selectorError``.
    public func formatSortDescriptor() throws(FormatPredicateError) -> FormatSortDescriptor {
        if let selectorError { throw selectorError }
        let comparison = selector.flatMap { FormatStringComparison(selector: $0.name) } ?? .compare
        return FormatSortDescriptor(key: key ?? "", ascending: ascending, comparison: comparison)
    }

    /// Compares the values `key` reads from two objects, in this descriptor's direction;
    /// `.orderedSame` if the descriptor is invalid or the key cannot be read.
    public func compare(_ object1: Any, to object2: Any) -> ComparisonResult {
        guard let descriptor = try? formatSortDescriptor() else { return .orderedSame }
        return (try? descriptor.compare(object1, object2)) ?? .orderedSame
    }

    public var description: String {
        "(\(key ?? "nil"), \(ascending ? "ascending" : "descending"), \(selector?.name ?? "compare:"))"
    }

    public static func == (lhs: NSSortDescriptor, rhs: NSSortDescriptor) -> Bool {
        lhs.key == rhs.key && lhs.ascending == rhs.ascending && lhs.selector == rhs.selector
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(ascending)
        hasher.combine(selector)
    }
}

extension Array {
    /// The elements sorted by the descriptors in turn (stable), as `NSArray.sortedArray(using:)`.
    ///
    /// - Throws: the ``NSSortDescriptor/selectorError`` of a descriptor with an unsupported
    ///   selector, or a ``FormatPredicateError`` if a key cannot be read.
    public func sortedArray(using sortDescriptors: [NSSortDescriptor]) throws(FormatPredicateError) -> [Element] {
        var descriptors: [FormatSortDescriptor] = []
        for descriptor in sortDescriptors { descriptors.append(try descriptor.formatSortDescriptor()) }
        return try FormatSortDescriptor.sort(self, by: descriptors)
    }

    /// The elements that satisfy `predicate`, as `NSArray.filtered(using:)`.
    ///
    /// - Throws: the predicate's ``NSPredicate/formatError`` or an evaluation error.
    public func filtered(using predicate: NSPredicate) throws(FormatPredicateError) -> [Element] {
        var result: [Element] = []
        for element in self where try predicate.checkedEvaluate(with: element) { result.append(element) }
        return result
    }
}
