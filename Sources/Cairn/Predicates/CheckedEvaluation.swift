import Foundation

/// Thrown when a predicate evaluated in memory (over unsaved changes, or a captured constant)
/// reaches integer arithmetic that does not fit its type or divides by zero. Foundation's
/// `evaluate` computes such arithmetic with `+`, `/` and `%`, which stop the process; Cairn
/// evaluates those nodes itself and throws this instead.
///
/// ```swift
/// let ratio = #Predicate<Workout> { 60 / $0.minutes > 2 }
/// context.insert(Workout(title: "Rest", startedAt: .now, minutes: 0, calories: 0))
/// try context.fetch(FetchDescriptor(predicate: ratio))
/// // PredicateArithmeticError: division by zero (60 / 0) evaluating a predicate in memory
/// ```
///
/// In SQL, the same arithmetic gives `NULL` (division) or a real number (overflow), so a
/// saved model is matched or not without an error.
public struct PredicateArithmeticError: Error, Sendable, CustomStringConvertible {
    /// What overflowed or divided by zero, with the operands.
    public let message: String

    public var description: String { "PredicateArithmeticError: \(message) evaluating a predicate in memory" }
}

extension SQLPredicateExpression {
    static var mayTrap: Bool { false }

    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        try evaluate(bindings)
    }
}

extension Predicate {
    /// `evaluate(_:)`, except that integer overflow and division by zero throw
    /// ``PredicateArithmeticError`` where Foundation would stop the process. Predicates without
    /// integer arithmetic (nearly all) are evaluated by Foundation directly.
    func checkedEvaluate(_ input: repeat each Input) throws -> Bool {
        guard let expression = expression as? any SQLPredicateExpression else { return try evaluate(repeat each input) }
        return try Self.checked(expression, bindings: PredicateBindings(repeat (each variable, each input))) {
            try evaluate(repeat each input)
        }
    }

    private static func checked<E: SQLPredicateExpression>(
        _ expression: E, bindings: PredicateBindings, otherwise: () throws -> Bool
    ) throws -> Bool {
        guard E.mayTrap else { return try otherwise() }
        guard let value = try expression.checkedEvaluate(bindings) as? Bool else { return try otherwise() }
        return value
    }
}

// MARK: - Arithmetic

enum CheckedArithmetic {
    static func overflow(_ description: String) -> PredicateArithmeticError {
        PredicateArithmeticError(message: "integer overflow (\(description))")
    }

    /// `a op b` for fixed-width integers, checked; nil for other numeric types.
    static func apply<N: Numeric>(_ a: N, _ op: PredicateExpressions.ArithmeticOperator, _ b: N) throws -> N? {
        guard let type = N.self as? any FixedWidthInteger.Type else { return nil }
        return try apply(a, op, b, as: type)
    }

    private static func apply<N: Numeric, I: FixedWidthInteger>(
        _ a: N, _ op: PredicateExpressions.ArithmeticOperator, _ b: N, as type: I.Type
    ) throws -> N? {
        guard let x = a as? I, let y = b as? I else { return nil }
        let (result, overflow): (I, Bool)
        let symbol: String
        switch op {
        case .add: (result, overflow) = x.addingReportingOverflow(y); symbol = "+"
        case .subtract: (result, overflow) = x.subtractingReportingOverflow(y); symbol = "-"
        case .multiply: (result, overflow) = x.multipliedReportingOverflow(by: y); symbol = "*"
        }
        if overflow { throw Self.overflow("\(x) \(symbol) \(y) does not fit in \(I.self)") }
        return result as? N
    }

    /// `a / b` or `a % b`, checked for a zero divisor and for `min / -1`.
    static func divide<N: BinaryInteger>(_ a: N, _ b: N, remainder: Bool) throws -> N {
        let symbol = remainder ? "%" : "/"
        if b == 0 { throw PredicateArithmeticError(message: "division by zero (\(a) \(symbol) 0)") }
        if let type = N.self as? any FixedWidthInteger.Type, try overflows(a, b, remainder: remainder, as: type) {
            throw overflow("\(a) \(symbol) \(b) does not fit in \(N.self)")
        }
        return remainder ? a % b : a / b
    }

    private static func overflows<N: BinaryInteger, I: FixedWidthInteger>(
        _ a: N, _ b: N, remainder: Bool, as type: I.Type
    ) throws -> Bool {
        guard let x = a as? I, let y = b as? I else { return false }
        return remainder ? x.remainderReportingOverflow(dividingBy: y).overflow : x.dividedReportingOverflow(by: y).overflow
    }

    /// `-a`, checked for the smallest fixed-width integer.
    static func negate<N: SignedNumeric>(_ a: N) throws -> N {
        if let type = N.self as? any FixedWidthInteger.Type, isMinimum(a, as: type) {
            throw overflow("-(\(a)) does not fit in \(N.self)")
        }
        return -a
    }

