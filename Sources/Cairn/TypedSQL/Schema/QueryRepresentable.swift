import CairnSQLite

/// A type that can be read from the columns of a result row: a stored value (`Int`,
/// `String`, `Date`, an enum with a raw value…), a representation of one
/// (`Date.UnixTimeRepresentation`), a `@Table` row or a `@Selection` row.
///
/// `QueryOutput` is what the application sees: `Date` for `Date.UnixTimeRepresentation`,
/// the type itself for plain values and tables.
public protocol QueryRepresentable<QueryOutput>: SendableMetatype {
    /// The Swift value a decoded row hands back.
    associatedtype QueryOutput = Self
    /// The type of the same value when it may be absent (left joins, `max()` of no rows):
    /// `Optional<Self>`, or `Self` when the type is already optional.
    associatedtype _Optionalized = Self?

    /// How many result columns the type reads (1 for a value, one per column for a table).
    static var columnWidth: Int { get }

    /// Reads the value from the decoder's current column(s) and advances past them.
    static func decode(from decoder: inout QueryDecoder) throws -> QueryOutput
}

extension QueryRepresentable {
    /// How many result columns the value takes.
    @inlinable public static var columnWidth: Int { 1 }
}

/// A value that can be stored in one column and bound as an argument: the types a `@Table`
/// property may have (directly or through `@Column(as:)`).
///
/// Conforming an enum with a raw value takes one line:
///
/// ```swift
/// enum Priority: Int, QueryBindable { case low = 1, medium, high }
/// Reminder.where { $0.priority.gt(.low) }
/// // … WHERE ("reminders"."priority" > ?)   -- ?1 = 1
/// ```
public protocol QueryBindable: QueryRepresentable, QueryExpression, DatabaseValueConvertible
where QueryValue == Self, _Optionalized: QueryBindable {
    /// Wraps the application's value in this (representation) type.
    init(queryOutput: QueryOutput)
    /// The application's value.
    var queryOutput: QueryOutput { get }
}

extension QueryBindable {
    /// A bound value: `?`, with the value in the arguments.
    public var sqlExpression: SQLExpression {
        // A value SQLite cannot hold (a UInt64 above Int64.max, an unencodable JSON value)
        // becomes an expression whose rendering throws, naming the value.
        .binding(self)
    }
}

extension QueryBindable where QueryOutput == Self {
    /// Wraps a value decoded from a query.
    public init(queryOutput: Self) { self = queryOutput }
    /// The value as a query returns it.
    public var queryOutput: Self { self }

    /// Reads the value from the next result columns of a row.
    @inlinable
    public static func decode(from decoder: inout QueryDecoder) throws -> Self {
        try decoder.decode(Self.self)
    }
}

// MARK: - Decoder

/// Reads typed values from a result row, column after column, with the engine's no-boxing
/// fast path (`DatabaseValueConvertible.decode(from:at:)`).
///
/// Generated `@Table` and `@Selection` code calls it; decoding errors name the column, the
/// expected type and the SQL.
public struct QueryDecoder {
    @usableFromInline let row: Row
    @usableFromInline var index: Int

    @usableFromInline
    init(row: Row) {
        self.row = row
        self.index = 0
    }

    /// Decodes the next column as `Value`, throwing a `RowDecodingError` that names the
    /// column and the SQL when it holds NULL or a value of another type.
    @inlinable @inline(__always)
    public mutating func decode<Value: DatabaseValueConvertible>(_ type: Value.Type) throws -> Value {
        defer { index += 1 }
        return try row.decode(Value.self, at: index)
    }

    /// Decodes the next column(s) as `Value` and returns what the application sees: the
    /// entry point of generated `@Table` and `@Selection` code (`init(decoder:)`).
    @inlinable
    public mutating func decodeColumn<Value: QueryRepresentable>(_ type: Value.Type) throws -> Value.QueryOutput {
        try Value.decode(from: &self)
    }

    /// A stored value that is its own output (`Int`, `String`, `Double?`, a raw-value enum)
    /// in one step: the column's `sqlite3_value` straight into the Swift value. Chosen over
    /// the general overload for those types; an optional one reads its column once instead
    /// of testing it for NULL first (as `Optional.decode(from:)` must for multi-column types).
    @inlinable @inline(__always)
    public mutating func decodeColumn<Value: QueryBindable>(_ type: Value.Type) throws -> Value
    where Value.QueryOutput == Value {
        try decode(Value.self)
    }

    /// Whether the next `width` columns are all NULL (an absent left-joined row).
    @inlinable
    public func isNull(width: Int) -> Bool {
        for offset in 0..<width where !row.isNull(at: index + offset) { return false }
        return true
    }

    /// Skips `width` columns.
    @inlinable
    public mutating func skip(width: Int) { index += width }
}

// MARK: - Optional

extension Optional: QueryRepresentable where Wrapped: QueryRepresentable {
    /// The Swift type a query returns for this value.
    public typealias QueryOutput = Wrapped.QueryOutput?
    public typealias _Optionalized = Self

    /// How many result columns the value takes.
    @inlinable public static var columnWidth: Int { Wrapped.columnWidth }

    /// Reads the value from the next result columns of a row.
    @inlinable
    public static func decode(from decoder: inout QueryDecoder) throws -> Wrapped.QueryOutput? {
        if decoder.isNull(width: Wrapped.columnWidth) {
            decoder.skip(width: Wrapped.columnWidth)
            return nil
        }
        return try Wrapped.decode(from: &decoder)
    }
}

extension Optional: QueryExpression where Wrapped: QueryBindable {
    /// The value type the expression stands for in SQL.
    public typealias QueryValue = Self
}

extension Optional: QueryBindable where Wrapped: QueryBindable {
    /// Wraps a value decoded from a query.
    public init(queryOutput: Wrapped.QueryOutput?) {
        self = queryOutput.map(Wrapped.init(queryOutput:))
    }

    /// The value as a query returns it.
    public var queryOutput: Wrapped.QueryOutput? { self?.queryOutput }
}

// MARK: - Standard types

extension Int: QueryBindable {}
extension Int8: QueryBindable {}
extension Int16: QueryBindable {}
extension Int32: QueryBindable {}
extension Int64: QueryBindable {}
extension UInt8: QueryBindable {}
extension UInt16: QueryBindable {}
extension UInt32: QueryBindable {}
extension UInt64: QueryBindable {}
extension Double: QueryBindable {}
extension Float: QueryBindable {}
extension Bool: QueryBindable {}
extension String: QueryBindable {}
extension Data: QueryBindable {}
extension Array: QueryRepresentable where Element == UInt8 {}
extension Array: QueryExpression where Element == UInt8 {
    /// The value type the expression stands for in SQL.
    public typealias QueryValue = Self
}
/// StructuredQueries' blob type (`randomblob()` returns it), stored as `Data` is.
extension Array: QueryBindable where Element == UInt8 {}
extension Date: QueryBindable {}
extension UUID: QueryBindable {}
extension URL: QueryBindable {}
extension Decimal: QueryBindable {}
extension DatabaseValue: QueryBindable {}
