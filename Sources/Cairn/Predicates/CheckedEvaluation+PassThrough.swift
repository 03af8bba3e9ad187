import Foundation

// Checked evaluation of the nodes that hold arithmetic without computing any themselves: a
// key path's root (`$0.items.filter { 100 / $0.count > 2 }.count`), a closure's body
// (`filter`, `contains(where:)`, `allSatisfy`, `flatMap`, `if let`), a forced unwrap's
// operand, and the operands of string, subscript and cast nodes. Each evaluates its children
// with `checkedEvaluate`, in the order and as often as Foundation's `evaluate` does, so
// arithmetic anywhere in the tree throws ``PredicateArithmeticError`` instead of stopping the
// process. Where a node's own step can fail (a forced unwrap of nil, an index out of bounds,
// a forced cast), the same Foundation node is evaluated over the checked values, so the error
// is Foundation's.

// MARK: - Key paths and optionals

extension PredicateExpressions.KeyPath where Root: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        guard Self.mayTrap else { return try evaluate(bindings) }
        return try root.checkedEvaluate(bindings)[keyPath: keyPath]
    }
}

extension PredicateExpressions.ForcedUnwrap where Inner: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        guard Self.mayTrap else { return try evaluate(bindings) }
        let value = PredicateExpressions.Value(try inner.checkedEvaluate(bindings))
        return try PredicateExpressions.ForcedUnwrap<PredicateExpressions.Value<Inner.Output>, Wrapped>(value).evaluate(bindings)
    }
}

extension PredicateExpressions.OptionalFlatMap where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        guard Self.mayTrap else { return try evaluate(bindings) }
        guard let input = try wrapped.checkedEvaluate(bindings) else { return nil }
        let result = try checkedBody(transform, binding: variable, in: bindings)(input)
        // `transform` gives `Result` or `Result?` (the two initializers); Foundation
        // force-casts it to `Result?`, which succeeds for either, so the fallback is not reached.
        if let value = result as? Result? { return value }
        return try evaluate(bindings)
    }
}

// MARK: - Closures over a sequence

/// A closure node's body as a Swift closure: binds the node's variable to an element, then
/// evaluates the body checked.
func checkedBody<Element, Body: SQLPredicateExpression>(
    _ body: Body, binding variable: PredicateExpressions.Variable<Element>, in bindings: PredicateBindings
) -> (Element) throws -> Body.Output {
    var inner = bindings
    return { element in
        inner[variable] = element
        return try body.checkedEvaluate(inner)
    }
}

extension PredicateExpressions.Filter where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        guard Self.mayTrap else { return try evaluate(bindings) }
        return try sequence.checkedEvaluate(bindings).filter(checkedBody(filter, binding: variable, in: bindings))
    }
}

extension PredicateExpressions.SequenceContainsWhere where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Bool {
        guard Self.mayTrap else { return try evaluate(bindings) }
        return try sequence.checkedEvaluate(bindings).contains(where: checkedBody(test, binding: variable, in: bindings))
    }
}

extension PredicateExpressions.SequenceAllSatisfy where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Bool {
        guard Self.mayTrap else { return try evaluate(bindings) }
        return try sequence.checkedEvaluate(bindings).allSatisfy(checkedBody(test, binding: variable, in: bindings))
    }
}

extension PredicateExpressions.SequenceMaximum where Elements: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        guard Self.mayTrap else { return try evaluate(bindings) }
        return try elements.checkedEvaluate(bindings).max()
    }
}

extension PredicateExpressions.SequenceMinimum where Elements: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        guard Self.mayTrap else { return try evaluate(bindings) }
        return try elements.checkedEvaluate(bindings).min()
    }
}

// MARK: - Two operands, evaluated first to last

extension TwoOperandSQLPredicateExpression {
    /// Both operands, checked, first then second (the order of every two-operand node's
    /// `evaluate` without a short circuit).
    func checkedOperands(_ bindings: PredicateBindings) throws -> (First.Output, Second.Output) {
        let (first, second) = operands
        let a = try first.checkedEvaluate(bindings)
        return (a, try second.checkedEvaluate(bindings))
    }
}

extension PredicateExpressions.FloatDivision where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        guard Self.mayTrap else { return try evaluate(bindings) }
        let (a, b) = try checkedOperands(bindings)
        return a / b
    }
}

extension PredicateExpressions.SequenceStartsWith where Base: SQLPredicateExpression, Prefix: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Bool {
        guard Self.mayTrap else { return try evaluate(bindings) }
        let (a, b) = try checkedOperands(bindings)
        return a.starts(with: b)
    }
}

