import CairnQuery
import CairnSQLite
import Foundation

extension FormatSQLCompiler {
    // MARK: - Expressions

    func operand(
        _ expression: FormatExpression, in scope: FormatSQLScope, variables: [String: FormatSQLScope]
    ) throws(FormatPredicateError) -> FormatSQLOperand {
        switch expression {
        case .constant(let value):
            return .constant(value)
        case .evaluatedObject:
            return .scalar(scope.column(scope.entity.primaryKey))
        case .variable(let name):
            guard let bound = variables[name] else {
                throw FormatPredicateError(
                    .missingVariable, "no value for $\(name); substitute the predicate's variables before compiling it")
            }
            return .scalar(bound.column(bound.entity.primaryKey))
        case .keyPath(let base, let path):
            switch base {
            case .evaluatedObject:
                return try resolve(path[...], in: scope)
            case .variable(let name):
                guard let bound = variables[name] else {
                    throw FormatPredicateError(.missingVariable, "no value for $\(name)")
                }
                return try resolve(path[...], in: bound)
            default:
                let baseOperand = try operand(base, in: scope, variables: variables)
                if case .collection(let collection) = baseOperand {
                    return try collectionPath(collection, path[...])
                }
                if case .constant = baseOperand {
                    let value = try FormatEvaluator(variables: [:], limits: .default).value(expression, on: .null)
                    guard case .value(let constant) = value else { break }
                    return .constant(constant)
                }
                throw unsupported("the key path \(expression.predicateFormat) cannot be expressed in SQL")
            }
            throw unsupported("the key path \(expression.predicateFormat) cannot be expressed in SQL")
        case .index(let base, .size):
            let baseOperand = try operand(base, in: scope, variables: variables)
            if case .constant(let constant) = baseOperand {
                return .constant(.int(Int64(FormatOperand(constant).elements.count)))
            }
            guard case .collection(let collection) = baseOperand else {
                throw unsupported("[SIZE] needs a to-many relationship or a SUBQUERY in SQL")
            }
            return try collectionPath(collection, ["@count"])
        case .index(.keyPath(let base, let path), .expression(.constant(.string(let key)))):
            // `owner["name"]` reads a key, as `owner.name` does.
            return try operand(.keyPath(base: base, path: path + [key]), in: scope, variables: variables)
        case .index(let base, let index):
            if case .constant = try operand(base, in: scope, variables: variables) {
                let value = try FormatEvaluator(variables: [:], limits: .default).value(expression, on: .null)
                if case .value(let constant) = value { return .constant(constant) }
            }
            var hint = ""
            if case .expression(let subscriptExpression) = index { hint = optionsHint(subscriptExpression) }
            throw unsupported("the index expression \(expression.predicateFormat) is evaluated in memory only" + hint)
        case .aggregate(let elements):
            // `{a, b}` with key paths: usable on the right of IN and BETWEEN.
            var values: [FormatValue] = []
            var operands: [FormatSQLOperand] = []
            for element in elements {
                let compiled = try operand(element, in: scope, variables: variables)
                operands.append(compiled)
                if case .constant(let value) = compiled { values.append(value) }
            }
            return values.count == operands.count ? .constant(.array(values)) : .list(operands)
        case .arithmetic(let op, let lhs, let rhs):
            let a = try operand(lhs, in: scope, variables: variables)
            let b = try operand(rhs, in: scope, variables: variables)
            if case .constant(let x) = a, case .constant(let y) = b {
                let result = try FormatEvaluator(variables: [:], limits: .default)
                    .arithmetic(op, FormatOperand(x), FormatOperand(y))
                if case .value(let value) = result { return .constant(value) }
            }
            let left = try sql(a, []), right = try sql(b, [])
            switch op {
            case .add: return .scalar(left.plus(right))
            case .subtract: return .scalar(left.minus(right))
            case .multiply: return .scalar(left.times(right))
            // In memory `/` always divides as doubles.
            case .divide: return .scalar(left.cast(as: .real).dividedBy(right.typed(as: .real)))
            case .power: return .scalar(.function("pow", left, right))
            }
        case .negate(let inner):
            let value = try operand(inner, in: scope, variables: variables)
            if case .constant(let constant) = value {
                let result = try FormatEvaluator(variables: [:], limits: .default).value(.negate(.constant(constant)), on: .null)
                if case .value(let negated) = result { return .constant(negated) }
            }
            return .scalar(try sql(value, []).negated())
        case .function(let function, let arguments):
            return try call(function, arguments, in: scope, variables: variables)
        case .customFunction(_, let selector, _):
            throw unsupported("FUNCTION(…, '\(selector)') calls a method by name, which SQL cannot do")
        case .cast(_, let type):
            throw unsupported("CAST of a key path to \(type) is evaluated in memory only")
        case .subquery(let collection, let variable, let predicate):
            guard case .collection(var rows) = try operand(collection, in: scope, variables: variables),
                rows.element == nil
            else {
                throw unsupported("SUBQUERY needs a to-many relationship as its collection in SQL")
            }
            var inner = variables
            inner[variable] = rows.scope
            let filter = try condition(predicate, in: rows.scope, variables: inner, negated: false)
            rows.condition = rows.condition.and(filter)
            return .collection(rows)
        }
    }

