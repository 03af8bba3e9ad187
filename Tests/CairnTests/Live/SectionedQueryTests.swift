@testable import Cairn
import Observation
import Testing

/// Sectioned queries with the macro, in a class and in an `@Observable` class.
@MainActor
final class WorkoutBoard {
    @Query(sort: \Workout.startedAt, sectionBy: \Workout.title) var byTitle: SectionedResults<Workout, String>
    @Query(sort: \Workout.startedAt) var flat: [Workout]

    var sectionsOfFlat: SectionedResults<Workout, String> { _flat.sections }
    var sectionsOfByTitle: SectionedResults<Workout, String> { _byTitle.sections }
    var sectionedSQL: String? {
        try? QueryCompiler.render(_byTitle.live.descriptor, selecting: .identifiers, in: .sqlite).sql
    }

    init(modelContext: ModelContext) {
        _byTitle = Query(sort: \.startedAt, sectionBy: \.title, modelContext: modelContext)
        _flat = Query(sort: \.startedAt, modelContext: modelContext)
    }
}

@MainActor @Observable
final class ExerciseBoard {
    @Query(sort: [SortDescriptor(\Exercise.name)], sectionBy: \Exercise.muscle) @ObservationIgnored
    var byMuscle: SectionedResults<Exercise, String>

    init(modelContext: ModelContext) {
        _byMuscle = Query(sort: [SortDescriptor(\.name)], sectionBy: \.muscle, modelContext: modelContext)
    }
}

@MainActor
@Suite("Sectioned Query")
struct SectionedQueryTests {
    func insert(_ rows: [(String, Int)], into container: ModelContainer) throws {
        let other = ModelContext(container)
        for (title, day) in rows {
            other.insert(Workout(title: title, startedAt: Date(timeIntervalSinceReferenceDate: Double(day) * 86_400),
                                 minutes: 30, calories: 200))
        }
        try other.save()
    }

    @Test("sections by title, ordered by title then by the query's sort; SQL puts the key first")
    func sectionsByTitle() throws {
        let container = try memoryContainer(for: Workout.self, Memo.self)
        try insert([("Run", 3), ("Row", 2), ("Run", 1), ("Ride", 4)], into: container)
        let board = WorkoutBoard(modelContext: container.mainContext)
        #expect(board.byTitle.sectionTitles == ["Ride", "Row", "Run"])
        #expect(board.byTitle[sectionTitle: "Run"]?.map(\.startedAt.timeIntervalSinceReferenceDate) == [86_400, 3 * 86_400])
        #expect(board.byTitle.map(\.count) == [1, 1, 2])
        #expect(board.byTitle.allSatisfy { section in section.allSatisfy { $0.title == section.title } })
        #expect(board.sectionsOfByTitle.sectionTitles == board.byTitle.sectionTitles)
        #expect(board.sectionsOfFlat.isEmpty)
        #expect(board.sectionedSQL?.hasSuffix(
            #"ORDER BY "t0"."title" COLLATE cairn_swift ASC, "t0"."startedAt" ASC, "t0"."id" ASC"#) == true)
    }

    @Test("inserts from another context regroup the sections, seen by withObservationTracking")
    func insertsFromOtherContext() async throws {
        let container = try memoryContainer(for: Workout.self, Memo.self)
        try insert([("Run", 1)], into: container)
        let board = WorkoutBoard(modelContext: container.mainContext)
        #expect(board.byTitle.sectionTitles == ["Run"])
        let fired = try await changeFires(of: { _ = board.byTitle }) {
            try insert([("Swim", 2), ("Run", 0), ("Bike", 5)], into: container)
        }
        #expect(fired)
        await drainMainActor()
        #expect(board.byTitle.sectionTitles == ["Bike", "Run", "Swim"])
        #expect(board.byTitle[sectionTitle: "Run"]?.map(\.startedAt.timeIntervalSinceReferenceDate) == [0, 86_400])
        #expect(board.byTitle.index(ofSectionTitled: "Swim") == 2)
    }

    @Test("a save on another actor reaches the sections of an @Observable class; nil keys share the \"\" section")
    func optionalKeyOnActor() async throws {
        let container = try memoryContainer(for: Exercise.self, Memo.self)
        let seed = ModelContext(container)
        seed.insert(Exercise(name: "Squat", muscle: "Legs", sets: 5))
        seed.insert(Exercise(name: "Plank", muscle: nil, sets: 3))
        try seed.save()
        let board = ExerciseBoard(modelContext: container.mainContext)
        #expect(board.byMuscle.sectionTitles == ["", "Legs"])
        let writer = ExerciseWriter(modelContainer: container)
        let fired = try await changeFires(of: { _ = board.byMuscle }) {
            try await writer.add([("Row", "Back"), ("Breathing", nil), ("Lunge", "Legs")])
        }
        #expect(fired)
        await drainMainActor()
        #expect(board.byMuscle.sectionTitles == ["", "Back", "Legs"])
        #expect(board.byMuscle[sectionTitle: ""]?.map(\.name) == ["Breathing", "Plank"])
        #expect(board.byMuscle[sectionTitle: "Legs"]?.map(\.name) == ["Lunge", "Squat"])
        #expect(board.byMuscle[sectionTitle: "Back"]?.map(\.name) == ["Row"])
    }

    @Test("a commit to an unrelated table leaves the sections alone")
    func unrelatedTable() async throws {
        let container = try memoryContainer(for: Workout.self, Memo.self)
        try insert([("Run", 1)], into: container)
        let board = WorkoutBoard(modelContext: container.mainContext)
        _ = board.byTitle
        let fired = try await changeFires(limit: 300, of: { _ = board.byTitle }) {
            let other = ModelContext(container)
            other.insert(Memo(text: "unrelated"))
            try other.save()
        }
        #expect(!fired)
    }

    @Test("every sectioned initializer shape groups the same rows", arguments: 0..<4)
    func shapes(shape: Int) throws {
        let container = try memoryContainer(for: Exercise.self, Memo.self)
        let context = ModelContext(container)
        for (name, muscle) in [("Squat", "Legs"), ("Plank", nil), ("Row", "Back")] as [(String, String?)] {
            context.insert(Exercise(name: name, muscle: muscle, sets: name.count))
        }
        try context.save()
        let main = container.mainContext
        let query: Query<Exercise, SectionedResults<Exercise, String>>
        switch shape {
        case 0: query = Query(FetchDescriptor(sortBy: [SortDescriptor(\.name)]), sectionBy: \.muscle, modelContext: main)
        case 1: query = Query(filter: #Predicate { $0.sets > 0 }, sort: [SortDescriptor(\.name)], sectionBy: \.muscle, modelContext: main)
        case 2: query = Query(sort: \.name, order: .forward, sectionBy: \.muscle, modelContext: main)
        default: query = Query(sort: \.muscle, order: .forward, sectionBy: \.muscle, modelContext: main)
        }
        #expect(query.wrappedValue.sectionTitles == ["", "Back", "Legs"])
        #expect(query.sections.map { $0.map(\.name) } == [["Plank"], ["Row"], ["Squat"]])
        let byName = Query<Exercise, SectionedResults<Exercise, String>>(sort: \.muscle, sectionBy: \.name, modelContext: main)
        #expect(byName.wrappedValue.sectionTitles == ["Plank", "Row", "Squat"])
    }
}

/// Writes exercises from its own actor.
@ModelActor
actor ExerciseWriter {
    func add(_ rows: [(String, String?)]) throws {
        for (name, muscle) in rows { modelContext.insert(Exercise(name: name, muscle: muscle, sets: 3)) }
        try modelContext.save()
    }
}
