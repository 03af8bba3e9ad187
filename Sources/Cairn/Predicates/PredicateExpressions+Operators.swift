import Foundation

// Comparison, equality, logic, arithmetic and conditionals.
//
// Swift's semantics, kept in SQL:
// - `==`/`!=` between Optionals: `IS`/`IS NOT` (`nil == nil` is true, `nil == 1` is false);
//   non-optional operands use `=`/`<>` so indexes apply.
// - `<`, `<=`, `>`, `>=` only exist for non-optional values in Swift, so no NULL reaches them.
// - Strings compare with the `cairn_swift` collation: Swift's `String` order and equality
//   (canonical equivalence: "é" == "e\u{301}"), which SQLite's byte order does not give.
// - Integer `/` truncates toward zero and `%` takes the dividend's sign in both languages.
// - `&&`, `||`, `??` and ternaries evaluate lazily in Swift; when the lazy side can raise (a
//   forced unwrap), SQL uses `CASE`, which SQLite also evaluates lazily.

/// The collation that orders and compares text as Swift's `String` does.
let swiftStringCollation = "cairn_swift"

extension PredicateExpressions.ComparisonOperator {
    var shapeCode: Int {
        switch self {
        case .lessThan: 0
        case .lessThanOrEqual: 1
        case .greaterThan: 2
        case .greaterThanOrEqual: 3
        }
    }

    var sqlOperator: SQLBinaryOperator {
        switch self {
        case .lessThan: .less
        case .lessThanOrEqual: .lessOrEqual
        case .greaterThan: .greater
        case .greaterThanOrEqual: .greaterOrEqual
        }
    }
}

extension PredicateExpressions.ArithmeticOperator {
    var shapeCode: Int {
        switch self {
        case .add: 10
        case .subtract: 11
        case .multiply: 12
        }
    }
}

extension PredicateCompiler {
    /// Compiles both operands, in walk order, and applies the text collation when needed.
    mutating func operands<L: SQLPredicateExpression, R: SQLPredicateExpression>(
        _ lhs: L, _ rhs: R, kind: SQLValueKind
    ) throws -> (SQLExpression, SQLExpression, mayRaise: Bool) {
        let left = try compile(lhs)
        let right = try compile(rhs)
        var leftSQL = try sql(left)
        let rightSQL = try sql(right)
        if let collation = kind.collation { leftSQL = leftSQL.collate(collation) }
        return (leftSQL, rightSQL, left.mayRaise || right.mayRaise)
    }
}

// MARK: - Comparison

extension PredicateExpressions.Comparison: SQLPredicateExpression
where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    static var isVariableFree: Bool { LHS.isVariableFree && RHS.isVariableFree }
    static var mayTrap: Bool { LHS.mayTrap || RHS.mayTrap }

    func collectShape(_ shape: inout PredicateShape) throws {
        shape.token(.op(op.shapeCode))
        try shape.visit(lhs)
        try shape.visit(rhs)
    }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let kind = SQLValueKind.of(LHS.Output.self)
        guard kind.ordersLikeSwift else {
            throw PredicateSQLError.unsupported(
                "'<', '<=', '>' or '>=' on \(typeName(LHS.Output.self)) (SQL orders numbers, String, Date, UUID and "
                    + "Decimal as Swift does; a custom Comparable type's order is only known to Swift)")
        }
        let (left, right, mayRaise) = try compiler.operands(lhs, rhs, kind: kind)
        return .scalar(.binary(op.sqlOperator, left, right), Bool.self, mayRaise: mayRaise)
    }
}

// MARK: - Equality

