// Rendering of expressions, with parentheses derived from precedence.
//
// Levels follow SQLite's operator table, made conservative wherever PostgreSQL parses
// differently, so a rendering means the same thing in both: every comparison-like operator
// (`= <> < <= > >= IS IN LIKE GLOB BETWEEN IS NULL`) shares one non-associative level, `||`
// is parenthesized under arithmetic and bitwise operators, and unary minus and `COLLATE` wrap
// anything but a single term.

/// Binding strength, higher binds tighter.
enum SQLPrecedence {
    static let fragment = 0
    static let or = 3
    static let and = 5
    static let not = 10
    static let comparison = 20
    static let escape = 40
    static let bitwise = 45
    static let additive = 50
    static let multiplicative = 60
    static let concatenation = 70
    static let collate = 80
    static let prefix = 90
    static let primary = 100
}

extension SQLBinaryOperator {
    var precedence: Int {
        switch self {
        case .or: SQLPrecedence.or
        case .and: SQLPrecedence.and
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .is, .isNot, .glob:
            SQLPrecedence.comparison
        case .bitwiseAnd, .bitwiseOr, .leftShift, .rightShift: SQLPrecedence.bitwise
        case .add, .subtract: SQLPrecedence.additive
        case .multiply, .divide, .remainder: SQLPrecedence.multiplicative
        case .concatenate: SQLPrecedence.concatenation
        }
    }

    func token(_ dialect: any SQLDialect) throws -> String {
        if let token = try dialect.operatorToken(self) { return token }
        return switch self {
        case .equal: "="
        case .notEqual: "<>"
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        case .is: dialect.nullSafeEqualityOperator(negated: false)
        case .isNot: dialect.nullSafeEqualityOperator(negated: true)
        case .and: "AND"
        case .or: "OR"
        case .add: "+"
        case .subtract: "-"
        case .multiply: "*"
        case .divide: "/"
        case .remainder: "%"
        case .concatenate: "||"
        case .glob: "GLOB"
        case .bitwiseAnd: "&"
        case .bitwiseOr: "|"
        case .leftShift: "<<"
        case .rightShift: ">>"
        }
    }
}

extension SQLExpression {
    /// How tightly the rendered expression binds, to decide parentheses around it.
    var precedence: Int {
        switch node {
        case .column, .value, .parameter, .row, .null, .unbindable, .databaseDefault, .boolean, .allColumns, .function,
            .aggregate, .subquery, .caseWhen, .cast:
            SQLPrecedence.primary
        case .typed(let value, _): value.precedence
        case .exists(_, let negated): negated ? SQLPrecedence.not : SQLPrecedence.primary
        case .unary(let op, _):
            switch op {
            case .not: SQLPrecedence.not
            case .negative, .positive, .bitwiseNot: SQLPrecedence.prefix
            case .isNull, .isNotNull: SQLPrecedence.comparison
            }
        case .binary(let op, _, _), .logical(let op, _): op.precedence
        case .like, .inList, .inSubquery, .between: SQLPrecedence.comparison
        case .collate: SQLPrecedence.collate
        case .fragment: SQLPrecedence.fragment
        }
    }

    var isConcatenation: Bool {
        if case .binary(.concatenate, _, _) = node { return true }
        return false
    }
}

extension SQLGenerationContext {
    /// Renders `expression` as an operand, in parentheses when `parenthesized`.
    mutating func operand(_ expression: SQLExpression, parenthesized: Bool) throws {
        if parenthesized {
            emit("(")
            try self.expression(expression)
            emit(")")
        } else {
            try self.expression(expression)
        }
    }

    /// Renders an operand that needs parentheses unless it binds tighter than `level`.
    mutating func operand(_ expression: SQLExpression, above level: Int) throws {
        try operand(expression, parenthesized: expression.precedence <= level)
    }

