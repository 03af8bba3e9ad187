import CairnPostgres
import CairnSQLite
import Foundation
import Testing

@Suite("PostgreSQL cursors", .enabled(if: TestServer.isAvailable, TestServer.skipMessage))
struct PostgresCursorTests {
    /// The server's open cursors of this session.
    func openCursorNames(_ db: PostgresConnection) throws -> [String] {
        try db.fetchAll(sql: "SELECT name FROM pg_cursors WHERE name LIKE 'cairn%' ORDER BY name") { try $0.decode(String.self, at: 0) }
    }

    @Test("rows arrive in batches, in order, with other statements run between them")
    func rowsInBatches() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).item (id bigint PRIMARY KEY, title text, price double precision, flag boolean)")
            try db.executeBatch(
                sql: "INSERT INTO \(schema).item VALUES ($1, $2, $3, $4)",
                argumentRows: (1...1_000).map { [$0, "item \($0)", Double($0) / 4, $0 % 3 == 0] })
            try db.inTransaction {
                let cursor = try db.fetchCursor(
                    sql: "SELECT id, title, price, flag FROM \(schema).item WHERE id > $1 ORDER BY id", arguments: [10],
                    batchSize: 64)
                var ids: [Int64] = []
                var checksum = 0.0
                while let row = try cursor.next() {
                    ids.append(try row.decode(Int64.self, at: 0))
                    #expect(try row.decode(String.self, column: "title") == "item \(ids.last ?? 0)")
                    checksum += try row.decode(Double.self, at: 2) + (try row.decode(Bool.self, at: 3) ? 1 : 0)
                    if ids.count == 100 {
                        // The connection serves other statements between a cursor's rows.
                        #expect(try db.fetchAll(sql: "SELECT count(*) FROM \(schema).item").rows == [[.integer(1_000)]])
                    }
                }
                #expect(ids == Array(11...1_000))
                let expected: Double = (11...1_000).reduce(0.0) { sum, id in
                    let flag: Double = id % 3 == 0 ? 1 : 0
                    return sum + Double(id) / 4 + flag
                }
                #expect(checksum == expected)
                // Exhausted, the server's cursor is closed.
                #expect(try openCursorNames(db) == [])
            }
        }
    }

    @Test("cursors open at once have their own names; closing one early closes it on the server")
    func severalCursorsAndClose() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).item (id bigint PRIMARY KEY)")
            try db.executeBatch(sql: "INSERT INTO \(schema).item VALUES ($1)", argumentRows: (1...10).map { [$0] })
            try db.inTransaction {
                let first = try db.fetchCursor(sql: "SELECT id FROM \(schema).item ORDER BY id", batchSize: 2)
                let second = try db.fetchCursor(sql: "SELECT id FROM \(schema).item ORDER BY id DESC", batchSize: 2)
                #expect(try first.next().map { try $0.decode(Int64.self, at: 0) } == 1)
                #expect(try second.next().map { try $0.decode(Int64.self, at: 0) } == 10)
                #expect(try openCursorNames(db) == ["cairn_cursor_1", "cairn_cursor_2"])
                first.close()
                #expect(try openCursorNames(db) == ["cairn_cursor_2"])
                #expect(try first.next() == nil)
                #expect(try second.next().map { try $0.decode(Int64.self, at: 0) } == 9)
                // The freed name serves the next cursor.
                let third = try db.fetchCursor(sql: "SELECT id FROM \(schema).item WHERE id < 0")
                #expect(try openCursorNames(db) == ["cairn_cursor_1", "cairn_cursor_2"])
                #expect(try third.next() == nil)
                #expect(try openCursorNames(db) == ["cairn_cursor_2"])
            }
        }
    }

    @Test("outside a transaction, or on a failing query, a cursor is an error that says why")
    func errors() throws {
        try TestServer.withSchema { db, schema in
            let outside = try #require(throws: PostgresError.self) { try db.fetchCursor(sql: "SELECT 1") }
            #expect(outside.message.contains("transaction"))
            #expect(throws: PostgresError.self) {
                try db.inTransaction { _ = try db.fetchCursor(sql: "SELECT * FROM \(schema).missing") }
            }
        }
    }
}
