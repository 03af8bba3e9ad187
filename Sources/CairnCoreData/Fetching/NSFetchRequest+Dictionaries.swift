import Cairn
import Foundation

/// One value of each dictionary a `.dictionaryResultType` fetch returns: its key, the SQL that
/// computes it, and what its value is made from.
struct DictionaryColumn {
    /// The key: the property name, or the ``NSPropertyDescription/name`` of a description.
    let name: String
    /// The SQL computing the value (an aggregate for `sum:`, `average:`, `min:`, `max:`,
    /// `count:`).
    let expression: SQLExpression
    /// The aggregate function, if the value is one.
    let aggregate: FormatFunction?
    /// The attribute the value comes from (a plain property, or the key path an aggregate
    /// reads), for its type.
    let source: String?
    /// The type asked for by an ``NSExpressionDescription``.
    let resultType: NSAttributeType

    var isAggregate: Bool { aggregate != nil }
}

extension NSFetchRequest {
    /// The columns of a dictionary fetch, in ``propertiesToFetch`` order (every attribute, by
    /// name, when it is nil or empty).
    func dictionaryColumns(for entity: FormatSQLEntity) throws(FormatPredicateError) -> [DictionaryColumn] {
        let fetched = propertiesToFetch.flatMap { $0.isEmpty ? nil : $0 } ?? entity.attributes.keys.sorted()
        var columns: [DictionaryColumn] = []
        for property in fetched { columns.append(try Self.column(property, for: entity, grouping: false)) }
        return columns
    }

    /// The `GROUP BY` terms of ``propertiesToGroupBy``, with their names.
    func groupingColumns(for entity: FormatSQLEntity) throws(FormatPredicateError) -> [DictionaryColumn] {
        var columns: [DictionaryColumn] = []
        for property in propertiesToGroupBy ?? [] { columns.append(try Self.column(property, for: entity, grouping: true)) }
        return columns
    }

    private static func column(_ property: Any, for entity: FormatSQLEntity, grouping: Bool)
        throws(FormatPredicateError) -> DictionaryColumn
    {
        let list = grouping ? "propertiesToGroupBy" : "propertiesToFetch"
        if let name = property as? String {
            if name == objectIDKey, entity.attributes[name] == nil { return objectIDColumn(named: name, entity) }
            let term = try FormatSortDescriptor(key: name).sqlOrderingTerm(for: entity)
            return DictionaryColumn(name: name, expression: term.expression, aggregate: nil, source: name,
                                    resultType: .undefinedAttributeType)
        }
        if let description = property as? NSExpressionDescription {
            guard !description.name.isEmpty else {
                throw FormatPredicateError(.unsupported, "an NSExpressionDescription in \(list) has no name (the key of its value)")
            }
            guard let expression = description.expression else {
                throw FormatPredicateError(.unsupported, "the NSExpressionDescription '\(description.name)' has no expression")
            }
            if let error = expression.expressionError { throw error }
            let tree = expression.formatExpression
            if case .evaluatedObject = tree { return objectIDColumn(named: description.name, entity) }
            if case .function(let function, let arguments) = tree, Self.rowAggregates.contains(function) {
                guard !grouping else {
                    throw FormatPredicateError(
                        .unsupported, "'\(description.name)' in propertiesToGroupBy is an aggregate (\(expression)); group by values")
                }
                guard arguments.count == 1 else {
                    throw FormatPredicateError(
                        .unsupported, "\(function.selectorName) in '\(description.name)' aggregates one key path; it has \(arguments.count) arguments")
                }
                let argument = try arguments[0].sqlExpression(for: entity)
                let sql: SQLExpression
                switch function {
                case .sum: sql = .sum(argument)
                case .average: sql = .avg(argument)
                case .min: sql = .min(argument)
                case .max: sql = .max(argument)
                default: sql = .count(argument)
                }
                var source: String?
                if case .keyPath(.evaluatedObject, let path) = arguments[0] { source = path.joined(separator: ".") }
                return DictionaryColumn(name: description.name, expression: sql, aggregate: function, source: source,
                                        resultType: description.expressionResultType)
            }
            var source: String?
            if case .keyPath(.evaluatedObject, let path) = tree { source = path.joined(separator: ".") }
            return DictionaryColumn(name: description.name, expression: try tree.sqlExpression(for: entity), aggregate: nil,
                                    source: source, resultType: description.expressionResultType)
        }
        if let description = property as? NSPropertyDescription, !description.name.isEmpty {
            return try column(description.name, for: entity, grouping: grouping)
        }
        throw FormatPredicateError(
            .unsupported,
            "\(list) holds a \(type(of: property)); it takes property names (String), NSPropertyDescription and NSExpressionDescription")
    }

