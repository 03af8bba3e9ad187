import Cairn
import Foundation

/// The vehicle for the format initializers of `NSPredicate` and the key initializers of
/// `NSSortDescriptor`: an initializer declared in a protocol extension may assign `self`, so
/// `NSPredicate(format:)` can return the subclass that carries the parsed tree (as Apple's
/// does). Only `NSPredicate` and `NSSortDescriptor` adopt it; it has no requirements.
public protocol CoreDataFactoryInitializable {}

extension CoreDataFactoryInitializable {
    /// `made` as `Self`. The initializers are declared for `Self: NSPredicate` (or
    /// `NSSortDescriptor`) so that convenience initializers of your own can delegate to them
    /// (see below); `Self` is then the class itself, which the subclass they make is one of.
    /// `NSComparisonPredicate` and `NSCompoundPredicate` have members of their own that catch
    /// those calls at compile time. Called on a subclass of your own, the initializers stop: no
    /// object of that class can carry a parsed format or a key, Swift cannot make an object of
    /// a class it does not know (`NSPredicate` has no `required` initializer), and handing back
    /// an object of another class would break memory safety (Apple's return an object of
    /// another class there).
    static func adopting(_ made: AnyObject, madeBy label: String) -> Self {
        guard let made = made as? Self else {
            preconditionFailure(
                "\(Self.self)(\(label):…) cannot make a \(Self.self): it makes a \(type(of: made)); call it on the class it makes")
        }
        return made
    }
}

extension NSPredicate: CoreDataFactoryInitializable {}

// Foundation on Linux declares `init(format:…)` and `withSubstitutionVariables(_:)` but marks
// them unavailable; Swift prefers an available declaration, so these are the ones called.
//
// The constraint is `Self: NSPredicate`, not `Self == NSPredicate`: in a convenience
// initializer of an `NSPredicate` extension (`convenience init(attribute: String, value: Any)
// { self.init(format: "%K == %@", argumentArray: [attribute, value]) }`), `self.init` is called
// on the dynamic `Self`, which may be a subclass, so an initializer constrained to exactly
// `NSPredicate` does not apply there and Swift would pick Foundation's unavailable one.
extension CoreDataFactoryInitializable where Self: NSPredicate {
    /// `NSPredicate(format: "amount > %f", 50.0)`: parses the format, substituting the
    /// arguments in order (`%@`, `%K`, `%d`, `%f`, `%s`, … and positional `%1$@`).
    ///
    /// ```swift
    /// let predicate = NSPredicate(format: "name CONTAINS[cd] %@ AND amount > %f", "bucks", 50.0)
    /// predicate.evaluate(with: ["name": "Starbucks", "amount": 72.0])   // true
    /// try predicate.formatPredicate.sqlCondition(for: expenseEntity).render().sql
    /// // cairn_fold("Expense"."name", ?) GLOB ? AND "Expense"."amount" > ?   (3, "*bucks*", 50.0)
    /// ```
    ///
    /// Arguments are substituted into the parsed tree, never into the text, so
    /// `"Trader Joe's"` or `"'; TRUEPREDICATE; --"` passed for `%@` stays one string.
    ///
    /// - Warning: Apple's initializer raises an exception for a malformed format; this one
    ///   cannot throw (its signature is Apple's), so it records the error in
    ///   `Foundation/NSPredicate/formatError`, evaluates to `false`, and fetches that use it
    ///   throw the error. Use ``init(validatingFormat:_:)`` to get the error where the
    ///   predicate is made.
    /// - Warning: The predicate is an `NSPredicate`. `NSComparisonPredicate(format:)` and
    ///   `NSCompoundPredicate(format:)` do not compile (see ``NSComparisonPredicate/init(format:_:)``);
    ///   called on a subclass of `NSPredicate` of your own, it stops the program, since no
    ///   object of that class can carry a parsed format and Swift cannot make one of a class it
    ///   does not know. Apple's returns an object of another class there.
    public init(format predicateFormat: String, _ args: Any?...) {
        self = Self.adoptingPredicate(Self.parsing(predicateFormat, args), madeBy: "format")
    }