    /// Resolves a dotted key path from `scope`: attributes are columns, to-one relationships
    /// lead into a scalar subquery, to-many relationships into a collection.
    func resolve(_ path: ArraySlice<String>, in scope: FormatSQLScope) throws(FormatPredicateError) -> FormatSQLOperand {
        guard let key = path.first else { return .scalar(scope.column(scope.entity.primaryKey)) }
        let rest = path.dropFirst()
        let entity = scope.entity
        if let column = entity.attributes[key] {
            guard rest.isEmpty else {
                throw unsupported("'\(key)' is an attribute of \(entity.name); its key '\(rest.joined(separator: "."))' is evaluated in memory only")
            }
            return .scalar(scope.column(column))
        }
        guard let relationship = entity.relationships[key] else {
            throw FormatPredicateError(
                .unknownKey,
                "\(entity.name) has no key '\(key)'; valid keys: " + entity.validKeys.joined(separator: ", "))
        }
        let destination = relationship.destination()
        let inner = FormatSQLScope(entity: destination, alias: aliases.make())
        switch relationship.kind {
        case .toOne(let foreignKey):
            if rest.isEmpty { return .scalar(scope.column(foreignKey)) }
            guard case .scalar(let value) = try resolve(rest, in: inner) else {
                throw unsupported("the key path '\(path.joined(separator: "."))' goes through a to-one and then a to-many relationship, which SQL fetches do not support")
            }
            var select = SQLSelect([value], from: .table(destination.table, as: inner.alias))
            select.condition = inner.column(destination.primaryKey).equals(scope.column(foreignKey))
            return .scalar(.subquery(select))
        case .toMany(let foreignKey):
            var condition = inner.column(foreignKey).equals(scope.column(entity.primaryKey))
            if let restriction = destination.rowCondition(alias: inner.alias) { condition = condition.and(restriction) }
            return try collectionPath(FormatSQLCollection(scope: inner, condition: condition, element: nil), rest)
        case .manyToMany(let joinTable, let sourceColumn, let destinationColumn):
            // The destination rows paired with this row: EXISTS over the join table, so each
            // destination row counts once.
            let join = aliases.make()
            var pairs = SQLSelect([.value(.integer(1))], from: .table(joinTable, as: join))
            pairs.condition = SQLExpression.column(sourceColumn, table: join).equals(scope.column(entity.primaryKey))
                .and(SQLExpression.column(destinationColumn, table: join).equals(inner.column(destination.primaryKey)))
            var condition = SQLExpression.exists(pairs)
            if let restriction = destination.rowCondition(alias: inner.alias) { condition = condition.and(restriction) }
            return try collectionPath(FormatSQLCollection(scope: inner, condition: condition, element: nil), rest)
        }
    }

    /// The rest of a key path after a to-many relationship: nothing (the rows), an attribute
    /// (its values), `@count`, or `@sum`/`@avg`/`@min`/`@max` of an attribute.
    func collectionPath(_ rows: FormatSQLCollection, _ path: ArraySlice<String>) throws(FormatPredicateError) -> FormatSQLOperand {
        guard let key = path.first else { return .collection(rows) }
        let rest = path.dropFirst()
        switch key.lowercased() {
        case "@count":
            guard rest.isEmpty else { throw unsupported("nothing can follow @count in SQL") }
            return .scalar(.subquery(rows.select([.countAll])))
        case "@sum", "@avg", "@min", "@max":
            let values: SQLExpression
            if let element = rows.element, rest.isEmpty {
                values = element
            } else if rows.element == nil, rest.count == 1, let attribute = rest.first,
                let column = rows.scope.entity.attributes[attribute]
            {
                values = rows.scope.column(column)
            } else {
                throw unsupported("\(key) needs one attribute of the to-many relationship after it")
            }
            let aggregate: SQLExpression =
                switch key.lowercased() {
                case "@sum": .function("coalesce", .sum(values), .value(.integer(0)))
                case "@avg": .avg(values)
                case "@min": .min(values)
                default: .max(values)
                }
            return .scalar(.subquery(rows.select([aggregate])))
        default:
            guard rows.element == nil, rest.isEmpty else {
                throw unsupported("\(([key] + rest).joined(separator: ".")) after a to-many relationship is evaluated in memory only")
            }
            guard let column = rows.scope.entity.attributes[key] else {
                if rows.scope.entity.relationships[key] != nil {
                    throw unsupported("a relationship after a to-many relationship is not supported in SQL")
                }
                throw FormatPredicateError(
                    .unknownKey,
                    "\(rows.scope.entity.name) has no key '\(key)'; valid keys: "
                        + rows.scope.entity.validKeys.joined(separator: ", "))
            }
            var values = rows
            values.element = rows.scope.column(column)
            return .collection(values)
        }
    }