    private static func isMinimum<N, I: FixedWidthInteger>(_ a: N, as type: I.Type) -> Bool {
        (a as? I) == I.min
    }
}

extension PredicateExpressions.Arithmetic where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        let a = try lhs.checkedEvaluate(bindings)
        let b = try rhs.checkedEvaluate(bindings)
        if let result = try CheckedArithmetic.apply(a, op, b) { return result }
        switch op {
        case .add: return a + b
        case .subtract: return a - b
        case .multiply: return a * b
        }
    }
}

extension PredicateExpressions.IntDivision where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        try CheckedArithmetic.divide(try lhs.checkedEvaluate(bindings), try rhs.checkedEvaluate(bindings), remainder: false)
    }
}

extension PredicateExpressions.IntRemainder where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        try CheckedArithmetic.divide(try lhs.checkedEvaluate(bindings), try rhs.checkedEvaluate(bindings), remainder: true)
    }
}

extension PredicateExpressions.UnaryMinus where Wrapped: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        try CheckedArithmetic.negate(try wrapped.checkedEvaluate(bindings))
    }
}

// MARK: - Nodes that hold arithmetic, evaluated in Foundation's order (`&&`, `||`, `?:` and
// `??` evaluate their second operand only when Foundation's do)

extension PredicateExpressions.Comparison where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Bool {
        guard Self.mayTrap else { return try evaluate(bindings) }
        let a = try lhs.checkedEvaluate(bindings)
        let b = try rhs.checkedEvaluate(bindings)
        switch op {
        case .lessThan: return a < b
        case .lessThanOrEqual: return a <= b
        case .greaterThan: return a > b
        case .greaterThanOrEqual: return a >= b
        }
    }
}

extension PredicateExpressions.Equal where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Bool {
        guard Self.mayTrap else { return try evaluate(bindings) }
        return try lhs.checkedEvaluate(bindings) == rhs.checkedEvaluate(bindings)
    }
}

extension PredicateExpressions.NotEqual where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Bool {
        guard Self.mayTrap else { return try evaluate(bindings) }
        return try lhs.checkedEvaluate(bindings) != rhs.checkedEvaluate(bindings)
    }
}

extension PredicateExpressions.Conjunction where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Bool {
        guard Self.mayTrap else { return try evaluate(bindings) }
        return try lhs.checkedEvaluate(bindings) && rhs.checkedEvaluate(bindings)
    }
}

extension PredicateExpressions.Disjunction where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Bool {
        guard Self.mayTrap else { return try evaluate(bindings) }
        return try lhs.checkedEvaluate(bindings) || rhs.checkedEvaluate(bindings)
    }
}

extension PredicateExpressions.Negation where Wrapped: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Bool {
        guard Self.mayTrap else { return try evaluate(bindings) }
        return try !wrapped.checkedEvaluate(bindings)
    }
}

extension PredicateExpressions.Conditional
where Test: SQLPredicateExpression, If: SQLPredicateExpression, Else: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        guard Self.mayTrap else { return try evaluate(bindings) }
        return try test.checkedEvaluate(bindings) ? trueBranch.checkedEvaluate(bindings) : falseBranch.checkedEvaluate(bindings)
    }
}

extension PredicateExpressions.NilCoalesce where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        guard Self.mayTrap else { return try evaluate(bindings) }
        if let value = try lhs.checkedEvaluate(bindings) { return value }
        return try rhs.checkedEvaluate(bindings)
    }
}

// MARK: - Ranges (`lo...hi` with `lo > hi` stops the process) and membership

extension PredicateExpressions.ClosedRange where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    static var mayTrap: Bool { true }

    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        let (low, high) = (try lower.checkedEvaluate(bindings), try upper.checkedEvaluate(bindings))
        guard low <= high else { throw PredicateArithmeticError(message: "a range whose lower bound is above its upper bound (\(low)...\(high))") }
        return low...high
    }
}

extension PredicateExpressions.Range where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    static var mayTrap: Bool { true }

    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Output {
        let (low, high) = (try lower.checkedEvaluate(bindings), try upper.checkedEvaluate(bindings))
        guard low <= high else { throw PredicateArithmeticError(message: "a range whose lower bound is above its upper bound (\(low)..<\(high))") }
        return low..<high
    }
}

extension PredicateExpressions.RangeExpressionContains
where RangeExpression: SQLPredicateExpression, Element: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Bool {
        guard Self.mayTrap else { return try evaluate(bindings) }
        return try range.checkedEvaluate(bindings).contains(element.checkedEvaluate(bindings))
    }
}

extension PredicateExpressions.SequenceContains where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    func checkedEvaluate(_ bindings: PredicateBindings) throws -> Bool {
        guard Self.mayTrap else { return try evaluate(bindings) }
        return try sequence.checkedEvaluate(bindings).contains(element.checkedEvaluate(bindings))
    }
}
