import Foundation

/// A value a format predicate can read keys from: what `evaluate(with:)` needs of an object.
///
/// `[String: Any]` dictionaries conform; `@Model` classes conform through the code the macro
/// generates, returning each persisted property (and relationship: a model, or an array of
/// models) by its name.
///
/// ```swift
/// final class Expense: KeyValueReadable {
///     var name = "Coffee"; var amount = 4.5
///     func value(forKey key: String) -> Any? {
///         switch key { case "name": name; case "amount": amount; default: nil }
///     }
/// }
/// try FormatPredicate("amount < 5").evaluate(with: Expense())   // true
/// ```
public protocol KeyValueReadable {
    /// The value stored under `key`, or `nil` when there is none (an unknown key reads as
    /// `nil`, as a missing dictionary key does).
    func value(forKey key: String) -> Any?
}

extension Dictionary: KeyValueReadable where Key == String {
    /// The value stored under `key`, or `nil` when the dictionary has none.
    ///
    /// ```swift
    /// ["name": "Coffee"].value(forKey: "name")   // "Coffee"
    /// ```
    public func value(forKey key: String) -> Any? { self[key] }
}

/// An object that `@count` counts as a whole (a dictionary's entries), where any other object
/// counts as one.
protocol KeyValueCountable {
    var keyValueCount: Int { get }
}

extension Dictionary: KeyValueCountable where Key == String {
    var keyValueCount: Int { count }
}

extension FormatValue {
    /// NSNumber's key-value readable accessors on a number or Boolean (`scores.@avg.doubleValue`,
    /// `flag.intValue`): `nil` for another key or another kind of value.
    func numberKeyValue(_ key: String) -> FormatValue? {
        let number: FormatNumber
        switch self {
        case .int(let int): number = .int(int)
        case .double(let double): number = .double(double)
        case .bool(let bool): number = .int(bool ? 1 : 0)
        default: return nil
        }
        switch key {
        case "intValue", "integerValue", "longValue", "longLongValue", "shortValue", "charValue",
             "unsignedIntValue", "unsignedIntegerValue", "unsignedLongValue", "unsignedLongLongValue",
             "unsignedShortValue", "unsignedCharValue":
            switch number {
            case .int(let int): return .int(int)
            // NSNumber truncates toward zero; a value beyond Int64 saturates rather than trap.
            case .double(let double):
                return .int(double.isNaN ? 0 : Int64(exactly: double.rounded(.towardZero))
                    ?? (double < 0 ? Int64.min : Int64.max))
            }
        case "doubleValue":
            return .double(number.double)
        case "floatValue":
            return .double(Double(Float(number.double)))
        case "boolValue":
            return .bool(number.double != 0)
        case "stringValue":
            switch number {
            case .int(let int): return .string(String(int))
            case .double(let double): return .string(NSNumber(value: double).stringValue)
            }
        default:
            return nil
        }
    }
}

/// A value met while evaluating: a constant, an object that answers keys, or a collection.
enum FormatOperand {
    case value(FormatValue)
    case object(any KeyValueReadable)
    case collection([FormatOperand])

    static var null: FormatOperand { .value(.null) }

    init(_ value: FormatValue) {
        if case .array(let elements) = value {
            self = .collection(elements.map(FormatOperand.init))
        } else {
            self = .value(value)
        }
    }

    /// Wraps a value read from an object (or passed to `evaluate(with:)`).
    init(reading any: Any?) {
        guard let any = unwrapOptional(any) else {
            self = .null
            return
        }
        switch any {
        case let operand as FormatOperand: self = operand
        case let readable as any KeyValueReadable: self = .object(readable)
        case let model as any PersistentModel: self = .object(PersistentModelReader(model: model))
        case is String, is Substring, is NSNumber, is Bool, is Int, is Double, is Date, is Data, is UUID,
            is NSNull, is any FormatValueConvertible, is FormatValue, is URL, is Decimal:
            self = FormatValue(converting: any).map(FormatOperand.init) ?? .null
        case let dictionary as [AnyHashable: Any]:
            self = .collection(dictionary.values.map { FormatOperand(reading: $0) })
        case let sequence as any Sequence:
            var elements: [FormatOperand] = []
            for element in sequence { elements.append(FormatOperand(reading: element)) }
            self = .collection(elements)
        default:
            self = FormatValue(converting: any).map(FormatOperand.init) ?? .null
        }
    }

    var isNull: Bool {
        if case .value(.null) = self { return true }
        return false
    }

    /// The elements an aggregate qualifier or operator ranges over: a collection's elements,
    /// nothing for nil, and the value itself otherwise.
    var elements: [FormatOperand] {
        switch self {
        case .collection(let elements): elements
        case .value(.null): []
        default: [self]
        }
    }

    var string: String? {
        if case .value(.string(let string)) = self { return string }
        return nil
    }

    /// The value as a number, for arithmetic and numeric comparison.
    var number: FormatNumber? {
        switch self {
        case .value(.int(let int)): .int(int)
        case .value(.double(let double)): .double(double)
        case .value(.bool(let bool)): .int(bool ? 1 : 0)
        default: nil
        }
    }

    var kindName: String {
        switch self {
        case .value(let value): value.kindName
        case .object: "object"
        case .collection: "collection"
        }
    }

    /// Back to a Swift value, for `FormatExpression.value(with:)`.
    var anyValue: Any? {
        switch self {
        case .value(let value):
            switch value {
            case .null: nil
            case .bool(let bool): bool
            case .int(let int): int
            case .double(let double): double
            case .string(let string): string
            case .date(let date): date
            case .data(let data): data
            case .uuid(let uuid): uuid
            case .array(let values): values.map { FormatOperand($0).anyValue }
            case .identifier(let identifier): identifier
            case .opaque(let value): value.base
            }
        case .object(let object): object
        case .collection(let elements): elements.map(\.anyValue)
        }
    }
}

/// An integer or floating-point number, compared and combined as Foundation's NSNumber does.
enum FormatNumber {
    case int(Int64)
    case double(Double)

    var double: Double {
        switch self {
        case .int(let int): Double(int)
        case .double(let double): double
        }
    }

    func compare(_ other: FormatNumber) -> ComparisonResult {
        switch (self, other) {
        case (.int(let a), .int(let b)):
            return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
        default:
            let a = double, b = other.double
            return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
        }
    }

    var operand: FormatOperand {
        switch self {
        case .int(let int): .value(.int(int))
        case .double(let double): .value(.double(double))
        }
    }
}