    // MARK: - Functions

    func call(
        _ function: FormatFunction, _ arguments: [FormatExpression], in scope: FormatSQLScope,
        variables: [String: FormatSQLScope]
    ) throws(FormatPredicateError) -> FormatSQLOperand {
        var operands: [FormatSQLOperand] = []
        for argument in arguments {
            let compiled = try operand(argument, in: scope, variables: variables)
            if case .list(let elements) = compiled { operands += elements } else { operands.append(compiled) }
        }
        if operands.allSatisfy({ if case .constant = $0 { true } else { false } }), function != .now,
            function != .random, function != .randomn
        {
            var values: [FormatOperand] = []
            for case .constant(let value) in operands { values.append(FormatOperand(value)) }
            let result = try FormatEvaluator(variables: [:], limits: .default).call(function, values)
            if case .value(let value) = result { return .constant(value) }
        }
        func single() throws(FormatPredicateError) -> SQLExpression {
            guard let first = operands.first else { throw unsupported("\(function.rawValue)() needs an argument") }
            return try sql(first, [])
        }
        switch function {
        case .now: return .constant(.date(now))
        case .random, .randomn: throw unsupported("\(function.rawValue)() is not supported in SQL fetches")
        case .lowercase: return .scalar(.function("cairn_lower", try single()))
        case .uppercase: return .scalar(.function("cairn_upper", try single()))
        case .abs: return .scalar(.function("abs", try single()))
        case .sqrt: return .scalar(.function("sqrt", try single()))
        case .floor: return .scalar(.function("floor", try single()))
        case .ceiling: return .scalar(.function("ceil", try single()))
        case .trunc: return .scalar(.function("trunc", try single()))
        case .ln: return .scalar(.function("ln", try single()))
        case .log: return .scalar(.function("log10", try single()))
        case .exp: return .scalar(.function("exp", try single()))
        case .modulus:
            guard operands.count == 2 else { throw unsupported("modulus() needs two arguments") }
            return .scalar(.function("mod", try sql(operands[0], []), try sql(operands[1], [])))
        case .sum, .count, .min, .max, .average:
            if operands.count == 1, case .collection(let rows) = operands[0] {
                if function == .count { return try collectionPath(rows, ["@count"]) }
                guard rows.element != nil else { throw unsupported("\(function.rawValue)() needs values, not objects") }
                let key = function == .average ? "@avg" : "@" + function.rawValue
                return try collectionPath(rows, [key])
            }
            return try listAggregate(function, operands)
        case .median, .mode, .stddev:
            throw unsupported("\(function.rawValue)() is evaluated in memory only")
        }
    }

    /// `sum({a, b, 1})` and friends over values of one row: `(SELECT coalesce(SUM(cairn_value), 0)
    /// FROM (SELECT (a) AS cairn_value UNION ALL SELECT (b) UNION ALL SELECT (?)) AS cairn_values)`,
    /// which ignores NULLs as the in-memory aggregate does. The derived table is named because
    /// PostgreSQL requires it; the aggregate is IR, so each dialect spells it (PostgreSQL
    /// averages in doubles, as SQLite does).
    func listAggregate(_ function: FormatFunction, _ operands: [FormatSQLOperand]) throws(FormatPredicateError) -> FormatSQLOperand {
        var values: [SQLExpression] = []
        for operand in operands {
            switch operand {
            case .constant(.array(let elements)):
                for element in elements { values.append(try sql(.constant(element), [])) }
            default:
                values.append(try sql(operand, []))
            }
        }
        guard !values.isEmpty else { return .constant(function == .count || function == .sum ? .int(0) : .null) }
        let value = SQLExpression.raw("cairn_value")
        let aggregate: SQLExpression =
            switch function {
            case .sum: .function("coalesce", .sum(value), .raw("0"))
            case .count: .count(value)
            case .min: .min(value)
            case .max: .max(value)
            default: .avg(value)
            }
        var fragment: SQLFragment = "(SELECT \(aggregate) FROM ("
        for (index, value) in values.enumerated() {
            let row: SQLFragment = index == 0 ? "SELECT (\(value)) AS cairn_value" : " UNION ALL SELECT (\(value))"
            fragment = fragment + row
        }
        return .scalar(.raw(fragment + ") AS cairn_values)"))
    }
}
