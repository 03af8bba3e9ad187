import CairnSQLite
import Foundation

// Representations choose how a Swift value is stored, with `@Column(as:)`:
//
//     @Column(as: Date.UnixTimeRepresentation.self) var createdAt: Date
//     @Column(as: Date.JulianDayRepresentation.self) var observedAt: Date
//     @Column(as: UUID.BytesRepresentation.self) var token: UUID
//     @Column(as: [String].JSONRepresentation.self) var tags: [String]
//
// Without `as:`, a `Date` is stored as TEXT in UTC to the millisecond (`2026-03-01
// 09:30:00.250`) and a `UUID` as its lowercase text, as StructuredQueries binds them.

extension Date {
    /// Stores a `Date` as INTEGER-or-REAL seconds since 1970-01-01 (SQLite's `unixepoch`).
    public struct UnixTimeRepresentation: QueryBindable, Hashable, Sendable {
        /// The value as a query returns it.
        public var queryOutput: Date
        /// Wraps a value decoded from a query.
        public init(queryOutput: Date) { self.queryOutput = queryOutput }

        /// The value as SQLite stores it.
        public var databaseValue: DatabaseValue { .real(queryOutput.timeIntervalSince1970) }

        /// The stored value as this type, or `nil` when it cannot be one.
        public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Self? {
            switch databaseValue {
            case .integer(let seconds): Self(queryOutput: Date(timeIntervalSince1970: Double(seconds)))
            case .real(let seconds): Self(queryOutput: Date(timeIntervalSince1970: seconds))
            default: nil
            }
        }

        /// Reads the value from the next result columns of a row.
        public static func decode(from decoder: inout QueryDecoder) throws -> Date {
            try decoder.decode(Self.self).queryOutput
        }
    }

    /// Stores a `Date` as a REAL Julian day number (days since noon UTC, November 24, 4714 BC,
    /// proleptic Gregorian), the number SQLite's date functions read a bare number as.
    ///
    /// ```swift
    /// @Column(as: Date.JulianDayRepresentation.self) var observedAt: Date
    /// Observation.insert { $0.observedAt } values: { Date(timeIntervalSince1970: 0) }
    /// // INSERT INTO "observations" ("observedAt") VALUES (?)        (2440587.5)
    /// ```
    ///
    /// A day is a `Double`, so a stored date keeps about 40 microseconds of precision near the
    /// present; reading gives `Date(timeIntervalSince1970: (day - 2440587.5) * 86400)`.
    public struct JulianDayRepresentation: QueryBindable, Hashable, Sendable {
        /// The value as a query returns it.
        public var queryOutput: Date
        /// Wraps a value decoded from a query.
        public init(queryOutput: Date) { self.queryOutput = queryOutput }

        /// The Julian day of 1970-01-01T00:00:00Z.
        static let unixEpochJulianDay = 2_440_587.5

        /// The value as SQLite stores it.
        public var databaseValue: DatabaseValue {
            .real(Self.unixEpochJulianDay + queryOutput.timeIntervalSince1970 / 86_400)
        }

        /// The stored value as this type, or `nil` when it cannot be one.
        public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Self? {
            let day: Double
            switch databaseValue {
            case .integer(let whole): day = Double(whole)
            case .real(let fractional): day = fractional
            default: return nil
            }
            return Self(queryOutput: Date(timeIntervalSince1970: (day - unixEpochJulianDay) * 86_400))
        }

        /// Reads the value from the next result columns of a row.
        public static func decode(from decoder: inout QueryDecoder) throws -> Date {
            try decoder.decode(Self.self).queryOutput
        }
    }

    /// Stores a `Date` as TEXT in UTC to the millisecond (`2026-03-01 09:30:00.250`), the
    /// text a `Date` column holds without a representation. StructuredQueries keeps the type
    /// for code written before that was its default; so does Cairn.
    public struct ISO8601Representation: QueryBindable, Hashable, Sendable {
        /// The value as a query returns it.
        public var queryOutput: Date
        /// Wraps a value decoded from a query.
        public init(queryOutput: Date) { self.queryOutput = queryOutput }

