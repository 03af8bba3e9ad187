import CairnPostgres
import CairnSQLite
import Foundation
import Testing

@Suite("PostgreSQL errors", .enabled(if: TestServer.isAvailable, TestServer.skipMessage))
struct PostgresErrorTests {
    @Test("A unique violation carries SQLSTATE 23505, the server's message and detail, and the SQL")
    func uniqueViolation() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).item (id integer PRIMARY KEY)")
            let insert = "INSERT INTO \(schema).item (id) VALUES ($1)"
            try db.execute(sql: insert, arguments: [1])
            let error = try #require(throws: PostgresError.self) { try db.execute(sql: insert, arguments: [1]) }
            #expect(error.sqlState == "23505")
            #expect(error.message == "duplicate key value violates unique constraint \"item_pkey\"")
            #expect(error.detail == "Key (id)=(1) already exists.")
            #expect(error.sql == insert)
            #expect(error.arguments == [1])
            #expect(error.description == """
                PostgreSQL error 23505: duplicate key value violates unique constraint "item_pkey"
                  detail: Key (id)=(1) already exists.
                  in: \(insert)  -- arguments redacted (1)
                """)
            // The connection is usable after the error.
            #expect(integer(try db.fetchAll(sql: "SELECT count(*) FROM \(schema).item")) == 1)
        }
    }

    @Test("COPY FROM STDIN and COPY TO STDOUT are refused with an error that says so, and leave the connection ready")
    func copyIsRefused() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).item (id integer)")
            for (copy, prepared) in [
                ("COPY \(schema).item FROM STDIN", false), ("COPY \(schema).item TO STDOUT", false),
                ("COPY (SELECT 1) TO STDOUT", true),
            ] {
                let error = try #require(throws: PostgresError.self) {
                    if prepared { _ = try db.fetchAll(sql: copy, arguments: []) } else { try db.execute(sql: copy) }
                }
                #expect(error.sqlState == "0A000", "\(copy)")
                #expect(error.message.hasPrefix("COPY FROM STDIN and COPY TO STDOUT are not supported"), "\(copy)")
                #expect(error.sql == copy)
                // The COPY ended: the next statement runs on the same connection.
                try db.execute(sql: "INSERT INTO \(schema).item (id) VALUES (1)")
                #expect(integer(try db.fetchAll(sql: "SELECT count(*) FROM \(schema).item")) != nil)
            }
            // Nothing was copied in: only the three rows inserted after each refused COPY.
            #expect(integer(try db.fetchAll(sql: "SELECT count(*) FROM \(schema).item")) == 3)
        }
    }

    @Test("A syntax error carries SQLSTATE 42601 and points at the position in the SQL")
    func syntaxError() throws {
        let db = try TestServer.connect()
        let error = try #require(throws: PostgresError.self) {
            try db.fetchAll(sql: "SELECT 1 FROM WHERE x = $1", arguments: [1])
        }
        #expect(error.sqlState == "42601")
        #expect(error.message == "syntax error at or near \"WHERE\"")
        #expect(error.position == 15)
        #expect(error.arguments == [1])
        #expect(error.description == """
            PostgreSQL error 42601: syntax error at or near "WHERE"
              in: SELECT 1 FROM WHERE x = $1  -- arguments redacted (1)
                                ^
            """)
        // A script (no arguments) reports its errors the same way.
        let scriptError = try #require(throws: PostgresError.self) { try db.execute(sql: "SELEC 1") }
        #expect(scriptError.sqlState == "42601")
        #expect(scriptError.sql == "SELEC 1")
    }

    @Test("A wrong argument count or an unconvertible value is an error that names the SQL")
    func badArguments() throws {
        let db = try TestServer.connect()
        let countError = try #require(throws: PostgresError.self) {
            try db.fetchAll(sql: "SELECT $1::int + $2::int", arguments: [1])
        }
        #expect(countError.sqlState == nil)
        #expect(countError.message == "wrong number of arguments: the SQL has 2 parameters, got 1")
        #expect(countError.sql == "SELECT $1::int + $2::int")
        let valueError = try #require(throws: PostgresError.self) {
            try db.fetchAll(sql: "SELECT $1::int8", arguments: [UInt64.max])
        }
        #expect(valueError.message.hasPrefix("cannot bind argument 1"))
        // A value out of the parameter's range is the server's error, not a wrapped number.
        let rangeError = try #require(throws: PostgresError.self) {
            try db.fetchAll(sql: "SELECT $1::int4", arguments: [Int64.max])
        }
        #expect(rangeError.sqlState == "22003")
    }

    @Test("A URL of another scheme or an unreachable server fails with libpq's message")
    func connectionFailures() throws {
        let scheme = try #require(throws: PostgresError.self) { try PostgresConnection(url: "mysql://localhost/db") }
        #expect(scheme.message.hasPrefix("not a PostgreSQL URL"))
        let missing = try #require(throws: PostgresError.self) {
            try PostgresConnection(url: "postgresql://postgres@/cairn_test?host=/nonexistent-cairn-socket")
        }
        #expect(missing.sqlState == nil)
        #expect(missing.message.hasPrefix("cannot connect to PostgreSQL: "))
        #expect(missing.message.contains("/nonexistent-cairn-socket"))
        let database = try #require(throws: PostgresError.self) {
            let url = try #require(TestServer.url).replacingOccurrences(of: "/cairn_test?", with: "/no_such_database_cairn?")
            return try PostgresConnection(url: url)
        }
        #expect(database.message.contains("\"no_such_database_cairn\" does not exist"))
    }
}

@Suite("PostgreSQL errors of long statements", .enabled(if: TestServer.isAvailable, TestServer.skipMessage))
struct PostgresLongStatementErrorTests {
    @Test("A syntax error deep in a long statement shows the stretch around it with the caret on it")
    func caretInALongStatement() throws {
        let db = try TestServer.connect()
        let sql = "SELECT 1 WHERE 1 IN (" + String(repeating: "1, ", count: 400) + ") ORDER BY "
            + String(repeating: "1, ", count: 300) + "1"
        let error = try #require(throws: PostgresError.self) { try db.execute(sql: sql) }
        #expect(error.sqlState == "42601")
        #expect(error.sql == sql)
        let lines = error.description.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let statement = Array(try #require(lines.dropFirst().first))
        let caret = try #require(lines.last?.firstIndex(of: "^")).utf16Offset(in: try #require(lines.last))
        // Both lines are indented so that the statement and the caret line up.
        #expect(String(statement.prefix(6)) == "  in: ")
        #expect(statement[caret] == ")")
        #expect(String(statement).hasSuffix("… (\(sql.count) characters)"))
        #expect(statement.count < 600)
    }
}
