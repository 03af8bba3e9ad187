@testable import Cairn
import Dispatch
import Foundation
import Observation
import Testing

/// `@Model` makes a model's `ObservationRegistrar` on its first tracked read
/// (`_ModelObservationRegistrar`), which needs `ObservationProbe` to see tracking.
@Suite("Model observation registrars")
struct ModelObservationRegistrarTests {
    let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// Whether `model` has made its registrar, read through reflection (the property is private).
    func hasRegistrar(_ model: some PersistentModel) -> Bool {
        let registrar = Mirror(reflecting: model).children.first { $0.label == "_$observationRegistrar" }?.value
        return (registrar as? _ModelObservationRegistrar)?.isMade ?? false
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
