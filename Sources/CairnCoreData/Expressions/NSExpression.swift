import Cairn
import Foundation

/// Core Data's `NSExpression`: a key path, a constant, or a function of other expressions, as
/// an ``NSExpressionDescription`` carries it into a dictionary fetch.
///
/// ```swift
/// let total = NSExpressionDescription()
/// total.name = "total"
/// total.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "amount")])
/// total.expressionResultType = .doubleAttributeType
/// // SELECT SUM("Expense"."amount") AS "total" FROM "Expense"
/// ```
///
/// swift-corelibs-foundation declares an `NSExpression` whose initializers are all marked
/// unavailable; this class, declared in a module that imports Foundation, shadows it for code
/// that imports `CairnCoreData`, so Core Data's spelling compiles as written. It keeps Cairn's
/// parsed form (``formatExpression``): the format language's key paths, constants, arithmetic
/// and functions.
///
/// Not `Sendable`, like Apple's: it is configured once and used where it was made.
open class NSExpression: CustomStringConvertible {
    /// What kind of expression this is (Apple's raw values).
    ///
    /// ```swift
    /// NSExpression(format: "amount * 2").expressionType   // .function ("multiply:by:")
    /// NSExpression(forKeyPath: "amount").expressionType  // .keyPath
    /// ```
    ///
    /// Cairn makes the kinds its format language has; ``unionSet``, ``intersectSet``,
    /// ``minusSet``, ``anyKey``, ``block`` and ``conditional`` are declared so that code that
    /// switches over Core Data's kinds compiles, and no Cairn expression has them.
    public enum ExpressionType: UInt, Sendable {
        /// A constant: `NSExpression(forConstantValue:)`, a literal, or a substituted argument.
        case constantValue = 0
        /// `SELF`: the object being evaluated.
        case evaluatedObject = 1
        /// `$name`: a substitution variable.
        case variable = 2
        /// A key path read from the evaluated object: `NSExpression(forKeyPath:)`.
        case keyPath = 3
        /// A function of other expressions: `sum:`, arithmetic (`add:to:`), and the index,
        /// negation, `CAST` and `FUNCTION` forms of the format language.
        case function = 4
        /// The union of two collections, in Core Data; never made by Cairn.
        case unionSet = 5
        /// The intersection of two collections, in Core Data; never made by Cairn.
        case intersectSet = 6
        /// The difference of two collections, in Core Data; never made by Cairn.
        case minusSet = 7
        /// `SUBQUERY(collection, $x, predicate)`.
        case subquery = 13
        /// `{a, b, c}`: a list with at least one expression that is not a constant.
        case aggregate = 14
        /// Any key of the evaluated object, in Core Data; never made by Cairn.
        case anyKey = 15
        /// A Swift closure, in Core Data; never made by Cairn.
        case block = 19
        /// `TERNARY(predicate, a, b)`, in Core Data; never made by Cairn.
        case conditional = 20
    }

    /// The kind of expression.
    public let expressionType: ExpressionType
    /// Cairn's tree for the expression.
    public let formatExpression: FormatExpression
    /// Why the expression cannot be used (an argument that is neither an `NSExpression` nor a
    /// value, an unknown function, a constant of an unsupported type); fetches that use it
    /// throw this.
    public let expressionError: FormatPredicateError?
    private let functionName: String?
    private let functionArguments: [NSExpression]?
    private let constant: Any?

    private init(
        type: ExpressionType, tree: FormatExpression, error: FormatPredicateError? = nil, function: String? = nil,
        arguments: [NSExpression]? = nil, constant: Any? = nil
    ) {
        expressionType = type
        formatExpression = tree
        expressionError = error
        functionName = function
        functionArguments = arguments
        self.constant = constant
    }

    /// `NSExpression(forKeyPath: "amount")`: the value of a (dotted) key path of each object.
    public convenience init(forKeyPath keyPath: String) {
        let path = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        self.init(type: .keyPath, tree: .keyPath(base: .evaluatedObject, path: path))
    }

