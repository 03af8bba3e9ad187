import CSQLite
import CairnSQLite
import CairnTestSupport
import Foundation
import Testing

/// SQLite running out of memory (its hard heap limit reached) is a `DatabaseError` with
/// `SQLITE_NOMEM`, never a stopped process; the statement's changes are undone and the
/// connection works again once memory is there. The limit is process-wide, so the test runs
/// in a child process.
@Suite struct OutOfMemoryTests {
    static let pathVariable = "CAIRN_NOMEM_CHILD_PATH"

    static func expectOutOfMemory(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("no error under the heap limit", sourceLocation: sourceLocation)
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_NOMEM, "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("not a DatabaseError: \(error)", sourceLocation: sourceLocation)
        }
    }

    /// The child's entry point: runs only in the re-executed process.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[pathVariable] != nil))
    func childUnderAHeapLimit() throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.pathVariable])
        var configuration = Configuration()
        // Sorts and temporary tables in memory, so they need the heap the limit denies.
        configuration.prepareDatabase = { try $0.execute(sql: "PRAGMA temp_store = MEMORY") }
        let db = try Database(path: path, configuration: configuration)
        try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        try db.inTransaction {
            let insert = try db.cachedStatement(sql: "INSERT INTO t (body) VALUES (?)")
            for row in 0..<3_000 {
                try insert.bind(values: "\(row) " + String(repeating: "x", count: 300))
                try insert.execute()
            }
        }

        // Room for what is open now and a little more: less than a 900 KB string or sort.
        sqlite3_hard_heap_limit64(sqlite3_memory_used() + 256 * 1_024)
        Self.expectOutOfMemory { _ = try db.fetchValue(String.self, sql: "SELECT group_concat(body) FROM t") }
        Self.expectOutOfMemory { _ = try db.fetchValues(String.self, sql: "SELECT body FROM t ORDER BY substr(body, 5) DESC") }
        Self.expectOutOfMemory {
            try db.inTransaction {
                try db.execute(sql: "DELETE FROM t WHERE id <= 10")
                try db.execute(sql: "INSERT INTO t (body) SELECT group_concat(body) FROM t")
            }
        }
        // Small statements still run under the limit.
        #expect(try db.fetchCount(sql: "SELECT * FROM t WHERE id = 1") == 1)

        sqlite3_hard_heap_limit64(0)
        #expect(try db.fetchCount(sql: "SELECT * FROM t") == 3_000)  // the failed transaction left nothing
        #expect(try db.fetchValue(String.self, sql: "SELECT group_concat(body) FROM t")?.count ?? 0 > 900_000)
        #expect(try db.fetchValue(String.self, sql: "PRAGMA integrity_check") == "ok")
    }

    @Test func runningOutOfMemoryIsAnErrorAndPasses() throws {
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        let (status, output) = try runChildTest(
            "OutOfMemoryTests/childUnderAHeapLimit", environment: [Self.pathVariable: temp.path])
        #expect(status == 0, "\(output.suffix(3_000))")
        #expect(output.contains("childUnderAHeapLimit"), "the child ran no test: \(output.suffix(1_000))")
    }
}
