import CSQLite
import CairnSQLite
import Foundation
import Testing
import CairnTestSupport

private struct Boom: Error {}

@Suite struct TransactionTests {
    let db: Database
    init() throws {
        db = try Database.inMemory()
        try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
    }

    func names() throws -> [String] {
        try db.fetchValues(String.self, sql: "SELECT name FROM t ORDER BY id")
    }

    @Test(arguments: [TransactionKind.deferred, .immediate, .exclusive])
    func commitsOnSuccess(_ kind: TransactionKind) throws {
        let statements = Collected<String>()
        db.add { statements.append($0.sql) }
        let value = try db.inTransaction(kind) {
            try db.execute(sql: "INSERT INTO t (name) VALUES (?)", arguments: ["a"])
            return 42
        }
        #expect(value == 42)
        #expect(try names() == ["a"])
        #expect(!db.isInsideTransaction)
        #expect(statements.values.prefix(3) == [
            "BEGIN \(kind.rawValue) TRANSACTION", "INSERT INTO t (name) VALUES (?)", "COMMIT TRANSACTION",
        ])
    }

    @Test func rollsBackEverythingOnThrow() throws {
        #expect(throws: Boom.self) {
            try db.inTransaction(.immediate) {
                try db.execute(sql: "INSERT INTO t (name) VALUES ('a'), ('b')")
                try db.execute(sql: "UPDATE t SET name = 'c' WHERE name = 'a'")
                throw Boom()
            }
        }
        #expect(try names() == [])
        #expect(!db.isInsideTransaction)
    }

    @Test func rollsBackOnSQLError() throws {
        try db.execute(sql: "INSERT INTO t (name) VALUES ('taken')")
        let error = #expect(throws: DatabaseError.self) {
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO t (name) VALUES ('new')")
                try db.execute(sql: "INSERT INTO t (name) VALUES ('taken')")
            }
        }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
        #expect(try names() == ["taken"])
    }

    @Test func nestedSavepointRollsBackOnlyItsOwnWrites() throws {
        try db.inTransaction {
            try db.execute(sql: "INSERT INTO t (name) VALUES ('outer')")
            #expect(throws: Boom.self) {
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t (name) VALUES ('inner')")
                    try db.inSavepoint {
                        try db.execute(sql: "INSERT INTO t (name) VALUES ('innermost')")
                    }
                    throw Boom()
                }
            }
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO t (name) VALUES ('kept')")
            }
        }
        #expect(try names() == ["outer", "kept"])
    }

    @Test func savepointOutsideTransactionIsItsOwnTransaction() throws {
        #expect(throws: Boom.self) {
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO t (name) VALUES ('x')")
                throw Boom()
            }
        }
        #expect(!db.isInsideTransaction)
        try db.inSavepoint { try db.execute(sql: "INSERT INTO t (name) VALUES ('y')") }
        #expect(!db.isInsideTransaction)
        #expect(try names() == ["y"])
    }

    @Test func transactionInsideTransactionIsAnError() throws {
        try db.inTransaction {
            let error = #expect(throws: DatabaseError.self) { try db.inTransaction {} }
            #expect(error?.message.contains("within a transaction") == true)
        }
    }
}

@Suite struct DatabaseErrorTests {
    @Test func carriesCodesMessageSQLAndRedactsArguments() throws {
        let db = try Database.inMemory()
        try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, email TEXT UNIQUE)")
        try db.execute(sql: "INSERT INTO t (email) VALUES (?)", arguments: ["secret@example.com"])
        do {
            try db.execute(sql: "INSERT INTO t (email) VALUES (?)", arguments: ["secret@example.com"])
            Issue.record("expected a constraint error")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
            #expect(error.message == "UNIQUE constraint failed: t.email")
            #expect(error.sql == "INSERT INTO t (email) VALUES (?)")
            #expect(error.arguments == ["secret@example.com"])
            #expect(!error.description.contains("secret"))
            #expect(error.description.contains("arguments redacted (1)"))
            #expect(error.description.contains("UNIQUE constraint failed: t.email"))
            #expect(error.description.contains("INSERT INTO t (email) VALUES (?)"))
        }
    }

    @Test func publicArgumentsShowInDescription() throws {
        var configuration = Configuration()
        configuration.publicStatementArguments = true
        let db = try Database.inMemory(configuration: configuration)
        let error = #expect(throws: DatabaseError.self) {
            try db.execute(sql: "SELECT * FROM missing WHERE x = ?", arguments: ["visible"])
        }
        #expect(error?.resultCode == .SQLITE_ERROR)
        #expect(error?.message == "no such table: missing")
        #expect(error?.sql == "SELECT * FROM missing WHERE x = ?")
    }

    @Test func descriptionShowsArgumentsWhenPublic() throws {
        var configuration = Configuration()
        configuration.publicStatementArguments = true
        let db = try Database.inMemory(configuration: configuration)
        try db.execute(sql: "CREATE TABLE t (x NOT NULL)")
        let error = #expect(throws: DatabaseError.self) {
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [nil])
        }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL)
        #expect(error?.description.contains("arguments: [NULL]") == true)
    }

    @Test func resultCodePatterns() {
        #expect(ResultCode.SQLITE_CONSTRAINT ~= ResultCode.SQLITE_CONSTRAINT_UNIQUE)
        #expect(!(ResultCode.SQLITE_CONSTRAINT_UNIQUE ~= ResultCode.SQLITE_CONSTRAINT_NOTNULL))
        #expect(ResultCode.SQLITE_CONSTRAINT_UNIQUE.primaryResultCode == .SQLITE_CONSTRAINT)
        #expect(ResultCode.SQLITE_BUSY.description == "5 (database is locked)")
    }
}