    /// `NSExpression(forConstantValue: 2)`: a constant (a number, string, date, data, UUID,
    /// `nil`, or an array of those).
    public convenience init(forConstantValue obj: Any?) {
        if let value = FormatValue(converting: obj) {
            self.init(type: .constantValue, tree: .constant(value), constant: obj)
        } else {
            self.init(type: .constantValue, tree: .constant(.null),
                      error: FormatPredicateError(.unsupported, "NSExpression(forConstantValue:) cannot hold a \(type(of: obj as Any))"),
                      constant: obj)
        }
    }

    /// `NSExpression(forVariable: "LIMIT")`: `$LIMIT`.
    public convenience init(forVariable string: String) {
        self.init(type: .variable, tree: .variable(string))
    }

    /// `NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "amount")])`:
    /// a function by its selector name. In a fetch, `sum:`, `average:`, `min:`, `max:` and
    /// `count:` of one argument aggregate over the fetched rows (or each group); the other
    /// functions of the format language (`abs:`, `lowercase:`, `modulus:by:`, …) and the
    /// arithmetic selectors `add:to:`, `from:subtract:`, `multiply:by:`, `divide:by:` apply
    /// to each row. An argument that is not an `NSExpression` is taken as a constant.
    public convenience init(forFunction name: String, arguments parameters: [Any]) {
        let arguments = parameters.map { $0 as? NSExpression ?? NSExpression(forConstantValue: $0) }
        let trees = arguments.map(\.formatExpression)
        var error = arguments.lazy.compactMap(\.expressionError).first
        let tree: FormatExpression
        let arithmetic: [String: FormatArithmeticOperator] = [
            "add:to:": .add, "from:subtract:": .subtract, "multiply:by:": .multiply, "divide:by:": .divide,
            "raise:toPower:": .power,
        ]
        if let op = arithmetic[name], trees.count == 2 {
            tree = .arithmetic(op, trees[0], trees[1])
        } else if let function = FormatFunction(name: name), function.arity.contains(trees.count) {
            tree = .function(function, trees)
        } else {
            tree = .constant(.null)
            error = error ?? FormatPredicateError(
                .unsupported,
                "NSExpression has no function '\(name)' of \(trees.count) argument(s); known: "
                    + (FormatFunction.allCases.map(\.selectorName) + arithmetic.keys.sorted()).joined(separator: ", "))
        }
        self.init(type: .function, tree: tree, error: error, function: name, arguments: arguments)
    }

    /// `NSExpression(format: "amount * %d", 2)`: an expression of the format language, with
    /// arguments substituted as `NSPredicate(format:)` substitutes them (into the tree, never
    /// into the text).
    ///
    /// ```swift
    /// NSExpression(format: "sum(amount)")        // a function expression: sum:(amount)
    /// NSExpression(format: "amount * %d", 2)     // per row: "Expense"."amount" * ?
    /// ```
    ///
    /// - Warning: Apple's initializer raises for a malformed format; this one records the
    ///   error in ``expressionError`` (with the offset and a caret), and fetches that use the
    ///   expression throw it.
    public convenience init(format expressionFormat: String, _ args: Any?...) {
        self.init(parsing: expressionFormat, args)
    }

    /// `NSExpression(format: "amount > %@", argumentArray: [50])`.
    public convenience init(format expressionFormat: String, argumentArray arguments: [Any]) {
        self.init(parsing: expressionFormat, arguments.map { Optional($0) })
    }

    private convenience init(parsing format: String, _ arguments: [Any?]) {
        do {
            self.init(formatExpression: try FormatPredicateParser.parseExpression(format, arguments: arguments))
        } catch {
            self.init(type: .constantValue, tree: .constant(.null), error: error)
        }
    }

