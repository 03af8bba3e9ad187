import CairnQuery
import CairnSQLite
import Foundation

/// Compiles format predicates to the query IR. `negated` tells whether the condition sits
/// under a `NOT`: there, comparisons that SQL would make NULL are wrapped in `coalesce(…, 0)`
/// so they stay false, as in memory.
struct FormatSQLCompiler {
    let aliases: FormatSQLAliasCounter
    let now: Date

    func unsupported(_ message: String) -> FormatPredicateError {
        FormatPredicateError(.unsupported, message)
    }

    // MARK: - Predicates

    func condition(
        _ predicate: FormatPredicate, in scope: FormatSQLScope, variables: [String: FormatSQLScope], negated: Bool
    ) throws(FormatPredicateError) -> SQLExpression {
        switch predicate {
        case .constant(let value):
            return value ? .true : .false
        case .and(let operands):
            var conditions: [SQLExpression] = []
            for operand in operands {
                conditions.append(try condition(operand, in: scope, variables: variables, negated: negated))
            }
            return .and(conditions)
        case .or(let operands):
            var conditions: [SQLExpression] = []
            for operand in operands {
                conditions.append(try condition(operand, in: scope, variables: variables, negated: negated))
            }
            return .or(conditions)
        case .not(let operand):
            return try condition(operand, in: scope, variables: variables, negated: !negated).not()
        case .comparison(let comparison):
            return try self.comparison(comparison, in: scope, variables: variables, negated: negated)
        }
    }

    func comparison(
        _ comparison: FormatComparison, in scope: FormatSQLScope, variables: [String: FormatSQLScope], negated: Bool
    ) throws(FormatPredicateError) -> SQLExpression {
        let lhs = try operand(comparison.lhs, in: scope, variables: variables)
        let rhs = try operand(comparison.rhs, in: scope, variables: variables)
        let op = comparison.operatorType, options = comparison.options
        if op == .matches, case .constant(.string(let pattern)) = rhs {
            // A bad pattern known now fails here, naming the comparison, not inside SQLite.
            do {
                try FormatRegularExpression.check(pattern, options)
            } catch {
                throw error.within(comparison)
            }
        }

        if case .collection(let collection) = lhs {
            // The objects themselves compare by primary key (with identifiers or models).
            let element = collection.element ?? collection.scope.column(collection.scope.entity.primaryKey)
            switch comparison.modifier {
            case .any:
                let test = try self.test(.scalar(element), op, rhs, options, negated: false)
                return .exists(collection.select([.value(.integer(1))], where: test))
            case .all:
                let test = try self.test(.scalar(element), op, rhs, options, negated: true)
                return .notExists(collection.select([.value(.integer(1))], where: test.not()))
            case .direct:
                guard op == .contains else {
                    throw unsupported("'\(op.rawValue)' on a to-many key path needs ANY, ALL or NONE")
                }
                let test = try self.test(.scalar(element), .equalTo, rhs, options, negated: false)
                return .exists(collection.select([.value(.integer(1))], where: test))
            }
        }
        if op == .in, case .collection(let collection) = rhs {
            let element = collection.element ?? collection.scope.column(collection.scope.entity.primaryKey)
            let test = try self.test(lhs, .equalTo, .scalar(element), options, negated: false)
            return .exists(collection.select([.value(.integer(1))], where: test))
        }
        // ANY/ALL on a single value mean the comparison itself, as in memory.
        return try test(lhs, op, rhs, options, negated: negated)
    }

    // MARK: - One comparison of two values