extension PredicateCompiler {
    mutating func equality<L: SQLPredicateExpression, R: SQLPredicateExpression>(
        _ lhs: L, _ rhs: R, negated: Bool
    ) throws -> CompiledExpression {
        let (base, isOptional) = unwrappedType(L.Output.self)
        let kind = SQLValueKind.of(base)
        guard kind.equatesLikeSwift else {
            throw PredicateSQLError.unsupported(
                "'\(negated ? "!=" : "==")' on \(typeName(L.Output.self)) (SQL compares stored numbers, Bool, String, "
                    + "Date, Data, UUID, URL, Decimal, raw-value enums, models and identifiers)")
        }
        let (left, right, mayRaise) = try operands(lhs, rhs, kind: kind)
        let op: SQLBinaryOperator = isOptional ? (negated ? .isNot : .is) : (negated ? .notEqual : .equal)
        return .scalar(.binary(op, left, right), Bool.self, mayRaise: mayRaise)
    }
}

extension PredicateExpressions.Equal: SQLPredicateExpression, TwoOperandSQLPredicateExpression
where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    var operands: (LHS, RHS) { (lhs, rhs) }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        try compiler.equality(lhs, rhs, negated: false)
    }
}

extension PredicateExpressions.NotEqual: SQLPredicateExpression, TwoOperandSQLPredicateExpression
where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    var operands: (LHS, RHS) { (lhs, rhs) }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        try compiler.equality(lhs, rhs, negated: true)
    }
}

// MARK: - Logic

extension PredicateExpressions.Conjunction: SQLPredicateExpression, TwoOperandSQLPredicateExpression
where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    var operands: (LHS, RHS) { (lhs, rhs) }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let left = try compiler.compile(lhs)
        let right = try compiler.compile(rhs)
        let leftSQL = try compiler.condition(left)
        let rightSQL = try compiler.condition(right)
        if right.mayRaise {
            // `lhs && rhs` evaluates `rhs` only when `lhs` is true.
            return .scalar(.case(when: [(leftSQL, rightSQL)], else: .false), Bool.self, mayRaise: true)
        }
        return .scalar(leftSQL.and(rightSQL), Bool.self, mayRaise: left.mayRaise)
    }
}

extension PredicateExpressions.Disjunction: SQLPredicateExpression, TwoOperandSQLPredicateExpression
where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    var operands: (LHS, RHS) { (lhs, rhs) }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let left = try compiler.compile(lhs)
        let right = try compiler.compile(rhs)
        let leftSQL = try compiler.condition(left)
        let rightSQL = try compiler.condition(right)
        if right.mayRaise {
            // `lhs || rhs` evaluates `rhs` only when `lhs` is false.
            return .scalar(.case(when: [(leftSQL, .true)], else: rightSQL), Bool.self, mayRaise: true)
        }
        return .scalar(leftSQL.or(rightSQL), Bool.self, mayRaise: left.mayRaise)
    }
}

extension PredicateExpressions.Negation: SQLPredicateExpression, OneOperandSQLPredicateExpression
where Wrapped: SQLPredicateExpression {
    var operand: Wrapped { wrapped }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let inner = try compiler.compile(wrapped)
        return .scalar(try compiler.condition(inner).not(), Bool.self, mayRaise: inner.mayRaise)
    }
}

// MARK: - Arithmetic

extension PredicateCompiler {
    /// Checks that arithmetic on `type` means the same in SQL, and compiles it.
    mutating func arithmetic<L: SQLPredicateExpression, R: SQLPredicateExpression>(
        _ lhs: L, _ rhs: R, _ op: SQLBinaryOperator, symbol: String, outputType: any Any.Type
    ) throws -> CompiledExpression {
        let kind = SQLValueKind.of(outputType)
        guard kind == .integer || kind == .real else {
            throw PredicateSQLError.unsupported(
                "'\(symbol)' on \(typeName(outputType)) (SQL arithmetic is exact for integers and Double only)")
        }
        var (left, right, mayRaise) = try operands(lhs, rhs, kind: kind)
        // A bound divisor states its type, so that PostgreSQL's `nullif($1, 0)` (a zero divisor
        // answers NULL, as SQLite's does) takes it as the division's type.
        if op == .divide || op == .remainder { right = right.typed(as: kind == .integer ? .integer : .real) }
        return .scalar(.binary(op, left, right), outputType, mayRaise: mayRaise)
    }
}

