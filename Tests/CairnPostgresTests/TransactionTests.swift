import CairnPostgres
import CairnSQLite
import Foundation
import Testing

@Suite("PostgreSQL transactions", .enabled(if: TestServer.isAvailable, TestServer.skipMessage))
struct PostgresTransactionTests {
    struct Failure: Error {}

    @Test("A body that throws rolls back; one that returns commits")
    func rollbackOnThrow() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).t (x integer)")
            #expect(throws: Failure.self) {
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO \(schema).t VALUES ($1)", arguments: [1])
                    throw Failure()
                }
            }
            #expect(!db.isInTransaction)
            try db.inTransaction { try db.execute(sql: "INSERT INTO \(schema).t VALUES ($1)", arguments: [2]) }
            #expect(try db.fetchAll(sql: "SELECT x FROM \(schema).t").rows == [[.integer(2)]])
        }
    }

    /// The DO block fails the first attempt with SQLSTATE 40001, as a conflicting transaction
    /// would.
    @Test("A serialization failure runs the whole body again, in a new transaction")
    func retriesSerializationFailure() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).t (x integer)")
            var attempts = 0
            let value = try db.inTransaction(isolation: .serializable) {
                attempts += 1
                try db.execute(sql: "INSERT INTO \(schema).t VALUES ($1)", arguments: [attempts])
                if attempts == 1 {
                    try db.execute(sql: "DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = '40001'; END $$")
                }
                return attempts
            }
            #expect(value == 2)
            // Only the second attempt's row is kept.
            #expect(try db.fetchAll(sql: "SELECT x FROM \(schema).t").rows == [[.integer(2)]])
        }
    }

    @Test("Retries stop after the attempts are spent, and other errors are not retried")
    func retryLimits() throws {
        let db = try TestServer.connect()
        var attempts = 0
        let error = try #require(throws: PostgresError.self) {
            try db.inTransaction(maximumAttempts: 3) {
                attempts += 1
                try db.execute(sql: "DO $$ BEGIN RAISE EXCEPTION 'deadlock' USING ERRCODE = '40P01'; END $$")
            }
        }
        #expect(attempts == 3)
        #expect(error.sqlState == "40P01")
        attempts = 0
        #expect(throws: PostgresError.self) {
            try db.inTransaction { attempts += 1; try db.execute(sql: "SELECT 1/0") }
        }
        #expect(attempts == 1)
    }

    @Test("Two SERIALIZABLE transactions updating one row: the loser is retried and both updates count")
    func realSerializationConflict() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).counter (n integer); INSERT INTO \(schema).counter VALUES (0)")
            let other = try TestServer.connect()
            var attempts = 0
            try db.inTransaction(isolation: .serializable) {
                attempts += 1
                _ = try db.fetchAll(sql: "SELECT n FROM \(schema).counter")
                if attempts == 1 {
                    // Another client commits an update after this transaction's snapshot.
                    try other.execute(sql: "UPDATE \(schema).counter SET n = n + $1", arguments: [10])
                }
                try db.execute(sql: "UPDATE \(schema).counter SET n = n + $1", arguments: [1])
            }
            #expect(attempts == 2)
            #expect(integer(try db.fetchAll(sql: "SELECT n FROM \(schema).counter")) == 11)
        }
    }

    @Test("A failed statement whose error the body caught makes the commit an error, not a silent rollback")
    func swallowedFailure() throws {
        try TestServer.withSchema { db, schema in
            try db.execute(sql: "CREATE TABLE \(schema).t (x integer)")
            let error = try #require(throws: PostgresError.self) {
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO \(schema).t VALUES ($1)", arguments: [1])
                    _ = try? db.execute(sql: "SELECT 1/0")
                }
            }
            #expect(error.sqlState == "25P02")
            #expect(integer(try db.fetchAll(sql: "SELECT count(*) FROM \(schema).t")) == 0)
        }
    }

    @Test("A transaction inside a transaction is an error")
    func nested() throws {
        let db = try TestServer.connect()
        let error = try #require(throws: PostgresError.self) {
            try db.inTransaction { try db.inTransaction {} }
        }
        #expect(error.message.contains("already open"))
        #expect(!db.isInTransaction)
    }
}
