/// A row value could not become the Swift type asked for: SQL `NULL` read into a non-optional,
/// a type mismatch (`TEXT` read as `Int`), an integer that overflows the target width, or an
/// unknown column.
///
/// ```swift
/// try db.fetchOne(sql: "SELECT NULL AS title") { row in try row.decode(String.self, column: "title") }
/// // RowDecodingError: could not decode column 0 "title" as String: found NULL;
/// //   use String? to accept NULL.  in: SELECT NULL AS title
/// ```
public struct RowDecodingError: Error, Sendable, CustomStringConvertible {
    /// Why decoding failed.
    public enum Reason: Sendable, Hashable {
        /// The column holds `NULL` and the requested type is not optional.
        case unexpectedNull
        /// The stored value has no representation in the requested type (includes integer
        /// overflow, such as `300` read as `UInt8`, and malformed text).
        case valueMismatch(storedValue: String)
        /// No column has this name.
        case columnNotFound(String)
        /// The index is outside `0..<columnCount`.
        case indexOutOfRange(Int, columnCount: Int)
        /// The row's statement was finalized (its database closed) before the row was read.
        case statementFinalized
    }

    /// Why decoding failed.
    public let reason: Reason
    /// The column index, when known.
    public let columnIndex: Int?
    /// The column name, when known.
    public let columnName: String?
    /// The Swift type requested.
    public let typeName: String
    /// The SQL of the statement that produced the row.
    public let sql: String

    /// Creates an error.
    public init(reason: Reason, columnIndex: Int?, columnName: String?, typeName: String, sql: String) {
        self.reason = reason
        self.columnIndex = columnIndex
        self.columnName = columnName
        self.typeName = typeName
        self.sql = sql
    }

    /// Says what, where and what to do.
    public var description: String {
        var column = ""
        if let columnIndex { column += "column \(columnIndex)" }
        if let columnName { column += (column.isEmpty ? "column " : " ") + "\"\(columnName)\"" }
        let why: String
        switch reason {
        case .unexpectedNull:
            why = "could not decode \(column) as \(typeName): found NULL; use \(typeName)? to accept NULL"
        case .valueMismatch(let stored):
            why = "could not decode \(column) as \(typeName): the stored value \(stored) does not convert"
        case .columnNotFound(let name):
            why = "no column named \"\(name)\" (asked for \(typeName))"
        case .indexOutOfRange(let index, let count):
            why = "column index \(index) is out of range 0..<\(count) (asked for \(typeName))"
        case .statementFinalized:
            why = "the row was read after its statement was finalized (a Row is valid only inside the closure that receives it)"
        }
        return "RowDecodingError: \(why).  in: \(sql)"
    }
}
