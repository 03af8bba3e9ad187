import Cairn
import Foundation
import Testing

@Suite("defaultDatabase() without a path")
struct DefaultDatabaseTests {
    @Test("makes a folder of its own, and the folder goes with the last reference to the database")
    func temporaryFolderIsRemoved() throws {
        var folder: URL?
        do {
            let database = try defaultDatabase()
            let file = URL(fileURLWithPath: database.path)
            folder = file.deletingLastPathComponent()
            try database.write { db in
                try db.execute(sql: "CREATE TABLE note (text TEXT)")
                try db.execute(sql: "INSERT INTO note VALUES ('kept')")
            }
            #expect(try database.read { db in try db.fetchValues(String.self, sql: "SELECT text FROM note") } == ["kept"])
            #expect(FileManager.default.fileExists(atPath: file.path))
            #expect(FileManager.default.fileExists(atPath: file.path + "-wal"))
            #expect(file.lastPathComponent == "cairn.sqlite")
        }
        let made = try #require(folder)
        #expect(!FileManager.default.fileExists(atPath: made.path))
    }

    @Test("two databases made without a path are two files")
    func eachHasItsOwnFile() throws {
        let first = try defaultDatabase()
        let second = try defaultDatabase()
        #expect(first.path != second.path)
        try first.write { db in try db.execute(sql: "CREATE TABLE only_in_first (x)") }
        let tables = try second.read { db in
            try db.fetchValues(String.self, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        #expect(tables.isEmpty)
    }
}
