import CairnSQLite
import Foundation

/// A fresh file path in a private temporary folder, removed by `cleanup()`.
struct TemporaryDatabasePath {
    let directory: URL
    var path: String { directory.appendingPathComponent("db.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("cairn-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func cleanup() {
        try? FileManager.default.removeItem(at: directory)
    }
}
