import CairnSQLite
import Testing

/// SQLite prepares a statement again when the schema it was prepared against changes. A cached
/// statement's columns must follow: `SELECT *` after `ALTER TABLE … ADD COLUMN` has the new
/// column, and one after `DROP COLUMN` no longer has the old one.
@Suite("Cached statements after a schema change")
struct SchemaChangeTests {
    let db: Database

    init() throws {
        db = try Database.inMemory()
        try db.execute(sql: "CREATE TABLE t(a INTEGER, c TEXT)")
        try db.execute(sql: "INSERT INTO t(a, c) VALUES (1, 'x')")
    }

    func everyColumn() throws -> [[String: Int?]] {
        try db.fetchAll(sql: "SELECT * FROM t") { row in
            Dictionary(uniqueKeysWithValues: row.columnNames.map { name in (name, row[name] as Int?) })
        }
    }

    @Test func selectStarGainsAnAddedColumn() throws {
        #expect(try everyColumn() == [["a": 1, "c": nil]])
        try db.execute(sql: "ALTER TABLE t ADD COLUMN b INTEGER DEFAULT 2")
        #expect(try everyColumn() == [["a": 1, "c": nil, "b": 2]])
        #expect(try db.fetchAll(sql: "SELECT * FROM t") { row in row.count } == [3])
        #expect(try db.fetchAll(sql: "SELECT * FROM t") { row -> Int? in row["b"] } == [2])
    }

    @Test func selectStarLosesADroppedColumn() throws {
        #expect(try everyColumn() == [["a": 1, "c": nil]])
        try db.execute(sql: "ALTER TABLE t DROP COLUMN c")
        #expect(try everyColumn() == [["a": 1]])
        #expect(try db.fetchAll(sql: "SELECT * FROM t") { row in row.count } == [1])
    }
}
