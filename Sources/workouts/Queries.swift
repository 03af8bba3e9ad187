import Cairn

// The seed's views, as plain classes: each turns its inputs into a query in `init`, exactly as
// the seed's SwiftUI views do; the queries use ModelEnvironment's container.

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
}

@MainActor
final class SortedWorkouts {
    @Query var workouts: [Workout]

    init(key: Options.SortKey, order: SortOrder) {
        let descriptor: SortDescriptor<Workout>
        switch key {
        case .date: descriptor = SortDescriptor(\.startedAt, order: order)
        case .duration: descriptor = SortDescriptor(\.minutes, order: order)
        case .title: descriptor = SortDescriptor(\.title, order: order)
        }
        _workouts = Query(sort: [descriptor])
    }
}

@MainActor
final class FilteredWorkouts {
    @Query var workouts: [Workout]

    init(text: String, favoritesOnly: Bool) {
        _workouts = Query(
            filter: #Predicate<Workout> {
                (text.isEmpty || $0.title.localizedStandardContains(text))
                    && (!favoritesOnly || $0.isFavorite)
            },
            sort: \.startedAt, order: .reverse
        )
    }
}

@MainActor
final class WorkoutsByWeek {
    @Query(sort: \Workout.startedAt, order: .reverse) var workouts: [Workout]

    var weeks: [(label: String, items: [Workout])] {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let grouped = Dictionary(grouping: workouts) { workout in
            let parts = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: workout.startedAt)
            return "\(parts.yearForWeekOfYear ?? 0)-W\(String(format: "%02d", parts.weekOfYear ?? 0))"
        }
        return grouped
            .map { (label: $0.key, items: $0.value) }
            .sorted { ($0.items.first?.startedAt ?? .distantPast) > ($1.items.first?.startedAt ?? .distantPast) }
    }
}

enum WorkoutPhase: CaseIterable {
    case planned, running, done

    func includes(_ w: Workout, at now: Date) -> Bool {
        switch self {
        case .planned: w.startedAt > now
        case .running: w.startedAt <= now && w.finishedAt == nil
        case .done: w.finishedAt != nil
        }
    }
}

@MainActor
final class WorkoutsByPhase {
    @Query(sort: \Workout.startedAt) var workouts: [Workout]
}

func page(_ index: Int, size: Int, in context: ModelContext) throws -> [Workout] {
    try context.fetch(pageDescriptor(index, size: size))
}

func pageDescriptor(_ index: Int, size: Int) -> FetchDescriptor<Workout> {
    var d = FetchDescriptor<Workout>(sortBy: [
        SortDescriptor(\.startedAt, order: .reverse),
        SortDescriptor(\.title)
    ])
    d.fetchLimit = size
    d.fetchOffset = index * size
    return d
}

@MainActor
func resolve(_ ids: [PersistentIdentifier], in context: ModelContext) throws -> [Workout] {
    try ids.compactMap { id in
        if let cached: Workout = context.registeredModel(for: id) {
            return cached
        }
        var d = FetchDescriptor<Workout>(predicate: #Predicate { $0.persistentModelID == id })
        d.fetchLimit = 1
        return try context.fetch(d).first
    }
}

func calorieStats(in context: ModelContext) throws -> (total: Double, average: Double, peak: Double?) {
    var d = FetchDescriptor<Workout>()
    d.propertiesToFetch = [\.calories]
    let values = try context.fetch(d).map(\.calories)
    let total = values.reduce(0, +)
    let average = values.isEmpty ? 0 : total / Double(values.count)
    return (total, average, values.max())
}
