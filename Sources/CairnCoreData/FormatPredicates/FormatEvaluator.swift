import Foundation

/// Limits that keep an in-memory evaluation bounded whatever the format or data.
public struct FormatEvaluationLimits: Sendable, Hashable {
    /// The longest `MATCHES` pattern accepted, in characters.
    public var maximumPatternLength: Int
    /// The longest string a `MATCHES` pattern runs against, in UTF-16 code units.
    public var maximumMatchedLength: Int
    /// How long one `MATCHES` may run before it fails with an error, in seconds.
    public var regularExpressionTimeout: Double

    /// Limits for `evaluate(with:substitutionVariables:limits:)` and
    /// `FormatExpression.value(with:limits:)`; a `MATCHES` beyond them throws
    /// ``FormatPredicateError/Code/regularExpression`` instead of running unbounded.
    ///
    /// ```swift
    /// let strict = FormatEvaluationLimits(maximumPatternLength: 200, regularExpressionTimeout: 0.1)
    /// try predicate.evaluate(with: row, limits: strict)
    /// ```
    ///
    /// - Parameters:
    ///   - maximumPatternLength: The longest `MATCHES` pattern accepted, in characters.
    ///   - maximumMatchedLength: The longest string a pattern runs against, in UTF-16 code
    ///     units.
    ///   - regularExpressionTimeout: How long one `MATCHES` may run, in seconds.
    public init(maximumPatternLength: Int = 1_000, maximumMatchedLength: Int = 1_000_000,
                regularExpressionTimeout: Double = 1.0) {
        self.maximumPatternLength = maximumPatternLength
        self.maximumMatchedLength = maximumMatchedLength
        self.regularExpressionTimeout = regularExpressionTimeout
    }

    /// 1,000-character patterns, 1,000,000-unit strings, one second per match.
    public static let `default` = FormatEvaluationLimits()
}

extension FormatPredicate {
    /// Parses `format`, substituting `arguments` for its specifiers in order.
    ///
    /// ```swift
    /// let predicate = try FormatPredicate("categoryName IN %@", arguments: [["Food", "Transport"]])
    /// ```
    public init(_ format: String, arguments: [Any?] = []) throws(FormatPredicateError) {
        self = try FormatPredicateParser.parse(format, arguments: arguments)
    }

    /// Evaluates the predicate against `object`, in memory, with Core Data's semantics.
    ///
    /// `object` may be a `[String: Any]` dictionary, any ``KeyValueReadable`` (such as a
    /// `@Model`), or a plain value tested with `SELF` (`"SELF BEGINSWITH 'a'"` on a string).
    ///
    /// ```swift
    /// try FormatPredicate("name CONTAINS[cd] %@", arguments: ["cafe"])
    ///     .evaluate(with: ["name": "Le Café"])   // true
    /// ```
    ///
    /// - Throws: ``FormatPredicateError`` for a `$VARIABLE` without a value, an invalid or
    ///   runaway `MATCHES` pattern, or an operation the values cannot take (`@sum` of strings).
    public func evaluate(
        with object: Any?, substitutionVariables: [String: Any?] = [:],
        limits: FormatEvaluationLimits = .default
    ) throws(FormatPredicateError) -> Bool {
        var variables: [String: FormatOperand] = [:]
        for (name, value) in substitutionVariables {
            guard let converted = FormatValue(converting: value) else {
                throw FormatPredicateError(
                    .argument, "substitution variable $\(name): a value of type \(typeName(value)) cannot be used in a predicate")
            }
            variables[name] = FormatOperand(converted)
        }
        let evaluator = FormatEvaluator(variables: variables, limits: limits)
        return try evaluator.evaluate(self, on: FormatOperand(reading: object))
    }
}

extension FormatExpression {
    /// The value of the expression for `object` (`NSExpression.expressionValue(with:context:)`).
    ///
    /// ```swift
    /// try FormatPredicateParser.parseExpression("items.@sum.price").value(with: order)  // 42.5
    /// ```
    public func value(with object: Any?, limits: FormatEvaluationLimits = .default) throws(FormatPredicateError) -> Any? {
        try FormatEvaluator(variables: [:], limits: limits).value(self, on: FormatOperand(reading: object)).anyValue
    }
}

