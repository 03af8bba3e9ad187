import Foundation

/// An expression of the format language: the left or right side of a comparison.
///
/// ```swift
/// let predicate = try FormatPredicate("employees.@avg.salary > 2 * %d", arguments: [500])
/// // lhs: .keyPath(.evaluatedObject, ["employees", "@avg", "salary"])
/// // rhs: .arithmetic(.multiply, .constant(.int(2)), .constant(.int(500)))
/// ```
public indirect enum FormatExpression: Sendable, Hashable {
    /// A literal or a substituted argument (`%@`, `%d`, `$VAR` after substitution).
    case constant(FormatValue)
    /// `SELF`: the object being evaluated.
    case evaluatedObject
    /// `$name`: a substitution variable or a `SUBQUERY` iteration variable.
    case variable(String)
    /// `a.b.@count`: a dotted key path read from `base` (``evaluatedObject`` for a plain path).
    /// Components may be collection operators (`@count`, `@sum`, `@avg`, `@min`, `@max`,
    /// `@distinctUnionOfObjects`, `@unionOfObjects`).
    case keyPath(base: FormatExpression, path: [String])
    /// `array[2]`, `array[FIRST]`, `array[LAST]`, `array[SIZE]`, `dictionary["key"]`.
    case index(FormatExpression, FormatIndex)
    /// `{a, b, c}` with at least one non-constant element (a list of constants parses to
    /// `.constant(.array(…))`, as an array passed for `%@` does).
    case aggregate([FormatExpression])
    /// `a + b`, `a - b`, `a * b`, `a / b`, `a ** b`.
    case arithmetic(FormatArithmeticOperator, FormatExpression, FormatExpression)
    /// `-a`.
    case negate(FormatExpression)
    /// A built-in function: `now()`, `lowercase(name)`, `abs(x)`, `sum({…})`, … (see
    /// ``FormatFunction``).
    case function(FormatFunction, [FormatExpression])
    /// `FUNCTION(receiver, "selector:", arguments…)`: a method call by selector name.
    case customFunction(receiver: FormatExpression, selector: String, arguments: [FormatExpression])
    /// `CAST(value, "NSDate")`, `CAST(value, "NSNumber")`, `CAST(value, "NSString")`.
    case cast(FormatExpression, type: String)
    /// `SUBQUERY(collection, $x, predicate)`: the elements of `collection` for which
    /// `predicate` holds with `$x` bound to the element.
    case subquery(collection: FormatExpression, variable: String, predicate: FormatPredicate)
}

/// What goes between the brackets of an index expression.
public indirect enum FormatIndex: Sendable, Hashable {
    /// `[FIRST]`
    case first
    /// `[LAST]`
    case last
    /// `[SIZE]`: the number of elements.
    case size
    /// `[2]` or `["key"]` or any expression.
    case expression(FormatExpression)
}

/// The arithmetic operators, from lowest to highest precedence.
public enum FormatArithmeticOperator: String, Sendable, Hashable, CaseIterable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case power = "**"

    var precedence: Int {
        switch self {
        case .add, .subtract: 1
        case .multiply, .divide: 2
        case .power: 3
        }
    }
}

/// The built-in functions callable as `name(arguments)` (NSExpression's function names).
public enum FormatFunction: String, Sendable, Hashable, CaseIterable {
    // Aggregates over their (collection) arguments.
    case sum, count, min, max, average, median, mode, stddev
    // Arithmetic.
    case sqrt, log, ln, exp, floor, ceiling, abs, trunc, modulus
    // Others.
    case random, randomn, now, lowercase, uppercase

    /// Core Data's `NSExpression` selector spelling (`sum:`, `now`, `modulus:by:`).
    public var selectorName: String {
        switch self {
        case .random, .now: rawValue
        case .modulus: "modulus:by:"
        default: rawValue + ":"
        }
    }

    /// The function a name or selector names, case-insensitively (`"SUM"`, `"sum:"`).
    public init?(name: String) {
        var lowered = name.lowercased()
        if lowered == "modulus:by:" { lowered = "modulus" }
        if lowered.hasSuffix(":") { lowered.removeLast() }
        guard let function = FormatFunction(rawValue: lowered) else { return nil }
        self = function
    }

    /// The number of arguments allowed.
    public var arity: ClosedRange<Int> {
        switch self {
        case .now, .random: 0...0
        case .randomn, .sqrt, .log, .ln, .exp, .floor, .ceiling, .abs, .trunc, .lowercase,
             .uppercase:
            1...1
        case .modulus: 2...2
        case .sum, .count, .min, .max, .average, .median, .mode, .stddev: 1...Int.max
        }
    }
}
