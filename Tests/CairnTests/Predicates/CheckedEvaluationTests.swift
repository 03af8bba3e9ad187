@testable import Cairn
import Foundation
import Testing

/// Foundation's `evaluate` computes a predicate's integer arithmetic with `+`, `/` and `%`
/// and builds ranges with `...`, which stop the process on overflow, a zero divisor or
/// reversed bounds. Where Cairn evaluates a predicate in memory (unsaved models, captured
/// constants) those throw instead.
@Suite("Predicates evaluated in memory: arithmetic that would trap throws")
struct CheckedEvaluationTests {
    let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// A context holding one unsaved workout of `minutes`.
    func unsaved(minutes: Int) throws -> ModelContext {
        let context = ModelContext(try memoryContainer(for: Workout.self))
        context.insert(Workout(title: "w", startedAt: start, minutes: minutes, calories: 0))
        return context
    }

    func expectArithmeticError(_ predicate: Predicate<Workout>, minutes: Int, _ message: String) throws {
        let context = try unsaved(minutes: minutes)
        do {
            _ = try context.fetch(FetchDescriptor(predicate: predicate))
            Issue.record("no error for \(minutes) minutes")
        } catch let error as PredicateArithmeticError {
            #expect(error.message == message)
        }
    }

    @Test func divisionRemainderOverflowAndNegation() throws {
        try expectArithmeticError(#Predicate { 60 / $0.minutes > 2 }, minutes: 0, "division by zero (60 / 0)")
        try expectArithmeticError(#Predicate { 60 % $0.minutes == 1 }, minutes: 0, "division by zero (60 % 0)")
        try expectArithmeticError(#Predicate { $0.minutes + 1 > 0 }, minutes: .max,
                                  "integer overflow (9223372036854775807 + 1 does not fit in Int)")
        try expectArithmeticError(#Predicate { $0.minutes * 2 > 0 }, minutes: .max / 2 + 1,
                                  "integer overflow (4611686018427387904 * 2 does not fit in Int)")
        try expectArithmeticError(#Predicate { -$0.minutes > 0 }, minutes: .min,
                                  "integer overflow (-(-9223372036854775808) does not fit in Int)")
        try expectArithmeticError(#Predicate { $0.minutes / -1 > 0 }, minutes: .min,
                                  "integer overflow (-9223372036854775808 / -1 does not fit in Int)")
    }

    @Test func shortCircuitsAsFoundationDoes() throws {
        let guarded = #Predicate<Workout> { $0.minutes != 0 && 60 / $0.minutes > 2 }
        #expect(try unsaved(minutes: 0).fetch(FetchDescriptor(predicate: guarded)).isEmpty)
        #expect(try unsaved(minutes: 20).fetch(FetchDescriptor(predicate: guarded)).count == 1)
        let either = #Predicate<Workout> { $0.minutes == 0 || 60 / $0.minutes > 2 }
        #expect(try unsaved(minutes: 0).fetch(FetchDescriptor(predicate: either)).count == 1)
        let choice = #Predicate<Workout> { ($0.minutes == 0 ? 0 : 60 / $0.minutes) == 0 }
        #expect(try unsaved(minutes: 0).fetch(FetchDescriptor(predicate: choice)).count == 1)
    }

    @Test func rangesWithReversedBounds() throws {
        let low = 5, high = 1
        let constant = #Predicate<Workout> { (low...high).contains($0.minutes) }
        #expect(throws: SwiftDataError.self) { try unsaved(minutes: 3).fetch(FetchDescriptor(predicate: constant)) }
        let fromModel = #Predicate<Workout> { ($0.minutes...3).contains(2) }
        try expectArithmeticError(fromModel, minutes: 4, "a range whose lower bound is above its upper bound (4...3)")
        #expect(try unsaved(minutes: 1).fetch(FetchDescriptor(predicate: fromModel)).count == 1)
    }

    @Test func predicatesWithoutTrapsAnswerAsEvaluateDoes() throws {
        let context = try unsaved(minutes: 45)
        let predicates: [Predicate<Workout>] = [
            #Predicate { $0.minutes * 2 == 90 }, #Predicate { -$0.minutes < -40 }, #Predicate { $0.minutes % 7 == 3 },
            #Predicate { [44, 45].contains($0.minutes + 0) }, #Predicate { (40...50).contains($0.minutes - 1) },
        ]
        let workouts = try context.fetch(FetchDescriptor<Workout>())
        for predicate in predicates {
            #expect(try context.fetch(FetchDescriptor(predicate: predicate)).count == workouts.filter { try predicate.evaluate($0) }.count)
        }
    }
}