/// The in-memory evaluator. One per evaluation; it caches compiled regular expressions.
struct FormatEvaluator {
    var variables: [String: FormatOperand]
    let limits: FormatEvaluationLimits
    let regexCache = PredicateFunctions.RegexCache()

    func fail(_ message: String, _ code: FormatPredicateError.Code = .evaluation) -> FormatPredicateError {
        FormatPredicateError(code, message)
    }

    // MARK: - Predicates

    func evaluate(_ predicate: FormatPredicate, on object: FormatOperand) throws(FormatPredicateError) -> Bool {
        switch predicate {
        case .constant(let value):
            return value
        case .and(let operands):
            for operand in operands where !(try evaluate(operand, on: object)) { return false }
            return true
        case .or(let operands):
            for operand in operands where try evaluate(operand, on: object) { return true }
            return false
        case .not(let operand):
            return !(try evaluate(operand, on: object))
        case .comparison(let comparison):
            return try evaluate(comparison, on: object)
        }
    }

    func evaluate(_ comparison: FormatComparison, on object: FormatOperand) throws(FormatPredicateError) -> Bool {
        guard comparison.operatorType == .matches else { return try test(comparison, on: object) }
        do {
            return try test(comparison, on: object)
        } catch let error where error.code == .regularExpression {
            throw error.within(comparison)
        }
    }

    private func test(_ comparison: FormatComparison, on object: FormatOperand) throws(FormatPredicateError) -> Bool {
        let lhs = try value(comparison.lhs, on: object)
        let rhs = try value(comparison.rhs, on: object)
        switch comparison.modifier {
        case .direct:
            return try test(lhs, comparison.operatorType, rhs, comparison.options)
        case .any:
            for element in lhs.elements
            where try test(element, comparison.operatorType, rhs, comparison.options) {
                return true
            }
            return false
        case .all:
            for element in lhs.elements
            where !(try test(element, comparison.operatorType, rhs, comparison.options)) {
                return false
            }
            return true
        }
    }

    // MARK: - Expressions

    func value(_ expression: FormatExpression, on object: FormatOperand) throws(FormatPredicateError) -> FormatOperand {
        switch expression {
        case .constant(let constant):
            return FormatOperand(constant)
        case .evaluatedObject:
            return object
        case .variable(let name):
            guard let bound = variables[name] else {
                throw fail("no value for $\(name); pass it in substitutionVariables (use NSNull() for nil)", .missingVariable)
            }
            return bound
        case .keyPath(let base, let path):
            return try read(path[...], from: try value(base, on: object))
        case .index(let base, let index):
            return try self.index(try value(base, on: object), index, on: object)
        case .aggregate(let elements):
            var values: [FormatOperand] = []
            for element in elements { values.append(try value(element, on: object)) }
            return .collection(values)
        case .arithmetic(let op, let lhs, let rhs):
            return try arithmetic(op, try value(lhs, on: object), try value(rhs, on: object))
        case .negate(let operand):
            let operandValue = try value(operand, on: object)
            if operandValue.isNull { return .null }
            guard let number = operandValue.number else {
                throw fail("cannot negate a \(operandValue.kindName)")
            }
            return try arithmetic(.subtract, FormatNumber.int(0).operand, number.operand)
        case .function(let function, let arguments):
            var values: [FormatOperand] = []
            for argument in arguments { values.append(try value(argument, on: object)) }
            return try call(function, values)
        case .customFunction(_, let selector, _):
            throw fail(
                "FUNCTION(…, '\(selector)') calls a method by name, which Cairn does not evaluate; use a built-in function",
                .unsupported)
        case .cast(let operand, let type):
            let castValue = try value(operand, on: object)
            guard case .value(let constant) = castValue else {
                throw fail("cannot CAST a \(castValue.kindName) to \(type)")
            }
            return FormatOperand(try Self.cast(constant, to: type))
        case .subquery(let collection, let variable, let predicate):
            var evaluator = self
            var matches: [FormatOperand] = []
            for element in try value(collection, on: object).elements {
                evaluator.variables[variable] = element
                if try evaluator.evaluate(predicate, on: element) { matches.append(element) }
            }
            return .collection(matches)
        }
    }