@Suite struct ClosingTests {
    @Test func closeFinalizesEveryStatement() throws {
        let db = try Database.inMemory()
        try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1), (2), (3)")
        _ = try db.cachedStatement(sql: "SELECT x FROM t")
        let held = try db.makeStatement(sql: "SELECT x + 1 FROM t")
        let cursor = try db.fetchCursor(sql: "SELECT x * 2 FROM t")
        _ = try cursor.next()
        #expect(db.unfinalizedStatementSQL().count >= 3)
        try db.close()  // sqlite3_close (not _v2) fails with SQLITE_BUSY if any statement is left
        #expect(db.isClosed)
        #expect(db.unfinalizedStatementSQL().isEmpty)
        // Using what was left behind throws instead of touching freed memory.
        #expect(throws: DatabaseError.self) { try held.execute() }
        #expect(throws: DatabaseError.self) { try cursor.next() }
        #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT 1") }
    }

    @Test func closingAfterUsingFTS5LeavesItsStatementsToIt() throws {
        // FTS5 prepares statements of its own on the connection and finalizes them as it
        // closes; Cairn finalized them too, and freed them twice (a crash in sqlite3_close).
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        for explicitly in [true, false] {
            let db = try Database(path: temp.path)
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS notes USING fts5(body)")
            try db.execute(sql: "INSERT INTO notes (body) VALUES ('buy milk'), ('walk the dog')")
            #expect(try db.fetchAll(sql: "SELECT rowid FROM notes WHERE notes MATCH 'milk'") { $0.databaseValue(at: 0) }.count >= 1)
            #expect(!db.unfinalizedStatementSQL().isEmpty)
            if explicitly { try db.close() }  // otherwise the deinit closes it
        }
        let db = try Database(path: temp.path)
        #expect(try db.fetchAll(sql: "SELECT rowid FROM notes WHERE notes MATCH 'milk OR dog'") { _ in () }.count == 4)
        try db.close()
        #expect(db.unfinalizedStatementSQL().isEmpty)
    }

    @Test func aStatementPreparedOutsideCairnOutlivesTheDatabaseObject() throws {
        var statement: OpaquePointer?
        do {
            let db = try Database.inMemory()
            try db.execute(sql: "CREATE TABLE t (x)")
            db.add { _ in }  // a tracer: one more hook that points at the object
            let handle = try #require(db.sqliteConnection)
            #expect(sqlite3_prepare_v2(handle, "INSERT INTO t VALUES (1)", -1, &statement, nil) == SQLITE_OK)
            #expect(throws: DatabaseError.self) { try db.close() }  // SQLITE_BUSY: not Cairn's statement
            #expect(!db.isClosed)
        }
        // The object is gone; SQLite keeps the connection until the statement is finalized.
        // Its commit, authorizer and trace hooks were removed first: stepping it calls none of
        // them (they would read freed memory; AddressSanitizer checks this).
        #expect(sqlite3_step(statement) == SQLITE_DONE)
        #expect(sqlite3_finalize(statement) == SQLITE_OK)
    }

    @Test func rowReadAfterCloseThrows() throws {
        let db = try Database.inMemory()
        var escaped: Row?
        try db.fetchOne(sql: "SELECT 1") { escaped = $0 }
        try db.close()
        let error = #expect(throws: RowDecodingError.self) { try escaped?.decode(Int.self, at: 0) }
        #expect(error?.reason == .statementFinalized)
    }

    @Test func finishedWorkLeavesOnlyCachedStatements() throws {
        let db = try Database.inMemory()
        try db.execute(sql: "CREATE TABLE t (x)")
        _ = try db.fetchAll(sql: "SELECT x FROM t") { _ in () }
        try db.inTransaction { try db.execute(sql: "INSERT INTO t VALUES (1)") }
        // Every statement left is reset (not busy); sqlite3_stmt_busy would block a checkpoint.
        #expect(db.unfinalizedStatementSQL().allSatisfy { !$0.isEmpty })
    }
}
