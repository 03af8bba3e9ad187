import Foundation

/// A `Codable` value stored as JSON `TEXT` (keys sorted, so equal values store equal text).
/// A `Date` inside is written as a `Date` column holds it (`"2026-03-01 09:30:00.250"`, as
/// StructuredQueries writes JSON), and read from that text or from a number of seconds since
/// 2001 (`JSONEncoder`'s default).
///
/// Two ways to use it: declare ``JSONDatabaseValueConvertible`` on the type, or wrap a value
/// of a type you do not own in ``DatabaseJSON``.
///
/// ```swift
/// struct Route: Codable, JSONDatabaseValueConvertible { var points: [Double] }
/// try db.execute(sql: "INSERT INTO workout (route) VALUES (?)", arguments: [Route(points: [1, 2])])
/// // INSERT INTO workout (route) VALUES (?)   -- ?1 = '{"points":[1,2]}'
/// let tags = try row.decode(DatabaseJSON<[String]>.self, column: "tags").value
/// ```
///
/// Reading accepts `TEXT` and `BLOB` holding UTF-8 JSON; malformed JSON is a
/// ``RowDecodingError``. Encoding failure (for example a NaN `Double`) throws
/// ``DatabaseValueEncodingError`` at bind time.
public protocol JSONDatabaseValueConvertible: Codable, DatabaseValueConvertible {}

extension JSONDatabaseValueConvertible {
    /// The JSON text, or `NULL` when the value cannot be encoded (Cairn binds through
    /// ``databaseValueForBinding()``, which throws instead).
    public var databaseValue: DatabaseValue { (try? JSONCoding.encode(self)) ?? .null }

    /// The value to bind; throws when it cannot be stored.
    public func databaseValueForBinding() throws -> DatabaseValue { try JSONCoding.encode(self) }

    /// The stored value as this type, or `nil` when it cannot be one.
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Self? {
        JSONCoding.decode(Self.self, from: databaseValue)
    }
}

/// Wraps any `Codable` value so it is stored as JSON `TEXT`; see
/// ``JSONDatabaseValueConvertible``.
public struct DatabaseJSON<Value: Codable>: JSONDatabaseValueConvertible {
    /// The wrapped value.
    public var value: Value
    /// Wraps a value.
    public init(_ value: Value) { self.value = value }

    public init(from decoder: any Decoder) throws {
        value = try Value(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}

extension DatabaseJSON: Sendable where Value: Sendable {}
extension DatabaseJSON: Equatable where Value: Equatable {}
extension DatabaseJSON: Hashable where Value: Hashable {}

enum JSONCoding {
    static func encode(_ value: some Encodable) throws -> DatabaseValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            if let text = DateText.format(date) {
                try container.encode(text)
            } else {
                try container.encode(date.timeIntervalSinceReferenceDate)
            }
        }
        do {
            let data = try encoder.encode(value)
            return .text(String(decoding: data, as: UTF8.self))
        } catch {
            throw DatabaseValueEncodingError("cannot encode \(type(of: value)) as JSON: \(error)")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from databaseValue: DatabaseValue) -> T? {
        let data: Data
        switch databaseValue {
        case .text(let text): data = Data(text.utf8)
        case .blob(let blob): data = blob
        default: return nil
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Double.self) {
                return Date(timeIntervalSinceReferenceDate: seconds)
            }
            let text = try container.decode(String.self)
            guard let date = DateText.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text)' is not a date (expected yyyy-MM-dd HH:mm:ss.SSS)")
            }
            return date
        }
        return try? decoder.decode(T.self, from: data)
    }
}