    /// `NSPredicate(format: "name IN %@", argumentArray: [names])`.
    ///
    /// The initializer a convenience initializer of your own delegates to:
    ///
    /// ```swift
    /// extension NSPredicate {
    ///     convenience init(attribute: String, value: Any) {
    ///         self.init(format: "%K == %@", argumentArray: [attribute, value])
    ///     }
    /// }
    /// NSPredicate(attribute: "name", value: "Coffee")      // name == "Coffee"
    /// ```
    public init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        self = Self.adoptingPredicate(Self.parsing(predicateFormat, (arguments ?? []).map { Optional($0) }), madeBy: "format")
    }

    /// Parses the format and throws a `FormatPredicateError` (with the offset and a caret)
    /// if it is malformed, an argument is missing or unusable, or an operand can only fail
    /// when the predicate is used: `BETWEEN` with a constant that is not two bounds, a
    /// `FUNCTION(receiver, "selector")` call, a constant `MATCHES` pattern that does not compile.
    ///
    /// ```swift
    /// let predicate = try NSPredicate(validatingFormat: "name == %@", searchText)
    /// try NSPredicate(validatingFormat: "name MATCHES %@", "[unclosed")
    /// // MATCHES pattern "[unclosed" is not a valid regular expression: '[' at offset 0 opens
    /// // a character class that is never closed with ']'; … at offset 13
    /// //     name MATCHES %@
    /// //                  ^
    /// ```
    public init(validatingFormat predicateFormat: String, _ args: Any?...) throws(FormatPredicateError) {
        let predicate = FormatBackedPredicate(tree: try FormatPredicateParser.parse(predicateFormat, arguments: args, validating: true))
        guard let predicate = predicate as? Self else {
            throw FormatPredicateError(
                .unsupported, "\(Self.self)(validatingFormat:) makes an NSPredicate, not a \(Self.self); call NSPredicate(validatingFormat:)")
        }
        self = predicate
    }

    /// A predicate over a tree built by Cairn (`FormatPredicate`).
    ///
    /// ```swift
    /// NSPredicate(formatPredicate: try FormatPredicate("amount > 5"))
    /// ```
    public init(formatPredicate: FormatPredicate) {
        self = Self.adopting(FormatBackedPredicate(tree: formatPredicate), madeBy: "formatPredicate")
    }

    /// ``CoreDataFactoryInitializable/adopting(_:madeBy:)`` for a predicate made for `Self`.
    /// Called on `NSPredicate` itself (nearly every call), every `NSPredicate` is a `Self`: the
    /// conditional cast there cost about 900 instructions a predicate (Core Data W5).
    private static func adoptingPredicate(_ made: NSPredicate, madeBy label: String) -> Self {
        if Self.self == NSPredicate.self { return unsafeDowncast(made, to: Self.self) }
        return adopting(made, madeBy: label)
    }

    private static func parsing(_ format: String, _ arguments: [Any?]) -> NSPredicate {
        do {
            return FormatBackedPredicate(tree: try FormatPredicateParser.parse(format, arguments: arguments))
        } catch {
            return FormatBackedPredicate(tree: .constant(false), error: error)
        }
    }
}

// Called on `NSComparisonPredicate` or `NSCompoundPredicate`, the format initializers above would
// have to return an object of that class carrying a parsed format, which none can. Members of
// the classes themselves rank above the protocol extension's, so these catch the call: it needs
// `try` (a compile-time error as written) and the deprecation message says what to write. An
// unavailable declaration would not do: Swift ranks it below the available one above.

extension NSComparisonPredicate {
    /// `NSComparisonPredicate(format:)` cannot make an `NSComparisonPredicate`: write
    /// `NSPredicate(format:)`, which makes the same comparison. Throws, so that the call does
    /// not compile as written.
    @available(*, deprecated, message: "makes an NSPredicate, not an NSComparisonPredicate: write NSPredicate(format:)")
    public convenience init(format predicateFormat: String, _ args: Any?...) throws(FormatPredicateError) {
        throw .subclassFormat("NSComparisonPredicate(format:)", "NSPredicate(format:)")
    }

