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

    // MARK: Arithmetic inside nodes that only pass values on

    /// A context holding one unsaved trip with items of these titles.
    func unsavedTrip(items titles: [String]) throws -> ModelContext {
        let context = ModelContext(try memoryContainer(for: Trip.self, Item.self))
        let trip = Trip(name: "t")
        context.insert(trip)
        for title in titles { trip.items.append(Item(title: title)) }
        return context
    }

    func expectArithmeticError<T: PersistentModel>(
        _ predicate: Predicate<T>, in context: ModelContext, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try context.fetch(FetchDescriptor(predicate: predicate))
            Issue.record("no error", sourceLocation: sourceLocation)
        } catch let error as PredicateArithmeticError {
            #expect(error.message == message, sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    /// Each predicate's count over the unsaved models equals Foundation's `evaluate`.
    func expectSameAsEvaluate<T: PersistentModel>(
        _ predicates: [Predicate<T>], in context: ModelContext, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let all = try context.fetch(FetchDescriptor<T>())
        for predicate in predicates {
            let expected = try all.filter { try predicate.evaluate($0) }.count
            #expect(try context.fetch(FetchDescriptor(predicate: predicate)).count == expected, sourceLocation: sourceLocation)
        }
    }

    @Test func arithmeticInsideToManyClosures() throws {
        let empty = try unsavedTrip(items: ["ok", ""])
        expectArithmeticError(#Predicate<Trip> { $0.items.filter { item in 10 / item.title.count > 2 }.count > 0 },
                              in: empty, "division by zero (10 / 0)")
        expectArithmeticError(#Predicate<Trip> { $0.items.contains { item in 10 / item.title.count > 9 } },
                              in: empty, "division by zero (10 / 0)")
        expectArithmeticError(#Predicate<Trip> { $0.items.allSatisfy { item in 10 / item.title.count > 2 } },
                              in: empty, "division by zero (10 / 0)")
        expectArithmeticError(#Predicate<Trip> { $0.items.filter { item in 10 / item.title.count > 2 }.isEmpty },
                              in: empty, "division by zero (10 / 0)")
        // contains(where:) and allSatisfy stop where Swift's do: "ok" answers before "" is reached.
        try expectSameAsEvaluate([
            #Predicate<Trip> { $0.items.contains { item in 10 / item.title.count == 5 } },
            #Predicate<Trip> { $0.items.allSatisfy { item in 10 / item.title.count > 5 } },
        ], in: empty)
        let fine = try unsavedTrip(items: ["ok", "fine", "x"])
        try expectSameAsEvaluate([
            #Predicate<Trip> { $0.items.filter { item in 10 / item.title.count > 2 }.count == 2 },
            #Predicate<Trip> { $0.items.contains { item in 10 / item.title.count == 2 } },
            #Predicate<Trip> { $0.items.allSatisfy { item in 10 / item.title.count >= 2 } },
            #Predicate<Trip> { $0.items.filter { item in 10 / item.title.count > 9 }.isEmpty },
        ], in: fine)
    }

    @Test func arithmeticInsideOptionalsAndStrings() throws {
        let context = ModelContext(try memoryContainer(for: Specimen.self))
        func insert(rank: Int?, count: Int) {
            context.insert(Specimen(name: "s\(count)", nickname: nil, count: count, score: 1, rank: rank, flag: false,
                                    day: start, due: nil, mood: .calm, token: UUID()))
        }
        insert(rank: nil, count: 1)
        insert(rank: 20, count: 2)
        try expectSameAsEvaluate([
            #Predicate<Specimen> { $0.rank.flatMap { 100 / $0 } == 5 },
            #Predicate<Specimen> { if let rank = $0.rank { 100 / rank > 2 } else { false } },
            #Predicate<Specimen> { $0.rank != nil && $0.rank.flatMap { 100 / $0 }! == 5 },
        ], in: context)
        insert(rank: 0, count: 3)
        expectArithmeticError(#Predicate<Specimen> { $0.rank.flatMap { 100 / $0 } == 5 }, in: context,
                              "division by zero (100 / 0)")
        expectArithmeticError(#Predicate<Specimen> { if let rank = $0.rank { 100 / rank > 2 } else { false } },
                              in: context, "division by zero (100 / 0)")
        expectArithmeticError(#Predicate<Specimen> { ($0.rank.flatMap { 100 / $0 } ?? 0) == 5 }, in: context,
                              "division by zero (100 / 0)")
        // A forced unwrap of nil is still Foundation's error, after checked arithmetic.
        let unwrap = #Predicate<Specimen> { $0.rank.flatMap { $0 + 1 }! > 0 }
        #expect(throws: PredicateError.self) { try unwrap.checkedEvaluate(Specimen(
            name: "n", nickname: nil, count: 0, score: 0, rank: nil, flag: false, day: start, due: nil, mood: .calm,
            token: UUID())) }
    }

    @Test func closuresOverCapturedArrays() throws {
        let divisors = [0, 2]
        let context = try unsaved(minutes: 10)
        expectArithmeticError(#Predicate<Workout> { w in divisors.contains { d in w.minutes / d == 5 } },
                              in: context, "division by zero (10 / 0)")
        let fine = [2, 5]
        try expectSameAsEvaluate([
            #Predicate<Workout> { w in fine.contains { d in w.minutes / d == 5 } },
            #Predicate<Workout> { w in fine.allSatisfy { d in w.minutes % d == 0 } },
        ], in: context)
    }
}
