import Cairn

// The seed's "Fetching on a background actor" and "Aggregates" code (000_e7396fd64d4b5600.txt),
// unchanged except that SwiftUI is not imported.

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
}

/// `count` generated sessions, one every six hours back from `end`: minutes 15…104, every
/// seventh a favourite-worthy title.
func generatedSessions(_ count: Int, end: Date = Date(timeIntervalSinceReferenceDate: 800_000_000)) -> [SessionRow] {
    (0..<count).map { index in
        SessionRow(title: "Workout \(index)", start: end.addingTimeInterval(Double(-index) * 21_600),
                   minutes: 15 + (index * 37) % 90, calories: Double(100 + (index * 53) % 700))
    }
}
