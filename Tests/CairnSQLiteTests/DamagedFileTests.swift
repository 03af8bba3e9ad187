import CairnSQLite
import Foundation
import Testing

/// Files a user did not create, or that another process holds: a file that is not a database,
/// a database with a damaged page, one cut short, and one locked by another connection. Each
/// must throw a `DatabaseError` that names the failure and the file, never stop the process,
/// and leave the file as it was.
@Suite struct DamagedFileTests {
    /// A rollback-journal database file with `rows` rows of about 110 bytes (several pages).
    func makeDatabase(at path: String, rows: Int = 2_000) throws {
        var configuration = Configuration()
        configuration.journalModeWAL = false
        let db = try Database(path: path, configuration: configuration)
        try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        try db.inTransaction {
            let insert = try db.cachedStatement(sql: "INSERT INTO t (body) VALUES (?)")
            for row in 0..<rows {
                try insert.bind(values: "row \(row) " + String(repeating: "x", count: 100))
                try insert.execute()
            }
        }
        try db.close()
    }

    /// `body` throws a `DatabaseError` with one of `codes` that names the file; with
    /// `orDecodingError`, a `RowDecodingError` passes too (a damaged page may also be read as
    /// a row of wrong values, such as a NULL where the column holds text, before SQLite notices).
    func expectFileError(
        _ codes: [ResultCode], path: String, orDecodingError: Bool = false, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("no error", sourceLocation: sourceLocation)
        } catch let error as DatabaseError {
            #expect(codes.contains(error.resultCode), "\(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains(path), "the error does not name the file: \(error)", sourceLocation: sourceLocation)
        } catch is RowDecodingError where orDecodingError {
        } catch {
            Issue.record("not a DatabaseError: \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func aFileThatIsNotADatabaseIsRefusedAndLeftAsItWas() throws {
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        let url = URL(fileURLWithPath: temp.path)
        let text = Data(String(repeating: "Not a database, a note someone kept. ", count: 200).utf8)
        try text.write(to: url)
        expectFileError([.SQLITE_NOTADB], path: temp.path) { _ = try Database(path: temp.path) }
        expectFileError([.SQLITE_NOTADB], path: temp.path) { _ = try DatabaseQueue(path: temp.path) }
        expectFileError([.SQLITE_NOTADB], path: temp.path) { _ = try DatabasePool(path: temp.path) }
        var readonly = Configuration()
        readonly.readonly = true
        expectFileError([.SQLITE_NOTADB], path: temp.path) {
            _ = try Database(path: temp.path, configuration: readonly).fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_schema")
        }
        #expect(try Data(contentsOf: url) == text)
    }

    @Test func aDamagedPageFailsTheQueriesThatReadIt() throws {
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        try makeDatabase(at: temp.path)
        // Page 6 is a leaf of table t: overwrite its header (an invalid page type, which SQLite
        // checks whenever it loads the page), cell pointers and first cells. Damage past the
        // header alone is found or not depending on what the page buffer held before.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: temp.path))
        try handle.seek(toOffset: 4_096 * 5)
        handle.write(Data(repeating: 0xFF, count: 600))
        try handle.close()

        let db = try Database(path: temp.path)
        expectFileError([.SQLITE_CORRUPT], path: temp.path, orDecodingError: true) {
            _ = try db.fetchValues(String.self, sql: "SELECT body FROM t")
        }
        expectFileError([.SQLITE_CORRUPT], path: temp.path) { try db.execute(sql: "UPDATE t SET body = 'y'") }
        // Rows on intact pages are still readable. The integrity check reports the damage,
        // as rows or by failing with SQLITE_CORRUPT (it does either, run to run).
        #expect(try db.fetchValue(String.self, sql: "SELECT body FROM t WHERE id = 1")?.hasPrefix("row 0 ") == true)
        do {
            let report = try db.fetchValues(String.self, sql: "PRAGMA integrity_check")
            #expect(!report.isEmpty && report != ["ok"], "\(report)")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_CORRUPT, "\(error)")
        }
    }

    @Test func aFileCutShortFailsInsteadOfReadingPastItsEnd() throws {
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        try makeDatabase(at: temp.path)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: temp.path))
        try handle.truncate(atOffset: 4_096 * 8)
        try handle.close()
        // Opening reads the schema, and may already fail; reading every row must.
        expectFileError([.SQLITE_CORRUPT], path: temp.path) {
            _ = try Database(path: temp.path).fetchCount(sql: "SELECT * FROM t")
        }
    }

    @Test func aWriteLockHeldElsewhereIsReportedAsBusyThenClears() throws {
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        let holder = try Database(path: temp.path)
        try holder.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
        var impatient = Configuration()
        impatient.busyTimeout = 0.05
        let writer = try Database(path: temp.path, configuration: impatient)
        let pool = try DatabasePool(path: temp.path, configuration: impatient)

        try holder.execute(sql: "BEGIN IMMEDIATE")
        try holder.execute(sql: "INSERT INTO t (id) VALUES (1)")
        expectFileError([.SQLITE_BUSY], path: temp.path) { try writer.execute(sql: "INSERT INTO t (id) VALUES (2)") }
        expectFileError([.SQLITE_BUSY], path: temp.path) { try pool.write { try $0.execute(sql: "INSERT INTO t (id) VALUES (3)") } }
        // WAL readers do not wait for the writer; they see the last commit.
        #expect(try pool.read { try $0.fetchCount(sql: "SELECT * FROM t") } == 0)
        try holder.execute(sql: "COMMIT")

        try writer.execute(sql: "INSERT INTO t (id) VALUES (2)")
        try pool.write { try $0.execute(sql: "INSERT INTO t (id) VALUES (3)") }
        #expect(try pool.read { try $0.fetchValues(Int.self, sql: "SELECT id FROM t ORDER BY id") } == [1, 2, 3])
    }

    @Test func anExclusiveLockInRollbackModeBlocksReadersWithBusy() throws {
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        try makeDatabase(at: temp.path, rows: 10)
        var rollback = Configuration()
        rollback.journalModeWAL = false
        rollback.busyTimeout = 0.05
        let holder = try Database(path: temp.path, configuration: rollback)
        let reader = try Database(path: temp.path, configuration: rollback)
        try holder.execute(sql: "BEGIN EXCLUSIVE")
        expectFileError([.SQLITE_BUSY], path: temp.path) { _ = try reader.fetchCount(sql: "SELECT * FROM t") }
        try holder.execute(sql: "ROLLBACK")
        #expect(try reader.fetchCount(sql: "SELECT * FROM t") == 10)
    }

    @Test func errorsWithoutAFileDoNotNameOne() throws {
        let db = try Database.inMemory()
        try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
        try db.execute(sql: "INSERT INTO t (id) VALUES (1)")
        do {
            try db.execute(sql: "INSERT INTO t (id) VALUES (1)")
            Issue.record("no error")
        } catch let error as DatabaseError {
            #expect(error.databasePath == nil)
            #expect(!error.description.contains("database:"))
        }
    }
}
