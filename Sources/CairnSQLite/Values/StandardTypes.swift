import CSQLite
import Foundation

// MARK: - Integers

/// Every fixed-width integer is stored as `INTEGER`.
///
/// Reading accepts `INTEGER`, and `REAL` holding a whole number; a value that does not fit the
/// width (`300` as `UInt8`, `-1` as `UInt`) is a ``RowDecodingError``. Binding a `UInt`/`UInt64`
/// above `Int64.max` throws ``DatabaseValueEncodingError``.
///
/// ```swift
/// let n = try db.fetchValue(Int16.self, sql: "SELECT 42")   // SELECT 42
/// ```
extension DatabaseValueConvertible where Self: FixedWidthInteger {
    /// `.integer`, or for an unsigned value above `Int64.max` its decimal `.text` (which Cairn
    /// never binds: ``databaseValueForBinding()`` throws instead).
    @inlinable
    public var databaseValue: DatabaseValue {
        if let value = Int64(exactly: self) { return .integer(value) }
        return .text(String(self))
    }

    /// The value to bind; throws when it cannot be stored.
    @inlinable
    public func databaseValueForBinding() throws -> DatabaseValue {
        guard let value = Int64(exactly: self) else {
            throw DatabaseValueEncodingError(
                "\(Self.self) value \(self) does not fit SQLite's 64-bit signed INTEGER")
        }
        return .integer(value)
    }

    /// The stored value as this type, or `nil` when it cannot be one.
    @inlinable
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Self? {
        switch databaseValue {
        case .integer(let value): return Self(exactly: value)
        case .real(let value): return Self(exactly: value)
        default: return nil
        }
    }

    /// Reads the column's `sqlite3_value` directly, with no ``DatabaseValue`` in between; `nil`
    /// when it cannot be this type.
    @inlinable
    public static func decode(from sqliteValue: SQLiteValue, storageClass: Int32) -> Self? {
        switch storageClass {
        case SQLITE_INTEGER: return Self(exactly: sqlite3_value_int64(sqliteValue))
        case SQLITE_FLOAT: return Self(exactly: sqlite3_value_double(sqliteValue))
        default: return nil
        }
    }

    /// Binds the value with its own `sqlite3_bind_*` call and returns SQLite's result code.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: Int32) throws -> Int32 {
        guard let value = Int64(exactly: self) else { return try databaseValueForBinding().bind(to: sqliteStatement, at: index) }
        return sqlite3_bind_int64(sqliteStatement, index, value)
    }
}

extension Int: DatabaseValueConvertible {}
extension Int8: DatabaseValueConvertible {}
extension Int16: DatabaseValueConvertible {}
extension Int32: DatabaseValueConvertible {}
extension Int64: DatabaseValueConvertible {}
extension UInt: DatabaseValueConvertible {}
extension UInt8: DatabaseValueConvertible {}
extension UInt16: DatabaseValueConvertible {}
extension UInt32: DatabaseValueConvertible {}
extension UInt64: DatabaseValueConvertible {}

// MARK: - Floating point

/// Stored as `REAL`; reads `REAL` and `INTEGER`. SQLite stores NaN as `NULL`.
///
/// ```swift
/// let calories = try db.fetchValue(Double.self, sql: "SELECT calories FROM workout WHERE id = ?", arguments: [1])
/// ```
extension Double: DatabaseValueConvertible {
    /// The value as SQLite stores it.
    @inlinable public var databaseValue: DatabaseValue { .real(self) }

    /// Binds the value with its own `sqlite3_bind_*` call and returns SQLite's result code.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: Int32) throws -> Int32 {
        sqlite3_bind_double(sqliteStatement, index, self)
    }

    /// The stored value as this type, or `nil` when it cannot be one.
    @inlinable
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Double? {
        switch databaseValue {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }

    /// Reads the column's `sqlite3_value` directly, with no ``DatabaseValue`` in between; `nil`
    /// when it cannot be this type.
    @inlinable
    public static func decode(from sqliteValue: SQLiteValue, storageClass: Int32) -> Double? {
        switch storageClass {
        case SQLITE_FLOAT: return sqlite3_value_double(sqliteValue)
        case SQLITE_INTEGER: return Double(sqlite3_value_int64(sqliteValue))
        default: return nil
        }
    }
}

