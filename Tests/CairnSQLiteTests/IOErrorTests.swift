import CairnFaultyVFS
import CairnSQLite
import CSQLite
import Foundation
import Testing

/// A write transaction whose Nth file write, sync or truncate fails (a full disk, an I/O
/// error), for every N until the transaction no longer reaches the failure: each run throws
/// `DatabaseError` or commits, never crashes, and the file reopened afterwards passes
/// `PRAGMA integrity_check` and holds either the state before the transaction or the whole
/// transaction, nothing in between. The failing writes come from the `cairn_faulty` VFS
/// (Sources/CairnFaultyVFS), chosen with a URI.
@Suite("I/O errors at every write of a transaction", .serialized)
struct IOErrorTests {
    /// The rows as `id:value` text, in id order.
    static func contents(_ db: Database) throws -> [String] {
        try db.fetchAll(sql: "SELECT id, v FROM t ORDER BY id") { row in
            "\(try row.decode(Int.self, at: 0)):\(try row.decode(String.self, at: 1))"
        }
    }

    /// Updates every row, inserts 60 with long values (so pages split) and deletes 10.
    static func change(_ db: Database) throws {
        try db.inTransaction(.immediate) {
            try db.execute(sql: "UPDATE t SET v = v || '+'")
            for id in 101...160 {
                try db.execute(sql: "INSERT INTO t (id, v) VALUES (?, ?)", arguments: [id, String(repeating: "n\(id)", count: 40)])
            }
            try db.execute(sql: "DELETE FROM t WHERE id % 10 = 0")
        }
    }

    /// Disk full and SQLITE_IOERR_WRITE, in WAL mode (Cairn's default) and with a rollback
    /// journal.
    @Test(arguments: [SQLITE_FULL, SQLITE_IOERR | (3 << 8)], [true, false])
    func everyFailurePointLeavesOneOfTwoStates(error: Int32, wal: Bool) throws {
        var configuration = Configuration()
        configuration.journalModeWAL = wal
        #expect(cairn_faulty_vfs_register() == SQLITE_OK)
        cairn_faulty_vfs_begin()
        defer { cairn_faulty_vfs_end() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-io-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("db.sqlite").path

        let (before, after) = try Self.referenceStates(folder, configuration)
        var failuresSeen = 0
        var allowed = 0
        while true {
            try Self.removeDatabase(at: path)
            try Self.makeBaseline(at: path, configuration)
            cairn_faulty_vfs_fail_after(Int32(allowed), error)
            var committed = false
            do {
                let db = try Database(path: "file:\(path)?vfs=cairn_faulty", configuration: configuration)
                try Self.change(db)
                committed = true
            } catch is DatabaseError {
                failuresSeen += 1
            }
            let reached = cairn_faulty_vfs_operations() > allowed
            cairn_faulty_vfs_fail_after(-1, 0)

            let reopened = try Database(path: path, configuration: configuration)
            #expect(try reopened.fetchAll(sql: "PRAGMA integrity_check") { try $0.decode(String.self, at: 0) } == ["ok"],
                    "after failure at operation \(allowed)")
            let rows = try Self.contents(reopened)
            if committed {
                #expect(rows == after, "committed, yet not every change is there (failure at \(allowed))")
            } else {
                #expect(rows == before || rows == after, "a partial transaction is visible (failure at \(allowed))")
            }
            if !reached { break }
            allowed += 1
            if allowed > 2_000 { Issue.record("no end to the writes"); break }
        }
        #expect(failuresSeen > 5, "the transaction failed at only \(failuresSeen) points")
    }

    /// The rows before and after `change`, computed without faults.
    static func referenceStates(_ folder: URL, _ configuration: Configuration) throws -> (before: [String], after: [String]) {
        let path = folder.appendingPathComponent("reference.sqlite").path
        try makeBaseline(at: path, configuration)
        let db = try Database(path: path, configuration: configuration)
        let before = try contents(db)
        try change(db)
        return (before, try contents(db))
    }

    /// 100 rows, written (and checkpointed) with the default VFS, so the database is the file.
    static func makeBaseline(at path: String, _ configuration: Configuration) throws {
        let db = try Database(path: path, configuration: configuration)
        try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        try db.inTransaction {
            for id in 1...100 {
                try db.execute(sql: "INSERT INTO t (id, v) VALUES (?, ?)", arguments: [id, "row \(id)"])
            }
        }
        if configuration.journalModeWAL {
            _ = try db.fetchAll(sql: "PRAGMA wal_checkpoint(TRUNCATE)") { try $0.decode(Int.self, at: 0) }
        }
    }

    static func removeDatabase(at path: String) throws {
        for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}
