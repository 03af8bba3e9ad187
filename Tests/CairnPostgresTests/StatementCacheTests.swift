import CairnPostgres
import CairnSQLite
import Foundation
import Testing

@Suite("PostgreSQL prepared statements and rows", .enabled(if: TestServer.isAvailable, TestServer.skipMessage))
struct PostgresStatementCacheTests {
    /// Statements this connection has prepared on the server.
    func serverPreparedCount(_ db: PostgresConnection) throws -> Int64? {
        // Without arguments: a simple query, which prepares nothing itself.
        integer(try db.fetchAll(sql: "SELECT count(*) FROM pg_prepared_statements WHERE name LIKE $1", arguments: ["cairn_%"]))
    }

    @Test("The statement cache stays within its limit, on the server too")
    func cacheIsBounded() throws {
        try TestServer.withSchema { db, schema in
            let limit = PostgresConnection.statementCacheLimit
            for n in 0..<(limit + 40) {
                // Distinct texts, as SQL with spliced values makes them.
                let rows = try db.fetchAll(sql: "SELECT \(n)::bigint + $1", arguments: [1])
                #expect(integer(rows) == Int64(n + 1))
            }
            #expect(db.preparedStatementCount <= limit)
            #expect(try #require(try serverPreparedCount(db)) <= Int64(limit + 1))
            // A statement dropped from the cache is prepared again when it comes back.
            #expect(integer(try db.fetchAll(sql: "SELECT 0::bigint + $1", arguments: [5])) == 5)
            _ = schema
        }
    }

    @Test("A statement prepared before ALTER TABLE runs again with the new columns, outside a transaction")
    func stalePlanOutsideTransaction() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).item (id bigint PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO \(schema).item VALUES ($1)", arguments: [1])
            let select = "SELECT * FROM \(schema).item WHERE id = $1"
            #expect(try db.fetchAll(sql: select, arguments: [1]).columnNames == ["id"])
            try db.execute(sql: "ALTER TABLE \(schema).item ADD COLUMN title text DEFAULT 'tea'")
            let rows = try db.fetchAll(sql: select, arguments: [1])
            #expect(rows.columnNames == ["id", "title"])
            #expect(rows.rows == [[.integer(1), .text("tea")]])
        }
    }

    @Test("Inside a transaction, a stale statement makes the transaction run again, which succeeds")
    func stalePlanInsideTransaction() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).item (id bigint PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO \(schema).item VALUES ($1)", arguments: [1])
            let select = "SELECT * FROM \(schema).item WHERE id = $1"
            _ = try db.fetchAll(sql: select, arguments: [1])
            // Another connection changes the schema, as a migration in another process would.
            try TestServer.connect().execute(sql: "ALTER TABLE \(schema).item ADD COLUMN title text DEFAULT 'tea'")
            var attempts = 0
            let titles = try db.inTransaction {
                attempts += 1
                return try db.fetchAll(sql: select, arguments: [1]) { try $0.decode(String.self, column: "title") }
            }
            #expect(titles == ["tea"])
            #expect(attempts == 2)
        }
    }

    @Test("Rows read as Row: fetchAll, fetchOne (first row only) and forEachRow")
    func rowsReadAsRow() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).item (id bigint PRIMARY KEY, title text, done boolean)")
            try db.executeBatch(sql: "INSERT INTO \(schema).item VALUES ($1, $2, $3)",
                                argumentRows: [[1, "Tea", true], [2, nil, false], [3, "Jam", false]])
            let select = "SELECT id, title, done FROM \(schema).item WHERE id >= $1 ORDER BY id"
            let all = try db.fetchAll(sql: select, arguments: [1]) {
                "\(try $0.decode(Int64.self, at: 0)) \(try $0.decode(String?.self, column: "title") ?? "-") \(try $0.decode(Bool.self, at: 2))"
            }
            #expect(all == ["1 Tea true", "2 - false", "3 Jam false"])
            var calls = 0
            let first = try db.fetchOne(sql: select, arguments: [2]) { row in
                calls += 1
                return try row.decode(Int64.self, at: 0)
            }
            #expect(first == 2)
            #expect(calls == 1)
            #expect(try db.fetchOne(sql: select, arguments: [9]) { try $0.decode(Int64.self, at: 0) } == nil)
            var ids: [Int64] = []
            try db.forEachRow(sql: select, arguments: [2]) { ids.append(try $0.decode(Int64.self, at: 0)) }
            #expect(ids == [2, 3])
            #expect(throws: RowDecodingError.self) {
                try db.fetchAll(sql: select, arguments: [1]) { try $0.decode(Int64.self, at: 1) }
            }
        }
    }
}