/// Stored as `REAL` (widened to `Double`); reads narrow to the nearest `Float`.
extension Float: DatabaseValueConvertible {
    /// The value as SQLite stores it.
    @inlinable public var databaseValue: DatabaseValue { .real(Double(self)) }

    /// The stored value as this type, or `nil` when it cannot be one.
    @inlinable
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Float? {
        Double.fromDatabaseValue(databaseValue).map(Float.init)
    }

    /// Reads the column's `sqlite3_value` directly, with no ``DatabaseValue`` in between; `nil`
    /// when it cannot be this type.
    @inlinable
    public static func decode(from sqliteValue: SQLiteValue, storageClass: Int32) -> Float? {
        Double.decode(from: sqliteValue, storageClass: storageClass).map(Float.init)
    }
}

// MARK: - Bool

/// Stored as `INTEGER` 0 or 1; reads any integer (non-zero is true).
extension Bool: DatabaseValueConvertible {
    /// The value as SQLite stores it.
    @inlinable public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }

    /// Binds the value with its own `sqlite3_bind_*` call and returns SQLite's result code.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: Int32) throws -> Int32 {
        sqlite3_bind_int64(sqliteStatement, index, self ? 1 : 0)
    }

    /// The stored value as this type, or `nil` when it cannot be one.
    @inlinable
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Bool? {
        if case .integer(let value) = databaseValue { return value != 0 }
        return nil
    }

    /// Reads the column's `sqlite3_value` directly, with no ``DatabaseValue`` in between; `nil`
    /// when it cannot be this type.
    @inlinable
    public static func decode(from sqliteValue: SQLiteValue, storageClass: Int32) -> Bool? {
        guard storageClass == SQLITE_INTEGER else { return nil }
        return sqlite3_value_int64(sqliteValue) != 0
    }
}

// MARK: - String and Data

/// Stored as `TEXT` (UTF-8); reads `TEXT` only.
extension String: DatabaseValueConvertible {
    /// The value as SQLite stores it.
    @inlinable public var databaseValue: DatabaseValue { .text(self) }

    /// Binds the value with its own `sqlite3_bind_*` call and returns SQLite's result code.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: Int32) throws -> Int32 {
        bindText(self, to: sqliteStatement, at: index)
    }

    /// The stored value as this type, or `nil` when it cannot be one.
    @inlinable
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> String? {
        if case .text(let value) = databaseValue { return value }
        return nil
    }

    /// Reads the column's `sqlite3_value` directly, with no ``DatabaseValue`` in between; `nil`
    /// when it cannot be this type.
    @inlinable
    public static func decode(from sqliteValue: SQLiteValue, storageClass: Int32) -> String? {
        guard storageClass == SQLITE_TEXT else { return nil }
        return readText(sqliteValue) ?? ""
    }
}

/// Stored as `BLOB` (an empty `Data` stays an empty blob, not `NULL`); reads `BLOB`, and
/// `TEXT` as its UTF-8 bytes.
extension Data: DatabaseValueConvertible {
    /// The value as SQLite stores it.
    @inlinable public var databaseValue: DatabaseValue { .blob(self) }

    /// The stored value as this type, or `nil` when it cannot be one.
    @inlinable
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Data? {
        switch databaseValue {
        case .blob(let data): return data
        case .text(let text): return Data(text.utf8)
        default: return nil
        }
    }

