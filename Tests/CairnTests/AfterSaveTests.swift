@testable import Cairn
import Foundation
import Testing

/// What a save does after its commit stays proportional to what it saved, not to the models the
/// context holds.
@Suite("After a save")
struct AfterSaveTests {
    @Test("a context holding thousands of models walks them once, not after every save")
    func heldModelsAreNotWalkedEverySave() throws {
        let writer = ModelContext(try memoryContainer(for: Workout.self))
        for index in 0..<3_000 {
            writer.insert(Workout(title: "W\(index)", startedAt: .now, minutes: index, calories: 0))
        }
        try writer.save()
        let context = ModelContext(writer.container)
        let held = try context.fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.minutes)]))
        for index in 0..<50 {
            held[index].calories = Double(index)
            try context.save()
        }
        #expect(context.releaseWalks == 1)
        #expect(context.tracked.count == 3_000)
        let check = ModelContext(writer.container)
        #expect(try check.fetchCount(FetchDescriptor<Workout>(predicate: #Predicate { $0.calories > 0 })) == 49)
    }

    @Test("an import that saves every 500 rows keeps only a bounded number of models registered")
    func importsStayBounded() throws {
        let context = ModelContext(try memoryContainer(for: Workout.self))
        var largest = 0
        for batch in 0..<40 {
            for index in 0..<500 {
                context.insert(Workout(title: "W\(batch).\(index)", startedAt: .now, minutes: index, calories: 0))
            }
            try context.save()
            largest = max(largest, context.tracked.count)
        }
        #expect(largest <= 2_000)
        #expect(context.releaseWalks >= 10)
        #expect(try context.fetchCount(FetchDescriptor<Workout>()) == 20_000)
    }
}
