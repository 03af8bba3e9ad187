@testable import Cairn
import Foundation
import Testing

/// Peak memory of batched reads over 1,000,000 rows. Slow, so it runs only with
/// `CAIRN_MEMORY_TEST=1 swift test --filter MemoryTests`; it prints the peak RSS it saw.
@Suite("Memory of batched fetches", .enabled(if: ProcessInfo.processInfo.environment["CAIRN_MEMORY_TEST"] == "1"))
struct MemoryTests {
    static func peakRSS() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    @Test("enumerate and a batched fetch over 1,000,000 rows keep memory flat")
    func millionRows() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-memory-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let container = try ModelContainer(
            for: Schema([Workout.self]), configurations: [ModelConfiguration(url: folder.appendingPathComponent("m.store"))])
        let store = try container.store(for: "Workout")
        try store.write { connection in
            try connection.sqliteDatabase(for: "the test").execute(sql: """
                INSERT INTO "Workout" ("title", "startedAt", "finishedAt", "minutes", "calories", "isFavorite")
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000000)
                SELECT 'Workout number ' || x, x, NULL, x % 90, x * 1.5, x % 2 FROM n
                """)
        }
        let start = Self.peakRSS()
        let context = ModelContext(container)
        var total = 0
        try context.enumerate(FetchDescriptor<Workout>(), batchSize: 5000) { total += $0.minutes }
        let afterEnumerate = Self.peakRSS()
        var descriptor = FetchDescriptor<Workout>()
        descriptor.includePendingChanges = false
        let batched = try context.fetch(descriptor, batchSize: 5000)
        var count = 0
        for workout in batched { count += workout.minutes >= 0 ? 1 : 0 }
        let afterBatched = Self.peakRSS()
        print("peak RSS kB: before \(start), after enumerate \(afterEnumerate), after batched fetch \(afterBatched)")
        #expect(count == 1_000_000)
        #expect(total == (1...1_000_000).reduce(0) { $0 + $1 % 90 })
        #expect(context.tracked.count <= 5000)
        // Flat: far below what a million models would take (several hundred MB).
        #expect(afterBatched - start < 200_000)
    }
}
