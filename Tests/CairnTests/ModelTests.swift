import Cairn
import Testing

@Suite("@Model runtime")
struct ModelRuntimeTests {
    let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    @Test("the seed's Workout keeps its values, default included")
    func seedWorkout() {
        let workout = Workout(title: "Run", startedAt: start, minutes: 30, calories: 250.5)
        #expect(workout.title == "Run")
        #expect(workout.startedAt == start)
        #expect(workout.finishedAt == nil)
        #expect(workout.minutes == 30)
        #expect(workout.calories == 250.5)
        #expect(workout.isFavorite == false)
        workout.isFavorite = true
        workout.finishedAt = start.addingTimeInterval(1800)
        #expect(workout.isFavorite)
        #expect(workout.finishedAt == start.addingTimeInterval(1800))
    }

    @Test("observation sees reads and writes")
    func observation() {
        let workout = Workout(title: "Run", startedAt: start, minutes: 30, calories: 250)
        let fired = Flag.firing { _ = workout.minutes }
        workout.title = "Other"
        #expect(!fired.value, "a property that was not read does not fire")
        workout.minutes = 45
        #expect(fired.value)
    }

    // `@Model` keeps each property's observed key path in a static of the class; a model
    // nested in another type must compile that way, and each instance is observed alone.
    @Test("a model nested in another type is observed per instance through its kept key paths")
    func nestedModelObservation() {
        let first = Shelf.Book(title: "Dune"), second = Shelf.Book(title: "Emma")
        let fired = Flag.firing { _ = first.title }
        second.title = "Persuasion"
        #expect(!fired.value, "another instance's change does not fire")
        first.title = "Children of Dune"
        #expect(fired.value)
        #expect(first.title == "Children of Dune" && second.title == "Persuasion")
    }

    @Test("a new model records every property as changed")
    func changeTrackingNew() {
        let workout = Workout(title: "Run", startedAt: start, minutes: 30, calories: 250)
        #expect(workout.changedPropertyNames
            == ["title", "startedAt", "finishedAt", "minutes", "calories", "isFavorite"])
        #expect(workout.hasChanges)
        #expect(!workout.isDeleted)
        #expect(workout.modelContext == nil)
        #expect(workout.persistentModelID.isTemporary)
        #expect(workout.persistentModelID.entityName == "Workout")
    }

    @Test("schema metadata names every stored property with its key path and default")
    func metadata() {
        let metadata = Workout.schemaMetadata
        #expect(metadata.map(\.name) == ["title", "startedAt", "finishedAt", "minutes", "calories", "isFavorite"])
        #expect(metadata[0].keypath == \Workout.title)
        #expect(metadata[5].defaultValue as? Bool == false)
        #expect(metadata[0].defaultValue == nil)
    }

    @Test("the entity maps key paths to columns and types")
    func entity() {
        let entity = Schema.Entity.of(Workout.self)
        #expect(entity.name == "Workout")
        #expect(entity.problems.isEmpty)
        #expect(entity.primaryKeyColumn == "id")
        #expect(entity.columnName(for: \Workout.minutes) == "minutes")
        #expect(entity.attribute(for: \Workout.finishedAt)?.isOptional == true)
        #expect(entity.attribute(for: \Workout.title)?.isOptional == false)
        #expect(entity.storedAttributes.map(\.columnType) == ["TEXT", "REAL", "REAL", "INTEGER", "REAL", "INTEGER"])
    }
}

/// A flag set from an observation callback (which may run on any thread).
enum Shelf {
    @Model final class Book {
        var title: String
        init(title: String) { self.title = title }
    }
}

final class Flag: @unchecked Sendable {
    // @unchecked Sendable: `stored` is only touched under `lock`.
    private let lock = NSLock()
    private var stored = false
    func set() { lock.withLock { stored = true } }
    var value: Bool { lock.withLock { stored } }

    /// A flag set when something `read` reads changes (`withObservationTracking`).
    static func firing(when read: () -> Void) -> Flag {
        let fired = Flag()
        withObservationTracking(read, onChange: { fired.set() })
        return fired
    }
}

@Suite("Values by name")
struct KeyValueTests {
    @Test("value(forKey:) and setValue(_:forKey:) read and write persisted properties by name")
    func byName() throws {
        let workout = Workout(title: "Run", startedAt: .now, minutes: 30, calories: 250)
        #expect(workout.value(forKey: "minutes") as? Int == 30)
        #expect(workout.value(forKey: "nope") == nil)
        try workout.setValue(45, forKey: "minutes")
        #expect(workout.minutes == 45)
        try workout.setValue(Date(timeIntervalSinceReferenceDate: 5), forKey: "finishedAt")
        #expect(workout.finishedAt == Date(timeIntervalSinceReferenceDate: 5))
        try workout.setValue(nil, forKey: "finishedAt")
        #expect(workout.finishedAt == nil)
        #expect(throws: ModelError.self) { try workout.setValue("text", forKey: "minutes") }
        #expect(throws: ModelError.self) { try workout.setValue(1, forKey: "nope") }
    }
}
