@testable import Cairn
import CairnFaultyVFS
import CairnSQLite
import Foundation
import Testing

/// `save()` with its Nth file write, sync or truncate failing (disk full), for every N the save
/// reaches: it throws, the file (read by a new container) holds exactly what the last good save
/// wrote and passes `integrity_check`, and the context keeps its changes, so a second `save()`
/// once the disk has room writes all of them. The faults come from the `cairn_faulty` VFS
/// (Sources/CairnFaultyVFS), set on the store's configuration.
@Suite("A save that fails on an I/O error changes nothing on disk", .serialized)
struct SaveIOErrorTests {
    static let sqliteFull: Int32 = 13  // SQLITE_FULL
    let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// Every workout of a new container on the file, as `title:minutes`, by title.
    func stored(_ store: TemporaryStore) throws -> [String] {
        let container = try ModelContainer(for: Schema([Workout.self]), configurations: [ModelConfiguration(url: store.url)])
        return try ModelContext(container).fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.title)]))
            .map { "\($0.title):\($0.minutes)" }
    }

    @Test func everyFailurePoint() throws {
        #expect(cairn_faulty_vfs_register() == 0)
        cairn_faulty_vfs_begin()
        defer { cairn_faulty_vfs_end() }
        // Enough rows, with long titles, that the save writes many pages.
        let titles = (0..<300).map { "w\(1000 + $0)-" + String(repeating: "x", count: 60) }
        let before = titles.enumerated().map { "\($1):\($0)" }
        var after = before.enumerated().compactMap { index, row -> String? in
            if index % 8 == 0 { return nil }  // deleted
            return index % 2 == 0 ? "\(titles[index]):\(index + 1000)" : row  // edited
        }
        after += (0..<15).map { "n\(100 + $0):\($0)" }
        after.sort()

        var allowed = 0
        var failures = 0
        while true {
            let store = TemporaryStore()
            defer { store.remove() }
            var configuration = ModelConfiguration(url: store.url)
            configuration.vfsName = "cairn_faulty"
            let context = ModelContext(try ModelContainer(for: Schema([Workout.self]), configurations: [configuration]))
            let workouts = titles.enumerated().map { index, title in
                Workout(title: title, startedAt: start.addingTimeInterval(Double(index)), minutes: index, calories: 0)
            }
            for workout in workouts { context.insert(workout) }
            try context.save()

            for (index, workout) in workouts.enumerated() {
                if index % 8 == 0 {
                    context.delete(workout)
                } else if index % 2 == 0 {
                    workout.minutes = index + 1000
                }
            }
            for index in 0..<15 {
                context.insert(Workout(title: "n\(100 + index)", startedAt: start, minutes: index, calories: 0))
            }

            cairn_faulty_vfs_fail_after(Int32(allowed), Self.sqliteFull)
            var saved = false
            do {
                try context.save()
                saved = true
            } catch {
                failures += 1
            }
            let reached = cairn_faulty_vfs_operations() > allowed
            cairn_faulty_vfs_fail_after(-1, 0)

            let database = try Database(path: store.url.path)
            #expect(try database.fetchAll(sql: "PRAGMA integrity_check") { try $0.decode(String.self, at: 0) } == ["ok"])
            try database.close()
            if saved {
                #expect(try stored(store) == after, "save succeeded with a failure at operation \(allowed)")
            } else {
                #expect(try stored(store) == before, "a failed save changed the file (failure at operation \(allowed))")
                #expect(context.hasChanges, "a failed save dropped the context's changes (failure at \(allowed))")
                try context.save()
                #expect(try stored(store) == after, "saving again after the failure at \(allowed)")
            }
            if !reached { break }
            allowed += 1
            if allowed > 500 { Issue.record("no end to the writes"); break }
        }
        #expect(failures > 3, "the save failed at only \(failures) points")
    }
}