    /// See ``init(format:_:)``: write `NSPredicate(format:argumentArray:)`.
    @available(*, deprecated, message: "makes an NSPredicate, not an NSComparisonPredicate: write NSPredicate(format:argumentArray:)")
    public convenience init(format predicateFormat: String, argumentArray arguments: [Any]?) throws(FormatPredicateError) {
        throw .subclassFormat("NSComparisonPredicate(format:argumentArray:)", "NSPredicate(format:argumentArray:)")
    }

    /// See ``init(format:_:)``: write `NSPredicate(formatPredicate:)`.
    @available(*, deprecated, message: "makes an NSPredicate, not an NSComparisonPredicate: write NSPredicate(formatPredicate:)")
    public convenience init(formatPredicate: FormatPredicate) throws(FormatPredicateError) {
        throw .subclassFormat("NSComparisonPredicate(formatPredicate:)", "NSPredicate(formatPredicate:)")
    }
}

extension NSCompoundPredicate {
    /// `NSCompoundPredicate(format:)` cannot make an `NSCompoundPredicate`: write
    /// `NSPredicate(format:)`, which makes the same AND/OR/NOT. Throws, so that the call does
    /// not compile as written.
    @available(*, deprecated, message: "makes an NSPredicate, not an NSCompoundPredicate: write NSPredicate(format:)")
    public convenience init(format predicateFormat: String, _ args: Any?...) throws(FormatPredicateError) {
        throw .subclassFormat("NSCompoundPredicate(format:)", "NSPredicate(format:)")
    }

    /// See ``init(format:_:)``: write `NSPredicate(format:argumentArray:)`.
    @available(*, deprecated, message: "makes an NSPredicate, not an NSCompoundPredicate: write NSPredicate(format:argumentArray:)")
    public convenience init(format predicateFormat: String, argumentArray arguments: [Any]?) throws(FormatPredicateError) {
        throw .subclassFormat("NSCompoundPredicate(format:argumentArray:)", "NSPredicate(format:argumentArray:)")
    }

    /// See ``init(format:_:)``: write `NSPredicate(formatPredicate:)`.
    @available(*, deprecated, message: "makes an NSPredicate, not an NSCompoundPredicate: write NSPredicate(formatPredicate:)")
    public convenience init(formatPredicate: FormatPredicate) throws(FormatPredicateError) {
        throw .subclassFormat("NSCompoundPredicate(formatPredicate:)", "NSPredicate(formatPredicate:)")
    }
}

extension FormatPredicateError {
    /// A format initializer called on a subclass of `NSPredicate`.
    static func subclassFormat(_ call: String, _ instead: String) -> FormatPredicateError {
        FormatPredicateError(.unsupported, "\(call) makes an NSPredicate, not an object of that class; write \(instead)")
    }
}

extension NSPredicate {
    /// Cairn's tree for this predicate: the parsed format, an `NSComparisonPredicate`'s
    /// comparison, the AND/OR/NOT of an
    /// `NSCompoundPredicate`'s subpredicates, or `TRUEPREDICATE`/`FALSEPREDICATE` for
    /// `NSPredicate(value:)`. `FALSEPREDICATE` when ``formatError`` is set.
    ///
    /// Foundation on Linux prints `NSCompoundPredicate.predicateFormat` as `FALSEPREDICATE`
    /// (and marks `predicateFormat` deprecated): `predicate.formatPredicate.predicateFormat`
    /// is the canonical format of any predicate.
    public var formatPredicate: FormatPredicate {
        (try? tree()) ?? .constant(false)
    }

    /// Why this predicate cannot be used as a format predicate: the malformed format or
    /// missing argument it was made with (also inside a compound), or a block predicate
    /// (`NSPredicate(block:)`), which evaluates in memory but cannot become SQL.
    public var formatError: FormatPredicateError? {
        do {
            _ = try tree()
            return nil
        } catch {
            return error
        }
    }