    func test(
        _ lhs: FormatSQLOperand, _ op: FormatOperator, _ rhs: FormatSQLOperand,
        _ options: FormatComparisonOptions, negated: Bool
    ) throws(FormatPredicateError) -> SQLExpression {
        if case .constant(let a) = lhs, case .constant(let b) = rhs {
            // Both sides known: decide now, with the in-memory evaluator.
            let evaluator = FormatEvaluator(variables: [:], limits: .default)
            return try evaluator.test(FormatOperand(a), op, FormatOperand(b), options) ? .true : .false
        }
        let folding = options.intersection([.caseInsensitive, .diacriticInsensitive])
        func twoValued(_ expression: SQLExpression) -> SQLExpression {
            negated ? .function("coalesce", expression, .false) : expression
        }
        switch op {
        case .equalTo where Self.isValue(lhs) || Self.isValue(rhs):
            // Against a value that is not nil, `=` answers as `IS` (two-valued under NOT) and
            // lets PostgreSQL use an index, which it does not for `IS NOT DISTINCT FROM`.
            return twoValued(try sql(lhs, folding).equals(try sql(rhs, folding)))
        case .equalTo, .notEqualTo:
            let equal = try equality(lhs, rhs, folding)
            return op == .equalTo ? equal : equal.not()
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            let a = try sql(lhs, folding), b = try sql(rhs, folding)
            let binary: SQLBinaryOperator =
                switch op {
                case .lessThan: .less
                case .lessThanOrEqualTo: .lessOrEqual
                case .greaterThan: .greater
                default: .greaterOrEqual
                }
            return twoValued(.binary(binary, a, b))
        case .between:
            let bounds: [FormatSQLOperand]
            switch rhs {
            case .constant(.array(let values)) where values.count == 2: bounds = values.map { .constant($0) }
            case .list(let values) where values.count == 2: bounds = values
            case .scalar: throw unsupported("BETWEEN needs two bounds written {low, high} or passed as an array")
            default: throw FormatPredicateError(.evaluation, "BETWEEN needs a collection of two bounds, such as {1, 10}")
            }
            return twoValued(try sql(lhs, folding).between(try sql(bounds[0], folding), and: try sql(bounds[1], folding)))
        case .in:
            switch rhs {
            case .constant(.array(let values)):
                let value = try sql(lhs, folding)
                var list: [SQLExpression] = []
                var includesNull = false
                for element in values {
                    if case .null = element { includesNull = true } else { list.append(try sql(.constant(element), folding)) }
                }
                let membership = twoValued(value.in(list))
                return includesNull ? membership.or(value.isNull()) : membership
            case .constant(.string(let haystack)):
                let needle = try sql(lhs, folding)
                return twoValued(.function("instr", .value(.text(FormatEvaluator.fold(haystack, folding))), needle)
                    .greaterThan(.value(.integer(0))))
            case .list(let elements):
                var list: [SQLExpression] = []
                for element in elements { list.append(try sql(element, folding)) }
                return twoValued(try sql(lhs, folding).in(list))
            case .constant(.null):
                return .false
            case .constant:
                return try equality(lhs, rhs, folding)
            default:
                return try stringTest(lhs, op, rhs, options, negated: negated)
            }
        case .contains, .beginsWith, .endsWith, .like:
            if op == .contains {
                switch lhs {
                case .constant(.array), .list: return try test(rhs, .in, lhs, options, negated: negated)
                default: break
                }
            }
            guard case .constant(let constant) = rhs else {
                return try stringTest(lhs, op, rhs, options, negated: negated)
            }
            guard case .string(let pattern) = constant else { return .false }
            let text = try sql(lhs, folding)
            let folded = FormatEvaluator.fold(pattern, folding)
            if op == .beginsWith, folding.isEmpty {
                return twoValued(Self.prefixRange(text, prefix: pattern))
            }
            let glob: String
            switch op {
            case .contains: glob = "*" + SQLPattern.escapingGlob(folded) + "*"
            case .beginsWith: glob = SQLPattern.escapingGlob(folded) + "*"
            case .endsWith: glob = "*" + SQLPattern.escapingGlob(folded)
            default: glob = Self.glob(fromLike: folded)
            }
            return twoValued(text.glob(.value(.text(glob))))
        case .matches:
            let text = try sql(lhs, [])
            let pattern = try sql(rhs, [])
            return .function("cairn_regexp", pattern, text, .value(.integer(Int64(options.rawValue))))
        }
    }

    /// Whether an operand is a constant with an SQL value other than NULL.
    static func isValue(_ operand: FormatSQLOperand) -> Bool {
        guard case .constant(let value) = operand else { return false }
        // A fetch shape's stand-in is a value other than NULL (`fetchShape()` takes out no nil).
        if case .opaque(let opaque) = value, opaque.parameterIndex != nil { return true }
        return value.databaseValue.map { !$0.isNull } == true
    }

