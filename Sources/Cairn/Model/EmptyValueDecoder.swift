import Foundation

/// Makes the "empty" value of a `Decodable` type: every number 0, every string "", every Bool
/// false, every Optional nil, every collection empty, nested types made the same way.
///
/// A model getter cannot throw, so a property whose row is gone before it was loaded needs
/// some value (``ModelStorage/placeholder(_:property:entity:defaultValue:)``). A `Codable`
/// struct with required fields has none in JSON (`{}` fails); this decoder answers every
/// request itself, so `Location(latitude: 0, longitude: 0)` comes back instead of a trap.
/// Types it cannot satisfy (an enum with associated values, a raw-value enum without an empty
/// raw value and no `CaseIterable`, a type whose `init(from:)` validates) still fail, and
/// `make` returns `nil`.
struct EmptyValueDecoder: Decoder {
    /// Deeper than this, a type is taken to be recursive and given up on.
    static let maximumDepth = 32

    let depth: Int
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func make<T: Decodable>(_ type: T.Type) -> T? {
        try? EmptyValueDecoder(depth: 0).value(of: T.self)
    }

    func value<T: Decodable>(of type: T.Type) throws -> T {
        guard depth < Self.maximumDepth else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "nested too deeply"))
        }
        if let primitive = ModelStorage.emptyPrimitive(T.self) { return primitive }
        if let cases = T.self as? any CaseIterable.Type, let first = Self.firstCase(cases) as? T { return first }
        return try T(from: EmptyValueDecoder(depth: depth + 1, codingPath: codingPath))
    }

    private static func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? { C.allCases.first }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Unkeyed(codingPath: codingPath) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

    /// Every key is present and holds its type's empty value; optional keys hold nil.
    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: EmptyValueDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { true }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder.value(of: T.self) }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            KeyedDecodingContainer(Keyed<NestedKey>(decoder: decoder))
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            Unkeyed(codingPath: codingPath)
        }
        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
    }

    /// An empty sequence.
    private struct Unkeyed: UnkeyedDecodingContainer {
        var codingPath: [any CodingKey]
        var count: Int? { 0 }
        var isAtEnd: Bool { true }
        var currentIndex: Int { 0 }
        mutating func decodeNil() throws -> Bool { true }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw end() }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            throw end()
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw end() }
        mutating func superDecoder() throws -> any Decoder { throw end() }
        private func end() -> DecodingError {
            .valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "an empty value has no elements"))
        }
    }

    /// A single value: nil for an Optional, else the type's empty value.
    private struct Single: SingleValueDecodingContainer {
        let decoder: EmptyValueDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }
        func decodeNil() -> Bool { true }
        func decode(_ type: Bool.Type) throws -> Bool { false }
        func decode(_ type: String.Type) throws -> String { "" }
        func decode(_ type: Double.Type) throws -> Double { 0 }
        func decode(_ type: Float.Type) throws -> Float { 0 }
        func decode(_ type: Int.Type) throws -> Int { 0 }
        func decode(_ type: Int8.Type) throws -> Int8 { 0 }
        func decode(_ type: Int16.Type) throws -> Int16 { 0 }
        func decode(_ type: Int32.Type) throws -> Int32 { 0 }
        func decode(_ type: Int64.Type) throws -> Int64 { 0 }
        func decode(_ type: UInt.Type) throws -> UInt { 0 }
        func decode(_ type: UInt8.Type) throws -> UInt8 { 0 }
        func decode(_ type: UInt16.Type) throws -> UInt16 { 0 }
        func decode(_ type: UInt32.Type) throws -> UInt32 { 0 }
        func decode(_ type: UInt64.Type) throws -> UInt64 { 0 }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.value(of: T.self) }
    }
}
