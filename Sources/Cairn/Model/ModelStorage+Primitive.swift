import Foundation

extension ModelStorage {
    /// A fetched column's value of one of the common attribute types, kept unboxed in its slot.
    ///
    /// A fetch fills most slots with `Int64`, `Int`, `Double`, `String`, `Bool` or `Date`
    /// values and their Optionals. Boxed as `Any`, each one was written through an existential, read back
    /// with a copy of the existential and a cast, and destroyed through its type's value
    /// witnesses when the model went away: together about 1,000 instructions a W6 row
    /// (callgrind). Here the slot holds the value itself, a getter reads it with a cast the
    /// compiler resolves for the property's type, and destroying it is a plain release.
    ///
    /// Each case is the property's exact type, so ``boxed`` is what `.value` would have held.
    @usableFromInline
    enum Primitive {
        case int64(Int64), int(Int), double(Double), string(String), bool(Bool)
        case optionalInt64(Int64?), optionalInt(Int?), optionalDouble(Double?), optionalString(String?)
        case optionalBool(Bool?)
        /// Stored as REAL seconds since 2001 by the attribute's codec. Boxed, a `Date` would
        /// take an allocation of its own: `.value`'s payload is `indirect`.
        case date(Date), optionalDate(Date?)

        /// `value` unboxed, when `Value` is one of the cases' types.
        @inlinable
        static func make<Value>(_ value: Value) -> Primitive? {
            if Value.self == Int64.self { return .int64(unsafeBitCast(value, to: Int64.self)) }
            if Value.self == Int.self { return .int(unsafeBitCast(value, to: Int.self)) }
            if Value.self == Double.self { return .double(unsafeBitCast(value, to: Double.self)) }
            if Value.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
            if Value.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
            if Value.self == Int64?.self { return .optionalInt64(unsafeBitCast(value, to: Int64?.self)) }
            if Value.self == Int?.self { return .optionalInt(unsafeBitCast(value, to: Int?.self)) }
            if Value.self == Double?.self { return .optionalDouble(unsafeBitCast(value, to: Double?.self)) }
            if Value.self == String?.self { return .optionalString(unsafeBitCast(value, to: String?.self)) }
            if Value.self == Bool?.self { return .optionalBool(unsafeBitCast(value, to: Bool?.self)) }
            if Value.self == Date.self { return .date(unsafeBitCast(value, to: Date.self)) }
            if Value.self == Date?.self { return .optionalDate(unsafeBitCast(value, to: Date?.self)) }
            return nil
        }

        /// `value` unboxed, for an Optional of one of the cases' types. ``make(_:)`` compiled
        /// for an Optional compares its type with each case's at run time (the compiler
        /// resolves such a test only for a type that is not Optional), up to twelve type
        /// lookups a write; here `Wrapped` is compared, and every test is resolved when the
        /// setter is compiled.
        @inlinable
        static func make<Wrapped: _ModelSlotPrimitive>(optional value: Wrapped?) -> Primitive? {
            if Wrapped.self == Int64.self { return .optionalInt64(unsafeBitCast(value, to: Int64?.self)) }
            if Wrapped.self == Int.self { return .optionalInt(unsafeBitCast(value, to: Int?.self)) }
            if Wrapped.self == Double.self { return .optionalDouble(unsafeBitCast(value, to: Double?.self)) }
            if Wrapped.self == String.self { return .optionalString(unsafeBitCast(value, to: String?.self)) }
            if Wrapped.self == Bool.self { return .optionalBool(unsafeBitCast(value, to: Bool?.self)) }
            if Wrapped.self == Date.self { return .optionalDate(unsafeBitCast(value, to: Date?.self)) }
            return nil
        }

        /// The value as the `Any` a `.value` slot would hold.
        var boxed: Any {
            switch self {
            case .int64(let value): value
            case .int(let value): value
            case .double(let value): value
            case .string(let value): value
            case .bool(let value): value
            case .optionalInt64(let value): value as Any
            case .optionalInt(let value): value as Any
            case .optionalDouble(let value): value as Any
            case .optionalString(let value): value as Any
            case .optionalBool(let value): value as Any
            case .date(let value): value
            case .optionalDate(let value): value as Any
            }
        }

        /// The column value the attribute's primitive codec makes of ``boxed``.
        var databaseValue: DatabaseValue {
            switch self {
            case .int64(let value): .integer(value)
            case .int(let value): .integer(Int64(value))
            case .double(let value): .real(value)
            case .string(let value): .text(value)
            case .bool(let value): .integer(value ? 1 : 0)
            case .optionalInt64(let value): value.map { .integer($0) } ?? .null
            case .optionalInt(let value): value.map { .integer(Int64($0)) } ?? .null
            case .optionalDouble(let value): value.map { .real($0) } ?? .null
            case .optionalString(let value): value.map { .text($0) } ?? .null
            case .optionalBool(let value): value.map { .integer($0 ? 1 : 0) } ?? .null
            case .date(let value): .real(value.timeIntervalSinceReferenceDate)
            case .optionalDate(let value): value.map { .real($0.timeIntervalSinceReferenceDate) } ?? .null
            }
        }

        /// The value as `Value`, as `boxed as? Value` answers. Inlined into a getter, the cast
        /// of the case that matches the property's type is resolved when it is compiled.
        @inlinable
        func cast<Value>(to type: Value.Type) -> Value? {
            switch self {
            case .int64(let value): value as? Value
            case .int(let value): value as? Value
            case .double(let value): value as? Value
            case .string(let value): value as? Value
            case .bool(let value): value as? Value
            case .optionalInt64(let value): value as? Value
            case .optionalInt(let value): value as? Value
            case .optionalDouble(let value): value as? Value
            case .optionalString(let value): value as? Value
            case .optionalBool(let value): value as? Value
            case .date(let value): value as? Value
            case .optionalDate(let value): value as? Value
            }
        }
    }
}

