import CairnSQLite
import Foundation
import Testing

/// Every `Row` accessor finds its column through one bounds check (`Row.columnValue(at:)`, an
/// unsigned compare and an unchecked `Int32` conversion). These tests hold each accessor to
/// its documented answer for indexes inside, at and beyond both ends of the row, including
/// ones that a truncating conversion alone would wrap onto a real column.
@Suite struct RowColumnAccessTests {
    /// Columns: 0 = 7 (INTEGER), 1 = 'seven' (TEXT), 2 = NULL, 3 = 2.5 (REAL).
    static let sql = "SELECT 7, 'seven', NULL, 2.5"
    /// Outside the four columns: negative, the count, and values whose low 32 bits are 0 or 1
    /// (a real column if the index were truncated before being checked).
    static let outside = [-1, Int.min, 4, Int(Int32.max), Int(Int32.max) + 1, 1 << 32, (1 << 32) + 1, Int.max]

    @Test func columnsInsideTheRowReadTheirValues() throws {
        let db = try Database.inMemory()
        _ = try db.fetchAll(sql: Self.sql) { (row: Row) throws -> Void in
            #expect(try row.decode(Int64.self, at: 0) == 7)
            #expect(try row.decode(String.self, at: 1) == "seven")
            #expect(try row.decode(Double?.self, at: 2) == nil)
            #expect(try row.decode(Double.self, at: 3) == 2.5)
            #expect(row[1] as String? == "seven")
            #expect(row.integer(at: 0) == 7)
            // INTEGER only: a REAL, TEXT or NULL column has no integer.
            #expect(row.integer(at: 1) == nil && row.integer(at: 2) == nil && row.integer(at: 3) == nil)
            #expect(row.isNull(at: 2) && !row.isNull(at: 0))
            #expect(row.nullOrValue(Double.self, at: 2) == (true, nil))
            #expect(row.nullOrValue(Double.self, at: 3) == (false, 2.5))
            #expect(row.databaseValue(at: 1) == .text("seven"))
            #expect(row.databaseValue(at: 3) == .real(2.5))
        }
    }

    @Test func indexesOutsideTheRowAreMissingNotAnotherColumn() throws {
        let db = try Database.inMemory()
        _ = try db.fetchAll(sql: Self.sql) { (row: Row) throws -> Void in
            for index in Self.outside {
                #expect(row[index] as Int64? == nil, "\(index)")
                #expect(row.integer(at: index) == nil, "\(index)")
                #expect(row.isNull(at: index), "\(index)")
                #expect(row.nullOrValue(Int64.self, at: index) == (true, nil), "\(index)")
                #expect(row.databaseValue(at: index) == .null, "\(index)")
                #expect(throws: RowDecodingError.self, "\(index)") { try row.decode(Int64?.self, at: index) }
            }
        }
    }

    // `Row.Columns` (a model's slot plan reads through it; typed SQL's decoder does not) checks the
    // statement once for the row and leaves each index to its caller: inside the row it must
    // answer what `Row` answers, and just past it SQLite's NULL.
    @Test func columnsCheckedOnceReadWhatTheRowReads() throws {
        let db = try Database.inMemory()
        _ = try db.fetchAll(sql: Self.sql) { (row: Row) throws -> Void in
            let columns = try #require(row.columns)
            #expect(columns.count == row.count)
            for index in 0..<row.count {
                #expect(columns.value(Int64.self, at: index) == row[index] as Int64?, "\(index)")
                #expect(columns.value(String.self, at: index) == row[index] as String?, "\(index)")
                #expect(columns.value(Double?.self, at: index) == row[index] as Double??, "\(index)")
                #expect(columns.nullOrValue(Double.self, at: index) == row.nullOrValue(Double.self, at: index), "\(index)")
                #expect(columns.nullOrValue(String.self, at: index) == row.nullOrValue(String.self, at: index), "\(index)")
            }
            // Past the row, SQLite's NULL: nothing for a plain type, nil for an Optional one.
            #expect(columns.value(Int64.self, at: row.count) == nil)
            #expect(columns.value(Double?.self, at: row.count) == .some(nil))
            #expect(columns.nullOrValue(Int64.self, at: row.count) == (true, nil))
        }
    }
}