    /// `a IS b` (null-safe, so never NULL), folding strings for `[c]`/`[d]`.
    func equality(_ lhs: FormatSQLOperand, _ rhs: FormatSQLOperand, _ folding: FormatComparisonOptions)
        throws(FormatPredicateError) -> SQLExpression
    {
        if case .constant(.null) = rhs { return try sql(lhs, []).isNull() }
        if case .constant(.null) = lhs { return try sql(rhs, []).isNull() }
        return try sql(lhs, folding).is(try sql(rhs, folding))
    }

    /// String operators whose right side is not a constant run the in-memory code in SQL.
    func stringTest(
        _ lhs: FormatSQLOperand, _ op: FormatOperator, _ rhs: FormatSQLOperand,
        _ options: FormatComparisonOptions, negated: Bool
    ) throws(FormatPredicateError) -> SQLExpression {
        .function(
            "cairn_string_test", .value(.text(op.rawValue)), try sql(lhs, []), try sql(rhs, []),
            .value(.integer(Int64(options.rawValue))))
    }

    /// The SQL of a scalar operand; constants are bound (strings folded in Swift), columns are
    /// folded with `cairn_fold`.
    func sql(_ operand: FormatSQLOperand, _ folding: FormatComparisonOptions) throws(FormatPredicateError) -> SQLExpression {
        switch operand {
        case .constant(let value):
            if case .string(let string) = value, !folding.isEmpty {
                return .value(.text(FormatEvaluator.fold(string, folding)))
            }
            guard let bound = value.databaseValue else {
                if case .opaque(let opaque) = value, let index = opaque.parameterIndex { return .parameter(index) }
                if case .identifier = value {
                    throw unsupported("the model \(value.predicateFormat) has not been saved, so it has no row to compare with")
                }
                if case .opaque(let opaque) = value {
                    throw unsupported(
                        "a \(opaque.typeName) (\(opaque)) has no SQL value; pass a String, number, Date, Data, UUID or "
                            + "model, or conform \(opaque.typeName) to FormatValueConvertible")
                }
                throw unsupported("a list \(value.predicateFormat) cannot stand where one value is expected")
            }
            return .value(bound)
        case .scalar(let expression):
            return folding.isEmpty ? expression : .function("cairn_fold", expression, .value(.integer(Int64(folding.rawValue))))
        case .collection:
            throw unsupported("a to-many key path cannot stand where one value is expected; use ANY, ALL, @count or a SUBQUERY")
        case .list(let elements):
            throw unsupported("a list of \(elements.count) values cannot stand where one value is expected")
        }
    }

    // MARK: - Patterns

    /// `text >= prefix AND text < next`, where `next` is the smallest string above every string
    /// that starts with `prefix` (its last scalar incremented), so an index on the column works.
    static func prefixRange(_ text: SQLExpression, prefix: String) -> SQLExpression {
        var scalars = Array(prefix.unicodeScalars)
        let lower = text.greaterThanOrEqual(.value(.text(prefix)))
        while let last = scalars.popLast() {
            var value = last.value + 1
            if value == 0xD800 { value = 0xE000 }
            if let next = Unicode.Scalar(value) {
                var upper = String.UnicodeScalarView()
                upper.append(contentsOf: scalars)
                upper.append(next)
                return lower.and(text.lessThan(.value(.text(String(upper)))))
            }
        }
        return lower
    }

    /// A LIKE pattern (`*`, `?`, `\` escapes) as a GLOB pattern; SQL's `%` and `_` stay
    /// literal characters. Both read the pattern by Unicode scalar, as the in-memory match
    /// does: `?` matches one scalar, and a `*` followed by a combining mark is still a
    /// wildcard.
    static func glob(fromLike pattern: String) -> String {
        var result = ""
        var escaping = false
        for scalar in pattern.unicodeScalars {
            if escaping {
                result += SQLPattern.escapingGlob(String(scalar))
                escaping = false
                continue
            }
            switch scalar {
            case "\\": escaping = true
            case "*", "?": result.unicodeScalars.append(scalar)
            default: result += SQLPattern.escapingGlob(String(scalar))
            }
        }
        if escaping { result += SQLPattern.escapingGlob("\\") }
        return result
    }
}