    /// Core Data's key for each row's object ID among the fetched properties.
    private static var objectIDKey: String { "objectID" }

    /// The column of each row's ``NSManagedObjectID``: `"objectID"` in `propertiesToFetch`, or
    /// an expression description of `NSExpression.expressionForEvaluatedObject()` (Core Data's
    /// two spellings). The primary key is read and made an identifier.
    private static func objectIDColumn(named name: String, _ entity: FormatSQLEntity) -> DictionaryColumn {
        DictionaryColumn(name: name, expression: .column(entity.primaryKey, table: entity.table), aggregate: nil,
                         source: nil, resultType: .objectIDAttributeType)
    }

    /// The functions that aggregate over the fetched rows when they are an expression
    /// description's whole expression.
    private static var rowAggregates: Set<FormatFunction> { [.sum, .average, .min, .max, .count] }
}

extension DictionaryColumn {
    /// The dictionary's value for a column value (nil for NULL, which leaves the key out).
    ///
    /// Plain properties come as the attribute's Swift value (as a fetch of objects reads it);
    /// computed values as Core Data returns them: numbers as `NSNumber`, dates as `Date`,
    /// strings as `String`.
    /// An object ID column makes the row's identifier in `store`.
    func value(from value: DatabaseValue, entity: Schema.Entity, store: String) throws -> Any? {
        if value.isNull { return nil }
        let attribute = source.flatMap { entity.attributesByName[$0] }
        switch resultType {
        case .objectIDAttributeType:
            guard case .integer(let key) = value else {
                throw FormatPredicateError(.evaluation, "'\(name)': a row of \(entity.name) has the primary key \(value), not an integer")
            }
            return try PersistentIdentifier.identifier(for: store, entityName: entity.name, primaryKey: key)
        case .undefinedAttributeType:
            switch aggregate {
            case .count?: return try Self.integer(value, name)
            case .average?: return try Self.double(value, name)
            case nil:
                if let attribute { return try attribute.value(from: value) }
                return value.plainValue
            default:
                if let attribute {
                    let converted = try attribute.value(from: value)
                    switch converted {
                    case let int as Int: return NSNumber(value: int)
                    case let double as Double: return NSNumber(value: double)
                    case let bool as Bool: return NSNumber(value: bool)
                    default: return converted
                    }
                }
            }
            switch value {
            case .integer(let int): return NSNumber(value: int)
            case .real(let double): return NSNumber(value: double)
            default: return value.plainValue
            }
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return try Self.integer(value, name)
        case .doubleAttributeType, .floatAttributeType:
            return try Self.double(value, name)
        case .decimalAttributeType:
            return NSDecimalNumber(decimal: try Self.double(value, name).decimalValue)
        case .booleanAttributeType:
            return NSNumber(value: try Self.integer(value, name).int64Value != 0)
        case .dateAttributeType:
            return Date(timeIntervalSinceReferenceDate: try Self.double(value, name).doubleValue)
        case .stringAttributeType:
            switch value {
            case .text(let text): return text
            case .integer(let int): return String(int)
            case .real(let double): return String(double)
            default: break
            }
        default:
            break
        }
        if let attribute { return try attribute.value(from: value) }
        return value.plainValue
    }

    private static func integer(_ value: DatabaseValue, _ name: String) throws -> NSNumber {
        switch value {
        case .integer(let int): return NSNumber(value: int)
        case .real(let double):
            guard let int = Int64(exactly: double.rounded(.towardZero)) else {
                throw FormatPredicateError(.evaluation, "'\(name)' is \(double), which no 64-bit integer holds")
            }
            return NSNumber(value: int)
        default:
            throw FormatPredicateError(.evaluation, "'\(name)' is \(value), not a number")
        }
    }

    private static func double(_ value: DatabaseValue, _ name: String) throws -> NSNumber {
        switch value {
        case .integer(let int): return NSNumber(value: Double(int))
        case .real(let double): return NSNumber(value: double)
        default: throw FormatPredicateError(.evaluation, "'\(name)' is \(value), not a number")
        }
    }
}
