@testable import Cairn
import Foundation
import Testing

/// The SwiftData surface over a store file that is not a database, is damaged, or is locked by
/// another connection: each fails with an error that names the file and the failure; nothing
/// stops the process; a locked save changes nothing and can be retried.
@Suite struct DamagedStoreTests {
    let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    @Test func aStoreFileThatIsNotADatabaseFailsToLoad() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        try FileManager.default.createDirectory(at: store.folder, withIntermediateDirectories: true)
        let text = Data(String(repeating: "notes, not a store ", count: 300).utf8)
        try text.write(to: store.url)
        do {
            _ = try store.container(for: Workout.self)
            Issue.record("the container opened")
        } catch let error as SwiftDataError {
            #expect(error == .loadIssueModelContainer)
            #expect("\(error)".contains(store.url.path), "\(error)")
            #expect("\(error)".contains("file is not a database"), "\(error)")
        }
        #expect(try Data(contentsOf: store.url) == text)
    }

    @Test func aDamagedStoreFailsTheFetchesThatReadIt() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        do {
            let context = ModelContext(try store.container(for: Workout.self))
            for index in 0..<2_000 {
                context.insert(Workout(title: "w\(index) " + String(repeating: "x", count: 80), startedAt: start,
                                       minutes: index, calories: 0))
            }
            try context.save()
        }
        // A page of rows, past the schema pages, from its header on (an invalid page type is
        // found whenever the page is loaded), and without the WAL (checkpointed when the
        // container closed).
        let handle = try FileHandle(forUpdating: store.url)
        try handle.seek(toOffset: 4_096 * 9)
        handle.write(Data(repeating: 0xFF, count: 600))
        try handle.close()

        let context = ModelContext(try store.container(for: Workout.self))
        do {
            _ = try context.fetch(FetchDescriptor<Workout>())
            Issue.record("the fetch read a damaged page")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_CORRUPT)
            #expect(error.description.contains(store.url.path), "\(error)")
        }
        // A count over the table's rows reads the page too (COUNT(*) alone may use an index).
        #expect(throws: DatabaseError.self) {
            try context.fetchCount(FetchDescriptor<Workout>(predicate: #Predicate { $0.minutes > 5 }))
        }
    }

    @Test func aSaveWhileAnotherConnectionWritesFailsAsBusyAndCanBeRetried() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        var configuration = ModelConfiguration(url: store.url)
        configuration.busyTimeout = 0.05
        let container = try ModelContainer(for: Schema([Workout.self]), configurations: [configuration])
        let context = ModelContext(container)
        context.insert(Workout(title: "Saved", startedAt: start, minutes: 1, calories: 0))
        try context.save()

        let other = try Database(path: store.url.path)
        try other.execute(sql: "BEGIN IMMEDIATE")
        context.insert(Workout(title: "Waiting", startedAt: start, minutes: 2, calories: 0))
        do {
            try context.save()
            Issue.record("the save did not wait for the lock")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_BUSY)
            #expect(error.description.contains(store.url.path), "\(error)")
        }
        #expect(context.hasChanges)
        #expect(try other.fetchValues(String.self, sql: "SELECT title FROM Workout") == ["Saved"])
        try other.execute(sql: "COMMIT")

        try context.save()
        #expect(!context.hasChanges)
        #expect(try other.fetchValues(String.self, sql: "SELECT title FROM Workout ORDER BY title") == ["Saved", "Waiting"])
    }
}
