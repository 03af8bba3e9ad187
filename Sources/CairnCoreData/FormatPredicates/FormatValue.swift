import Foundation

/// A constant in a format predicate: a literal written in the format string, or a Swift value
/// passed for `%@`, `%d`, `%f`, `%s` or a `$VARIABLE`, stored in the parsed tree (never spliced
/// into text).
///
/// ```swift
/// let predicate = try FormatPredicate("name == %@", arguments: ["Trader Joe's"])
/// // name == "Trader Joe's"      (SQL: "Expense"."name" IS ?  with "Trader Joe's" bound)
/// ```
public enum FormatValue: Sendable, Hashable {
    /// `NULL` / `NIL`, Swift `nil`, `NSNull`.
    case null
    /// `TRUE` / `YES`, `FALSE` / `NO`, a Swift `Bool`.
    case bool(Bool)
    /// An integer literal (decimal, `0x`, `0o`, `0b`) or a Swift integer.
    case int(Int64)
    /// A floating-point literal or a Swift `Double`/`Float`/`Decimal`.
    case double(Double)
    /// A quoted literal or a Swift `String`.
    case string(String)
    /// A `Date` (written `CAST(<seconds since 2001-01-01>, "NSDate")`).
    case date(Date)
    /// `Data` (written `CAST("<base64>", "NSData")`).
    case data(Data)
    /// A `UUID` (written `CAST("<uuid>", "NSUUID")`).
    case uuid(UUID)
    /// `{a, b, …}`, a Swift array or set, or the values of a dictionary.
    case array([FormatValue])
    /// A `@Model` object or its `PersistentIdentifier` (written
    /// `CAST("Entity/42", "PersistentIdentifier")`): matches the model with that identity; in
    /// SQL, its primary key.
    case identifier(PersistentIdentifier)
    /// A value of another type passed for `%@` (an `NSObject`, a `Hashable` struct, an object
    /// of your own): compared only for equality, as Core Data compares with `isEqual:`. It has
    /// no SQL form (conform its type to ``FormatValueConvertible`` to fetch with it).
    case opaque(FormatOpaqueValue)
}

/// A value the format language has no literal for, compared as Core Data's `isEqual:` does:
/// by `==` for a `Hashable` type (for an `NSObject`, that is its `isEqual(_:)`), by identity
/// for an instance of another class.
///
/// ```swift
/// let tag = Tag(name: "work")            // struct Tag: Hashable
/// try FormatPredicate("SELF == %@", arguments: [tag]).evaluate(with: Tag(name: "work"))   // true
/// try FormatPredicate("SELF IN %@", arguments: [[tag]]).evaluate(with: tag)               // true
/// ```
public struct FormatOpaqueValue: Hashable, CustomStringConvertible, @unchecked Sendable {
    // @unchecked Sendable: a parsed tree is Sendable, and this holds a caller's value that
    // Swift cannot check (a `%@` argument is `Any`, as Core Data's is `id`). Cairn never
    // mutates it and calls only its `==`, `hash(into:)` and `description`; a class instance
    // compared by identity is only held, never read. A Hashable class whose equality reads
    // state another thread mutates is the caller's race, as it would be with Core Data's
    // (non-Sendable) NSPredicate holding it.
    private enum Key: Hashable {
        case value(AnyHashable)
        case identity(ObjectIdentifier)
        /// A fetch shape's bound value (``init(parameter:)``), compared as a number: a fetch
        /// compares its shape with the cached one's.
        case parameter(Int)
    }

    private let key: Key
    /// The value as it was passed (it keeps an instance compared by identity alive, so that
    /// its identifier is not reused).
    public let base: Any

    /// The value, or `nil` for a value that is neither `Hashable` nor a class instance (there
    /// is no way to compare it).
    init?(_ value: Any) {
        if let hashable = value as? AnyHashable {
            key = .value(hashable)
        } else if type(of: value) is AnyClass {
            key = .identity(ObjectIdentifier(value as AnyObject))
        } else {
            return nil
        }
        base = value
    }

    /// The stand-in for bound value `index` of a fetch shape (``FormatPredicate/fetchShape()``),
    /// a type no caller can pass.
    init(parameter index: Int) {
        key = .parameter(index)
        base = FormatFetchParameter(index: index)
    }

    /// The bound value this stands for in a fetch shape, or `nil` for a caller's value.
    var parameterIndex: Int? {
        if case .parameter(let index) = key { return index }
        return nil
    }

    public static func == (lhs: FormatOpaqueValue, rhs: FormatOpaqueValue) -> Bool { lhs.key == rhs.key }

    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// The value's own description, as Core Data prints an object in a predicate's format.
    public var description: String { String(describing: base) }

    /// The value's type, for error messages.
    var typeName: String { String(describing: type(of: base)) }
}

