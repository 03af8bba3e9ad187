import Foundation

/// The commit listener of a live fetch (``LiveFetch`` behind `Query` and `ResultsObserver`,
/// and Core Data's fetched-results controller in `CairnCoreData`): the container's change
/// observation, a watched set of tables and a flag that coalesces commits.
///
/// A commit, from any context, actor or raw write of the container, that writes a table in
/// ``watch(_:)``'s set marks the trigger pending and queues one main-actor task that calls
/// the action; commits arriving while it is queued queue nothing more. ``fireIfPending()``
/// lets the owner run the action sooner (after its own context's save, as Core Data does).
@_spi(CairnCoreData)
@MainActor
public final class CommitTrigger {
    private let watched = TableSet([])
    private let pending = RefetchFlag()
    private var observation: ChangeObservation?
    private let action: @MainActor () -> Void

    /// Starts listening to the commits of `container`; `action` runs on the main actor.
    public init(container: ModelContainer, action: @escaping @MainActor () -> Void) {
        self.action = action
        let watched = self.watched
        let pending = self.pending
        let target = WeakReference(self)
        observation = container.changes.observe { changed in
            guard watched.intersects(changed), pending.set() else { return }
            Task { @MainActor in target.value?.fireIfPending() }
        }
    }

    /// The tables that make the trigger fire.
    public func watch(_ tables: Set<String>) { watched.replace(with: tables) }

    /// The tables watched.
    public var tables: Set<String> { watched.tables }

    /// Whether a commit to a watched table arrived since the action last ran.
    public var isPending: Bool { pending.isSet }

    /// Runs the action now if a watched commit is waiting (clearing the flag first).
    public func fireIfPending() {
        guard pending.isSet else { return }
        pending.clear()
        action()
    }

    /// Forgets a waiting commit (after the owner fetched anyway).
    public func clear() { pending.clear() }

    /// Stops listening.
    public func cancel() {
        observation?.cancel()
        observation = nil
    }
}
