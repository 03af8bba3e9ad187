import CSQLite

/// Where the current row's column values are, so that reading column `i` is an address
/// computation rather than a `sqlite3_column_value` call.
///
/// `sqlite3_column_value(statement, i)` answers `&resultRow[i]`: SQLite keeps a row's values
/// in consecutive registers of its virtual machine (`Mem` objects, the `sqlite3_value`s the
/// `sqlite3_value_*` functions read). Each call also checks the statement, the index and the
/// connection's allocation state, about 30 instructions and a call a column; a 14-column row
/// paid that 14 times (typed SQL W6: `sqlite3_column_value` and `sqlite3ApiExit` took 10% of
/// the samples, `Scripts/bench-samples.sh typedsql 6`).
///
/// Nothing here assumes SQLite's layout: it is measured and checked.
/// - The first row of a statement asks SQLite for every column and keeps the distance between
///   consecutive values only if every column is exactly where that distance puts it.
/// - Every later row asks for its first and last column and uses the addresses only if the
///   last one is where the distance puts it. Each `OP_ResultRow` of a program names its own
///   first register, so nothing promises one place for every row; the compound `SELECT`s
///   tried (`RowValuesTests`) did keep one.
/// - The address is forgotten when the statement finishes, resets or is finalized, so a
///   ``Row`` kept past its row never reads a released register: it falls back to
///   `sqlite3_column_value`, which then answers `NULL`.
///
/// A value found this way is the one `sqlite3_column_value` would return, but for one thing
/// that call does: it marks a value that points at static memory as ephemeral, which matters
/// only to `sqlite3_value_dup`, `sqlite3_bind_value` and `sqlite3_result_value`. Cairn reads
/// these values and copies what it reads; it passes none of them to those functions.
extension Statement {
    /// Statements with fewer columns ask SQLite for each: two calls a row would save nothing.
    @usableFromInline static let fewestColumnsForRowValues = 3

    /// Records where the row `sqlite3_step` just produced keeps its values (``rowValues``), or
    /// nil when they cannot be found that way.
    @inlinable @inline(__always)
    func locateRowValues(_ handle: SQLiteStatement) {
        guard rowValueStride > 0 else {
            rowValues = nil
            if rowValueStride == 0, columnCount >= Self.fewestColumnsForRowValues { measureRowValues(handle) }
            return
        }
        let last = columnCount - 1
        guard let first = sqlite3_column_value(handle, 0),
            let lastValue = sqlite3_column_value(handle, Int32(truncatingIfNeeded: last)),
            UnsafeRawPointer(lastValue) - UnsafeRawPointer(first) == rowValueStride &* last
        else {
            rowValues = nil
            return
        }
        rowValues = UnsafeRawPointer(first)
    }

    /// The first row's check: every column's value must sit one distance after the previous
    /// one. Sets ``rowValueStride`` to that distance, or to -1 (never again) if any does not.
    @usableFromInline
    func measureRowValues(_ handle: SQLiteStatement) {
        rowValueStride = -1
        var addresses: [UnsafeRawPointer] = []
        addresses.reserveCapacity(columnCount)
        for index in 0..<columnCount {
            guard let value = sqlite3_column_value(handle, Int32(truncatingIfNeeded: index)) else { return }
            addresses.append(UnsafeRawPointer(value))
        }
        let stride = addresses[1] - addresses[0]
        guard stride > 0 else { return }
        for index in 1..<columnCount where addresses[index] - addresses[0] != stride &* index { return }
        rowValueStride = stride
        rowValues = addresses[0]
    }

    /// Column `index`'s value in the current row through ``rowValues``. The caller has checked
    /// that `rowValues` is set and that `index` is in `0..<columnCount`.
    @inlinable @inline(__always)
    func rowValue(_ rowValues: UnsafeRawPointer, at index: Int) -> SQLiteValue {
        Self.rowValue(rowValues, stride: rowValueStride, at: index)
    }

    /// The same, from a first value and a distance read out before (``Row/Columns``).
    @inlinable @inline(__always)
    static func rowValue(_ rowValues: UnsafeRawPointer, stride: Int, at index: Int) -> SQLiteValue {
        OpaquePointer(rowValues + index &* stride)
    }
}