extension PredicateExpressions.Arithmetic: SQLPredicateExpression
where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    static var isVariableFree: Bool { LHS.isVariableFree && RHS.isVariableFree }
    static var mayTrap: Bool { LHS.Output.self is any FixedWidthInteger.Type || LHS.mayTrap || RHS.mayTrap }

    func collectShape(_ shape: inout PredicateShape) throws {
        shape.token(.op(op.shapeCode))
        try shape.visit(lhs)
        try shape.visit(rhs)
    }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let (sqlOp, symbol): (SQLBinaryOperator, String) = switch op {
        case .add: (.add, "+")
        case .subtract: (.subtract, "-")
        case .multiply: (.multiply, "*")
        }
        return try compiler.arithmetic(lhs, rhs, sqlOp, symbol: symbol, outputType: Output.self)
    }
}

extension PredicateExpressions.IntDivision: SQLPredicateExpression, TwoOperandSQLPredicateExpression
where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    var operands: (LHS, RHS) { (lhs, rhs) }
    static var mayTrap: Bool { true }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        try compiler.arithmetic(lhs, rhs, .divide, symbol: "/", outputType: Output.self)
    }
}

extension PredicateExpressions.IntRemainder: SQLPredicateExpression, TwoOperandSQLPredicateExpression
where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    var operands: (LHS, RHS) { (lhs, rhs) }
    static var mayTrap: Bool { true }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        try compiler.arithmetic(lhs, rhs, .remainder, symbol: "%", outputType: Output.self)
    }
}

extension PredicateExpressions.FloatDivision: SQLPredicateExpression, TwoOperandSQLPredicateExpression
where LHS: SQLPredicateExpression, RHS: SQLPredicateExpression {
    var operands: (LHS, RHS) { (lhs, rhs) }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        try compiler.arithmetic(lhs, rhs, .divide, symbol: "/", outputType: Output.self)
    }
}

extension PredicateExpressions.UnaryMinus: SQLPredicateExpression where Wrapped: SQLPredicateExpression {
    static var isVariableFree: Bool { Wrapped.isVariableFree }
    static var mayTrap: Bool { Output.self is any FixedWidthInteger.Type || Wrapped.mayTrap }

    func collectShape(_ shape: inout PredicateShape) throws {
        try shape.visit(wrapped)
    }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let kind = SQLValueKind.of(Output.self)
        guard kind == .integer || kind == .real else {
            throw PredicateSQLError.unsupported("unary '-' on \(typeName(Output.self))")
        }
        let inner = try compiler.compile(wrapped)
        return .scalar(try compiler.sql(inner).negated(), Output.self, mayRaise: inner.mayRaise)
    }
}

// MARK: - Conditional

extension PredicateExpressions.Conditional: SQLPredicateExpression
where Test: SQLPredicateExpression, If: SQLPredicateExpression, Else: SQLPredicateExpression {
    static var isVariableFree: Bool { Test.isVariableFree && If.isVariableFree && Else.isVariableFree }
    static var mayTrap: Bool { Test.mayTrap || If.mayTrap || Else.mayTrap }

    func collectShape(_ shape: inout PredicateShape) throws {
        try shape.visit(test)
        try shape.visit(trueBranch)
        try shape.visit(falseBranch)
    }

    func compileSQL(_ compiler: inout PredicateCompiler) throws -> CompiledExpression {
        let condition = try compiler.compile(test)
        let whenTrue = try compiler.compile(trueBranch)
        let whenFalse = try compiler.compile(falseBranch)
        let sql = SQLExpression.case(
            when: [(try compiler.condition(condition), try compiler.sql(whenTrue))],
            else: try compiler.sql(whenFalse))
        return .scalar(sql, Output.self, mayRaise: condition.mayRaise || whenTrue.mayRaise || whenFalse.mayRaise)
    }
}
