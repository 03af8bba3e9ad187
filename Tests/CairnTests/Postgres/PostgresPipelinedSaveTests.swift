import CairnTestSupport
import Foundation
import Testing

@testable import Cairn

/// A model whose to-one relationship points at another row of its own table, so that one run
/// of inserts holds both ends.
@Model
final class StaffMember {
    var name: String
    var manager: StaffMember?

    init(name: String, manager: StaffMember? = nil) {
        self.name = name
        self.manager = manager
    }
}

/// Saves of many new models on a server: the inserts of a run of one entity are pipelined,
/// and every model still gets its own row's key, its relationships and the save's errors.
@Suite("Pipelined saves on a PostgreSQL store", .enabled(if: PostgresTestSchema.serverURL != nil, PostgresTestSchema.skipMessage))
struct PostgresPipelinedSaveTests {
    @Test("a save of thousands of models gives each the key of its own row, in insertion order")
    func keysOfAPipelinedSave() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try PostgresStoreTests.container(url, Workout.self)
            let context = ModelContext(container)
            let day = PostgresStoreTests.day
            let workouts = (0..<2_345).map { Workout(title: "w\($0)", startedAt: day, minutes: $0, calories: Double($0) / 2) }
            for workout in workouts { context.insert(workout) }
            try context.save()

            let keys = workouts.compactMap(\.persistentModelID.primaryKey)
            #expect(keys == Array(1...2_345))
            let fresh = ModelContext(container)
            let rows = try fresh.fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.minutes)]))
            #expect(rows.map(\.persistentModelID) == workouts.map(\.persistentModelID))
            #expect(rows.map(\.title) == workouts.map(\.title))
        }
    }

    @Test("a model pointing at another new model of the same run is saved with that row's key")
    func relationshipsInsideOneRun() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try PostgresStoreTests.container(url, StaffMember.self)
            let context = ModelContext(container)
            let chief = StaffMember(name: "chief")
            context.insert(chief)
            var previous = chief
            for number in 0..<1_500 {
                let member = StaffMember(name: "m\(number)", manager: number.isMultiple(of: 2) ? chief : previous)
                context.insert(member)
                previous = member
            }
            try context.save()

            let fresh = ModelContext(container)
            let members = try fresh.fetch(FetchDescriptor<StaffMember>(sortBy: [SortDescriptor(\.name)]))
            #expect(members.count == 1_501)
            let byName = Dictionary(uniqueKeysWithValues: members.map { ($0.name, $0) })
            #expect(byName["chief"]?.manager == nil)
            #expect(byName["m0"]?.manager?.name == "chief")
            #expect(byName["m1"]?.manager?.name == "m0")
            #expect(byName["m1499"]?.manager?.name == "m1498")
            #expect(byName["m1498"]?.manager?.name == "chief")
        }
    }

    @Test("a row of a pipelined batch that breaks a uniqueness constraint fails the save, naming it, and saves nothing")
    func failingRowOfABatch() throws {
        try PostgresTestSchema.withSchema { url in
            let container = try PostgresStoreTests.container(url, Account.self)
            let context = ModelContext(container)
            for number in 0..<800 {
                let handle = number == 650 ? "h10" : "h\(number)"
                context.insert(Account(email: "a\(number)@example.com", handle: handle, name: "n\(number)"))
            }
            let error = try #require(throws: ModelError.self) { try context.save() }
            #expect(error.kind == .constraintViolation)
            #expect(error.propertyName == "handle")
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Account>()) == 0)
        }
    }
}