extension PredicateExpressions.CollectionContainsCollection where Base: SQLPredicateExpression, Other: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Bool {
        guard Self.mayTrap else { return try evaluate(bindings) }
        let (a, b) = try checkedOperands(bindings)
        return a.contains(b)
    }
}

extension PredicateExpressions.StringLocalizedStandardContains where Root: SQLPredicateExpression, Other: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Bool {
        guard Self.mayTrap else { return try evaluate(bindings) }
        let (a, b) = try checkedOperands(bindings)
        return PredicateFunctions.localizedStandardContains(String(a), String(b))
    }
}

extension PredicateExpressions.StringLocalizedCompare where Root: SQLPredicateExpression, Other: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
        guard Self.mayTrap else { return try evaluate(bindings) }
        let (a, b) = try checkedOperands(bindings)
        return PredicateFunctions.localizedCompare(String(a), String(b))
    }
}

extension PredicateExpressions.StringCaseInsensitiveCompare where Root: SQLPredicateExpression, Other: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
        guard Self.mayTrap else { return try evaluate(bindings) }
        let (a, b) = try checkedOperands(bindings)
        return PredicateFunctions.caseInsensitiveCompare(String(a), String(b))
    }
}

// MARK: - Subscripts, casts and regexes (evaluated in Swift only; see +ConstantOnly)

extension PredicateExpressions.CollectionIndexSubscript where Wrapped: SQLPredicateExpression, Index: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        guard Self.mayTrap else { return try evaluate(bindings) }
        let collection = PredicateExpressions.Value(try wrapped.checkedEvaluate(bindings))
        let position = PredicateExpressions.Value(try index.checkedEvaluate(bindings))
        return try PredicateExpressions.CollectionIndexSubscript(wrapped: collection, index: position).evaluate(bindings)
    }
}

extension PredicateExpressions.CollectionRangeSubscript where Wrapped: SQLPredicateExpression, Range: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        guard Self.mayTrap else { return try evaluate(bindings) }
        let collection = PredicateExpressions.Value(try wrapped.checkedEvaluate(bindings))
        let bounds = PredicateExpressions.Value(try range.checkedEvaluate(bindings))
        return try PredicateExpressions.CollectionRangeSubscript(wrapped: collection, range: bounds).evaluate(bindings)
    }
}

extension PredicateExpressions.DictionaryKeySubscript where Wrapped: SQLPredicateExpression, Key: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        guard Self.mayTrap else { return try evaluate(bindings) }
        let dictionary = try wrapped.checkedEvaluate(bindings)
        return dictionary[try key.checkedEvaluate(bindings)]
    }
}

extension PredicateExpressions.DictionaryKeyDefaultValueSubscript
where Wrapped: SQLPredicateExpression, Key: SQLPredicateExpression, Default: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        guard Self.mayTrap else { return try evaluate(bindings) }
        let dictionary = try wrapped.checkedEvaluate(bindings)
        // The default is evaluated only for a missing key, as Foundation's `evaluate` does.
        guard let value = dictionary[try key.checkedEvaluate(bindings)] else { return try `default`.checkedEvaluate(bindings) }
        return value
    }
}

extension PredicateExpressions.ConditionalCast where Input: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        guard Self.mayTrap else { return try evaluate(bindings) }
        return try input.checkedEvaluate(bindings) as? Desired
    }
}

extension PredicateExpressions.ForceCast where Input: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        guard Self.mayTrap else { return try evaluate(bindings) }
        let value = PredicateExpressions.Value(try input.checkedEvaluate(bindings))
        return try PredicateExpressions.ForceCast<PredicateExpressions.Value<Input.Output>, Desired>(value).evaluate(bindings)
    }
}

extension PredicateExpressions.TypeCheck where Input: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Bool {
        guard Self.mayTrap else { return try evaluate(bindings) }
        return try input.checkedEvaluate(bindings) is Desired
    }
}

extension PredicateExpressions.StringContainsRegex where Subject: SQLPredicateExpression, Regex: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Bool {
        guard Self.mayTrap else { return try evaluate(bindings) }
        let subject = PredicateExpressions.Value(try subject.checkedEvaluate(bindings))
        let regex = PredicateExpressions.Value(try regex.checkedEvaluate(bindings))
        return try PredicateExpressions.StringContainsRegex(subject: subject, regex: regex).evaluate(bindings)
    }
}
