@testable import Cairn
import CairnTestSupport
import Foundation
import Testing

/// Separate processes writing one store file, as an app and its extension or several server
/// workers do: with the default busy timeout and `BEGIN IMMEDIATE` saves, every save of every
/// process lands and none fails with `SQLITE_BUSY`.
@Suite struct MultiProcessTests {
    static let storeVariable = "CAIRN_MULTIPROCESS_STORE"
    static let writerVariable = "CAIRN_MULTIPROCESS_WRITER"
    static let saves = 400

    /// A child's entry point: runs only in the re-executed processes.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[storeVariable] != nil))
    func childWriter() throws {
        let environment = ProcessInfo.processInfo.environment
        let url = URL(fileURLWithPath: try #require(environment[Self.storeVariable]))
        let writer = try #require(environment[Self.writerVariable])
        let container = try ModelContainer(for: Schema([Workout.self]), configurations: [ModelConfiguration(url: url)])
        let context = ModelContext(container)
        for index in 0..<Self.saves {
            context.insert(Workout(title: "p\(writer)-\(index)", startedAt: .distantPast, minutes: index, calories: 0))
            try context.save()
            if index.isMultiple(of: 25) { _ = try context.fetchCount(FetchDescriptor<Workout>()) }
        }
    }

    @Test func processesSavingToOneStoreAllLand() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        _ = try store.container(for: Workout.self)  // the file and its table
        let results = Collected<(status: Int32, output: String)>()
        DispatchQueue.concurrentPerform(iterations: 3) { writer in
            let result = (try? runChildTest(
                "MultiProcessTests/childWriter",
                environment: [Self.storeVariable: store.url.path, Self.writerVariable: "\(writer)"])) ?? (-1, "did not start")
            results.append(result)
        }
        for (status, output) in results.values {
            #expect(status == 0, "\(output.suffix(2_000))")
            #expect(output.contains("childWriter"), "the child ran no test: \(output.suffix(500))")
        }
        let titles = try ModelContext(try store.container(for: Workout.self)).fetch(FetchDescriptor<Workout>()).map(\.title)
        #expect(titles.count == 3 * Self.saves)
        #expect(Set(titles).count == titles.count)
        let db = try Database(path: store.url.path)
        #expect(try db.fetchValue(String.self, sql: "PRAGMA integrity_check") == "ok")
    }
}