        /// The value as SQLite stores it.
        public var databaseValue: DatabaseValue { queryOutput.databaseValue }

        /// The stored value as this type, or `nil` when it cannot be one.
        public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Self? {
            Date.fromDatabaseValue(databaseValue).map(Self.init(queryOutput:))
        }

        /// Reads the value from the next result columns of a row.
        public static func decode(from decoder: inout QueryDecoder) throws -> Date {
            try decoder.decode(Self.self).queryOutput
        }
    }

    /// Stores a `Date` as REAL seconds since 2001-01-01 00:00:00 UTC
    /// (`timeIntervalSinceReferenceDate`), as `@Model` attributes and Core Data store dates.
    /// A `@Model` class's typed-SQL columns use it for its `Date` attributes, so that
    /// `Item.where { $0.timestamp < cutoff }` compares numbers with numbers.
    ///
    /// ```swift
    /// @Column(as: Date.TimeIntervalSinceReferenceDateRepresentation.self) var startedAt: Date
    /// Workout.insert { $0.startedAt } values: { Date(timeIntervalSinceReferenceDate: 60) }
    /// // INSERT INTO "workouts" ("startedAt") VALUES (?)        (60.0)
    /// ```
    public struct TimeIntervalSinceReferenceDateRepresentation: QueryBindable, Hashable, Sendable {
        /// The value as a query returns it.
        public var queryOutput: Date
        /// Wraps a value decoded from a query.
        public init(queryOutput: Date) { self.queryOutput = queryOutput }

        /// The value as SQLite stores it.
        public var databaseValue: DatabaseValue { .real(queryOutput.timeIntervalSinceReferenceDate) }

        /// The stored value as this type, or `nil` when it cannot be one: a number, or a date
        /// text (a row another library wrote).
        public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Self? {
            Date.fromDatabaseValue(databaseValue).map(Self.init(queryOutput:))
        }

        /// Reads the value from the next result columns of a row.
        public static func decode(from decoder: inout QueryDecoder) throws -> Date {
            try decoder.decode(Self.self).queryOutput
        }
    }
}

extension UUID {
    /// Stores a `UUID` as its 16 bytes (BLOB).
    public struct BytesRepresentation: QueryBindable, Hashable, Sendable {
        /// The value as a query returns it.
        public var queryOutput: UUID
        /// Wraps a value decoded from a query.
        public init(queryOutput: UUID) { self.queryOutput = queryOutput }

        /// The value as SQLite stores it.
        public var databaseValue: DatabaseValue {
            withUnsafeBytes(of: queryOutput.uuid) { .blob(Data($0)) }
        }

        /// The stored value as this type, or `nil` when it cannot be one.
        public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Self? {
            guard case .blob(let data) = databaseValue, data.count == 16 else { return nil }
            var uuid = UUID().uuid
            withUnsafeMutableBytes(of: &uuid) { $0.copyBytes(from: data) }
            return Self(queryOutput: UUID(uuid: uuid))
        }

        /// Reads the value from the next result columns of a row.
        public static func decode(from decoder: inout QueryDecoder) throws -> UUID {
            try decoder.decode(Self.self).queryOutput
        }
    }

    /// Stores a `UUID` as lowercase text: what a plain `UUID` column stores (and SQLite's
    /// `uuid` extension writes), named for code that says so.
    public struct LowercasedRepresentation: QueryBindable, Hashable, Sendable {
        /// The value as a query returns it.
        public var queryOutput: UUID
        /// Wraps a value decoded from a query.
        public init(queryOutput: UUID) { self.queryOutput = queryOutput }

        /// The value as SQLite stores it.
        public var databaseValue: DatabaseValue { .text(queryOutput.lowercasedText) }

        /// The stored value as this type, or `nil` when it cannot be one.
        public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Self? {
            guard case .text(let text) = databaseValue, let uuid = UUID(uuidString: text) else { return nil }
            return Self(queryOutput: uuid)
        }

        /// Reads the value from the next result columns of a row.
        public static func decode(from decoder: inout QueryDecoder) throws -> UUID {
            try decoder.decode(Self.self).queryOutput
        }
    }

