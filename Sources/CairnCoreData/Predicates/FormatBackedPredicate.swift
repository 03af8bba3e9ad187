import Cairn
import Foundation

/// The `NSPredicate` that `NSPredicate(format:)` returns: Foundation's class, specialized to
/// carry Cairn's parsed tree (as Apple's `NSPredicate(format:)` returns a subclass too).
///
/// It overrides what Foundation dispatches dynamically (`evaluate`, `predicateFormat`,
/// `description`, equality, hashing, copying), so code that holds it as a plain `NSPredicate`
/// gets format semantics, and `NSCompoundPredicate` (Foundation's) evaluates it correctly.
///
/// Foundation marks `NSPredicate` as not `Sendable`; this subclass stores only immutable
/// `Sendable` values, but it inherits that unavailability and does not claim otherwise.
final class FormatBackedPredicate: NSPredicate {
    /// The parsed tree (`FALSEPREDICATE` when the format was malformed).
    let tree: FormatPredicate
    /// Why the format could not be parsed or substituted, if it could not.
    let error: FormatPredicateError?

    init(tree: FormatPredicate, error: FormatPredicateError? = nil) {
        self.tree = error == nil ? tree : .constant(false)
        self.error = error
        // Foundation's designated initializers are `init(value:)` and `init(block:)`; the value
        // is never read, because every member that would read it is overridden below.
        super.init(value: false)
    }

    /// Evaluates the tree; `false` when the format was malformed, a variable has no value or
    /// a value cannot take an operation.
    override func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        guard error == nil else { return false }
        return (try? tree.evaluate(with: object, substitutionVariables: (bindings ?? [:]).mapValues { Optional($0) }))
            ?? false
    }

    /// The canonical format, or the text as written when it did not parse.
    override var predicateFormat: String { error?.format ?? tree.predicateFormat }

    override var description: String { predicateFormat }

    /// Equal to any predicate of the same tree (a comparison, a compound, another format).
    override func isEqual(_ object: Any?) -> Bool { isEqualTree(object) }

    override var hash: Int { tree.hashValue }

    /// Immutable, so a copy is the same object (as Foundation's own immutable classes do).
    override func copy(with zone: NSZone? = nil) -> Any { self }
}