    /// An expression over a tree of Cairn's format language, with Core Data's kind, function
    /// name and arguments (arithmetic as `add:to:`, `from:subtract:`, `multiply:by:`,
    /// `divide:by:`, `raise:toPower:`).
    public convenience init(formatExpression tree: FormatExpression) {
        switch tree {
        case .constant(let value):
            self.init(type: .constantValue, tree: tree, constant: value.swiftValue)
        case .evaluatedObject:
            self.init(type: .evaluatedObject, tree: tree)
        case .variable:
            self.init(type: .variable, tree: tree)
        case .keyPath:
            self.init(type: .keyPath, tree: tree)
        case .function(let function, let arguments):
            self.init(type: .function, tree: tree, function: function.selectorName,
                      arguments: arguments.map(NSExpression.init(formatExpression:)))
        case .arithmetic(let op, let lhs, let rhs):
            let names: [FormatArithmeticOperator: String] = [
                .add: "add:to:", .subtract: "from:subtract:", .multiply: "multiply:by:", .divide: "divide:by:",
                .power: "raise:toPower:",
            ]
            self.init(type: .function, tree: tree, function: names[op],
                      arguments: [NSExpression(formatExpression: lhs), NSExpression(formatExpression: rhs)])
        case .subquery:
            self.init(type: .subquery, tree: tree)
        case .aggregate:
            self.init(type: .aggregate, tree: tree)
        case .index, .negate, .customFunction, .cast:
            self.init(type: .function, tree: tree)
        }
    }

    /// `SELF`.
    public class func expressionForEvaluatedObject() -> NSExpression {
        NSExpression(type: .evaluatedObject, tree: .evaluatedObject)
    }

    /// The key path of a key-path expression ("" otherwise).
    public var keyPath: String {
        if case .keyPath(_, let path) = formatExpression { return path.joined(separator: ".") }
        return ""
    }

    /// The selector name of a function expression ("" otherwise).
    public var function: String { functionName ?? "" }

    /// The arguments of a function expression.
    public var arguments: [NSExpression]? { functionArguments }

    /// The value of a constant expression.
    public var constantValue: Any? { constant }

    /// The name of a variable expression ("" otherwise).
    public var variable: String {
        if case .variable(let name) = formatExpression { return name }
        return ""
    }

    /// Evaluates the expression on an object (a `@Model`, a `[String: Any]`); `nil` when it
    /// cannot be evaluated.
    ///
    /// ```swift
    /// NSExpression(forKeyPath: "amount").expressionValue(with: ["amount": 4.5], context: nil)   // 4.5
    /// ```
    public func expressionValue(with object: Any?, context: NSMutableDictionary?) -> Any? {
        guard expressionError == nil else { return nil }
        return (try? formatExpression.value(with: object)) ?? nil
    }

    /// The expression in the format language (`amount`, `sum:(amount)`).
    public var description: String {
        if let functionName, let functionArguments, case .function = formatExpression {
            return functionName + "(" + functionArguments.map(\.description).joined(separator: ", ") + ")"
        }
        return formatExpression.description
    }
}

extension NSExpression: FormatExpressionConvertible {
    /// The expression `%@` stands for in `NSPredicate(format:)`: `NSPredicate(format: "%@ > 1",
    /// NSExpression(forVariable: "count"))` is `$count > 1`.
    public func argumentExpression() throws(FormatPredicateError) -> FormatExpression {
        if let expressionError { throw expressionError }
        return formatExpression
    }
}

extension FormatValue {
    /// The Swift value of a constant (`nil` for `NULL`).
    fileprivate var swiftValue: Any? {
        switch self {
        case .null: nil
        case .bool(let value): value
        case .int(let value): Int(exactly: value) ?? value
        case .double(let value): value
        case .string(let value): value
        case .date(let value): value
        case .data(let value): value
        case .uuid(let value): value
        case .array(let values): values.map(\.swiftValue)
        case .identifier(let value): value
        case .opaque(let value): value.base
        }
    }
}
