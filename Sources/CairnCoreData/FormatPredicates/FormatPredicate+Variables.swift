import Foundation

extension FormatPredicate {
    /// The names of the `$VARIABLES` that still need a value (not those a `SUBQUERY` binds).
    public var variableNames: Set<String> {
        var names: Set<String> = []
        _ = try? rewriteVariables(bound: []) { name in
            names.insert(name)
            return nil
        }
        return names
    }

    /// Replaces every free `$VARIABLE` by its value.
    ///
    /// ```swift
    /// let template = try FormatPredicate("amount > $LIMIT")
    /// let over50 = try template.substituting(["LIMIT": 50])   // amount > 50
    /// ```
    ///
    /// - Throws: ``FormatPredicateError/Code/missingVariable`` naming the first variable
    ///   without a value, or ``FormatPredicateError/Code/argument`` for a value that cannot be
    ///   used in a predicate.
    public func substituting(_ variables: [String: Any?]) throws(FormatPredicateError) -> FormatPredicate {
        var converted: [String: FormatValue] = [:]
        for (name, value) in variables {
            guard let formatValue = FormatValue(converting: value) else {
                throw FormatPredicateError(
                    .argument, "substitution variable $\(name): a value of type \(typeName(value)) cannot be used in a predicate")
            }
            converted[name] = formatValue
        }
        return try rewriteVariables(bound: []) { name throws(FormatPredicateError) in
            guard let value = converted[name] else {
                throw FormatPredicateError(
                    .missingVariable,
                    "no value for $\(name); pass it in substitutionVariables (use NSNull() for nil)")
            }
            return .constant(value)
        }
    }

    /// Replaces the free `$VARIABLES` named in `expressions` by those expressions, leaving the
    /// others as they are.
    ///
    /// ```swift
    /// try FormatPredicate("$total > 100").replacingVariables(["total": .keyPath(base: .evaluatedObject, path: ["total"])])
    /// // total > 100
    /// ```
    public func replacingVariables(_ expressions: [String: FormatExpression]) -> FormatPredicate {
        (try? rewriteVariables(bound: []) { name in expressions[name] }) ?? self
    }

    typealias VariableRewrite = (String) throws(FormatPredicateError) -> FormatExpression?

    func rewriteVariables(bound: Set<String>, _ rewrite: VariableRewrite) throws(FormatPredicateError) -> FormatPredicate {
        switch self {
        case .constant: return self
        case .and(let operands):
            var result: [FormatPredicate] = []
            for operand in operands { result.append(try operand.rewriteVariables(bound: bound, rewrite)) }
            return .and(result)
        case .or(let operands):
            var result: [FormatPredicate] = []
            for operand in operands { result.append(try operand.rewriteVariables(bound: bound, rewrite)) }
            return .or(result)
        case .not(let operand):
            return .not(try operand.rewriteVariables(bound: bound, rewrite))
        case .comparison(var comparison):
            comparison.lhs = try comparison.lhs.rewriteVariables(bound: bound, rewrite)
            comparison.rhs = try comparison.rhs.rewriteVariables(bound: bound, rewrite)
            return .comparison(comparison)
        }
    }
}

extension FormatExpression {
    func rewriteVariables(bound: Set<String>, _ rewrite: FormatPredicate.VariableRewrite)
        throws(FormatPredicateError) -> FormatExpression
    {
        func each(_ expressions: [FormatExpression]) throws(FormatPredicateError) -> [FormatExpression] {
            var result: [FormatExpression] = []
            for expression in expressions { result.append(try expression.rewriteVariables(bound: bound, rewrite)) }
            return result
        }
        switch self {
        case .constant, .evaluatedObject:
            return self
        case .variable(let name):
            if bound.contains(name) { return self }
            return try rewrite(name) ?? self
        case .keyPath(let base, let path):
            let newBase = try base.rewriteVariables(bound: bound, rewrite)
            // A substituted `$x.name` reads `name` from the constant.
            return .keyPath(base: newBase, path: path)
        case .index(let base, let index):
            let newIndex: FormatIndex
            if case .expression(let expression) = index {
                newIndex = .expression(try expression.rewriteVariables(bound: bound, rewrite))
            } else {
                newIndex = index
            }
            return .index(try base.rewriteVariables(bound: bound, rewrite), newIndex)
        case .aggregate(let elements):
            return .aggregate(try each(elements))
        case .arithmetic(let op, let lhs, let rhs):
            return .arithmetic(op, try lhs.rewriteVariables(bound: bound, rewrite), try rhs.rewriteVariables(bound: bound, rewrite))
        case .negate(let operand):
            return .negate(try operand.rewriteVariables(bound: bound, rewrite))
        case .function(let function, let arguments):
            return .function(function, try each(arguments))
        case .customFunction(let receiver, let selector, let arguments):
            return .customFunction(
                receiver: try receiver.rewriteVariables(bound: bound, rewrite), selector: selector,
                arguments: try each(arguments))
        case .cast(let value, let type):
            return .cast(try value.rewriteVariables(bound: bound, rewrite), type: type)
        case .subquery(let collection, let variable, let predicate):
            return .subquery(
                collection: try collection.rewriteVariables(bound: bound, rewrite), variable: variable,
                predicate: try predicate.rewriteVariables(bound: bound.union([variable]), rewrite))
        }
    }
}
