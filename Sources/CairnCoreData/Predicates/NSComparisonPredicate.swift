import Cairn
import Foundation

/// Core Data's `NSComparisonPredicate`: two ``NSExpression``s, an operator, an `ANY`/`ALL`
/// modifier and `[c]`/`[d]`/`[n]` options, built without a format string.
///
/// ```swift
/// let predicate = NSComparisonPredicate(
///     leftExpression: NSExpression(forKeyPath: "name"),
///     rightExpression: NSExpression(forConstantValue: "star"),
///     modifier: .direct, type: .beginsWith, options: [.caseInsensitive])
/// predicate.predicateFormat          // name BEGINSWITH[c] "star"
/// predicate.evaluate(with: ["name": "Starbucks"])   // true
/// request.predicate = predicate
/// // WHERE cairn_fold("Expense"."name", ?) GLOB ?   (1, "star*")
/// ```
///
/// It is the same comparison `NSPredicate(format:)` parses (Cairn's `FormatComparison`), so
/// it evaluates in memory, compiles to SQL in a fetch and nests in `NSCompoundPredicate`
/// exactly as the equivalent format predicate does, and it is equal to it.
///
/// swift-corelibs-foundation declares an `NSComparisonPredicate` whose initializer and
/// accessors are unavailable; this class, declared in a module that imports Foundation,
/// shadows it for code that imports `CairnCoreData` (as ``NSExpression`` does).
///
/// Foundation marks `NSPredicate` as not `Sendable`; this subclass holds ``NSExpression``s,
/// which are not `Sendable` either, and does not claim otherwise.
open class NSComparisonPredicate: NSPredicate {
    /// How the operator applies to a collection on the left: directly, to `ALL` elements, or
    /// to `ANY` element (Apple's raw values).
    public enum Modifier: UInt, Sendable {
        /// `amount > 5`.
        case direct = 0
        /// `ALL tags BEGINSWITH "b"`.
        case all = 1
        /// `ANY tags == "work"`.
        case any = 2
    }

    /// The comparison operators (Apple's raw values), with the meaning of the format
    /// language's operators of the same name: `nil` equals only `nil`, and an ordering or
    /// string test with `nil` on either side is false.
    ///
    /// ```swift
    /// NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: "amount"),
    ///                       rightExpression: NSExpression(forConstantValue: 50),
    ///                       modifier: .direct, type: .greaterThan, options: []).predicateFormat
    /// // amount > 50          in a fetch: WHERE "Expense"."amount" > ?   (50)
    /// ```
    public enum Operator: UInt, Sendable {
        /// `amount < 5`: numbers by value, strings literally, dates chronologically.
        case lessThan = 0
        /// `amount <= 5`.
        case lessThanOrEqualTo = 1
        /// `amount > 5`.
        case greaterThan = 2
        /// `amount >= 5`.
        case greaterThanOrEqualTo = 3
        /// `name == "Tea"`: `nil` equals only `nil`. SQL `IS`.
        case equalTo = 4
        /// `name != "Tea"`.
        case notEqualTo = 5
        /// `name MATCHES "[A-Z].*"`: the whole string matches an ICU regular expression.
        case matches = 6
        /// `name LIKE "Sta*"`: the whole string matches a pattern with `*` and `?` wildcards.
        case like = 7
        /// `name BEGINSWITH "Sta"`.
        case beginsWith = 8
        /// `name ENDSWITH "bucks"`.
        case endsWith = 9
        /// The right side (a collection) contains the left value.
        case `in` = 10
        /// A comparison by an Objective-C selector; Cairn has no selectors to call, so a
        /// predicate of this type is invalid (its `Foundation/NSPredicate/formatError` says so).
        case customSelector = 11
        /// The left side (a string or collection) contains the right value.
        case contains = 99
        /// The left value lies within the two-element array on the right (inclusive).
        case between = 100
    }

