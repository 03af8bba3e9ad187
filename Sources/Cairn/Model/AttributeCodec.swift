import Foundation

/// How one attribute type converts to and from its column.
///
/// | Swift type | column | stored as |
/// |---|---|---|
/// | `Int`, `Int8`…`Int64`, `UInt`…`UInt64` | INTEGER | the number (a `UInt64` above `Int64.max` is an error) |
/// | `Double`, `Float` | REAL | the number |
/// | `Bool` | INTEGER | 0 or 1 |
/// | `String` | TEXT | the text |
/// | `Date` | REAL | seconds since 2001-01-01 00:00:00 UTC (Core Data's reference date) |
/// | `Data` | BLOB | the bytes |
/// | `UUID` | TEXT | its text in lower case, with hyphens (as StructuredQueries binds it) |
/// | `URL` | TEXT | `absoluteString` |
/// | `Decimal` | TEXT | its decimal text, exactly (a NUMERIC column would round it to a Double) |
/// | `RawRepresentable` with one of the above as raw value | the raw value's | the raw value |
/// | other `Codable` (structs, enums, arrays, dictionaries) | TEXT | JSON (sorted keys) |
/// | `Optional` of any of these | the same, nullable | `NULL` for `nil` |
struct AttributeCodec {
    enum ColumnType: String, Sendable {
        case integer = "INTEGER", real = "REAL", text = "TEXT", blob = "BLOB"
    }

    /// How the value is represented, for documentation and for other surfaces.
    enum Representation: Sendable { case primitive, rawValue, json }

    let columnType: ColumnType
    let isOptional: Bool
    let representation: Representation
    let encode: (Any) throws -> DatabaseValue
    let decode: (DatabaseValue) throws -> Any

    /// The codec of a Swift type, or `nil` if Cairn cannot store it.
    static func make(for type: any Any.Type) -> AttributeCodec? {
        if let codec = concreteCodec(for: type) { return codec }
        if let optional = type as? any _OptionalMarker.Type, let builder = type as? any _OptionalBuilding.Type {
            guard let inner = make(for: optional._wrappedType), !inner.isOptional else { return nil }
            return AttributeCodec(
                columnType: inner.columnType, isOptional: true, representation: inner.representation,
                encode: { value in
                    if let optional = value as? any _OptionalMarker {
                        guard let wrapped = optional._wrappedAny else { return .null }
                        return try inner.encode(wrapped)
                    }
                    return try inner.encode(value)
                },
                decode: { value in
                    if value.isNull { return builder._nilValue }
                    return try builder._wrap(inner.decode(value))
                })
        }
        if let primitive = type as? any ColumnPrimitive.Type { return primitiveCodec(primitive) }
        if let raw = type as? any RawRepresentable.Type, let codec = rawValueCodec(raw) { return codec }
        if let codable = type as? any Codable.Type { return jsonCodec(codable) }
        return nil
    }

    private static func primitiveCodec<P: ColumnPrimitive>(_ type: P.Type) -> AttributeCodec {
        AttributeCodec(
            columnType: P.columnType, isOptional: false, representation: .primitive,
            encode: { value in
                guard let value = value as? P else { throw mismatch(value, P.self) }
                return try value.databaseValue()
            },
            decode: { value in
                guard let decoded = P(databaseValue: value) else { throw undecodable(value, P.self) }
                return decoded
            })
    }

    /// The codec of a common column type or its Optional, compiled for that type. The general
    /// path opens the type at run time, so every value read or written looked up generic
    /// metadata and cast through `Any`; fetches spend their time here.
    private static func concreteCodec(for type: any Any.Type) -> AttributeCodec? {
        func match<P: ColumnPrimitive>(_ candidate: P.Type) -> AttributeCodec? {
            if type == P.self { return primitiveCodec(P.self) }
            if type == P?.self { return optionalPrimitiveCodec(P.self) }
            return nil
        }
        let candidates: [() -> AttributeCodec?] = [
            { match(Int.self) }, { match(Int64.self) }, { match(Double.self) }, { match(String.self) },
            { match(Bool.self) }, { match(Date.self) }, { match(Int32.self) }, { match(Float.self) },
            { match(UUID.self) }, { match(Data.self) }, { match(URL.self) }, { match(Decimal.self) },
            { match(Int16.self) }, { match(Int8.self) }, { match(UInt.self) }, { match(UInt64.self) },
            { match(UInt32.self) }, { match(UInt16.self) }, { match(UInt8.self) },
        ]
        for candidate in candidates {
            if let codec = candidate() { return codec }
        }
        return nil
    }