    /// Whether `object` is a predicate whose tree is `tree`.
    static func hasTree(_ tree: FormatPredicate, _ object: Any?) -> Bool {
        guard let other = object as? NSPredicate, let otherTree = try? other.tree() else { return false }
        return otherTree == tree
    }

    /// The tree, or why there is none.
    func tree() throws(FormatPredicateError) -> FormatPredicate {
        // `NSPredicate(format:)`'s class first: a cast to a class walks superclasses, where the
        // cast to a protocol searches conformances (about 1,300 instructions a fetch, Core Data W5).
        if let backed = self as? FormatBackedPredicate {
            if let error = backed.error { throw error }
            return backed.tree
        }
        if let carrier = self as? any FormatTreeCarrying {
            if let error = carrier.carriedError { throw error }
            return carrier.carriedTree
        }
        if let compound = self as? NSCompoundPredicate {
            var trees: [FormatPredicate] = []
            for predicate in compound.subpredicates { trees.append(try predicate.tree()) }
            switch compound.compoundPredicateType {
            case .and: return .and(trees)
            case .or: return .or(trees)
            case .not: return .not(trees.count == 1 ? trees[0] : .and(trees))
            @unknown default:
                throw FormatPredicateError(.unsupported, "an NSCompoundPredicate of an unknown type")
            }
        }
        // Foundation's `isEqual` compares the values of two `init(value:)` predicates and
        // answers false for a block predicate.
        if type(of: self) == NSPredicate.self {
            if isEqual(NSPredicate(value: true)) { return .constant(true) }
            if isEqual(NSPredicate(value: false)) { return .constant(false) }
        }
        throw FormatPredicateError(
            .unsupported,
            "a block predicate (NSPredicate(block:)) evaluates in memory only; write it as NSPredicate(format:) to fetch with it")
    }

    /// Evaluates, throwing instead of answering `false` when the predicate is malformed, a
    /// variable has no value, or a value cannot take an operation. A block predicate (also
    /// inside a compound) runs its block.
    public func checkedEvaluate(with object: Any?, substitutionVariables bindings: [String: Any] = [:])
        throws(FormatPredicateError) -> Bool
    {
        if let carrier = self as? any FormatTreeCarrying {
            if let error = carrier.carriedError { throw error }
            return try carrier.carriedTree.evaluate(with: object, substitutionVariables: bindings.mapValues { Optional($0) })
        }
        if let compound = self as? NSCompoundPredicate {
            let parts = compound.subpredicates
            switch compound.compoundPredicateType {
            case .or:
                for part in parts where try part.checkedEvaluate(with: object, substitutionVariables: bindings) {
                    return true
                }
                return false
            case .not:
                for part in parts where try !part.checkedEvaluate(with: object, substitutionVariables: bindings) {
                    return true
                }
                return false
            default:
                for part in parts where try !part.checkedEvaluate(with: object, substitutionVariables: bindings) {
                    return false
                }
                return true
            }
        }
        // `NSPredicate(value:)` or `NSPredicate(block:)`.
        return evaluate(with: object, substitutionVariables: bindings)
    }

    /// A copy with every `$VARIABLE` replaced by its value (use `NSNull()` for nil).
    ///
    /// ```swift
    /// let template = NSPredicate(format: "amount > $LIMIT")
    /// template.withSubstitutionVariables(["LIMIT": 50])   // amount > 50
    /// ```
    ///
    /// A variable missing from `variables` makes the copy invalid: its ``formatError`` names
    /// the variable and it evaluates to `false`. The copy is always a format predicate (Apple
    /// keeps the class of a compound; Cairn returns the compound's tree as one predicate).
    public func withSubstitutionVariables(_ variables: [String: Any]) -> NSPredicate {
        do {
            let substituted = try tree().substituting(variables.mapValues { Optional($0) })
            return FormatBackedPredicate(tree: substituted)
        } catch {
            return FormatBackedPredicate(tree: .constant(false), error: error)
        }
    }
}
