/// Rows already read into memory (from a database server, say), handed out as ``Row``s so
/// that every decoder written for a statement's rows reads them unchanged.
///
/// ```swift
/// var rows = BufferedRows(columnNames: ["id", "title"], sql: "SELECT id, title FROM workout")
/// rows.append([.integer(1), .text("Run")])
/// let titles = try rows.map { row in try row.decode(String.self, column: "title") }
/// // ["Run"]
/// ```
///
/// A column decodes as it would from SQLite holding the same ``DatabaseValue``
/// (``DatabaseValueConvertible/fromDatabaseValue(_:)``), and a value that does not convert
/// throws the same ``RowDecodingError``, naming the column and `sql`.
public struct BufferedRows {
    /// The result columns' names, in order.
    public let columnNames: [String]
    /// The statement the rows came from, for error messages.
    public let sql: String
    /// Every row's values, row after row.
    private var values: [DatabaseValue] = []
    /// The number of rows.
    public private(set) var count = 0

    /// Empty rows with these columns.
    public init(columnNames: [String], sql: String) {
        self.columnNames = columnNames
        self.sql = sql
    }

    /// Rows from every row's values, row after row (`columnNames.count` values a row), taken
    /// as they are: a trailing partial row is dropped.
    public init(columnNames: [String], sql: String, values: [DatabaseValue]) {
        self.columnNames = columnNames
        self.sql = sql
        let width = columnNames.count
        count = width == 0 ? 0 : values.count / width
        self.values = values.count == count * width ? values : Array(values.prefix(count * width))
    }

    /// Appends a row. Missing trailing values read as `NULL`; extra ones are dropped, so every
    /// row has one value per column.
    public mutating func append(_ row: [DatabaseValue]) {
        let width = columnNames.count
        values.append(contentsOf: row.prefix(width))
        if row.count < width { values.append(contentsOf: repeatElement(.null, count: width - row.count)) }
        count += 1
    }

    /// The value at `column` of row `row`, or nil when either is out of range.
    public func value(row: Int, column: Int) -> DatabaseValue? {
        let width = columnNames.count
        guard row >= 0, row < count, column >= 0, column < width else { return nil }
        return values[row * width + column]
    }

    /// Calls `body` with each row in turn. The ``Row`` is valid only inside `body`, as a
    /// statement's is.
    public func forEach(_ body: (Row) throws -> Void) rethrows {
        guard count > 0 else { return }
        let statement = Statement(buffer: RowBuffer(columnNames: columnNames, values: values), sql: sql)
        defer { statement.buffer = nil }
        for index in 0..<count {
            statement.buffer?.current = index
            try body(Row(statement: statement))
        }
    }

    /// Calls `body` with each of `rowCount` rows that stay where they are (say, in a database
    /// server's result, in its client library's memory) until `body` reaches them:
    /// `readRow(row, &values)` appends that row's values, one a column, to an emptied buffer
    /// that every row reuses. So one row is converted at a time, and no copy of the result is
    /// held beside it. The ``Row`` is valid only inside `body`.
    public static func forEach(
        columnNames: [String], sql: String, rowCount: Int,
        readRow: (_ row: Int, _ values: inout [DatabaseValue]) -> Void, _ body: (Row) throws -> Void
    ) rethrows {
        guard rowCount > 0, !columnNames.isEmpty else { return }
        let buffer = RowBuffer(columnNames: columnNames, values: [])
        buffer.values.reserveCapacity(columnNames.count)
        let statement = Statement(buffer: buffer, sql: sql)
        defer { statement.buffer = nil }
        for index in 0..<rowCount {
            buffer.values.removeAll(keepingCapacity: true)
            readRow(index, &buffer.values)
            try body(Row(statement: statement))
        }
    }

