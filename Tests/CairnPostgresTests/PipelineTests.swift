import CairnPostgres
import CairnSQLite
import Foundation
import Testing

@Suite("PostgreSQL pipelined batches", .enabled(if: TestServer.isAvailable, TestServer.skipMessage))
struct PostgresPipelineTests {
    @Test("10,000 rows in one pipelined batch, all stored")
    func tenThousandRows() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).item (id bigint PRIMARY KEY, title text, price double precision)")
            let rows: [StatementArguments] = (1...10_000).map { [$0, "item \($0)", Double($0) / 4] }
            try db.executeBatch(sql: "INSERT INTO \(schema).item VALUES ($1, $2, $3)", argumentRows: rows)
            let summary = try db.fetchAll(sql: "SELECT count(*), sum(id), sum(price), max(title) FROM \(schema).item")
            #expect(summary.rows == [[.integer(10_000), .real(50_005_000), .real(12_501_250), .text("item 9999")]])
            #expect(try db.fetchAll(sql: "SELECT title FROM \(schema).item WHERE id = $1", arguments: [7777]).rows
                == [[.text("item 7777")]])
        }
    }

    @Test("A failing row throws its error and keeps none of the batch; the connection stays usable")
    func failingRow() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).item (id bigint PRIMARY KEY)")
            var rows: [StatementArguments] = (1...1_200).map { [$0] }
            rows[700] = [5]
            let error = try #require(throws: PostgresError.self) {
                try db.executeBatch(sql: "INSERT INTO \(schema).item VALUES ($1)", argumentRows: rows)
            }
            #expect(error.sqlState == "23505")
            #expect(error.arguments == [5])
            #expect(!db.isInTransaction)
            #expect(integer(try db.fetchAll(sql: "SELECT count(*) FROM \(schema).item")) == 0)
            // Inside a transaction the batch joins it.
            try db.inTransaction {
                try db.executeBatch(sql: "INSERT INTO \(schema).item VALUES ($1)", argumentRows: [[1], [2]])
                try db.execute(sql: "INSERT INTO \(schema).item VALUES ($1)", arguments: [3])
            }
            #expect(integer(try db.fetchAll(sql: "SELECT count(*) FROM \(schema).item")) == 3)
        }
    }
}
