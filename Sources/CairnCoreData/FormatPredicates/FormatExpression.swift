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
///
/// Integers stay integers while they fit; `/` and `**` always give a `Double`; `nil` on either
/// side gives `nil`. In SQL they are SQLite's `+ - * /` (`/` on a `REAL`) and `pow()`.
///
/// ```swift
/// let doubled = try FormatPredicateParser.parseExpression("amount * 2")
/// // .arithmetic(.multiply, .keyPath(base: .evaluatedObject, path: ["amount"]), .constant(.int(2)))
/// ```
public enum FormatArithmeticOperator: String, Sendable, Hashable, CaseIterable {
    /// `a + b`: the sum, or a date moved forward by a number of seconds.
    case add = "+"
    /// `a - b`: the difference, or a date moved back by a number of seconds.
    case subtract = "-"
    /// `a * b`: the product.
    case multiply = "*"
    /// `a / b`: the quotient as a `Double`; division by zero gives `nil`, as SQL's `NULL`.
    case divide = "/"
    /// `a ** b`: `a` raised to the power `b`, as a `Double`.
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
///
/// The aggregates take any number of arguments and range over the elements of each collection
/// among them, skipping `nil`; the others take a fixed number of arguments (``arity``) and
/// give `nil` for a `nil` argument.
///
/// ```swift
/// let total = try FormatPredicate("sum(items.price) > 100 AND lowercase(name) == 'ada'")
/// // sum(items.price): .function(.sum, [.keyPath(base: .evaluatedObject, path: ["items", "price"])])
/// ```
public enum FormatFunction: String, Sendable, Hashable, CaseIterable {
    /// `sum(…)`: the total of the numbers; `0` for none.
    case sum
    /// `count(…)`: the number of non-`nil` elements.
    case count
    /// `min(…)`: the smallest element (numbers, strings or dates, one kind at a time); `nil`
    /// for none.
    case min
    /// `max(…)`: the largest element (numbers, strings or dates, one kind at a time); `nil`
    /// for none.
    case max
    /// `average(…)`: the arithmetic mean, as a `Double`; `nil` for none.
    case average
    /// `median(…)`: the middle value, or the mean of the two middle values; `nil` for none.
    /// Evaluated in memory only: a SQL fetch that needs it throws.
    case median
    /// `mode(…)`: the most frequent value (the smallest on a tie); `nil` for none. Evaluated
    /// in memory only.
    case mode
    /// `stddev(…)`: the population standard deviation; `nil` for none. Evaluated in memory
    /// only.
    case stddev
    /// `sqrt(x)`: the square root.
    case sqrt
    /// `log(x)`: the base-10 logarithm.
    case log
    /// `ln(x)`: the natural logarithm.
    case ln
    /// `exp(x)`: *e* raised to the power `x`.
    case exp
    /// `floor(x)`: the largest whole number not above `x` (an integer stays as it is).
    case floor
    /// `ceiling(x)`: the smallest whole number not below `x` (an integer stays as it is).
    case ceiling
    /// `abs(x)`: the absolute value.
    case abs
    /// `trunc(x)`: `x` rounded toward zero.
    case trunc
    /// `modulus(a, b)` (selector `modulus:by:`): the remainder of `a` divided by `b`; an
    /// integer modulus by zero throws.
    case modulus
    /// `random()`: a `Double` in `0..<1`. Evaluated in memory only.
    case random
    /// `randomn(n)`: an integer in `0..<n`; `n` must be a positive integer. Evaluated in
    /// memory only.
    case randomn
    /// `now()`: the current date.
    case now
    /// `lowercase(s)`: the string in lowercase.
    case lowercase
    /// `uppercase(s)`: the string in uppercase.
    case uppercase

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
