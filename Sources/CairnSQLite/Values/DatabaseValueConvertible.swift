import CSQLite
import Foundation

/// A prepared statement handle (`sqlite3_stmt *`).
public typealias SQLiteStatement = OpaquePointer

/// A value handle (`sqlite3_value *`): a result column or a function argument, as the fast
/// value paths receive it.
public typealias SQLiteValue = OpaquePointer

/// A Swift type that can be bound as a statement argument and read from a row.
///
/// Conform a type by converting to and from ``DatabaseValue``; the two fast-path
/// requirements have defaults built on those and only need overriding for speed:
///
/// ```swift
/// struct Celsius: DatabaseValueConvertible {
///     var degrees: Double
///     var databaseValue: DatabaseValue { .real(degrees) }
///     static func fromDatabaseValue(_ value: DatabaseValue) -> Celsius? {
///         Double.fromDatabaseValue(value).map(Celsius.init)
///     }
/// }
/// try db.execute(sql: "INSERT INTO reading (temperature) VALUES (?)", arguments: [Celsius(degrees: 21)])
/// // INSERT INTO reading (temperature) VALUES (?)   -- ?1 = 21.0
/// ```
///
/// The standard conformances and their storage: integers of every width → `INTEGER`
/// (a value that does not fit on read, or a `UInt64` above `Int64.max` on write, is an
/// error); `Double`/`Float` → `REAL`; `Bool` → `INTEGER` 0/1; `String` → `TEXT`;
/// `Data` and `[UInt8]` → `BLOB`; `Date` → `TEXT` `2026-03-01 09:30:00.250` (UTC); `UUID` → `TEXT`
/// (lowercase, as StructuredQueries binds it); `URL` → `TEXT` (`absoluteString`); `Decimal` → `TEXT`
/// (exact); `Optional` → `NULL` when nil; `RawRepresentable` types via their raw value
/// (declare the conformance); `Codable` values as JSON `TEXT` via ``DatabaseJSON`` or
/// ``JSONDatabaseValueConvertible``.
public protocol DatabaseValueConvertible {
    /// The value to store.
    var databaseValue: DatabaseValue { get }

    /// The Swift value for a stored value, or nil when it does not convert (including `NULL`
    /// for non-optional types).
    static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Self?

    /// The value Cairn binds: ``databaseValue``, or an error when the value has no faithful
    /// SQLite representation (`UInt64.max`, an unencodable JSON value). Default:
    /// ``databaseValue``.
    func databaseValueForBinding() throws -> DatabaseValue

    /// Fast path: reads a column value straight from `sqlite3_value_*`, without building a
    /// ``DatabaseValue``. `storageClass` is its `sqlite3_value_type` (`SQLITE_INTEGER`,
    /// `SQLITE_FLOAT`, `SQLITE_TEXT`, `SQLITE_BLOB`, `SQLITE_NULL`), read once by the caller.
    /// Returns nil when the value does not convert.
    /// Default: `fromDatabaseValue(DatabaseValue(sqliteValue:))`.
    static func decode(from sqliteValue: SQLiteValue, storageClass: Int32) -> Self?

    /// Fast path: binds the value to parameter `index` (1-based) straight with
    /// `sqlite3_bind_*`, without building a ``DatabaseValue``, and returns SQLite's result
    /// code. Throws as ``databaseValueForBinding()`` does.
    /// Default: `databaseValueForBinding().bind(to:at:)`.
    func bind(to sqliteStatement: SQLiteStatement, at index: Int32) throws -> Int32
}

extension DatabaseValueConvertible {
    /// The value to bind; throws when it cannot be stored.
    @inlinable
    public func databaseValueForBinding() throws -> DatabaseValue { databaseValue }

    /// Reads the column's `sqlite3_value` directly, with no ``DatabaseValue`` in between; `nil`
    /// when it cannot be this type.
    @inlinable
    public static func decode(from sqliteValue: SQLiteValue, storageClass: Int32) -> Self? {
        fromDatabaseValue(DatabaseValue(sqliteValue: sqliteValue))
    }

    /// Binds the value with its own `sqlite3_bind_*` call and returns SQLite's result code.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: Int32) throws -> Int32 {
        try databaseValueForBinding().bind(to: sqliteStatement, at: index)
    }
}

/// Thrown when a Swift value has no faithful SQLite representation and cannot be bound.
///
/// ```swift
/// try Ledger.insert { Ledger(id: 1, total: .max) }.execute(db)
/// // DatabaseValueEncodingError: property 'total': UInt64 value 18446744073709551615 does not
/// // fit SQLite's 64-bit signed INTEGER
/// ```
public struct DatabaseValueEncodingError: Error, Sendable, CustomStringConvertible {
    /// What could not be encoded and why.
    public let reason: String
    /// The property of a row that holds the value, a dotted path through column groups
    /// (`timing.start`); `nil` for a value that is not a row's.
    public let property: String?

    /// Creates an error.
    public init(_ reason: String) {
        self.reason = reason
        self.property = nil
    }

    /// `error`, raised encoding the value of `property`, as an error that names it; the
    /// property of an error raised inside a column group follows the group's name.
    public init(_ error: any Error, property: String) {
        if let error = error as? DatabaseValueEncodingError {
            self.reason = error.reason
            self.property = error.property.map { "\(property).\($0)" } ?? property
        } else {
            self.reason = String(describing: error)
            self.property = property
        }
    }

