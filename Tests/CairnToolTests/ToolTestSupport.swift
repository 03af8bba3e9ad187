import CairnSQLite
import Foundation
import Testing

/// The fixture stores written by Apple's frameworks, in Tests/Fixtures/apple-stores (read-only;
/// tests that write use copies), or the folder `CAIRN_APPLE_STORES` names.
enum Fixtures {
    static let folder = ProcessInfo.processInfo.environment["CAIRN_APPLE_STORES"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/apple-stores").path
    static let sampleModel = folder + "/CoreDataPlus/SampleModel_V1.sqlite"
    static let sampleModelV2 = folder + "/CoreDataPlus/SampleModel_V2.sqlite"
    static let sampleModelContents = folder + "/CoreDataPlus/SampleModel.xcdatamodel.contents"
    static let books = folder + "/CoreDataPlus/SampleModel2_V1.sqlite"
    static let booksV2 = folder + "/CoreDataPlus/SampleModel2_V2.sqlite"
    static let users = folder + "/CoreDataPlus/SampleModel3_V1.sqlite"
    static let testModel = folder + "/CoreDataStack/TestModel.sqlite"
    static let testModelContents = folder + "/CoreDataStack/TestModel.xcdatamodel.contents"
    static let cartSwiftData = folder + "/CartKit/CartKitSwiftData_v1.sqlite"
    static let cartCoreData = folder + "/CartKit/CartStorage_v1.sqlite"
    static let cartContents = folder + "/CartKit/CartStorage.xcdatamodel.contents"
    static let allStores = [sampleModel, sampleModelV2, books, booksV2, users, testModel, cartSwiftData, cartCoreData]

    /// Opens `path` read-only without writing anything beside it.
    static func open(_ path: String) throws -> Database {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.journalModeWAL = false
        return try Database(path: "file:\(path)?immutable=1", configuration: configuration)
    }

    /// A copy of `path` in a fresh temporary folder, for tests that write.
    static func copy(_ path: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent).path
        try FileManager.default.copyItem(atPath: path, toPath: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target)
        return target
    }

    /// A copy of `path` changed by `sql` (run on the copy only).
    static func copy(_ path: String, executing sql: String) throws -> String {
        let copy = try copy(path)
        let db = try Database(path: copy)
        try db.execute(sql: sql)
        try db.close()
        return copy
    }

    /// A new file in a fresh temporary folder holding `text`.
    static func write(_ text: String, named name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// What a run of the `cairn` binary printed.
struct ToolRun {
    let status: Int32
    let out: String
    let err: String
}

/// Runs the built `cairn` binary (and other products of the build, such as `workouts`).
enum Binary {
    /// The build products folder: where the test bundle runs from, or `.build/debug`.
    static var productsFolder: URL {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: runner.appendingPathComponent("cairn").path) { return runner }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug")
    }

    static func run(_ product: String, _ arguments: [String]) throws -> ToolRun {
        let executable = productsFolder.appendingPathComponent(product)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            Issue.record("no \(product) binary at \(executable.path): build it first (swift build --build-tests builds every product)")
            return ToolRun(status: -1, out: "", err: "")
        }
        // Output goes to files, so a large output on either stream cannot fill a pipe and stall.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out"), errURL = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return ToolRun(status: process.terminationStatus, out: try String(contentsOf: outURL, encoding: .utf8),
                       err: try String(contentsOf: errURL, encoding: .utf8))
    }

    static func cairn(_ arguments: String...) throws -> ToolRun { try run("cairn", arguments) }
}
