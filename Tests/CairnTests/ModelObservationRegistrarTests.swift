@testable import Cairn
import Dispatch
import Foundation
import Observation
import CairnTestSupport
import Testing

/// `@Model` makes a model's `ObservationRegistrar` on its first tracked read
/// (`_ModelObservationRegistrar`), which needs `ObservationProbe` to see tracking.
@Suite("Model observation registrars")
struct ModelObservationRegistrarTests {
    let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    static let childVariable = "CAIRN_PROBE_CHILD"

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

    // If this fails, a new Observation stores tracked reads in a way the probe cannot see:
    // models then make their registrars on first read, which is correct and slower.
    @Test("the probe sees tracked reads on this toolchain, and only those")
    func probeSeesTracking() {
        #expect(ObservationProbe.works)
        #expect(!ObservationProbe.isTracking())
        let inside = withObservationTracking { ObservationProbe.isTracking() } onChange: {}
        #expect(inside)
        let nested = withObservationTracking {
            withObservationTracking { ObservationProbe.isTracking() } onChange: {} && ObservationProbe.isTracking()
        } onChange: {}
        #expect(nested)
        #expect(!ObservationProbe.isTracking())
    }

    @Test("tracking on one thread is not seen on another")
    func probeIsPerThread() {
        let entered = DispatchSemaphore(value: 0), checked = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let seenInside = Flag()
        let thread = Thread {
            withObservationTracking {
                entered.signal()
                checked.wait()
                if ObservationProbe.isTracking() { seenInside.set() }
            } onChange: {}
            done.signal()
        }
        thread.start()
        entered.wait()
        let elsewhere = ObservationProbe.isTracking()
        checked.signal()
        done.wait()
        #expect(!elsewhere, "this thread is not tracking while the other one is")
        #expect(seenInside.value)
    }

    // The probe's one-time check runs on the first read of a model without a registrar. In
    // this process that read may be under tracking; a child process makes sure of it.
    @Test("the probe works when its first use is a tracked read")
    func firstProbeUnderTracking() throws {
        let (status, text) = try runChildTest(
            "ModelObservationRegistrarTests/childFirstReadIsTracked", environment: [Self.childVariable: "1"])
        #expect(status == 0, "\(text.suffix(3_000))")
        #expect(text.contains("childFirstReadIsTracked"), "the child ran no test: \(text.suffix(1_000))")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func childFirstReadIsTracked() {
        let first = Workout(title: "Run", startedAt: start, minutes: 30, calories: 240)
        let fired = Flag.firing { _ = first.title }
        #expect(ObservationProbe.works)
        first.title = "Long run"
        #expect(fired.value)
        let second = Workout(title: "Swim", startedAt: start, minutes: 30, calories: 240)
        _ = second.title
        #expect(!hasRegistrar(second), "an untracked read after the check makes no registrar")
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

    @Test("a fetched model makes its registrar on its first tracked read, not before")
    func fetchedModelsMakeRegistrarsWhenObserved() throws {
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

        // Untracked reads and writes make none, and lose nothing: nobody could be observing.
        #expect(ride.title == "Ride")
        ride.minutes = 35
        #expect(!hasRegistrar(ride))

        let fired = Flag()
        withObservationTracking { _ = ride.minutes } onChange: { fired.set() }
        #expect(hasRegistrar(ride))
        #expect(!hasRegistrar(run) && !hasRegistrar(swim))
        run.minutes = 40
        #expect(!fired.value, "another model's change does not fire")
        ride.minutes = 45
        #expect(fired.value)
        #expect(ride.minutes == 45 && run.minutes == 40)
    }

    @Test("a new model is observed from its first tracked read, after untracked ones")
    func newModelObservedAfterUntrackedReads() {
        let workout = Workout(title: "Run", startedAt: start, minutes: 30, calories: 240)
        _ = workout.title
        workout.title = "Long run"
        #expect(!hasRegistrar(workout))
        let fired = Flag.firing { _ = workout.title }
        workout.minutes = 50
        #expect(!fired.value, "a property that was not read does not fire")
        workout.title = "Longer run"
        #expect(fired.value)
    }
}
