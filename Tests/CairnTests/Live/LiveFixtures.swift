import Cairn
import Observation

/// A second model, so that commits to an unrelated table can be made.
@Model
final class Memo {
    var text: String
    init(text: String) { self.text = text }
}

/// The seed's query shapes (000_e7396fd64d4b5600.txt, "@Query initializers"), in a class
/// instead of a SwiftUI view; animation/transaction shapes need SwiftUI.
@MainActor
final class QueryShapes {
    // Everything, default order
    @Query var all: [Workout]

    // Filter plus an array of sort descriptors
    @Query(filter: #Predicate<Workout> { $0.minutes >= 30 },
           sort: [SortDescriptor(\Workout.startedAt, order: .reverse)])
    var long: [Workout]

    // Filter plus a single key path; optional keys are allowed
    @Query(filter: #Predicate<Workout> { $0.isFavorite },
           sort: \Workout.finishedAt, order: .forward)
    var favorites: [Workout]

    // A prepared descriptor
    @Query(QueryShapes.lastTen) var recent: [Workout]

    static var lastTen: FetchDescriptor<Workout> {
        var d = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.startedAt, order: .reverse)])
        d.fetchLimit = 10
        return d
    }

    var fetchErrorOfAll: (any Error)? { _all.fetchError }
}

/// The seed's "Changing the query at runtime" child, as a class: the inputs become a query in
/// `init`.
@MainActor
final class FilteredWorkouts {
    @Query var workouts: [Workout]

    init(text: String, favoritesOnly: Bool) {
        _workouts = Query(
            filter: #Predicate<Workout> {
                (text.isEmpty || $0.title.contains(text))
                    && (!favoritesOnly || $0.isFavorite)
            },
            sort: \.startedAt, order: .reverse
        )
    }
}

enum WorkoutSortKey: String, CaseIterable { case date, duration, title }

/// The seed's `SortedWorkouts`, as a class.
@MainActor
final class SortedWorkouts {
    @Query var workouts: [Workout]

    init(key: WorkoutSortKey, order: SortOrder) {
        let descriptor: SortDescriptor<Workout>
        switch key {
        case .date: descriptor = SortDescriptor(\.startedAt, order: order)
        case .duration: descriptor = SortDescriptor(\.minutes, order: order)
        case .title: descriptor = SortDescriptor(\.title, order: order)
        }
        _workouts = Query(sort: [descriptor])
    }
}

/// Waits (without a clock) until `onChange` of an observation of `read` fires: yields to the
/// main actor up to `limit` times. Returns whether it fired.
@MainActor
func changeFires(limit: Int = 2_000, of read: @escaping @MainActor () -> Void, after action: () async throws -> Void)
    async rethrows -> Bool
{
    let fired = FiredFlag()
    withObservationTracking { read() } onChange: { fired.set() }
    try await action()
    for _ in 0..<limit where !fired.value { await Task.yield() }
    return fired.value
}

/// Yields to other tasks `count` times (lets queued main-actor refetches run).
@MainActor
func drainMainActor(_ count: Int = 200) async {
    for _ in 0..<count { await Task.yield() }
}

final class FiredFlag: @unchecked Sendable {
    // @unchecked Sendable: `storage` is only touched under `lock`.
    private let lock = NSLock()
    private var storage = false
    func set() { lock.withLock { storage = true } }
    var value: Bool { lock.withLock { storage } }
}

/// A query in an `@Observable` class: stored by hand, ignored by `@Observable`.
@MainActor @Observable
final class WorkoutHistory {
    @ObservationIgnored private var _workouts: Query<Workout, [Workout]>
    var workouts: [Workout] { _workouts.wrappedValue }
    var selection: String = ""

    init(modelContext: ModelContext) {
        _workouts = Query(sort: \.startedAt, order: .reverse, modelContext: modelContext)
    }
}

/// A model with an optional `String`, for sections whose key can be `nil`.
@Model
final class Exercise {
    var name: String
    var muscle: String?
    var sets: Int
    init(name: String, muscle: String?, sets: Int) {
        self.name = name
        self.muscle = muscle
        self.sets = sets
    }
}