    /// Reads a key path the way key-value coding does: through objects, mapping over
    /// collections, with `@count`, `@sum`, `@avg`, `@min`, `@max` and the union operators.
    func read(_ path: ArraySlice<String>, from operand: FormatOperand) throws(FormatPredicateError) -> FormatOperand {
        guard let key = path.first else { return operand }
        let rest = path.dropFirst()
        if key.hasPrefix("@") {
            return try collectionOperator(key, rest: rest, on: operand)
        }
        switch operand {
        case .object(let object):
            return try read(rest, from: FormatOperand(reading: object.value(forKey: key)))
        case .collection(let elements):
            var mapped: [FormatOperand] = []
            for element in elements { mapped.append(try read([key], from: element)) }
            return try read(rest, from: .collection(mapped))
        case .value(.null):
            return .null
        case .value(.string(let string)) where key == "length":
            return try read(rest, from: .value(.int(Int64(string.utf16.count))))
        case .value(let value) where value.numberKeyValue(key) != nil:
            return try read(rest, from: .value(value.numberKeyValue(key) ?? .null))
        default:
            throw fail("cannot read key '\(key)' from a \(operand.kindName)")
        }
    }

    func collectionOperator(_ name: String, rest: ArraySlice<String>, on operand: FormatOperand)
        throws(FormatPredicateError) -> FormatOperand
    {
        let elements = operand.elements
        switch name.lowercased() {
        case "@count":
            // A dictionary's count is its number of entries, as NSDictionary's `count`.
            if case .object(let object) = operand, let dictionary = object as? any KeyValueCountable {
                return try read(rest, from: .value(.int(Int64(dictionary.keyValueCount))))
            }
            return try read(rest, from: .value(.int(Int64(elements.count))))
        case "@sum", "@avg", "@min", "@max":
            var values: [FormatOperand] = []
            for element in elements { values.append(try read(rest, from: element)) }
            let function: FormatFunction =
                switch name.lowercased() {
                case "@sum": .sum
                case "@avg": .average
                case "@min": .min
                default: .max
                }
            return try call(function, [.collection(values)])
        case "@distinctunionofobjects", "@unionofobjects":
            var values: [FormatOperand] = []
            for element in elements {
                let read = try read(rest, from: element)
                if read.isNull { continue }
                if name.lowercased() == "@unionofobjects" || !values.contains(where: { equal($0, read, []) }) {
                    values.append(read)
                }
            }
            return .collection(values)
        default:
            throw fail("unknown collection operator '\(name)'; use @count, @sum, @avg, @min, @max, @unionOfObjects or @distinctUnionOfObjects")
        }
    }

    func index(_ base: FormatOperand, _ index: FormatIndex, on object: FormatOperand) throws(FormatPredicateError) -> FormatOperand {
        switch index {
        case .first: return base.elements.first ?? .null
        case .last: return base.elements.last ?? .null
        case .size: return .value(.int(Int64(base.elements.count)))
        case .expression(let expression):
            let key = try value(expression, on: object)
            if case .object(let dictionary) = base, let name = key.string {
                return FormatOperand(reading: dictionary.value(forKey: name))
            }
            guard case .value(.int(let position)) = key else {
                if base.isNull { return .null }
                throw fail("cannot index a \(base.kindName) with a \(key.kindName)" + optionsHint(expression))
            }
            let elements = base.elements
            // Out of range reads as nil, as the SQL translation's NULL does.
            guard position >= 0, position < Int64(elements.count) else { return .null }
            return elements[Int(position)]
        }
    }
}

/// For a subscript that reads like comparison options written before the operator
/// (`name[c] == "x"`, which Apple's grammar reads as a subscript by key `c`), the spelling that
/// was probably meant.
func optionsHint(_ subscriptExpression: FormatExpression) -> String {
    guard case .keyPath(.evaluatedObject, let path) = subscriptExpression, path.count == 1,
        FormatComparisonOptions(letters: path[0]) != nil
    else { return "" }
    return "; comparison options go after the operator (`==[\(path[0])]`), "
        + "'[\(path[0])]' after an expression is a subscript by key '\(path[0])'"
}
