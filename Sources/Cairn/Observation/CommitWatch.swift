import CairnSQLite
import Synchronization

/// The one observation core of live results: "this fetch read these tables; refetch after a
/// commit that touched them". `Query`, `ResultsObserver` and sectioned queries (through
/// ``LiveFetch``), `@FetchAll`, `@FetchOne` and `@Fetch` (through ``LiveQuery``) and Core
/// Data's fetched-results controller all stand on it.
///
/// A watch owns the watched tables, the observation of a ``CommitSource``, and the coalescing
/// of commits into one pending refetch:
///
/// ```swift
/// let watch = CommitWatch(source: container.changes, delivery: .mainActor { [weak self] in self?.refetch() })
/// watch.watch(["Workout", "Tag"])   // after each fetch: the tables its SQL read
/// ```
///
/// A commit that changed one of the watched tables (any table, while ``tables`` is `nil`)
/// marks the watch pending and, unless a delivery is already queued, queues one: commits that
/// arrive while it waits queue nothing more, so a burst of commits costs one refetch.
/// - ``Delivery/mainActor(_:)``: a main-actor task runs the action once for whatever is
///   pending when it runs; a commit during the action queues the next one.
/// - ``Delivery/task(_:)``: a detached task runs the action, and runs it again while commits
///   arrived during the last run, so refetches never overlap and the last one reads the last
///   commit.
///
/// The source calls the watch weakly: releasing the watch stops the observation, as
/// ``cancel()`` does. The action should hold its owner weakly (the owner holds the watch).
package final class CommitWatch<Source: CommitSource>: Sendable {
    /// How and where the action runs.
    package enum Delivery: Sendable {
        /// On the main actor (live fetches of a main-actor context, fetched-results controllers).
        case mainActor(@MainActor @Sendable () -> Void)
        /// Off the main actor, one run at a time (typed-SQL live queries, which read on a pool).
        case task(@Sendable () async -> Void)
    }

    private struct State {
        /// The tables that make the watch fire; `nil`: every commit.
        var tables: Set<String>?
        var observation: CommitObservation?
        /// A watched commit arrived that no delivery answered yet.
        var pending = false
        /// A delivery task is queued (or, for `.task`, running).
        var queued = false
        var cancelled = false
    }

    /// The source the watch observes.
    package let source: Source
    private let delivery: Delivery
    private let state = Mutex(State())

    /// A watch of `source` that watches nothing until ``watch(_:)`` says what.
    package init(source: Source, delivery: Delivery) {
        self.source = source
        self.delivery = delivery
    }

    /// The tables watched (`nil`: every commit, or nothing watched yet).
    package var tables: Set<String>? { state.withLock { $0.tables } }

    /// Whether a watched commit arrived that no delivery has answered yet.
    package var isPending: Bool { state.withLock { $0.pending } }

    /// Watches `tables` from now on (`nil`: every commit, for a fetch whose tables are not
    /// known yet because it never loaded). Observes the source on the first call, and again
    /// when the tables change (a server source reports only the tables asked for).
    package func watch(_ tables: Set<String>?) throws(Source.Failure) {
        let (unchanged, previous) = state.withLock { state -> (Bool, Set<String>?) in
            defer { state.tables = tables }
            return (state.cancelled || (state.observation != nil && state.tables == tables), state.tables)
        }
        guard !unchanged else { return }
        // The new observation starts before the old one ends, so no commit falls between them;
        // one heard by both is coalesced.
        let observation: CommitObservation
        do {
            observation = try source.observeCommits(to: tables) { [weak self] changed in
                self?.commitArrived(changed)
            }
        } catch {
            // The old observation goes on, with the tables it was asked for.
            state.withLock { state in
                if state.tables == tables { state.tables = previous }
            }
            throw error
        }
        let replaced = state.withLock { state -> CommitObservation? in
            guard !state.cancelled else { return observation }
            defer { state.observation = observation }
            return state.observation
        }
        replaced?.cancel()
    }

    /// Forgets a waiting commit (its owner fetched anyway).
    package func clear() {
        state.withLock { $0.pending = false }
    }

    /// Runs a main-actor action now if a watched commit is waiting, instead of in the task it
    /// queued (which then finds nothing pending): a fetched-results controller answers its
    /// own context's save before `save()` returns, as Core Data does.
    @MainActor package func deliverIfPending() {
        guard case .mainActor(let action) = delivery, takePending() else { return }
        action()
    }

    /// Stops the observation: no delivery runs afterwards. Idempotent.
    package func cancel() {
        let observation = state.withLock { state -> CommitObservation? in
            state.cancelled = true
            state.pending = false
            defer { state.observation = nil }
            return state.observation
        }
        observation?.cancel()
    }

    // MARK: - Delivery

    /// Called by the source on the committing thread: records, and queues a delivery if none is.
    private func commitArrived(_ changed: Set<String>) {
        let queue = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            if let tables = state.tables, tables.isDisjoint(with: changed) { return false }
            state.pending = true
            guard !state.queued else { return false }
            state.queued = true
            return true
        }
        guard queue else { return }
        switch delivery {
        case .mainActor:
            Task { @MainActor [weak self] in
                guard let self else { return }
                state.withLock { $0.queued = false }
                deliverIfPending()
            }
        case .task(let action):
            Task.detached { [weak self] in
                while let self, self.takePending(finishing: true) { await action() }
            }
        }
    }

    /// Clears the pending mark; true when it was set (and the watch is not cancelled). With
    /// `finishing`, a false answer also ends the queued delivery.
    private func takePending(finishing: Bool = false) -> Bool {
        state.withLock { state -> Bool in
            guard state.pending, !state.cancelled else {
                if finishing { state.queued = false }
                return false
            }
            state.pending = false
            return true
        }
    }
}
