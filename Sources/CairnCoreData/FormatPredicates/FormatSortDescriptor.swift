import Foundation

/// One sort key of Core Data's sort descriptors: a key path, a direction and a string
/// comparison. `NSSortDescriptor` wraps it.
///
/// nil sorts before every value (ascending), numbers by value, strings by ``comparison``,
/// dates chronologically; values of different kinds order nil < numbers < strings < dates <
/// others.
///
/// ```swift
/// let byName = FormatSortDescriptor(key: "name", comparison: .localizedStandardCompare)
/// try FormatSortDescriptor.sort(rows, by: [byName])   // "Item 2" before "Item 10"
/// ```
public struct FormatSortDescriptor: Sendable, Hashable {
    /// The dotted key path read from each object.
    public var key: String
    /// `true` for smallest first.
    public var ascending: Bool
    /// How strings compare.
    public var comparison: FormatStringComparison

    /// A sort by the value `key` reads, as `NSSortDescriptor(key:ascending:selector:)` makes
    /// one.
    ///
    /// ```swift
    /// FormatSortDescriptor(key: "owner.name", ascending: false, comparison: .caseInsensitiveCompare)
    /// // ORDER BY … COLLATE cairn_case_insensitive DESC, in a fetch
    /// ```
    ///
    /// - Parameters:
    ///   - key: The dotted key path read from each object (to-one relationships only, in SQL).
    ///   - ascending: `true` (the default) for smallest first.
    ///   - comparison: How strings compare; `compare:` (literal order) by default.
    public init(key: String, ascending: Bool = true, comparison: FormatStringComparison = .compare) {
        self.key = key
        self.ascending = ascending
        self.comparison = comparison
    }

    /// Compares the values `key` reads from two objects, in this descriptor's direction.
    public func compare(_ lhs: Any?, _ rhs: Any?) throws(FormatPredicateError) -> ComparisonResult {
        let path = key.split(separator: ".").map(String.init)[...]
        let evaluator = FormatEvaluator(variables: [:], limits: .default)
        let a = try evaluator.read(path, from: FormatOperand(reading: lhs))
        let b = try evaluator.read(path, from: FormatOperand(reading: rhs))
        let order = Self.order(a, b, comparison)
        guard !ascending else { return order }
        switch order {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    /// Sorts `objects` by the descriptors in turn (the first decides, later ones break ties);
    /// stable, so equal objects keep their order.
    public static func sort<Element>(_ objects: [Element], by descriptors: [FormatSortDescriptor])
        throws(FormatPredicateError) -> [Element]
    {
        guard !descriptors.isEmpty else { return objects }
        // Read every key once, then sort indices.
        let evaluator = FormatEvaluator(variables: [:], limits: .default)
        var keys: [[FormatOperand]] = []
        keys.reserveCapacity(objects.count)
        for object in objects {
            var row: [FormatOperand] = []
            for descriptor in descriptors {
                let path = descriptor.key.split(separator: ".").map(String.init)[...]
                row.append(try evaluator.read(path, from: FormatOperand(reading: object)))
            }
            keys.append(row)
        }
        let order = objects.indices.sorted { i, j in
            for (column, descriptor) in descriptors.enumerated() {
                let result = Self.order(keys[i][column], keys[j][column], descriptor.comparison)
                if result == .orderedSame { continue }
                return (result == .orderedAscending) == descriptor.ascending
            }
            return i < j
        }
        return order.map { objects[$0] }
    }

    static func order(_ a: FormatOperand, _ b: FormatOperand, _ comparison: FormatStringComparison) -> ComparisonResult {
        let rankA = rank(a), rankB = rank(b)
        if rankA != rankB { return rankA < rankB ? .orderedAscending : .orderedDescending }
        if let x = a.number, let y = b.number { return x.compare(y) }
        switch (a, b) {
        case (.value(.string(let x)), .value(.string(let y))):
            return comparison.compare(x, y)
        case (.value(.date(let x)), .value(.date(let y))):
            return x == y ? .orderedSame : x < y ? .orderedAscending : .orderedDescending
        case (.value(.uuid(let x)), .value(.uuid(let y))):
            return PredicateFunctions.literalCompare(x.uuidString, y.uuidString)
        default:
            return .orderedSame
        }
    }

    private static func rank(_ operand: FormatOperand) -> Int {
        if operand.isNull { return 0 }
        if operand.number != nil { return 1 }
        switch operand {
        case .value(.string): return 2
        case .value(.date): return 3
        default: return 4
        }
    }
}
