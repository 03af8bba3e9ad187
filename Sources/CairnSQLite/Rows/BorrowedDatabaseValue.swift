import Foundation

/// A column value read where it lies: numbers by value, text and bytes as a view of memory
/// another library owns (a database server's result, in its client library), valid only
/// while that memory is.
///
/// Rows a server returned reach ``Row``'s decoders as these (``BufferedRows/forEach(columnNames:sql:rowCount:readBorrowedRow:_:)``),
/// so that a column becomes its Swift value in one step: an integer column an `Int`, a text
/// column a `String` built from the server's bytes, with no ``DatabaseValue`` in between and
/// nothing to retain or release per column.
///
/// ```swift
/// let value = BorrowedDatabaseValue.text(UnsafeRawBufferPointer(bytes))   // bytes still alive
/// let title = String.fromBorrowed(value)                                   // "Run"
/// ```
///
/// A column converts exactly as the ``DatabaseValue`` it stands for (``databaseValue``)
/// would: ``DatabaseValueConvertible/fromDatabaseValue(_:)`` stays the one home of those rules.
@frozen
public enum BorrowedDatabaseValue {
    /// `NULL`
    case null
    /// An integer (a server's `bigint`, `integer`, `smallint`; a boolean as 0 or 1).
    case integer(Int64)
    /// A double (a server's `double precision` or `real`).
    case real(Double)
    /// UTF-8 text, not NUL-terminated; invalid UTF-8 is repaired (U+FFFD) as it is copied.
    case text(UnsafeRawBufferPointer)
    /// Bytes.
    case blob(UnsafeRawBufferPointer)

    /// The value as an owned ``DatabaseValue``: text and bytes are copied.
    @inlinable
    public var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let value): .integer(value)
        case .real(let value): .real(value)
        case .text(let bytes): .text(Self.string(bytes))
        case .blob(let bytes): .blob(Data(bytes))
        }
    }

    /// Whether the value is `NULL`.
    @inlinable
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The text of `bytes`, built as SQLite's text is (``makeString(utf8:count:)``).
    @inlinable
    static func string(_ bytes: UnsafeRawBufferPointer) -> String {
        guard let base = bytes.baseAddress else { return "" }
        return makeString(utf8: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    }
}

extension DatabaseValueConvertible {
    /// The Swift value for a borrowed column value, or nil when it does not convert: what
    /// ``fromDatabaseValue(_:)`` returns for its ``BorrowedDatabaseValue/databaseValue``.
    ///
    /// Inlinable, so that it is specialized for `Self`: a number then reaches the type's own
    /// inlinable `fromDatabaseValue` and folds into a few instructions, and text is copied
    /// once, into the `String` the type keeps.
    @inlinable
    public static func fromBorrowed(_ value: BorrowedDatabaseValue) -> Self? {
        switch value {
        case .null: fromDatabaseValue(.null)
        case .integer(let integer): fromDatabaseValue(.integer(integer))
        case .real(let real): fromDatabaseValue(.real(real))
        case .text, .blob: fromDatabaseValue(value.databaseValue)
        }
    }
}
