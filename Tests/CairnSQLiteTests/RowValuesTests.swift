import CSQLite
@testable import CairnSQLite
import Foundation
import Testing

/// A `Row` and its `Row.Columns` read each column through `sqlite3_column_value`: every value
/// they give must be the one SQLite answers for it, and a `Row` kept past its row must not ask
/// SQLite for a column at all (SQLite leaves that undefined).
@Suite struct RowValuesTests {
    /// Each value as `sqlite3_column_value` gives it, read through the public accessors.
    static func throughSQLite(_ statement: Statement) throws -> [DatabaseValue] {
        let handle = try #require(statement.sqliteStatement)
        return (0..<statement.columnCount).map { index in
            DatabaseValue(sqliteValue: sqlite3_column_value(handle, Int32(index))!)
        }
    }

    static func text(_ value: DatabaseValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }

    @Test("every column of every row read through a Row is the value SQLite answers for it")
    func rowValuesAreSQLitesValues() throws {
        let db = try Database.inMemory()
        try db.execute(sql: "CREATE TABLE t (a INTEGER, b TEXT, c REAL, d BLOB, e TEXT)")
        let insert = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)")
        for index in 0..<200 {
            let long = String(repeating: "é", count: index)
            try insert.execute(arguments: [
                index % 7 == 0 ? nil : index, index % 5 == 0 ? nil : "text \(index) \(long)",
                Double(index) / 3, Data([UInt8(index % 256), 0, 1]), index % 2 == 0 ? "" : "x",
            ])
        }
        let statement = try db.makeStatement(sql: "SELECT a, b, c, d, e, a + 1, upper(b) FROM t ORDER BY a DESC")
        var rows = 0
        try statement.forEachRow { row in
            rows += 1
            let expected = try Self.throughSQLite(statement)
            #expect((0..<row.count).map { row.databaseValue(at: $0) } == expected)
            #expect(try row.decode(String?.self, at: 1) == Self.text(expected[1]))
            let columns = try #require(row.columns)
            #expect((0..<row.count).map { columns.value(String.self, at: $0) } == expected.map(Self.text))
        }
        #expect(rows == 200)
    }

    // Each arm of a compound SELECT ends in its own result row: every row reads its own values.
    @Test("each arm of a compound SELECT reads its own values")
    func compoundSelectArmsReadTheirOwnValues() throws {
        let db = try Database.inMemory()
        let sql = """
            SELECT 1, 'one', 1.5, NULL UNION ALL SELECT 2, 'two', 2.5, x'ff' \
            UNION ALL SELECT count(*), 'three', 3.5, 'z' FROM (SELECT 1 UNION ALL SELECT 2)
            """
        let rows = try db.fetchAll(sql: sql) { row in
            [try row.decode(Int64.self, at: 0).description, try row.decode(String.self, at: 1),
             try row.decode(Double.self, at: 2).description, row.databaseValue(at: 3).description]
        }
        #expect(rows.map { $0[0] } == ["1", "2", "2"])
        #expect(rows.map { $0[1] } == ["one", "two", "three"])
        #expect(rows.map { $0[2] } == ["1.5", "2.5", "3.5"])
        #expect(rows[0][3] == DatabaseValue.null.description)
    }

    @Test("a row kept after its statement finished, reset or closed with its connection reads nothing")
    func aRowKeptPastItsRowReadsNothing() throws {
        let db = try Database.inMemory()
        let statement = try db.makeStatement(sql: "SELECT 'a text long enough to be allocated', 2, 3.5")
        #expect(try statement.step())
        let row = Row(statement: statement)
        #expect(try row.decode(String.self, at: 0) == "a text long enough to be allocated")
        // Finished: the row reads as NULL without asking SQLite, which would record
        // SQLITE_RANGE as the connection's error for a column read off a row.
        #expect(try !statement.step())
        #expect(row.databaseValue(at: 0) == .null)
        #expect(row.isNull(at: 0))
        let connection = try #require(db.sqliteConnection)
        #expect(sqlite3_errcode(connection) != SQLITE_RANGE)
        #expect(throws: RowDecodingError.self) { try row.decode(String.self, at: 0) }

        #expect(try statement.step())
        statement.reset()
        #expect(row.databaseValue(at: 2) == .null)

        #expect(try statement.step())
        try db.close()
        #expect(row.databaseValue(at: 1) == .null)
    }
}

extension RowValuesTests {
    // SQLite prepares a statement again after a schema change, which may change its columns:
    // a row must then be read as SQLite answers it, never past the new row's values.
    @Test("a statement SQLite prepared again after a schema change reads the new rows as SQLite does")
    func aStatementPreparedAgainReadsWhatSQLiteAnswers() throws {
        let db = try Database.inMemory()
        try db.execute(sql: "CREATE TABLE t (a INTEGER, b TEXT, c REAL, d TEXT)")
        try db.execute(sql: "INSERT INTO t VALUES (1, 'one', 1.5, 'first'), (2, 'two', 2.5, 'second')")
        let statement = try db.makeStatement(sql: "SELECT * FROM t ORDER BY a")
        let before = try statement.fetchAll { row in (0..<row.count).map { row.databaseValue(at: $0) } }
        #expect(before == [[.integer(1), .text("one"), .real(1.5), .text("first")],
                           [.integer(2), .text("two"), .real(2.5), .text("second")]])
        try db.execute(sql: "ALTER TABLE t DROP COLUMN d")
        try db.execute(sql: "ALTER TABLE t ADD COLUMN e TEXT DEFAULT 'new'")
        try db.execute(sql: "ALTER TABLE t DROP COLUMN c")
        var rows: [[DatabaseValue]] = []
        try statement.forEachRow { row in
            let expected = try Self.throughSQLite(statement)
            rows.append((0..<row.count).map { row.databaseValue(at: $0) })
            #expect(rows.last == expected)
            let columns = try #require(row.columns)
            #expect((0..<columns.count).map { columns.value(String.self, at: $0) } == expected.map(Self.text))
        }
        // Three columns now (a, b, e), as SQLite counts them once it prepared the statement again.
        let handle = try #require(statement.sqliteStatement)
        #expect(sqlite3_column_count(handle) == 3)
        #expect(statement.columnCount == 3 && statement.columnNames == ["a", "b", "e"])
        #expect(rows == [[.integer(1), .text("one"), .text("new")],
                         [.integer(2), .text("two"), .text("new")]])
    }
}
