import Foundation

/// An actor with its own ``ModelContext``, for work off the main actor: imports, counts,
/// statistics. Write it with `@ModelActor`.
///
/// ```swift
/// @ModelActor
/// actor WorkoutStore {
///     func favoriteCount() throws -> Int {
///         try modelContext.fetchCount(FetchDescriptor<Workout>(predicate: #Predicate { $0.isFavorite }))
///         // SELECT COUNT(*) FROM "Workout" WHERE "isFavorite" = 1
///     }
/// }
/// let store = WorkoutStore(modelContainer: container)
/// let favorites = try await store.favoriteCount()
/// ```
///
/// The actor's isolated code runs on its ``modelExecutor``, which owns the context. Models are
/// not `Sendable`, so the compiler keeps them inside the actor: return identifiers
/// (``PersistentIdentifier``) and values, and turn identifiers back into models on the other
/// side with ``ModelContext/registeredModel(for:)`` or a fetch. Saves of the actor's context
/// reach every other context of the container (see ``ModelContext``'s merging of changes).
public protocol ModelActor: Actor {
    /// The executor that runs the actor's code and owns its context.
    nonisolated var modelExecutor: any ModelExecutor { get }
    /// The container the actor's context belongs to.
    nonisolated var modelContainer: ModelContainer { get }
}

extension ModelActor {
    /// The actor's context (its executor's).
    public var modelContext: ModelContext { modelExecutor.modelContext }

    /// The actor runs on its model executor, so isolated code and the context share it.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        if let serial = modelExecutor as? any SerialModelExecutor { return serial.asUnownedSerialExecutor() }
        // A custom ModelExecutor that is not serial cannot isolate an actor; use the default
        // actor executor then (documented: write a SerialModelExecutor).
        return FallbackExecutor.shared.asUnownedSerialExecutor()
    }

    /// The model with an identifier, if the actor's context holds it or its row exists.
    ///
    /// ```swift
    /// let run = self[id, as: Workout.self]
    /// ```
    public subscript<T: PersistentModel>(id: PersistentIdentifier, as as: T.Type) -> T? {
        if let model: T = modelContext.registeredModel(for: id) { return model }
        return modelContext.existingModel(T.self, for: id)
    }
}

/// The serial executor used only by a ``ModelActor`` whose model executor is not serial.
private final class FallbackExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked Sendable: only immutable state (a serial dispatch queue).
    static let shared = FallbackExecutor()
    private let queue = DispatchQueue(label: "Cairn.ModelActor.fallback")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// Makes an actor a ``ModelActor``: its own ``ModelContext`` on a serial executor, and
/// `init(modelContainer:)`.
///
/// ```swift
/// @ModelActor
/// actor WorkoutStore {
///     func idsOfLongWorkouts(since start: Date) throws -> [PersistentIdentifier] {
///         try modelContext.fetchIdentifiers(FetchDescriptor<Workout>(
///             predicate: #Predicate { $0.startedAt >= start && $0.minutes >= 60 }))
///         // SELECT "id" FROM "Workout" WHERE "startedAt" >= ? AND "minutes" >= ?
///     }
/// }
/// let ids = try await WorkoutStore(modelContainer: container).idsOfLongWorkouts(since: monday)
/// ```
///
/// It writes (and a hand-written conformance may write instead):
///
/// ```swift
/// nonisolated let modelExecutor: any Cairn.ModelExecutor
/// nonisolated let modelContainer: Cairn.ModelContainer
/// init(modelContainer: Cairn.ModelContainer) {
///     let modelContext = Cairn.ModelContext(modelContainer)
///     self.modelExecutor = Cairn.DefaultSerialModelExecutor(modelContext: modelContext)
///     self.modelContainer = modelContainer
/// }
/// extension WorkoutStore: Cairn.ModelActor {}
/// ```
@attached(member, names: named(modelExecutor), named(modelContainer), named(init))
@attached(extension, conformances: ModelActor)
public macro ModelActor() = #externalMacro(module: "CairnMacros", type: "ModelActorMacro")
