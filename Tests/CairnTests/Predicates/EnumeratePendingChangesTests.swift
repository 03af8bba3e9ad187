@testable import Cairn
import CairnTestSupport
import Foundation
import Testing

/// `enumerate` with unsaved inserts, edits and deletes in the context: it must visit exactly
/// what `fetch(_:)` returns, in the same order, while reading the saved rows a batch at a time
/// (before, this case read every matching row in one fetch).
@Suite struct EnumeratePendingChangesTests {
    static let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    static let predicates: [(String, Predicate<Workout>?)] = [
        ("none", nil),
        ("minutes >= 30", #Predicate { $0.minutes >= 30 }),
        ("favorite or short", #Predicate { $0.isFavorite || $0.minutes < 10 }),
        ("title contains 1", #Predicate { $0.title.contains("1") }),
    ]
    static let sorts: [(String, [SortDescriptor<Workout>])] = [
        ("unsorted", []),
        ("minutes", [SortDescriptor(\.minutes)]),
        ("startedAt desc, title", [SortDescriptor(\.startedAt, order: .reverse), SortDescriptor(\.title)]),
        ("finishedAt, calories desc", [SortDescriptor(\.finishedAt), SortDescriptor(\.calories, order: .reverse)]),
    ]

    @Test(arguments: 0..<40)
    func enumerateVisitsWhatFetchReturns(seed: UInt64) throws {
        var random = SeededRandom(seed: seed &+ 7_000)
        let container = try memoryContainer(for: Workout.self)
        let setup = ModelContext(container)
        let rows = Int.random(in: 0...150, using: &random)
        for index in 0..<rows {
            let workout = Workout(title: "W\(index)", startedAt: Self.start.addingTimeInterval(Double(Int.random(in: 0..<6, using: &random))),
                                  minutes: Int.random(in: 0..<60, using: &random), calories: Double(Int.random(in: 0..<20, using: &random)))
            workout.isFavorite = Bool.random(using: &random)
            if Bool.random(using: &random) { workout.finishedAt = workout.startedAt.addingTimeInterval(Double(Int.random(in: 0..<3, using: &random))) }
            setup.insert(workout)
        }
        try setup.save()

        // A context with unsaved changes: some rows changed (moving in or out of the
        // predicate and the order), some deleted, some new models inserted.
        let context = ModelContext(container)
        var unsaved = 0
        for workout in try context.fetch(FetchDescriptor<Workout>()) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: workout.minutes = Int.random(in: 0..<60, using: &random); unsaved += 1
            case 1: workout.title += "1"; unsaved += 1
            case 2: context.delete(workout); unsaved += 1
            default: break
            }
        }
        for index in 0..<Int.random(in: 0...12, using: &random) {
            let workout = Workout(title: "new\(index)", startedAt: Self.start.addingTimeInterval(Double(Int.random(in: 0..<6, using: &random))),
                                  minutes: Int.random(in: 0..<60, using: &random), calories: Double(Int.random(in: 0..<20, using: &random)))
            workout.isFavorite = Bool.random(using: &random)
            context.insert(workout)
            unsaved += 1
        }
        context.releaseSavedModels(Array(context.tracked.keys))  // only the changed models stay

        let (predicateName, predicate) = Self.predicates.randomElement(using: &random)!
        let (sortName, sortBy) = Self.sorts.randomElement(using: &random)!
        var descriptor = FetchDescriptor<Workout>(predicate: predicate, sortBy: sortBy)
        if Bool.random(using: &random) { descriptor.fetchOffset = Int.random(in: 0...20, using: &random) }
        if Bool.random(using: &random) { descriptor.fetchLimit = Int.random(in: 0...40, using: &random) }
        let batchSize = Int.random(in: 1...30, using: &random)
        let label = "seed \(seed): \(predicateName), \(sortName), offset \(descriptor.fetchOffset ?? 0), limit \(descriptor.fetchLimit.map(String.init) ?? "none"), batches of \(batchSize)"

        var visited: [PersistentIdentifier] = []
        var largest = 0
        try context.enumerate(descriptor, batchSize: batchSize) { workout in
            visited.append(workout.persistentModelID)
            largest = max(largest, context.tracked.count)
        }
        let fetched = try context.fetch(descriptor).map(\.persistentModelID)
        #expect(visited == fetched, "\(label)")
        // A batch and the unsaved models; before, every matching row at once.
        #expect(largest <= batchSize + unsaved, "\(label): \(largest) registered")
    }

    @Test func aLargeEnumerateWithUnsavedChangesStaysFlat() throws {
        let container = try memoryContainer(for: Workout.self)
        let setup = ModelContext(container)
        for index in 0..<3_000 {
            setup.insert(Workout(title: "W\(index)", startedAt: Self.start, minutes: index % 60, calories: Double(index)))
        }
        try setup.save()
        let context = ModelContext(container)
        context.insert(Workout(title: "new", startedAt: Self.start, minutes: 45, calories: 1_500.5))
        var titles: [String] = []
        var largest = 0
        try context.enumerate(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.calories)]), batchSize: 100) { workout in
            titles.append(workout.title)
            largest = max(largest, context.tracked.count)
        }
        #expect(titles.count == 3_001)
        #expect(titles[1_500...1_502] == ["W1500", "new", "W1501"])
        // Before: all 3,001 at once.
        #expect(largest <= 101)
    }
}