    mutating func expression(_ expression: SQLExpression) throws {
        switch expression.node {
        case let .column(table, name):
            if let table, unqualifiedAlias == nil || table != unqualifiedAlias {
                try identifier(table)
                emit(".")
            }
            try identifier(name)
        case .value(let value):
            bind(value)
        case .parameter(let index):
            bindParameter(index)
        case .row(let items):
            emit("(")
            try list(items) { try $0.expression($1) }
            emit(")")
        case .null:
            emit("NULL")
        case .unbindable(let reason):
            throw SQLRenderError(reason: .unbindable(reason))
        case .databaseDefault:
            if dialect.writesDefaultInValues { emit("DEFAULT") } else { bind(.null) }
        case .boolean(let value):
            emit(text: dialect.booleanLiteral(value))
        case .allColumns(let table):
            if let table {
                try identifier(table)
                emit(".")
            }
            emit("*")
        case let .unary(op, operand):
            try unary(op, operand)
        case let .binary(op, lhs, rhs):
            if let replacement = try dialect.binary(op, lhs, rhs) {
                try self.expression(replacement)
                return
            }
            try binary(op, lhs, rhs)
        case let .logical(op, operands):
            try logical(op, operands[...])
        case let .like(value, pattern, escape, negated):
            try operand(value, above: SQLPrecedence.comparison)
            emitOperator(dialect.likeOperator(negated: negated))
            try operand(pattern, above: SQLPrecedence.escape)
            if let escape {
                emit(" ESCAPE ")
                try operand(escape, above: SQLPrecedence.escape)
            }
        case let .function(name, arguments, quotesName):
            if quotesName {
                try identifier(name)
            } else if let replacement = try dialect.function(name, arguments) {
                try self.expression(replacement)
                return
            } else {
                try bareName(name, kind: "function")
            }
            emit("(")
            try list(arguments) { try $0.expression($1) }
            emit(")")
        case .aggregate(let aggregate):
            if !aggregate.quotesName, let replacement = try dialect.aggregate(aggregate) {
                try self.expression(replacement)
                return
            }
            try self.aggregate(aggregate)
        case let .inList(value, items, negated):
            guard !items.isEmpty else {
                // `x IN ()` is false for every x (even NULL); PostgreSQL rejects the empty list.
                emit(text: dialect.booleanLiteral(negated))
                return
            }
            try operand(value, above: SQLPrecedence.comparison)
            emit(negated ? " NOT IN (" : " IN (")
            try list(items) { try $0.expression($1) }
            emit(")")
        case let .inSubquery(value, subquery, negated):
            try operand(value, above: SQLPrecedence.comparison)
            emit(negated ? " NOT IN (" : " IN (")
            try select(subquery)
            emit(")")
        case let .exists(subquery, negated):
            emit(negated ? "NOT EXISTS (" : "EXISTS (")
            try select(subquery)
            emit(")")
        case .subquery(let subquery):
            emit("(")
            try select(subquery)
            emit(")")
        case let .caseWhen(base, branches, otherwise):
            try caseWhen(base: base, branches: branches, otherwise: otherwise)
        case let .between(value, low, high, negated):
            try operand(value, above: SQLPrecedence.comparison)
            emit(negated ? " NOT BETWEEN " : " BETWEEN ")
            try operand(low, above: SQLPrecedence.comparison)
            emit(" AND ")
            try operand(high, above: SQLPrecedence.comparison)
        case let .collate(value, collation):
            try operand(value, parenthesized: value.precedence < SQLPrecedence.collate)
            emit(" COLLATE ")
            let name = try dialect.collation(collation)
            if dialect.quotesCollationNames {
                guard Self.isBareName(name) else {
                    throw SQLRenderError(reason: .invalidName(
                        kind: "collation", name: name, allowed: "letters, digits and '_' only, not starting with a digit"))
                }
                emit(text: dialect.quote(identifier: name))
            } else {
                try bareName(name, kind: "collation")
            }
        case let .cast(value, type):
            try cast(value, as: type)
        case let .typed(value, type):
            if dialect.statesBoundValueTypes {
                try cast(value, as: type)
            } else {
                try self.expression(value)
            }
        case .fragment(let fragment):
            try self.fragment(fragment)
        }
    }

    /// `CAST(value AS type)`, the type named by the dialect.
    private mutating func cast(_ value: SQLExpression, as type: SQLType) throws {
        emit("CAST(")
        try self.expression(value)
        emit(" AS ")
        let name = dialect.typeName(type)
        guard Self.isTypeName(name) else {
            throw SQLRenderError(reason: .invalidName(
                kind: "type", name: name,
                allowed: "words, then at most one final list of numbers in parentheses"))
        }
        emit(text: name)
        emit(")")
    }

