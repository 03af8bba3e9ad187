import Cairn
import Foundation

/// Core Data's `NSComparisonPredicate`: two expressions, an operator, a modifier and options.
///
/// ```swift
/// let predicate = NSComparisonPredicate(
///     leftExpression: NSExpression(forKeyPath: "name"),
///     rightExpression: NSExpression(forConstantValue: "star"),
///     modifier: .direct, type: .beginsWith, options: [.caseInsensitive])
/// predicate.predicateFormat   // name BEGINSWITH[c] "star"
/// ```
open class NSComparisonPredicate: NSPredicate, @unchecked Sendable {
    /// `ANY`, `ALL` or none (Apple's raw values).
    public enum Modifier: UInt, Sendable {
        case direct = 0
        case all = 1
        case any = 2
    }

    /// The comparison operators (Apple's raw values).
    public enum Operator: UInt, Sendable {
        case lessThan = 0
        case lessThanOrEqualTo = 1
        case greaterThan = 2
        case greaterThanOrEqualTo = 3
        case equalTo = 4
        case notEqualTo = 5
        case matches = 6
        case like = 7
        case beginsWith = 8
        case endsWith = 9
        case `in` = 10
        case customSelector = 11
        case contains = 99
        case between = 100
    }

    /// `[c]`, `[d]`, `[n]`.
    public struct Options: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let caseInsensitive = Options(rawValue: 1)
        public static let diacriticInsensitive = Options(rawValue: 2)
        public static let normalized = Options(rawValue: 4)
    }

    /// The left side.
    public let leftExpression: NSExpression
    /// The right side.
    public let rightExpression: NSExpression
    /// `ANY`, `ALL` or direct.
    public let comparisonPredicateModifier: Modifier
    /// The operator.
    public let predicateOperatorType: Operator
    /// The string options.
    public let options: Options

    public init(
        leftExpression lhs: NSExpression, rightExpression rhs: NSExpression, modifier: Modifier,
        type: Operator, options: Options = []
    ) {
        leftExpression = lhs
        rightExpression = rhs
        comparisonPredicateModifier = modifier
        predicateOperatorType = type
        self.options = options
        let error = lhs.formatError ?? rhs.formatError
            ?? (type == .customSelector
                ? FormatPredicateError(.unsupported, "custom selector comparisons are not supported") : nil)
        let comparison = FormatComparison(
            lhs.formatExpression, Self.formatOperator(type), rhs.formatExpression,
            modifier: modifier == .direct ? .direct : modifier == .all ? .all : .any,
            options: FormatComparisonOptions(rawValue: Int(options.rawValue & 7)))
        super.init(formatPredicate: .comparison(comparison), formatError: error)
    }

    /// Rebuilds from a tree whose root is a comparison (used by `withSubstitutionVariables(_:)`).
    public required init(formatPredicate: FormatPredicate, formatError: FormatPredicateError? = nil) {
        if case .comparison(let comparison) = formatPredicate {
            leftExpression = NSExpression(formatExpression: comparison.lhs)
            rightExpression = NSExpression(formatExpression: comparison.rhs)
            comparisonPredicateModifier =
                switch comparison.modifier {
                case .direct: .direct
                case .all: .all
                case .any: .any
                }
            predicateOperatorType = Self.operatorType(comparison.operatorType)
            options = Options(rawValue: UInt(comparison.options.rawValue))
        } else {
            leftExpression = NSExpression(formatExpression: .constant(.null))
            rightExpression = NSExpression(formatExpression: .constant(.null))
            comparisonPredicateModifier = .direct
            predicateOperatorType = .equalTo
            options = []
        }
        super.init(formatPredicate: formatPredicate, formatError: formatError)
    }

    static func formatOperator(_ type: Operator) -> FormatOperator {
        switch type {
        case .lessThan: .lessThan
        case .lessThanOrEqualTo: .lessThanOrEqualTo
        case .greaterThan: .greaterThan
        case .greaterThanOrEqualTo: .greaterThanOrEqualTo
        case .equalTo, .customSelector: .equalTo
        case .notEqualTo: .notEqualTo
        case .matches: .matches
        case .like: .like
        case .beginsWith: .beginsWith
        case .endsWith: .endsWith
        case .in: .in
        case .contains: .contains
        case .between: .between
        }
    }

    static func operatorType(_ op: FormatOperator) -> Operator {
        switch op {
        case .lessThan: .lessThan
        case .lessThanOrEqualTo: .lessThanOrEqualTo
        case .greaterThan: .greaterThan
        case .greaterThanOrEqualTo: .greaterThanOrEqualTo
        case .equalTo: .equalTo
        case .notEqualTo: .notEqualTo
        case .matches: .matches
        case .like: .like
        case .beginsWith: .beginsWith
        case .endsWith: .endsWith
        case .in: .in
        case .contains: .contains
        case .between: .between
        }
    }
}
