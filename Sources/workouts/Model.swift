import Cairn

// The seed's model and background actor (000_e7396fd64d4b5600.txt), unchanged but for SwiftUI.

@Model
final class Workout {
    var title: String
    var startedAt: Date
    var finishedAt: Date?
    var minutes: Int
    var calories: Double
    var isFavorite: Bool = false

    init(title: String, startedAt: Date, minutes: Int, calories: Double) {
        self.title = title
        self.startedAt = startedAt
        self.minutes = minutes
        self.calories = calories
    }
}

@ModelActor
actor WorkoutStore {
    func idsOfLongWorkouts(since start: Date) throws -> [PersistentIdentifier] {
        let d = FetchDescriptor<Workout>(
            predicate: #Predicate { $0.startedAt >= start && $0.minutes >= 60 }
        )
        return try modelContext.fetchIdentifiers(d)
    }

    func favoriteCount() throws -> Int {
        try modelContext.fetchCount(FetchDescriptor<Workout>(predicate: #Predicate { $0.isFavorite }))
    }

    func importSessions(_ rows: [SessionRow], progress: @Sendable (Int) -> Void) throws {
        for (offset, row) in rows.enumerated() {
            modelContext.insert(Workout(title: row.title, startedAt: row.start,
                                        minutes: row.minutes, calories: row.calories))
            if offset.isMultiple(of: 500) && offset > 0 {
                try modelContext.save()
                progress(offset)
            }
        }
        try modelContext.save()
        progress(rows.count)
    }
}

struct SessionRow: Sendable {
    let title: String
    let start: Date
    let minutes: Int
    let calories: Double
}

struct WeeklySummary: Sendable {
    let sessions: Int
    let minutes: Int
    let longest: Int
}

extension WorkoutStore {
    func summary(from start: Date) throws -> WeeklySummary {
        let d = FetchDescriptor<Workout>(predicate: #Predicate { $0.startedAt >= start })
        let rows = try modelContext.fetch(d)
        return WeeklySummary(sessions: rows.count,
                             minutes: rows.reduce(0) { $0 + $1.minutes },
                             longest: rows.map(\.minutes).max() ?? 0)
    }

    /// Cairn's demo: marks every workout of at least `minutes` as a favourite, on the actor.
    func markFavorites(longerThan minutes: Int) throws -> Int {
        var count = 0
        try modelContext.enumerate(FetchDescriptor<Workout>(predicate: #Predicate { $0.minutes >= minutes })) {
            $0.isFavorite = true
            count += 1
        }
        try modelContext.save()
        return count
    }
}

/// Sessions a person might log over the last months: a mix of activities, durations and
/// times of day, some still running and some planned, deterministic for a given count.
func generateSessions(_ count: Int, now: Date) -> [SessionRow] {
    let kinds = ["Morning run", "Evening run", "Cycling", "Rowing", "Yoga", "HIIT", "Swim", "Strength", "Walk", "Climbing"]
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
    return (0..<count).map { index in
        let kind = kinds[next(kinds.count)]
        let minutes = 10 + next(110)
        let hoursAgo = Double(index) * 7 - 48  // the first few are planned (in the future)
        return SessionRow(title: "\(kind) #\(index + 1)", start: now.addingTimeInterval(-hoursAgo * 3_600),
                          minutes: minutes, calories: Double(minutes) * (5 + Double(next(60)) / 10))
    }
}