    private mutating func unary(_ op: SQLUnaryOperator, _ value: SQLExpression) throws {
        switch op {
        case .not:
            emit("NOT ")
            try operand(value, parenthesized: value.precedence < SQLPrecedence.not)
        case .negative, .positive, .bitwiseNot:
            emit(op == .negative ? "-" : op == .positive ? "+" : "~")
            // Only a single term follows without parentheses (`-(-x)`, never `--x`, a comment).
            try operand(value, parenthesized: value.precedence < SQLPrecedence.primary)
        case .isNull, .isNotNull:
            try operand(value, above: SQLPrecedence.comparison)
            emit(op == .isNull ? " IS NULL" : " IS NOT NULL")
        }
    }

    private mutating func binary(
        _ op: SQLBinaryOperator, _ lhs: SQLExpression, _ rhs: SQLExpression
    ) throws {
        let level = op.precedence
        switch op {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .is, .isNot, .glob:
            // Non-associative: a comparison inside a comparison is always parenthesized.
            try operand(lhs, above: level)
            emitOperator(try op.token(dialect))
            try operand(rhs, above: level)
        default:
            // Left-associative; `||` under arithmetic is parenthesized because PostgreSQL
            // binds it looser than SQLite does.
            let mixes = op != .concatenate
            try operand(lhs, parenthesized: lhs.precedence < level || (mixes && lhs.isConcatenation))
            emitOperator(try op.token(dialect))
            try operand(rhs, parenthesized: rhs.precedence <= level || (mixes && rhs.isConcatenation))
        }
    }

    /// Operands of one AND/OR list. SQLite parses `a OR b OR c …` into a tree as deep as the
    /// list is long and refuses trees deeper than 1000, so long lists are rendered as
    /// parenthesized groups of at most `logicalGroupSize` (same meaning, logarithmic depth).
    private mutating func logical(_ op: SQLBinaryOperator, _ operands: ArraySlice<SQLExpression>) throws {
        let level = op.precedence
        if operands.count <= Self.logicalGroupSize {
            for (index, operand) in operands.enumerated() {
                if index > 0 { emitOperator(try op.token(dialect)) }
                try self.operand(operand, parenthesized: operand.precedence < level)
            }
            return
        }
        let groupSize = max(Self.logicalGroupSize, (operands.count + Self.logicalGroupSize - 1) / Self.logicalGroupSize)
        var start = operands.startIndex
        while start < operands.endIndex {
            let end = min(start + groupSize, operands.endIndex)
            if start > operands.startIndex { emitOperator(try op.token(dialect)) }
            if end - start == 1 {
                try operand(operands[start], parenthesized: operands[start].precedence < level)
            } else {
                emit("(")
                try logical(op, operands[start..<end])
                emit(")")
            }
            start = end
        }
    }

    static let logicalGroupSize = 100

    private mutating func aggregate(_ aggregate: SQLAggregate) throws {
        if aggregate.quotesName {
            try identifier(aggregate.name)
        } else {
            try bareName(aggregate.name, kind: "aggregate function")
        }
        emit("(")
        if aggregate.distinct { emit("DISTINCT ") }
        try list(aggregate.arguments) { try $0.expression($1) }
        if !aggregate.ordering.isEmpty {
            emit(" ORDER BY ")
            try orderingTerms(aggregate.ordering)
        }
        emit(")")
        if let filter = aggregate.filter {
            emit(" FILTER (WHERE ")
            try expression(filter)
            emit(")")
        }
    }

    private mutating func caseWhen(
        base: SQLExpression?, branches: [SQLCaseBranch], otherwise: SQLExpression?
    ) throws {
        guard !branches.isEmpty else {
            // SQL has no CASE without WHEN; with no branch the ELSE value is the result.
            try operand(otherwise ?? .null, parenthesized: true)
            return
        }
        emit("CASE")
        if let base {
            emit(" ")
            try expression(base)
        }
        for branch in branches {
            emit(" WHEN ")
            try expression(branch.when)
            emit(" THEN ")
            try expression(branch.then)
        }
        if let otherwise {
            emit(" ELSE ")
            try expression(otherwise)
        }
        emit(" END")
    }

    mutating func fragment(_ fragment: SQLFragment) throws {
        for segment in fragment.segments {
            switch segment {
            case .sql(let text): emit(text: text)
            case .value(let value): bind(value)
            case .identifier(let name): try identifier(name)
            case .expression(let expression):
                try operand(expression, parenthesized: expression.precedence < SQLPrecedence.primary)
            case .statement(let statement): try self.statement(statement)
            }
        }
    }
}