    public var description: String {
        guard let property else { return "DatabaseValueEncodingError: \(reason)" }
        return "DatabaseValueEncodingError: property '\(property)': \(reason)"
    }
}

// MARK: - DatabaseValue itself

extension DatabaseValue: DatabaseValueConvertible {
    /// The value as SQLite stores it.
    @inlinable public var databaseValue: DatabaseValue { self }
    /// The stored value itself.
    @inlinable public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> DatabaseValue? {
        databaseValue
    }
}

extension DatabaseValue {
    /// Reads column `index` of the statement's current row.
    @inlinable
    public init(sqliteStatement: SQLiteStatement, index: Int32) {
        guard let value = sqlite3_column_value(sqliteStatement, index) else {
            self = .null
            return
        }
        self.init(sqliteValue: value)
    }

    /// Reads an `sqlite3_value` (a result column or a function argument).
    @inlinable
    public init(sqliteValue: SQLiteValue) {
        switch sqlite3_value_type(sqliteValue) {
        case SQLITE_INTEGER:
            self = .integer(sqlite3_value_int64(sqliteValue))
        case SQLITE_FLOAT:
            self = .real(sqlite3_value_double(sqliteValue))
        case SQLITE_TEXT:
            self = .text(readText(sqliteValue) ?? "")
        case SQLITE_BLOB:
            self = .blob(readBlob(sqliteValue))
        default:
            self = .null
        }
    }

    /// Binds this value to parameter `index` (1-based) and returns SQLite's result code.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: Int32) -> Int32 {
        switch self {
        case .null:
            return sqlite3_bind_null(sqliteStatement, index)
        case .integer(let value):
            return sqlite3_bind_int64(sqliteStatement, index, value)
        case .real(let value):
            return sqlite3_bind_double(sqliteStatement, index, value)
        case .text(let value):
            return bindText(value, to: sqliteStatement, at: index)
        case .blob(let data):
            if data.isEmpty {
                // sqlite3_bind_blob with a NULL pointer would bind NULL.
                return sqlite3_bind_zeroblob(sqliteStatement, index, 0)
            }
            // 64-bit lengths: a value over SQLite's limit is its SQLITE_TOOBIG, not a failed
            // conversion to Int32.
            return data.withUnsafeBytes { buffer in
                sqlite3_bind_blob64(sqliteStatement, index, buffer.baseAddress, sqlite3_uint64(buffer.count),
                                    CAIRN_SQLITE_TRANSIENT)
            }
        }
    }
}

/// The text of a value as a Swift `String` (one allocation at most, as C's `strdup`), or nil
/// for NULL; made by ``makeString(utf8:count:)``.
@inlinable @inline(__always)
func readText(_ sqliteValue: SQLiteValue) -> String? {
    guard let pointer = sqlite3_value_text(sqliteValue) else { return nil }
    return makeString(utf8: pointer, count: Int(sqlite3_value_bytes(sqliteValue)))
}

/// `count` bytes of UTF-8 text as a Swift `String`, one allocation at most, as C's `strdup`:
/// SQLite's text, and a database server's.
///
/// ASCII text of up to 63 bytes is built through Swift's stable ABI when this process verified
/// it can be (StableABIText.swift; never under `CAIRN_PORTABLE=1`). The rest, and all text in
/// the portable mode, goes through the public initializer that is cheapest for its length
/// (callgrind, a string made and freed): up to 15 bytes, which fit Swift's inline small
/// string, `String(unsafeUninitializedCapacity:initializingUTF8With:)` builds in place (about
/// 145 instructions, against 151–249 for `String(decoding:as:)`); from 16 bytes
/// `String(decoding:as:)` (514–525 for 16–63 bytes, against 567–578). Both validate, and
/// repair invalid UTF-8 (U+FFFD) rather than trust it.
@inlinable @inline(__always)
package func makeString(utf8 pointer: UnsafePointer<UInt8>, count: Int) -> String {
    if let text = stableABIString(pointer, count: count) { return text }
    if count <= 15 {
        return String(unsafeUninitializedCapacity: count) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            base.initialize(from: pointer, count: count)
            return count
        }
    }
    return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
}

/// The bytes of a value (`BLOB`, or the UTF-8 of `TEXT`); empty for a zero-length blob.
@inlinable
func readBlob(_ sqliteValue: SQLiteValue) -> Data {
    guard let pointer = sqlite3_value_blob(sqliteValue) else { return Data() }
    let count = Int(sqlite3_value_bytes(sqliteValue))
    return Data(bytes: pointer, count: count)
}

/// Binds `text` as TEXT (copied by SQLite: `SQLITE_TRANSIENT`, since the bytes are only
/// guaranteed alive during this call).
@inlinable
func bindText(_ text: String, to sqliteStatement: SQLiteStatement, at index: Int32) -> Int32 {
    var text = text
    return text.withUTF8 { buffer in
        // A non-null pointer even when empty, so '' binds as TEXT and not NULL.
        guard let base = buffer.baseAddress else {
            return sqlite3_bind_text(sqliteStatement, index, "", 0, CAIRN_SQLITE_TRANSIENT)
        }
        return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
            sqlite3_bind_text64(sqliteStatement, index, $0, sqlite3_uint64(buffer.count), CAIRN_SQLITE_TRANSIENT,
                                UInt8(SQLITE_UTF8))
        }
    }
}
