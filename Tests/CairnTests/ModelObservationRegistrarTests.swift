@testable import Cairn
import Dispatch
import Foundation
import Observation
import CairnTestSupport
import Testing

/// `@Model` makes a model's `ObservationRegistrar` on its first read
/// (`_ModelObservationRegistrar`): a model never read has none, and loses no observer by it.
@Suite("Model observation registrars")
struct ModelObservationRegistrarTests {
    let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// Whether `model` has made its registrar, read through reflection (the property is
    /// private); a model without the property fails the test rather than answering false.
    func hasRegistrar(_ model: some PersistentModel, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let registrar = Mirror(reflecting: model).children.first { $0.label == "_$observationRegistrar" }?.value
        guard let registrar = registrar as? _ModelObservationRegistrar else {
            Issue.record("\(type(of: model)) has no _$observationRegistrar", sourceLocation: sourceLocation)
            return false
        }
        return registrar.isMade
    }

    @Test("a model read under tracking on another thread is observed")
    func trackedOnAnotherThread() {
        let workout = Workout(title: "Run", startedAt: start, minutes: 30, calories: 240)
        let fired = Flag(), done = DispatchSemaphore(value: 0)
        // @unchecked: the model is handed to one thread while this one waits for it.
        struct Handoff: @unchecked Sendable { let workout: Workout }
        let handoff = Handoff(workout: workout)
        Thread {
            withObservationTracking { _ = handoff.workout.minutes } onChange: { fired.set() }
            done.signal()
        }.start()
        done.wait()
        #expect(hasRegistrar(workout))
        workout.minutes = 45
        #expect(fired.value)
    }

    @Test("Observations sees changes of a fetched model", .timeLimit(.minutes(1)))
    func observationsSequence() async throws {
        let container = try memoryContainer(for: Workout.self)
        let setup = ModelContext(container)
        setup.insert(Workout(title: "Run", startedAt: start, minutes: 30, calories: 240))
        try setup.save()
        let model = try #require(try ModelContext(container).fetch(FetchDescriptor<Workout>()).first)
        #expect(!hasRegistrar(model))
        // @unchecked: the model is read by the sequence's closure on this task only.
        struct Handoff: @unchecked Sendable { let workout: Workout }
        let handoff = Handoff(workout: model)
        var values = Observations { handoff.workout.minutes }.makeAsyncIterator()
        #expect(await values.next() == 30)
        #expect(hasRegistrar(model))
        model.minutes = 45
        #expect(await values.next() == 45)
    }

    @Test("a fetched model makes its registrar on its first read, not before")
    func fetchedModelsMakeRegistrarsWhenRead() throws {
        let container = try memoryContainer(for: Workout.self)
        let setup = ModelContext(container)
        for title in ["Run", "Swim", "Ride"] {
            setup.insert(Workout(title: title, startedAt: start, minutes: 30, calories: 240))
        }
        try setup.save()
        let fetched = try ModelContext(container).fetch(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.title)]))
        try #require(fetched.count == 3)
        let (ride, run, swim) = (fetched[0], fetched[1], fetched[2])
        #expect(fetched.allSatisfy { !hasRegistrar($0) })

        // A write to a model never read makes none and loses nothing: nobody could observe it.
        swim.minutes = 25
        #expect(!hasRegistrar(swim))
        #expect(swim.minutes == 25)

        #expect(ride.title == "Ride")
        #expect(hasRegistrar(ride))
        #expect(!hasRegistrar(run))

        let fired = Flag()
        withObservationTracking { _ = ride.minutes } onChange: { fired.set() }
        run.minutes = 40
        #expect(!fired.value, "another model's change does not fire")
        ride.minutes = 45
        #expect(fired.value)
        #expect(ride.minutes == 45 && run.minutes == 40)
    }

    @Test("a new model is observed from its first tracked read, after untracked ones")
    func newModelObservedAfterUntrackedReads() {
        let workout = Workout(title: "Run", startedAt: start, minutes: 30, calories: 240)
        workout.title = "Long run"
        #expect(!hasRegistrar(workout))
        _ = workout.title
        #expect(hasRegistrar(workout))
        let fired = Flag.firing { _ = workout.title }
        workout.minutes = 50
        #expect(!fired.value, "a property that was not read does not fire")
        workout.title = "Longer run"
        #expect(fired.value)
    }

    @Test("a model first read under tracking is observed")
    func firstReadUnderTracking() {
        let workout = Workout(title: "Run", startedAt: start, minutes: 30, calories: 240)
        let fired = Flag.firing { _ = workout.title }
        #expect(hasRegistrar(workout))
        workout.title = "Long run"
        #expect(fired.value)
    }
}