    /// String comparison options (Apple's raw values).
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// `[c]`.
        public static let caseInsensitive = Options(rawValue: 0x1)
        /// `[d]`.
        public static let diacriticInsensitive = Options(rawValue: 0x2)
        /// `[n]`: the strings are already normalized (no change in meaning).
        public static let normalized = Options(rawValue: 0x4)
    }

    /// The expression on the left of the operator.
    public let leftExpression: NSExpression
    /// The expression on the right of the operator.
    public let rightExpression: NSExpression
    /// `.direct`, `.any` or `.all`.
    public let comparisonPredicateModifier: Modifier
    /// The operator.
    public let predicateOperatorType: Operator
    /// `[c]`, `[d]`, `[n]`.
    public let options: Options

    /// Cairn's tree (`FALSEPREDICATE` when `Foundation/NSPredicate/formatError` is set).
    let tree: FormatPredicate
    /// Why the predicate cannot be used: an invalid expression or an unsupported operator.
    let error: FormatPredicateError?

    /// `NSComparisonPredicate(leftExpression:rightExpression:modifier:type:options:)`.
    ///
    /// ```swift
    /// NSComparisonPredicate(
    ///     leftExpression: NSExpression(forKeyPath: "amount"),
    ///     rightExpression: NSExpression(forConstantValue: 50),
    ///     modifier: .direct, type: .greaterThan)          // amount > 50
    /// // WHERE "Expense"."amount" > ?   (50)
    /// ```
    ///
    /// - Warning: Apple raises for an operator it cannot apply (`.customSelector` here);
    ///   this initializer cannot throw (its signature is Apple's), so the predicate records
    ///   the error in `Foundation/NSPredicate/formatError`, evaluates to `false`,
    ///   `checkedEvaluate(with:)` and fetches that use it throw the error.
    public init(
        leftExpression lhs: NSExpression, rightExpression rhs: NSExpression, modifier: Modifier, type: Operator,
        options: Options = []
    ) {
        leftExpression = lhs
        rightExpression = rhs
        comparisonPredicateModifier = modifier
        predicateOperatorType = type
        self.options = options
        do {
            tree = try Self.comparison(lhs, rhs, modifier: modifier, type: type, options: options)
            error = nil
        } catch {
            tree = .constant(false)
            self.error = error
        }
        // Foundation's designated initializers are `init(value:)` and `init(block:)`; the value
        // is never read, because every member that would read it is overridden below.
        super.init(value: false)
    }

    private static func comparison(
        _ lhs: NSExpression, _ rhs: NSExpression, modifier: Modifier, type: Operator, options: Options
    ) throws(FormatPredicateError) -> FormatPredicate {
        let operators: [Operator: FormatOperator] = [
            .lessThan: .lessThan, .lessThanOrEqualTo: .lessThanOrEqualTo, .greaterThan: .greaterThan,
            .greaterThanOrEqualTo: .greaterThanOrEqualTo, .equalTo: .equalTo, .notEqualTo: .notEqualTo,
            .matches: .matches, .like: .like, .beginsWith: .beginsWith, .endsWith: .endsWith, .in: .in,
            .contains: .contains, .between: .between,
        ]
        guard let op = operators[type] else {
            throw FormatPredicateError(
                .unsupported,
                "NSComparisonPredicate of type .customSelector (\(lhs) \(rhs)): Cairn cannot call Objective-C "
                    + "selectors; use one of the operators of NSComparisonPredicate.Operator")
        }
        let left = try lhs.argumentExpression()
        let right = try rhs.argumentExpression()
        let modifiers: [Modifier: FormatModifier] = [.direct: .direct, .any: .any, .all: .all]
        return .comparison(FormatComparison(
            left, op, right, modifier: modifiers[modifier] ?? .direct,
            options: FormatComparisonOptions(rawValue: Int(options.rawValue & 0x7))))
    }

    /// Evaluates the comparison; `false` when the predicate is invalid, a variable has no
    /// value or a value cannot take the operation.
    override open func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        guard error == nil else { return false }
        return (try? tree.evaluate(with: object, substitutionVariables: (bindings ?? [:]).mapValues { Optional($0) }))
            ?? false
    }

    /// The canonical format (`name BEGINSWITH[c] "star"`), as `NSPredicate(format:)` prints
    /// the same comparison.
    override open var predicateFormat: String { tree.predicateFormat }

    override open var description: String { predicateFormat }

    /// Equal to another comparison, or to an `NSPredicate(format:)`, of the same tree.
    override open func isEqual(_ object: Any?) -> Bool { isEqualTree(object) }

    /// A hash of the comparison's tree, so that predicates equal by `isEqual(_:)` (the same
    /// comparison built here or parsed from a format) hash alike.
    override open var hash: Int { tree.hashValue }

    /// Immutable, so a copy is the same object (as Foundation's own immutable classes do).
    override open func copy(with zone: NSZone? = nil) -> Any { self }
}

/// A predicate that carries Cairn's tree: `NSPredicate(format:)`'s and `NSComparisonPredicate`.
protocol FormatTreeCarrying {
    /// The tree (`FALSEPREDICATE` when ``carriedError`` is set).
    var carriedTree: FormatPredicate { get }
    /// Why the predicate cannot be used, if it cannot.
    var carriedError: FormatPredicateError? { get }
}

extension FormatTreeCarrying {
    /// Core Data's equality of predicates: the same tree, whatever built it (a format, a
    /// comparison, a compound, `NSPredicate(value:)`); malformed ones are equal when they
    /// failed the same way.
    func isEqualTree(_ object: Any?) -> Bool {
        if let other = object as? any FormatTreeCarrying {
            return other.carriedTree == carriedTree && other.carriedError == carriedError
        }
        return carriedError == nil && NSPredicate.hasTree(carriedTree, object)
    }
}

extension NSComparisonPredicate: FormatTreeCarrying {
    var carriedTree: FormatPredicate { tree }
    var carriedError: FormatPredicateError? { error }
}

extension FormatBackedPredicate: FormatTreeCarrying {
    var carriedTree: FormatPredicate { tree }
    var carriedError: FormatPredicateError? { error }
}