    /// `P?` for a primitive `P`: NULL is `nil`; the same rules as `P` otherwise.
    private static func optionalPrimitiveCodec<P: ColumnPrimitive>(_ type: P.Type) -> AttributeCodec {
        AttributeCodec(
            columnType: P.columnType, isOptional: true, representation: .primitive,
            encode: { value in
                if let value = value as? P { return try value.databaseValue() }
                guard let optional = value as? P? else { throw mismatch(value, P?.self) }
                return try optional.map { try $0.databaseValue() } ?? .null
            },
            decode: { value in
                if value.isNull { return P?.none as Any }
                guard let decoded = P(databaseValue: value) else { throw undecodable(value, P.self) }
                return Optional(decoded) as Any
            })
    }

    private static func rawValueCodec<R: RawRepresentable>(_ type: R.Type) -> AttributeCodec? {
        guard let primitive = R.RawValue.self as? any ColumnPrimitive.Type else { return nil }
        let inner = primitiveCodec(primitive)
        return AttributeCodec(
            columnType: inner.columnType, isOptional: false, representation: .rawValue,
            encode: { value in
                guard let value = value as? R else { throw mismatch(value, R.self) }
                return try inner.encode(value.rawValue)
            },
            decode: { value in
                guard let raw = try inner.decode(value) as? R.RawValue, let decoded = R(rawValue: raw) else {
                    throw undecodable(value, R.self)
                }
                return decoded
            })
    }

    private static func jsonCodec<C: Codable>(_ type: C.Type) -> AttributeCodec {
        AttributeCodec(
            columnType: .text, isOptional: false, representation: .json,
            encode: { value in
                guard let value = value as? C else { throw mismatch(value, C.self) }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                do {
                    let data = try encoder.encode(value)
                    return .text(String(decoding: data, as: UTF8.self))
                } catch {
                    throw ModelError(.valueEncodingFailed, value: "\(value)",
                                     message: "Cannot encode \(C.self) as JSON: \(error)")
                }
            },
            decode: { value in
                let data: Data
                switch value {
                case .text(let text): data = Data(text.utf8)
                case .blob(let blob): data = blob
                default: throw undecodable(value, C.self)
                }
                do {
                    return try JSONDecoder().decode(C.self, from: data)
                } catch {
                    throw ModelError(.valueDecodingFailed, value: value.description,
                                     message: "Cannot decode \(C.self) from the stored JSON: \(error)")
                }
            })
    }

    static func mismatch(_ value: Any, _ type: any Any.Type) -> ModelError {
        ModelError(.valueEncodingFailed, value: "\(value)",
                   message: "Expected a value of type \(type), got \(Swift.type(of: value))")
    }

    static func undecodable(_ value: DatabaseValue, _ type: any Any.Type) -> ModelError {
        ModelError(.valueDecodingFailed, value: value.description,
                   message: "The stored value cannot be read as \(type)")
    }
}

/// Lets codecs build `Optional<Wrapped>` values from an `Any` holding a `Wrapped`.
protocol _OptionalBuilding {
    static func _wrap(_ value: Any) -> Any
    static var _nilValue: Any { get }
    /// The slot a new model's storage starts with for a property of this type: unboxed for
    /// the primitive types, so that it takes no allocation (`Slot.value` is `indirect`).
    static var _nilSlot: ModelStorage.Slot { get }
}

extension Optional: _OptionalBuilding {
    static func _wrap(_ value: Any) -> Any { (value as? Wrapped).map { Optional($0) as Any } ?? (Optional<Wrapped>.none as Any) }
    static var _nilValue: Any { Optional<Wrapped>.none as Any }
    static var _nilSlot: ModelStorage.Slot {
        ModelStorage.Primitive.make(Optional<Wrapped>.none).map { .primitive($0) } ?? .value(Optional<Wrapped>.none as Any)
    }
}

// MARK: - Column primitives

