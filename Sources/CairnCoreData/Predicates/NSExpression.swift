import Cairn
import Foundation

/// Core Data's `NSExpression`: one side of a comparison (a key path, a constant, a function…),
/// over Cairn's ``FormatExpression``.
///
/// ```swift
/// let total = NSExpression(format: "items.@sum.price")
/// total.expressionValue(with: order, context: nil)      // 42.5
/// NSExpression(forKeyPath: "amount").keyPath             // "amount"
/// ```
///
/// Safe to share: its only stored properties are immutable `Sendable` values.
public final class NSExpression: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of expression (Apple's raw values).
    public enum ExpressionType: UInt, Sendable {
        case constantValue = 0
        case evaluatedObject = 1
        case variable = 2
        case keyPath = 3
        case function = 4
        case aggregate = 14
        case subquery = 13
    }

    /// The parsed expression (a nil constant when the format was malformed).
    public let formatExpression: FormatExpression
    /// Why the format or value could not be used, if it could not.
    public let formatError: FormatPredicateError?

    /// Wraps a Cairn expression.
    public init(formatExpression: FormatExpression, formatError: FormatPredicateError? = nil) {
        self.formatExpression = formatError == nil ? formatExpression : .constant(.null)
        self.formatError = formatError
    }

    /// `NSExpression(format: "amount * 2")`.
    public convenience init(format expressionFormat: String, _ args: Any?...) {
        self.init(format: expressionFormat, argumentArray: args.map { $0 as Any })
    }

    /// `NSExpression(format: "%K", argumentArray: ["amount"])`.
    public convenience init(format expressionFormat: String, argumentArray arguments: [Any]) {
        do {
            self.init(formatExpression: try FormatPredicateParser.parseExpression(
                expressionFormat, arguments: arguments.map { Optional($0) }))
        } catch {
            self.init(formatExpression: .constant(.null), formatError: error)
        }
    }

    /// A key path read from the evaluated object.
    public convenience init(forKeyPath keyPath: String) {
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        self.init(formatExpression: .keyPath(base: .evaluatedObject, path: components))
    }

    /// A constant (any value `%@` accepts).
    public convenience init(forConstantValue object: Any?) {
        if let value = FormatValue(converting: object) {
            self.init(formatExpression: .constant(value))
        } else {
            self.init(
                formatExpression: .constant(.null),
                formatError: FormatPredicateError(.argument, "a value of type \(type(of: object as Any)) cannot be used in an expression"))
        }
    }

    /// `$name`.
    public convenience init(forVariable string: String) {
        self.init(formatExpression: .variable(string))
    }

    /// `SELF`.
    public static func expressionForEvaluatedObject() -> NSExpression {
        NSExpression(formatExpression: .evaluatedObject)
    }

    /// A built-in function by Core Data's selector name: `NSExpression(forFunction: "sum:",
    /// arguments: [NSExpression(forKeyPath: "amount")])`.
    public convenience init(forFunction name: String, arguments parameters: [Any]) {
        let arguments = parameters.compactMap { ($0 as? NSExpression)?.formatExpression }
        guard let function = FormatFunction(name: name), arguments.count == parameters.count,
            function.arity.contains(arguments.count)
        else {
            self.init(
                formatExpression: .constant(.null),
                formatError: FormatPredicateError(.unsupported, "unknown function '\(name)' or wrong arguments"))
            return
        }
        self.init(formatExpression: .function(function, arguments))
    }

    /// The kind of expression.
    public var expressionType: ExpressionType {
        switch formatExpression {
        case .constant: .constantValue
        case .evaluatedObject: .evaluatedObject
        case .variable: .variable
        case .keyPath(.evaluatedObject, _): .keyPath
        case .aggregate: .aggregate
        case .subquery: .subquery
        default: .function
        }
    }

    /// The dotted key path of a key-path expression.
    public var keyPath: String {
        if case .keyPath(.evaluatedObject, let path) = formatExpression { return path.joined(separator: ".") }
        return ""
    }

    /// The value of a constant expression.
    public var constantValue: Any? {
        if case .constant = formatExpression { return try? formatExpression.value(with: nil) }
        return nil
    }

    /// The variable's name of a variable expression.
    public var variable: String {
        if case .variable(let name) = formatExpression { return name }
        return ""
    }

    /// The value for `object`; nil if the expression is invalid or cannot be evaluated.
    public func expressionValue(with object: Any?, context: [String: Any]?) -> Any? {
        guard formatError == nil else { return nil }
        return try? formatExpression.value(with: object)
    }

    public var description: String { formatExpression.predicateFormat }

    public static func == (lhs: NSExpression, rhs: NSExpression) -> Bool {
        lhs.formatExpression == rhs.formatExpression && lhs.formatError == rhs.formatError
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(formatExpression) }
}