    /// Stores a `UUID` as uppercase text, `uuidString` as Foundation writes it (and as
    /// `JSONEncoder` writes a `UUID` inside JSON).
    public struct UppercasedRepresentation: QueryBindable, Hashable, Sendable {
        /// The value as a query returns it.
        public var queryOutput: UUID
        /// Wraps a value decoded from a query.
        public init(queryOutput: UUID) { self.queryOutput = queryOutput }

        /// The value as SQLite stores it.
        public var databaseValue: DatabaseValue { .text(queryOutput.uuidString) }

        /// The stored value as this type, or `nil` when it cannot be one.
        public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Self? {
            guard case .text(let text) = databaseValue, let uuid = UUID(uuidString: text) else { return nil }
            return Self(queryOutput: uuid)
        }

        /// Reads the value from the next result columns of a row.
        public static func decode(from decoder: inout QueryDecoder) throws -> UUID {
            try decoder.decode(Self.self).queryOutput
        }
    }
}

// The optional spellings StructuredQueries offers beside `Date.UnixTimeRepresentation?`:
// `@Column(as: Date?.UnixTimeRepresentation.self) var dueAt: Date?`, a NULL for `nil`.
extension Optional where Wrapped == Date {
    /// `Date.UnixTimeRepresentation?`: seconds since 1970, NULL for `nil`.
    public typealias UnixTimeRepresentation = Date.UnixTimeRepresentation?
    /// `Date.JulianDayRepresentation?`: a Julian day, NULL for `nil`.
    public typealias JulianDayRepresentation = Date.JulianDayRepresentation?
    /// `Date.ISO8601Representation?`: ISO 8601 text, NULL for `nil`.
    public typealias ISO8601Representation = Date.ISO8601Representation?
}

extension Optional where Wrapped == UUID {
    /// `UUID.BytesRepresentation?`: 16 bytes, NULL for `nil`.
    public typealias BytesRepresentation = UUID.BytesRepresentation?
    /// `UUID.LowercasedRepresentation?`: lowercase text, NULL for `nil`.
    public typealias LowercasedRepresentation = UUID.LowercasedRepresentation?
    /// `UUID.UppercasedRepresentation?`: uppercase text, NULL for `nil`.
    public typealias UppercasedRepresentation = UUID.UppercasedRepresentation?
}

/// Stores any `Codable` value as JSON text; spelled `[String].JSONRepresentation` and so on.
public struct _CodableJSONRepresentation<Value: Codable>: QueryBindable {
    /// The value as a query returns it.
    public var queryOutput: Value
    /// Wraps a value decoded from a query.
    public init(queryOutput: Value) { self.queryOutput = queryOutput }

    /// The value as SQLite stores it.
    public var databaseValue: DatabaseValue { DatabaseJSON(queryOutput).databaseValue }

    public func databaseValueForBinding() throws -> DatabaseValue {
        try DatabaseJSON(queryOutput).databaseValueForBinding()
    }

    /// The stored value as this type, or `nil` when it cannot be one.
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Self? {
        DatabaseJSON<Value>.fromDatabaseValue(databaseValue).map { Self(queryOutput: $0.value) }
    }

    /// Reads the value from the next result columns of a row.
    public static func decode(from decoder: inout QueryDecoder) throws -> Value {
        try decoder.decode(Self.self).queryOutput
    }
}

extension _CodableJSONRepresentation: Sendable where Value: Sendable {}

extension Decodable where Self: Encodable {
    /// Stores the value as JSON text: `@Column(as: [String].JSONRepresentation.self)`.
    public typealias JSONRepresentation = _CodableJSONRepresentation<Self>
}

extension Optional where Wrapped: Codable {
    /// Stores the value as JSON text and `nil` as NULL (not the JSON text `null`):
    /// `@Column(as: [String]?.JSONRepresentation.self) var tags: [String]?`, the same as
    /// `[String].JSONRepresentation?`.
    public typealias JSONRepresentation = _CodableJSONRepresentation<Wrapped>?
}
