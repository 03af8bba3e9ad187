import CairnSQLite
import Foundation
import Testing

@Suite struct DatabaseValueTests {
    @Test func descriptionQuotesText() {
        #expect(DatabaseValue.text("it's").description == "'it''s'")
        #expect(DatabaseValue.blob(Data([0, 255])).description == "x'00ff'")
        #expect(DatabaseValue.blob(Data(repeating: 0xAB, count: 33)).description == "x'" + String(repeating: "ab", count: 32) + "…' (33 bytes)")
        #expect(DatabaseValue.text(String(repeating: "é'", count: 60)).description
            == "'" + String(repeating: "é''", count: 50) + "…' (180 bytes)")
        #expect(DatabaseValue.text(String(repeating: "x", count: 100)).description == "'" + String(repeating: "x", count: 100) + "'")
        #expect(DatabaseValue.null.isNull)
        #expect(!DatabaseValue.integer(0).isNull)
    }
}

/// Values longer than `Int32.max` bytes (SQLite's C API once took 32-bit lengths) reach SQLite,
/// which refuses them with `SQLITE_TOOBIG`, instead of failing a conversion that would stop the
/// process. The data is zeros from `calloc`, so no page of it is touched.
@Suite struct OversizedValueTests {
    static let huge = Data(count: Int(Int32.max) + 1)

    @Test func bindingIsAnError() throws {
        let db = try Database.inMemory()
        try db.execute(sql: "CREATE TABLE t (b BLOB)")
        #expect {
            try db.execute(sql: "INSERT INTO t (b) VALUES (?)", arguments: [Self.huge])
        } throws: { ($0 as? DatabaseError)?.resultCode == .SQLITE_TOOBIG }
        #expect(try db.fetchAll(sql: "SELECT COUNT(*) FROM t") { try $0.decode(Int.self, at: 0) } == [0])
    }

    @Test func functionResultIsAnError() throws {
        let db = try Database.inMemory()
        db.add(function: DatabaseFunction("huge", argumentCount: 0) { _ in Self.huge })
        #expect {
            _ = try db.fetchAll(sql: "SELECT length(huge())") { try $0.decode(Int.self, at: 0) }
        } throws: { ($0 as? DatabaseError)?.resultCode == .SQLITE_TOOBIG }
    }
}
