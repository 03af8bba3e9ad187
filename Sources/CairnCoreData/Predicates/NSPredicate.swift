import Cairn
import Foundation

/// Core Data's `NSPredicate`: a format predicate parsed by Cairn (Foundation on Linux does not
/// parse format strings). Declared here so it shadows Foundation's class for code that
/// imports both.
///
/// ```swift
/// let predicate = NSPredicate(format: "name CONTAINS[cd] %@ AND amount > %f", "bucks", 50.0)
/// predicate.evaluate(with: ["name": "Starbucks", "amount": 72.0])   // true
/// try predicate.formatPredicate.sqlCondition(for: expenseEntity).render().sql
/// // cairn_fold("Expense"."name", ?) GLOB ? AND "Expense"."amount" > ?   (3, "*bucks*", 50.0)
/// ```
///
/// Arguments are substituted into the parsed tree, never into the text, so `"Trader Joe's"`
/// or `"'; TRUEPREDICATE; --"` passed for `%@` stays one string.
///
/// - Warning: Apple's initializer raises an exception for a malformed format; this one cannot
///   throw (its signature is Apple's), so it records the ``formatError``, evaluates to `false`,
///   and fetches that use it throw the error. Use ``init(validatingFormat:_:)`` to get the
///   error where the predicate is made.
///
/// Safe to share across concurrency domains: every stored property is an immutable `let` of a
/// `Sendable` type, and subclasses add only such properties.
open class NSPredicate: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// The parsed tree (`FALSEPREDICATE` when the format was malformed).
    public let formatPredicate: FormatPredicate
    /// Why the format could not be parsed or substituted, if it could not.
    public let formatError: FormatPredicateError?
    /// The format as written, shown by `predicateFormat` when it did not parse.
    private let sourceFormat: String?

    /// Builds a predicate from a tree (Cairn's initializer; every other one ends here).
    public required init(formatPredicate: FormatPredicate, formatError: FormatPredicateError? = nil) {
        self.formatPredicate = formatError == nil ? formatPredicate : .constant(false)
        self.formatError = formatError
        self.sourceFormat = formatError?.format
    }

    /// `NSPredicate(format: "amount > %f", 50.0)`: parses the format, substituting the
    /// arguments in order (`%@`, `%K`, `%d`, `%f`, `%s`, … and positional `%1$@`).
    public convenience init(format predicateFormat: String, _ args: Any?...) {
        self.init(format: predicateFormat, optionalArguments: args)
    }

    /// `NSPredicate(format: "name IN %@", argumentArray: [names])`.
    public convenience init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        self.init(format: predicateFormat, optionalArguments: (arguments ?? []).map { Optional($0) })
    }

    convenience init(format predicateFormat: String, optionalArguments arguments: [Any?]) {
        do {
            self.init(formatPredicate: try FormatPredicateParser.parse(predicateFormat, arguments: arguments))
        } catch {
            self.init(formatPredicate: .constant(false), formatError: error)
        }
    }

    /// Parses the format and throws a ``FormatPredicateError`` (with the offset and a caret)
    /// if it is malformed or an argument is missing or unusable.
    ///
    /// ```swift
    /// let predicate = try NSPredicate(validatingFormat: "name == %@", searchText)
    /// ```
    public convenience init(validatingFormat predicateFormat: String, _ args: Any?...) throws(FormatPredicateError) {
        self.init(formatPredicate: try FormatPredicateParser.parse(predicateFormat, arguments: args))
    }

    /// `NSPredicate(value: true)`: `TRUEPREDICATE` or `FALSEPREDICATE`.
    public convenience init(value: Bool) {
        self.init(formatPredicate: .constant(value))
    }

    /// The canonical format, which parses back to an equal predicate:
    /// `name CONTAINS[cd] "bucks" AND amount > 50.0`.
    open var predicateFormat: String {
        if formatError != nil, let sourceFormat { return sourceFormat }
        return formatPredicate.predicateFormat
    }

    public var description: String { predicateFormat }

    /// Whether `object` (a `[String: Any]`, a `@Model`, any ``KeyValueReadable`` or a plain
    /// value for `SELF`) satisfies the predicate; `false` if the predicate is invalid or cannot
    /// be evaluated (see ``checkedEvaluate(with:substitutionVariables:)`` for the error).
    open func evaluate(with object: Any?) -> Bool {
        (try? checkedEvaluate(with: object)) ?? false
    }

    /// Evaluates a template with values for its `$VARIABLES`.
    open func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        (try? checkedEvaluate(with: object, substitutionVariables: bindings ?? [:])) ?? false
    }

    /// Evaluates, throwing instead of answering `false` when the predicate is invalid, a
    /// variable has no value, or a value cannot take an operation.
    public func checkedEvaluate(with object: Any?, substitutionVariables bindings: [String: Any] = [:])
        throws(FormatPredicateError) -> Bool
    {
        if let formatError { throw formatError }
        return try formatPredicate.evaluate(
            with: object, substitutionVariables: bindings.mapValues { Optional($0) })
    }

    /// A copy with every `$VARIABLE` replaced by its value (use `NSNull()` for nil).
    ///
    /// ```swift
    /// let template = NSPredicate(format: "amount > $LIMIT")
    /// template.withSubstitutionVariables(["LIMIT": 50])   // amount > 50
    /// ```
    ///
    /// A variable missing from `variables` makes the copy invalid: its ``formatError`` names
    /// the variable and it evaluates to `false`.
    public func withSubstitutionVariables(_ variables: [String: Any]) -> Self {
        if formatError != nil { return Self(formatPredicate: formatPredicate, formatError: formatError) }
        do {
            let substituted = try formatPredicate.substituting(variables.mapValues { Optional($0) })
            return Self(formatPredicate: substituted)
        } catch {
            return Self(formatPredicate: .constant(false), formatError: error)
        }
    }

    public static func == (lhs: NSPredicate, rhs: NSPredicate) -> Bool {
        lhs.formatPredicate == rhs.formatPredicate && lhs.formatError == rhs.formatError
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(formatPredicate)
    }
}