extension ModelStorage.Slot {
    /// The slot's value when `Value` is one of ``ModelStorage/Primitive``'s types and the slot
    /// holds that very case; `nil` otherwise (the caller then takes the general path).
    ///
    /// What a fetched model's getter reads. Compiled for the property's type, one test of the
    /// slot's case remains, and its payload is copied alone. Through ``Primitive/cast(to:)``
    /// a read copied the whole `Primitive` (its case tested again), called the cast out of
    /// line and then destroyed the copy: for text, a retain and a release more and about 70
    /// instructions (callgrind SwiftData W6).
    @inlinable
    func exactPrimitive<Value>(_ type: Value.Type) -> Value? {
        if Value.self == String.self {
            if case .primitive(.string(let value)) = self { return unsafeBitCast(value, to: Value.self) }
        } else if Value.self == String?.self {
            if case .primitive(.optionalString(let value)) = self { return unsafeBitCast(value, to: Value.self) }
        } else if Value.self == Int64.self {
            if case .primitive(.int64(let value)) = self { return unsafeBitCast(value, to: Value.self) }
        } else if Value.self == Int64?.self {
            if case .primitive(.optionalInt64(let value)) = self { return unsafeBitCast(value, to: Value.self) }
        } else if Value.self == Int.self {
            if case .primitive(.int(let value)) = self { return unsafeBitCast(value, to: Value.self) }
        } else if Value.self == Int?.self {
            if case .primitive(.optionalInt(let value)) = self { return unsafeBitCast(value, to: Value.self) }
        } else if Value.self == Double.self {
            if case .primitive(.double(let value)) = self { return unsafeBitCast(value, to: Value.self) }
        } else if Value.self == Double?.self {
            if case .primitive(.optionalDouble(let value)) = self { return unsafeBitCast(value, to: Value.self) }
        } else if Value.self == Bool.self {
            if case .primitive(.bool(let value)) = self { return unsafeBitCast(value, to: Value.self) }
        } else if Value.self == Bool?.self {
            if case .primitive(.optionalBool(let value)) = self { return unsafeBitCast(value, to: Value.self) }
        } else if Value.self == Date.self {
            if case .primitive(.date(let value)) = self { return unsafeBitCast(value, to: Value.self) }
        } else if Value.self == Date?.self {
            if case .primitive(.optionalDate(let value)) = self { return unsafeBitCast(value, to: Value.self) }
        }
        return nil
    }

    /// ``exactPrimitive(_:)`` for an Optional property of one of ``ModelStorage/Primitive``'s
    /// types: `.some` of the value (which may be `nil`) when the slot holds that Optional's
    /// case, `nil` otherwise. Compiled for `Value?`, `exactPrimitive` could not resolve its
    /// tests: Swift resolves `Value.self == String.self` when the compiler knows `Value` is
    /// not Optional, but for an Optional `Value` it looks the type up and compares at run
    /// time, once for every case before the matching one (callgrind SwiftData W6, a
    /// `String?` read). Testing `Wrapped` instead leaves the one test of the slot's case.
    @inlinable
    func exactOptionalPrimitive<Wrapped: _ModelSlotPrimitive>(_ type: Wrapped.Type) -> Wrapped?? {
        if Wrapped.self == String.self {
            if case .primitive(.optionalString(let value)) = self { return .some(unsafeBitCast(value, to: Wrapped?.self)) }
        } else if Wrapped.self == Int64.self {
            if case .primitive(.optionalInt64(let value)) = self { return .some(unsafeBitCast(value, to: Wrapped?.self)) }
        } else if Wrapped.self == Int.self {
            if case .primitive(.optionalInt(let value)) = self { return .some(unsafeBitCast(value, to: Wrapped?.self)) }
        } else if Wrapped.self == Double.self {
            if case .primitive(.optionalDouble(let value)) = self { return .some(unsafeBitCast(value, to: Wrapped?.self)) }
        } else if Wrapped.self == Bool.self {
            if case .primitive(.optionalBool(let value)) = self { return .some(unsafeBitCast(value, to: Wrapped?.self)) }
        } else if Wrapped.self == Date.self {
            if case .primitive(.optionalDate(let value)) = self { return .some(unsafeBitCast(value, to: Wrapped?.self)) }
        }
        return nil
    }

    /// The Swift value of a loaded slot (boxed or primitive); `nil` for an unloaded slot or a
    /// to-one relationship's raw key.
    var loaded: Any? {
        switch self {
        case .value(let value): value
        case .primitive(let primitive): primitive.boxed
        case .unloaded, .raw: nil
        }
    }
}

/// The types a model's slot keeps unboxed (``ModelStorage/Primitive``): `Int64`, `Int`,
/// `Double`, `String`, `Bool` and `Date`. Not for use outside Cairn: `@Model` accessors of an
/// Optional property of one of these types pick, by this conformance, the overloads that read
/// and write its slot with tests the compiler resolves (`exactOptionalPrimitive`).
public protocol _ModelSlotPrimitive: Codable {}

extension Int64: _ModelSlotPrimitive {}
extension Int: _ModelSlotPrimitive {}
extension Double: _ModelSlotPrimitive {}
extension String: _ModelSlotPrimitive {}
extension Bool: _ModelSlotPrimitive {}
extension Date: _ModelSlotPrimitive {}
