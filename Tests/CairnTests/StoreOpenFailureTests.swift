@testable import Cairn
import CairnTestSupport
import Foundation
import Testing

/// A container whose store cannot be opened throws `SwiftDataError.loadIssueModelContainer`
/// with a reason that names the file, says what about it is wrong and what to do: a write lock
/// held elsewhere, a file cut short, a folder or file the process may not write.
@Suite struct StoreOpenFailureTests {
    static let childPath = "CAIRN_OPEN_FAILURE_CHILD_PATH"
    static let childCase = "CAIRN_OPEN_FAILURE_CHILD_CASE"

    func loadIssue(_ body: () throws -> ModelContainer) -> String? {
        do {
            _ = try body()
            Issue.record("the container opened")
        } catch let error as SwiftDataError {
            #expect(error == .loadIssueModelContainer, "\(error)")
            return error.reason
        } catch {
            Issue.record("not a SwiftDataError: \(error)")
        }
        return nil
    }

    @Test func aWriteLockHeldElsewhereWhileOpeningIsALoadIssueThatSaysSo() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        _ = try store.container(for: Workout.self)  // the file, with its tables
        let other = try Database(path: store.url.path)
        try other.execute(sql: "BEGIN IMMEDIATE")
        defer { try? other.execute(sql: "ROLLBACK") }
        var configuration = ModelConfiguration(url: store.url)
        configuration.busyTimeout = 0.05
        let reason = try #require(loadIssue {
            try ModelContainer(for: Schema([Workout.self]), configurations: [configuration])
        })
        #expect(reason.hasPrefix("Cannot set up the store at \(store.url.path). Another connection or process is writing"),
                "\(reason)")
        #expect(reason.contains("0.05 s"), "\(reason)")
    }

    @Test func aStoreCutShortIsALoadIssueThatSaysWhereItEnds() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        do {
            let context = ModelContext(try store.container(for: Workout.self))
            for index in 0..<2_000 {
                context.insert(Workout(title: String(repeating: "x", count: 80), startedAt: .now, minutes: index, calories: 0))
            }
            try context.save()
        }
        let handle = try FileHandle(forUpdating: store.url)
        try handle.truncate(atOffset: 4_096 * 8)
        try handle.close()
        let header = try #require(StoreFileHeader(path: store.url.path))
        let reason = try #require(loadIssue { try store.container(for: Workout.self) })
        #expect(reason.hasPrefix("Cannot open the store at \(store.url.path). The file is damaged: it is cut short: "
            + "its header describes \(header.pageCount ?? 0) pages of 4096 bytes"), "\(reason)")
        #expect(reason.contains("but the file has 32768 bytes"), "\(reason)")
        #expect(reason.contains(".recover"), "\(reason)")
    }

    @Test func aFileThatIsNotCutShortHasNoCutShortDescription() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        _ = try store.container(for: Workout.self)
        let header = try #require(StoreFileHeader(path: store.url.path))
        #expect(header.pageSize == 4_096)
        #expect(header.cutShortDescription == nil)
        #expect(StoreFileHeader(path: store.folder.appendingPathComponent("missing").path) == nil)
    }

    // MARK: - Permissions

    // Root may write anything, so these run in a child process that gives up root first (when
    // it has it): the folder and files are made here, the container is opened there.

    enum Case: String {
        /// The store does not exist and its folder may not be written.
        case folderForNewStore
        /// The store exists; its folder may not be written (no room for -wal and -shm).
        case folderOfExistingStore
        /// The store file may not be written; its folder may.
        case readOnlyFile
    }

    func runUnprivileged(_ testCase: Case, store: TemporaryStore) throws {
        let (status, text) = try runChildTest(
            "StoreOpenFailureTests/childOpensTheStore",
            environment: [Self.childPath: store.url.path, Self.childCase: testCase.rawValue])
        #expect(status == 0, "\(text.suffix(3_000))")
        #expect(text.contains("childOpensTheStore"), "the child ran no test: \(text.suffix(1_000))")
    }

    @Test func aFolderThatCannotBeWrittenIsNamedAsTheProblem() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        try FileManager.default.createDirectory(at: store.folder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: store.folder.path)
        try runUnprivileged(.folderForNewStore, store: store)
    }

    @Test func anExistingStoreInAFolderThatCannotBeWrittenSaysWhy() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        _ = try store.container(for: Workout.self)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: store.url.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: store.folder.path)
        try runUnprivileged(.folderOfExistingStore, store: store)
    }

    @Test func aReadOnlyStoreFileSuggestsOpeningItWithoutSaving() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        _ = try store.container(for: Workout.self)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: store.folder.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store.url.path)
        try runUnprivileged(.readOnlyFile, store: store)
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment[childCase] != nil))
    func childOpensTheStore() throws {
        let environment = ProcessInfo.processInfo.environment
        let url = URL(fileURLWithPath: try #require(environment[Self.childPath]))
        let testCase = try #require(environment[Self.childCase].flatMap(Case.init(rawValue:)))
        if geteuid() == 0 {
            let nobody: UInt32 = 65_534
            try #require(setgroups(0, nil) == 0 && setgid(nobody) == 0 && setuid(nobody) == 0)
        }
        let folder = url.deletingLastPathComponent().path
        let reason = try #require(loadIssue {
            try ModelContainer(for: Schema([Workout.self]), configurations: [ModelConfiguration(url: url)])
        })
        switch testCase {
        case .folderForNewStore:
            #expect(reason.contains("The folder \(folder) is not writable, so the store file cannot be created"), "\(reason)")
        case .folderOfExistingStore:
            #expect(reason.contains("The folder \(folder) is not writable, and SQLite creates the store's journal files "
                + "(test.store-wal and -shm) beside it"), "\(reason)")
        case .readOnlyFile:
            #expect(reason.contains("The store file is read-only. Make it writable, or open it without saving: "
                + "ModelConfiguration(url: url, allowsSave: false)"), "\(reason)")
            // …and that suggestion works.
            let container = try ModelContainer(
                for: Schema([Workout.self]), configurations: [ModelConfiguration(url: url, allowsSave: false)])
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Workout>()) == 0)
        }
    }
}
