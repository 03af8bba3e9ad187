@testable import Cairn
import CairnSQLite
import Foundation
import Testing

/// A fetch reads one snapshot of a file store, the newest commit when it starts, and lets go of
/// it when it returns: the next fetch sees what was saved meanwhile, and nothing holds the
/// write-ahead log back.
@Suite("A fetch's snapshot")
struct FetchSnapshotTests {
    /// Saves a workout of each title, whose minutes are the title's place in the alphabet.
    private func saved(_ titles: [String], in container: ModelContainer) throws {
        let context = ModelContext(container)
        for title in titles {
            let minutes = Int(title.unicodeScalars.first?.value ?? 96) - 96
            context.insert(Workout(title: title, startedAt: Date(timeIntervalSinceReferenceDate: 0), minutes: minutes, calories: 1))
        }
        try context.save()
    }

    private func newestFirst(limit: Int?) -> FetchDescriptor<Workout> {
        var descriptor = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.minutes, order: .reverse)])
        descriptor.fetchLimit = limit
        return descriptor
    }

    @Test("a fetch stopped by its limit leaves no snapshot behind: the log checkpoints and truncates")
    func limitedFetchReleasesItsSnapshot() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let container = try store.container(for: Workout.self)
        try saved(["a", "b", "c"], in: container)
        let context = ModelContext(container)
        #expect(try context.fetch(newestFirst(limit: 1)).map(\.title) == ["c"])
        let title = "b"
        var byTitle = FetchDescriptor<Workout>(predicate: #Predicate { $0.title == title })
        byTitle.fetchLimit = 1
        #expect(try context.fetch(byTitle).map(\.minutes) == [2])

        // A reader still holding a snapshot keeps a TRUNCATE checkpoint from emptying the log:
        // it answers busy (1) at once, with no busy timeout to wait through.
        var configuration = Configuration()
        configuration.busyTimeout = 0
        let checkpointer = try DatabaseQueue(path: store.url.path, configuration: configuration)
        defer { try? checkpointer.close() }
        let result = try checkpointer.writeWithoutTransaction { db in
            try db.fetchOne(sql: "PRAGMA wal_checkpoint(TRUNCATE)") { row in
                [try row.decode(Int.self, at: 0), try row.decode(Int.self, at: 1)]
            }
        }
        #expect(result == [0, 0])
    }

    @Test("each fetch of one context sees the saves of another made since its previous fetch")
    func fetchesSeeNewerCommits() throws {
        let store = TemporaryStore()
        defer { store.remove() }
        let container = try store.container(for: Workout.self)
        try saved(["a"], in: container)
        let reader = ModelContext(container)
        #expect(try reader.fetch(newestFirst(limit: 1)).map(\.title) == ["a"])
        try saved(["b", "c"], in: container)
        #expect(try reader.fetch(newestFirst(limit: 1)).map(\.title) == ["c"])
        #expect(try reader.fetch(newestFirst(limit: nil)).map(\.title) == ["c", "b", "a"])
        #expect(try reader.fetchCount(FetchDescriptor<Workout>()) == 3)
    }
}
