import Dispatch
import Foundation

/// An executor that owns a ``ModelContext``: the code it runs is the only code that uses the
/// context.
///
/// A ``ModelActor`` runs its isolated methods on its model executor, so `modelContext` is
/// always used from one place at a time.
public protocol ModelExecutor: AnyObject, Executor, Sendable {
    /// The context the executor's jobs use.
    var modelContext: ModelContext { get }
}

/// A ``ModelExecutor`` that runs one job at a time, in order: the executor of a ``ModelActor``.
public protocol SerialModelExecutor: ModelExecutor, SerialExecutor {}

/// The serial executor `@ModelActor` gives an actor: a serial dispatch queue that runs the
/// actor's jobs, and the context they use.
///
/// ```swift
/// actor WorkoutStore: ModelActor {
///     nonisolated let modelExecutor: any ModelExecutor
///     nonisolated let modelContainer: ModelContainer
///     init(modelContainer: ModelContainer) {
///         modelExecutor = DefaultSerialModelExecutor(modelContext: ModelContext(modelContainer))
///         self.modelContainer = modelContainer
///     }
/// }
/// ```
public final class DefaultSerialModelExecutor: SerialModelExecutor, @unchecked Sendable {
    // @unchecked Sendable: `modelContext` is not Sendable, but it is only used by the jobs this
    // executor runs, one at a time on `queue` (the isolated code of the actor it backs), which
    // is the confinement a ModelContext needs. `queue` is Sendable; nothing else is stored.

    /// The context of the actor's isolated code.
    public let modelContext: ModelContext
    private let queue: DispatchQueue

    /// An executor that owns `modelContext`. Do not use the context anywhere else afterwards.
    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
        queue = DispatchQueue(label: "Cairn.DefaultSerialModelExecutor")
    }

    /// Runs a job on the executor's serial queue.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async {
            job.runSynchronously(on: executor)
        }
    }

    /// The executor as the runtime's unowned serial executor.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Stops the program when called off this executor, as Swift's isolation checks require.
    public func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