    /// Calls `body` with each of `rowCount` rows that stay where they are, as
    /// ``forEach(columnNames:sql:rowCount:readRow:_:)`` does, each value borrowed from the
    /// memory that holds it (``BorrowedDatabaseValue``) rather than copied out: a decoder
    /// then reads a column straight into its Swift value. The borrowed memory must outlive
    /// the call.
    public static func forEach(
        columnNames: [String], sql: String, rowCount: Int,
        readBorrowedRow: (_ row: Int, _ values: inout [BorrowedDatabaseValue]) -> Void, _ body: (Row) throws -> Void
    ) rethrows {
        guard rowCount > 0, !columnNames.isEmpty else { return }
        let buffer = RowBuffer(columnNames: columnNames, values: [])
        buffer.isBorrowing = true
        buffer.borrowed.reserveCapacity(columnNames.count)
        let statement = Statement(buffer: buffer, sql: sql)
        defer { statement.buffer = nil }
        for index in 0..<rowCount {
            buffer.borrowed.removeAll(keepingCapacity: true)
            readBorrowedRow(index, &buffer.borrowed)
            try body(Row(statement: statement))
        }
    }

    /// Each row transformed by `transform`, in order.
    public func map<T>(_ transform: (Row) throws -> T) rethrows -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        try forEach { result.append(try transform($0)) }
        return result
    }
}

/// What a ``Statement`` standing for ``BufferedRows`` reads its columns from: the values and
/// the row it is on.
///
/// A class: the statement holds it in an optional, and reading a struct's method through that
/// copied the arrays it holds for each value read.
@usableFromInline
final class RowBuffer {
    let columnNames: [String]
    /// The rows' values, row after row.
    @exclusivity(unchecked) var values: [DatabaseValue]
    /// The row the statement is on.
    @exclusivity(unchecked) var current = 0
    /// The current row's values, when it reads borrowed ones instead of ``values``.
    @exclusivity(unchecked) @usableFromInline var borrowed: [BorrowedDatabaseValue] = []
    /// Whether the row is read from ``borrowed``.
    @exclusivity(unchecked) @usableFromInline var isBorrowing = false

    init(columnNames: [String], values: [DatabaseValue]) {
        self.columnNames = columnNames
        self.values = values
    }

    /// The number of whole rows.
    var rowCount: Int { columnNames.isEmpty ? 0 : values.count / columnNames.count }

    /// Column `index` of the current row decoded as `Value`, or nil when it does not convert
    /// or is out of range. A borrowed value converts in one step.
    @inlinable
    func decode<Value: DatabaseValueConvertible>(_ type: Value.Type, at index: Int) -> Value? {
        guard isBorrowing else { return value(at: index).flatMap(Value.fromDatabaseValue) }
        guard let value = borrowedValue(at: index) else { return nil }
        return Value.fromBorrowed(value)
    }

    /// Column `index` of the current borrowed row, or nil when out of range.
    @inlinable
    func borrowedValue(at index: Int) -> BorrowedDatabaseValue? {
        // One unsigned compare for both bounds.
        UInt(bitPattern: index) < UInt(bitPattern: borrowed.count) ? borrowed[index] : nil
    }

    /// Whether column `index` of the current row is `NULL` (also true when out of range),
    /// without copying a borrowed value out.
    @usableFromInline
    func isNull(at index: Int) -> Bool {
        guard isBorrowing else { return value(at: index)?.isNull ?? true }
        return borrowedValue(at: index)?.isNull ?? true
    }

    /// Column `index` of the current row when it is an integer, else nil.
    @usableFromInline
    func integer(at index: Int) -> Int64? {
        if isBorrowing {
            if case .integer(let integer)? = borrowedValue(at: index) { return integer }
            return nil
        }
        if case .integer(let integer)? = value(at: index) { return integer }
        return nil
    }

    /// Column `index` of the current row, or nil when out of range.
    @usableFromInline
    func value(at index: Int) -> DatabaseValue? {
        if isBorrowing { return borrowedValue(at: index)?.databaseValue }
        let width = columnNames.count
        guard index >= 0, index < width else { return nil }
        let position = current * width + index
        return position < values.count ? values[position] : nil
    }
}