    /// Reads the column's `sqlite3_value` directly, with no ``DatabaseValue`` in between; `nil`
    /// when it cannot be this type.
    @inlinable
    public static func decode(from sqliteValue: SQLiteValue, storageClass: Int32) -> Data? {
        switch storageClass {
        case SQLITE_BLOB, SQLITE_TEXT: return readBlob(sqliteValue)
        default: return nil
        }
    }
}

/// `[UInt8]`, as StructuredQueries writes blobs: stored and read as `Data` is.
extension Array: DatabaseValueConvertible where Element == UInt8 {
    /// The value as SQLite stores it.
    @inlinable public var databaseValue: DatabaseValue { .blob(Data(self)) }

    /// The stored value as bytes, or `nil` when it is neither a blob nor text.
    @inlinable
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> [UInt8]? {
        Data.fromDatabaseValue(databaseValue).map(Array.init)
    }

    /// Reads the column's `sqlite3_value` directly; `nil` when it cannot be bytes.
    @inlinable
    public static func decode(from sqliteValue: SQLiteValue, storageClass: Int32) -> [UInt8]? {
        Data.decode(from: sqliteValue, storageClass: storageClass).map(Array.init)
    }
}

// MARK: - Optional

/// `nil` is stored as `NULL`; reading `NULL` gives `nil` instead of an error.
///
/// ```swift
/// let finished = try row.decode(Double?.self, column: "finishedAt")
/// ```
extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// The value as SQLite stores it.
    @inlinable
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }

    /// The value to bind; throws when it cannot be stored.
    @inlinable
    public func databaseValueForBinding() throws -> DatabaseValue {
        try self?.databaseValueForBinding() ?? .null
    }

    /// Binds the value with its own `sqlite3_bind_*` call and returns SQLite's result code.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: Int32) throws -> Int32 {
        guard let self else { return sqlite3_bind_null(sqliteStatement, index) }
        return try self.bind(to: sqliteStatement, at: index)
    }

    /// The stored value as this type, or `nil` when it cannot be one.
    @inlinable
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Wrapped?? {
        if case .null = databaseValue { return .some(nil) }
        return Wrapped.fromDatabaseValue(databaseValue).map { .some($0) }
    }

    /// Reads the column's `sqlite3_value` directly, with no ``DatabaseValue`` in between; `nil`
    /// when it cannot be this type.
    @inlinable
    public static func decode(from sqliteValue: SQLiteValue, storageClass: Int32) -> Wrapped?? {
        if storageClass == SQLITE_NULL { return .some(nil) }
        return Wrapped.decode(from: sqliteValue, storageClass: storageClass).map { .some($0) }
    }
}

// MARK: - RawRepresentable

/// Enums and other raw-representable types are stored as their raw value; declare the
/// conformance to opt in. An unknown raw value on read is a ``RowDecodingError``.
///
/// ```swift
/// enum Kind: String, DatabaseValueConvertible { case run, swim }
/// try db.execute(sql: "INSERT INTO workout (kind) VALUES (?)", arguments: [Kind.run])
/// // INSERT INTO workout (kind) VALUES (?)   -- ?1 = 'run'
/// ```
extension DatabaseValueConvertible where Self: RawRepresentable, RawValue: DatabaseValueConvertible {
    /// The value as SQLite stores it.
    @inlinable public var databaseValue: DatabaseValue { rawValue.databaseValue }

    /// The value to bind; throws when it cannot be stored.
    @inlinable
    public func databaseValueForBinding() throws -> DatabaseValue { try rawValue.databaseValueForBinding() }

    /// The stored value as this type, or `nil` when it cannot be one.
    @inlinable
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(databaseValue).flatMap(Self.init(rawValue:))
    }

    /// Reads the column's `sqlite3_value` directly, with no ``DatabaseValue`` in between; `nil`
    /// when it cannot be this type.
    @inlinable
    public static func decode(from sqliteValue: SQLiteValue, storageClass: Int32) -> Self? {
        RawValue.decode(from: sqliteValue, storageClass: storageClass).flatMap(Self.init(rawValue:))
    }
}
