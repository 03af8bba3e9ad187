import Cairn
import Foundation

/// Core Data's `NSCompoundPredicate`: AND, OR or NOT of other predicates.
///
/// ```swift
/// let combined = NSCompoundPredicate(andPredicateWithSubpredicates: [
///     NSPredicate(format: "amount > %f", 50.0),
///     NSPredicate(format: "isBusiness == NO"),
/// ])
/// combined.predicateFormat   // amount > 50.0 AND isBusiness == FALSE
/// // SQL: "Expense"."amount" > ? AND "Expense"."isBusiness" IS ?
/// ```
///
/// An AND of no predicates is true and an OR of none is false; a NOT of several negates
/// their AND. If a subpredicate has a ``NSPredicate/formatError``, the compound carries it.
open class NSCompoundPredicate: NSPredicate, @unchecked Sendable {
    /// The three kinds of compound (Apple's raw values).
    public enum LogicalType: UInt, Sendable {
        case not = 0
        case and = 1
        case or = 2
    }

    /// AND, OR or NOT.
    public let compoundPredicateType: LogicalType
    private let predicates: [NSPredicate]

    /// The predicates combined (as `NSPredicate`s).
    public var subpredicates: [Any] { predicates }

    public init(type: LogicalType, subpredicates: [NSPredicate]) {
        compoundPredicateType = type
        predicates = subpredicates
        let trees = subpredicates.map(\.formatPredicate)
        let tree: FormatPredicate =
            switch type {
            case .and: .and(trees)
            case .or: .or(trees)
            case .not: .not(trees.count == 1 ? trees[0] : .and(trees))
            }
        let error = subpredicates.lazy.compactMap(\.formatError).first
        super.init(formatPredicate: error == nil ? tree : .constant(false), formatError: error)
    }

    /// Rebuilds a compound from a tree whose root is AND, OR or NOT (used by
    /// `withSubstitutionVariables(_:)`); any other root becomes an AND of that one predicate.
    public required init(formatPredicate: FormatPredicate, formatError: FormatPredicateError? = nil) {
        switch formatPredicate {
        case .and(let operands):
            compoundPredicateType = .and
            predicates = operands.map { NSPredicate(formatPredicate: $0) }
        case .or(let operands):
            compoundPredicateType = .or
            predicates = operands.map { NSPredicate(formatPredicate: $0) }
        case .not(let operand):
            compoundPredicateType = .not
            predicates = [NSPredicate(formatPredicate: operand)]
        default:
            compoundPredicateType = .and
            predicates = [NSPredicate(formatPredicate: formatPredicate)]
        }
        super.init(formatPredicate: formatPredicate, formatError: formatError)
    }

    /// `a AND b AND …`; true when `subpredicates` is empty.
    public convenience init(andPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .and, subpredicates: subpredicates)
    }

    /// `a OR b OR …`; false when `subpredicates` is empty.
    public convenience init(orPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .or, subpredicates: subpredicates)
    }

    /// `NOT predicate`.
    public convenience init(notPredicateWithSubpredicate predicate: NSPredicate) {
        self.init(type: .not, subpredicates: [predicate])
    }
}