extension FormatValue {
    /// Converts a Swift value given as a format argument or substitution variable.
    ///
    /// Accepts `nil`/`NSNull`, `Bool`, every integer and floating-point type, `Decimal`,
    /// `NSNumber`, `String`/`Substring`/`Character`/`NSString`, `Date`/`NSDate`, `Data`,
    /// `UUID`, `URL`, arrays, sets and dictionaries (their values) of those, and
    /// ``FormatValueConvertible`` values; any other `Hashable` value or class instance as
    /// ``opaque(_:)``. Returns `nil` for anything else.
    public init?(converting value: Any?) {
        if let value, let common = Self.common(value) {
            self = common
            return
        }
        guard let value = unwrapOptional(value) else {
            self = .null
            return
        }
        switch value {
        case let formatValue as FormatValue: self = formatValue
        case let convertible as any FormatValueConvertible: self = convertible.formatValue
        case is NSNull: self = .null
        // Strings and arrays before NSNumber: casting them to a class bridges them to NSString
        // or NSArray first, which costs more than the whole parse.
        case let string as String: self = .string(string)
        case let array as [Any]:
            var values: [FormatValue] = []
            values.reserveCapacity(array.count)
            for element in array {
                guard let converted = FormatValue(converting: element) else { return nil }
                values.append(converted)
            }
            self = .array(values)
        case let bool as Bool: self = .bool(bool)
        case let int as Int: self = .int(Int64(int))
        case let double as Double: self = .double(double)
        case let number as NSNumber: self = FormatValue(number: number)
        case let substring as Substring: self = .string(String(substring))
        case let character as Character: self = .string(String(character))
        case let identifier as PersistentIdentifier: self = .identifier(identifier)
        case let model as any PersistentModel: self = .identifier(model.persistentModelID)
        case let date as Date: self = .date(date)
        case let data as Data: self = .data(data)
        case let uuid as UUID: self = .uuid(uuid)
        case let url as URL: self = .string(url.absoluteString)
        case let decimal as Decimal: self = .double(NSDecimalNumber(decimal: decimal).doubleValue)
        default:
            if let number = integerOrFloat(value) {
                self = number
            } else if let dictionary = value as? [AnyHashable: Any] {
                var values: [FormatValue] = []
                for key in dictionary.keys.sorted(by: { "\($0)" < "\($1)" }) {
                    guard let element = FormatValue(converting: dictionary[key]) else { return nil }
                    values.append(element)
                }
                self = .array(values)
            } else if let sequence = value as? any Sequence {
                var values: [FormatValue] = []
                for element in sequence {
                    guard let converted = FormatValue(converting: element) else { return nil }
                    values.append(converted)
                }
                self = .array(values)
            } else if let opaque = FormatOpaqueValue(value) {
                self = .opaque(opaque)
            } else {
                return nil
            }
        }
    }

    /// The value of an argument of the types format strings take most, recognized by its
    /// exact dynamic type; `nil` for any other. The general path tries one runtime cast after
    /// another (an `Optional`, then `FormatValue`, `FormatValueConvertible`, `NSNull`,
    /// `String`, arrays, `Bool`), and reaching `Int` that way cost about 9,000 instructions
    /// an argument (callgrind, Core Data W3, where each query parses its format string).
    private static func common(_ value: Any) -> FormatValue? {
        guard commonTypesConvertThemselves == false else { return nil }
        let type = type(of: value)
        if type == Int.self, let int = value as? Int { return .int(Int64(int)) }
        if type == String.self, let string = value as? String { return .string(string) }
        if type == Double.self, let double = value as? Double { return .double(double) }
        if type == Bool.self, let bool = value as? Bool { return .bool(bool) }
        if type == Int64.self, let int = value as? Int64 { return .int(int) }
        return nil
    }

    /// Whether the program conformed one of ``common(_:)``'s types to `FormatValueConvertible`
    /// itself; its conversion then wins, as it does on the general path.
    private static let commonTypesConvertThemselves: Bool = {
        let types: [Any.Type] = [Int.self, String.self, Double.self, Bool.self, Int64.self]
        return types.contains { $0 is any FormatValueConvertible.Type }
    }()

    init(number: NSNumber) {
        let type = String(cString: number.objCType)
        switch type {
        case "c", "B":
            let int = number.int64Value
            self = int == 0 || int == 1 ? .bool(int == 1) : .int(int)
        case "f", "d":
            self = .double(number.doubleValue)
        case "Q", "L":
            let unsigned = number.uint64Value
            self = unsigned <= UInt64(Int64.max) ? .int(Int64(unsigned)) : .double(number.doubleValue)
        default:
            self = .int(number.int64Value)
        }
    }

    /// A short name of the value's kind, for error messages.
    var kindName: String {
        switch self {
        case .null: "nil"
        case .bool: "Bool"
        case .int: "integer"
        case .double: "Double"
        case .string: "String"
        case .date: "Date"
        case .data: "Data"
        case .uuid: "UUID"
        case .array: "array"
        case .identifier: "PersistentIdentifier"
        case .opaque(let value): value.typeName
        }
    }
}

/// A type that a format predicate can take as a `%@` argument or a substitution variable.
///
/// Conform your own value types (for example an enum stored by raw value) to pass them
/// directly: `try FormatPredicate("status == %@", arguments: [Status.open])`.
public protocol FormatValueConvertible {
    /// The constant this value stands for in a predicate.
    var formatValue: FormatValue { get }
}

/// A type that stands for an expression, not a constant, when passed for `%@` (Core Data's
/// `NSExpression`: `NSPredicate(format: "%@ > 1", NSExpression(forVariable: "count"))` is
/// `$count > 1`).
public protocol FormatExpressionConvertible {
    /// The expression this value stands for, or why it cannot stand for one.
    func argumentExpression() throws(FormatPredicateError) -> FormatExpression
}

/// Unwraps any level of `Optional` hidden in an `Any`; `nil` when the innermost is `none`.
func unwrapOptional(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if let optional = value as? any OptionalProtocol { return optional.wrappedAny }
    return value
}

protocol OptionalProtocol {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalProtocol {
    var wrappedAny: Any? {
        switch self {
        case .none: nil
        case .some(let wrapped): unwrapOptional(wrapped)
        }
    }
}

/// Integer and floating-point types other than `Int`/`Double` (which `NSNumber` catches).
private func integerOrFloat(_ value: Any) -> FormatValue? {
    switch value {
    case let int as any BinaryInteger:
        if let exact = Int64(exactly: int) { return .int(exact) }
        return .double(Double(int))
    case let float as any BinaryFloatingPoint:
        return .double(Double(float))
    default:
        return nil
    }
}