/// A Swift type with a direct column representation.
protocol ColumnPrimitive {
    static var columnType: AttributeCodec.ColumnType { get }
    func databaseValue() throws -> DatabaseValue
    init?(databaseValue: DatabaseValue)
}

extension ColumnPrimitive where Self: FixedWidthInteger {
    static var columnType: AttributeCodec.ColumnType { .integer }
    func databaseValue() throws -> DatabaseValue {
        guard let value = Int64(exactly: self) else {
            throw ModelError(.valueEncodingFailed, value: "\(self)",
                             message: "\(Self.self) value \(self) does not fit in SQLite's 64-bit signed INTEGER")
        }
        return .integer(value)
    }
    init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .integer(let value): self.init(exactly: value)
        case .real(let value): self.init(exactly: value)
        case .text(let text): self.init(text)
        default: return nil
        }
    }
}

extension Int: ColumnPrimitive {}
extension Int8: ColumnPrimitive {}
extension Int16: ColumnPrimitive {}
extension Int32: ColumnPrimitive {}
extension Int64: ColumnPrimitive {}
extension UInt: ColumnPrimitive {}
extension UInt8: ColumnPrimitive {}
extension UInt16: ColumnPrimitive {}
extension UInt32: ColumnPrimitive {}
extension UInt64: ColumnPrimitive {}

extension Double: ColumnPrimitive {
    static var columnType: AttributeCodec.ColumnType { .real }
    func databaseValue() throws -> DatabaseValue { .real(self) }
    init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        case .text(let text): self.init(text)
        default: return nil
        }
    }
}

extension Float: ColumnPrimitive {
    static var columnType: AttributeCodec.ColumnType { .real }
    func databaseValue() throws -> DatabaseValue { .real(Double(self)) }
    init?(databaseValue: DatabaseValue) {
        guard let value = Double(databaseValue: databaseValue) else { return nil }
        self = Float(value)
    }
}

extension Bool: ColumnPrimitive {
    static var columnType: AttributeCodec.ColumnType { .integer }
    func databaseValue() throws -> DatabaseValue { .integer(self ? 1 : 0) }
    init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .integer(let value): self = value != 0
        case .real(let value): self = value != 0
        default: return nil
        }
    }
}

extension String: ColumnPrimitive {
    static var columnType: AttributeCodec.ColumnType { .text }
    func databaseValue() throws -> DatabaseValue { .text(self) }
    init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .text(let text): self = text
        case .integer(let value): self = String(value)
        case .real(let value): self = String(value)
        case .blob(let data): self = String(decoding: data, as: UTF8.self)
        case .null: return nil
        }
    }
}

extension Date: ColumnPrimitive {
    static var columnType: AttributeCodec.ColumnType { .real }
    func databaseValue() throws -> DatabaseValue { .real(timeIntervalSinceReferenceDate) }
    init?(databaseValue: DatabaseValue) {
        guard let seconds = Double(databaseValue: databaseValue) else { return nil }
        self.init(timeIntervalSinceReferenceDate: seconds)
    }
}

extension Data: ColumnPrimitive {
    static var columnType: AttributeCodec.ColumnType { .blob }
    func databaseValue() throws -> DatabaseValue { .blob(self) }
    init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .blob(let data): self = data
        case .text(let text): self = Data(text.utf8)
        default: return nil
        }
    }
}

extension UUID: ColumnPrimitive {
    static var columnType: AttributeCodec.ColumnType { .text }
    func databaseValue() throws -> DatabaseValue { .text(lowercasedText) }
    init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .text(let text): self.init(uuidString: text)
        case .blob(let data) where data.count == 16:
            let bytes = Array(data)
            self.init(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                             bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        default: return nil
        }
    }
}

extension URL: ColumnPrimitive {
    static var columnType: AttributeCodec.ColumnType { .text }
    func databaseValue() throws -> DatabaseValue { .text(absoluteString) }
    init?(databaseValue: DatabaseValue) {
        guard case .text(let text) = databaseValue else { return nil }
        self.init(string: text)
    }
}

extension Decimal: ColumnPrimitive {
    static var columnType: AttributeCodec.ColumnType { .text }
    func databaseValue() throws -> DatabaseValue { .text(description) }
    init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .text(let text): self.init(string: text)
        case .integer(let value): self.init(value)
        case .real(let value): self.init(string: String(value))
        default: return nil
        }
    }
}
