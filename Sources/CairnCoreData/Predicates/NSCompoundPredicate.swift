import Cairn
import Foundation

/// The `NSCompoundPredicate` that `NSCompoundPredicate(andPredicateWithSubpredicates:)` and
/// its siblings return: Foundation's class, specialized to compare, hash, print and copy as
/// Core Data's does (by its tree).
///
/// Foundation on Linux does not override equality in `NSCompoundPredicate`, so its inherited
/// `isEqual` compares the placeholder value every compound is made with: any two compounds
/// (an AND and an OR) are equal, and hashes differ between equal ones. This subclass is what
/// Cairn's initializers below make; code that holds it as `NSCompoundPredicate` or
/// `NSPredicate` gets Core Data's semantics.
final class FormatCompoundPredicate: NSCompoundPredicate {
    /// Why a `.not` compound without a subpredicate (a copy of one whose `subpredicates` were
    /// emptied) cannot be used: Foundation's initializer traps on it.
    private static let emptyNot = FormatPredicateError(
        .unsupported, "a NOT compound predicate without a subpredicate has nothing to negate; give it exactly one")

    override init(type: LogicalType, subpredicates: [NSPredicate]) {
        if type == .not, subpredicates.isEmpty {
            super.init(type: type, subpredicates: [FormatBackedPredicate(tree: .constant(false), error: Self.emptyNot)])
        } else {
            super.init(type: type, subpredicates: subpredicates)
        }
    }

    /// Evaluates as the tree does: `NOT` of several subpredicates is `NOT (a AND b)`, and a
    /// malformed subpredicate makes the compound `false` (Foundation's would negate it to
    /// `true`).
    override func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        (try? checkedEvaluate(with: object, substitutionVariables: bindings ?? [:])) ?? false
    }

    /// The canonical format (`a == 1 AND b == 2`), as `NSPredicate(format:)` prints the same tree.
    override var predicateFormat: String {
        (try? tree().predicateFormat) ?? subpredicateFormats
    }

    override var description: String { predicateFormat }

    /// The subpredicates' descriptions joined by the compound's operator, for a compound that
    /// holds a block predicate or a malformed format (and so has no tree).
    private var subpredicateFormats: String {
        let parts = subpredicates.map { "(\($0.description))" }
        switch compoundPredicateType {
        case .and: return parts.joined(separator: " AND ")
        case .or: return parts.joined(separator: " OR ")
        default: return "NOT " + parts.joined(separator: " AND ")
        }
    }

    /// Equal to any predicate of the same tree: another compound, an `NSPredicate(format:)`
    /// (`"a == 1 AND b == 2"`) or an `NSComparisonPredicate`. A compound holding a block
    /// predicate is equal to a compound of the same type whose subpredicates are equal.
    override func isEqual(_ object: Any?) -> Bool {
        if let other = object as? NSPredicate, other === self { return true }
        if let tree = try? tree() { return NSPredicate.hasTree(tree, object) }
        guard let other = object as? NSCompoundPredicate, other.compoundPredicateType == compoundPredicateType,
            other.subpredicates.count == subpredicates.count
        else { return false }
        return zip(subpredicates, other.subpredicates).allSatisfy { $0.isEqual($1) }
    }

    override var hash: Int {
        if let tree = try? tree() { return tree.hashValue }
        var hasher = Hasher()
        hasher.combine(compoundPredicateType.rawValue)
        for predicate in subpredicates { hasher.combine(predicate.hash) }
        return hasher.finalize()
    }

    /// A new compound of the same type over the same subpredicates (Foundation's inherited
    /// `copy` would return `FALSEPREDICATE`).
    override func copy(with zone: NSZone? = nil) -> Any {
        FormatCompoundPredicate(type: compoundPredicateType, subpredicates: subpredicates)
    }
}

// Foundation's `NSCompoundPredicate` initializers cannot return a subclass, and a class named
// `NSCompoundPredicate` declared here would make the name ambiguous in type annotations for code
// that imports Foundation beside `CoreData` (`func build() -> NSCompoundPredicate`). So, as for
// `NSPredicate(format:)`, the convenience initializers are declared again in a protocol extension,
// which may assign `self`. For Swift to choose them, Foundation's must be out of the way: the
// extension of the class below declares the same initializers, which shadow Foundation's (a
// module's declarations shadow those of the modules it imports) and are disfavored, leaving the
// protocol extension's. In a file that imports Foundation itself, Swift does not let them shadow
// Foundation's, and the compound is Foundation's own (see the `==` below).

extension NSCompoundPredicate {
    /// Foundation's `NSCompoundPredicate(andPredicateWithSubpredicates:)`, where Swift cannot
    /// choose Cairn's (see above).
    @_disfavoredOverload
    public convenience init(andPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .and, subpredicates: subpredicates)
    }

    /// Foundation's `NSCompoundPredicate(orPredicateWithSubpredicates:)`, where Swift cannot
    /// choose Cairn's (see above).
    @_disfavoredOverload
    public convenience init(orPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .or, subpredicates: subpredicates)
    }

    /// Foundation's `NSCompoundPredicate(notPredicateWithSubpredicate:)`, where Swift cannot
    /// choose Cairn's (see above).
    @_disfavoredOverload
    public convenience init(notPredicateWithSubpredicate predicate: NSPredicate) {
        self.init(type: .not, subpredicates: [predicate])
    }
}

extension CoreDataFactoryInitializable where Self == NSCompoundPredicate {
    /// `NSCompoundPredicate(andPredicateWithSubpredicates: [a, b])`: true when every
    /// subpredicate is (an empty list is true). Equal, as in Core Data, to the format predicate
    /// of the same tree.
    ///
    /// ```swift
    /// let both = NSCompoundPredicate(andPredicateWithSubpredicates: [
    ///     NSPredicate(format: "x == 10"), NSPredicate(format: "y == 30")])
    /// both == NSPredicate(format: "x == 10 AND y == 30")     // true
    /// both.predicateFormat                                    // x == 10 AND y == 30
    /// ```
    public init(andPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self = FormatCompoundPredicate(type: .and, subpredicates: subpredicates)
    }

    /// `NSCompoundPredicate(orPredicateWithSubpredicates: [a, b])`: true when any subpredicate
    /// is (an empty list is false).
    public init(orPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self = FormatCompoundPredicate(type: .or, subpredicates: subpredicates)
    }

    /// `NSCompoundPredicate(notPredicateWithSubpredicate: a)`: true when `a` is false.
    public init(notPredicateWithSubpredicate predicate: NSPredicate) {
        self = FormatCompoundPredicate(type: .not, subpredicates: [predicate])
    }
}

extension NSPredicate {
    /// Core Data's equality of predicates, by tree, whatever made them: `NSCompoundPredicate(
    /// andPredicateWithSubpredicates: [a, b]) == NSPredicate(format: "<a> AND <b>")`, and an AND
    /// is never an OR. It also compares Foundation's own compounds right (whose `isEqual` on
    /// Linux calls any two compounds equal); a predicate without a tree (a block) compares with
    /// `isEqual`.
    public static func == (lhs: NSPredicate, rhs: NSPredicate) -> Bool {
        if let left = try? lhs.tree(), let right = try? rhs.tree() { return left == right }
        return lhs.isEqual(rhs)
    }

    /// `!(lhs == rhs)`.
    public static func != (lhs: NSPredicate, rhs: NSPredicate) -> Bool { !(lhs == rhs) }
}
