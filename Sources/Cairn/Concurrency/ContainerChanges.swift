import Foundation
import Synchronization

/// The container-wide record of what changed: every commit to one of the container's stores
/// (a context's save, ``ModelContainer/write(_:)``, ``ModelContainer/deleteAllData()``) lands
/// here with the tables it wrote, whichever actor or thread made it.
///
/// Two kinds of listeners:
/// - each context has an inbox of tables changed by *others*; the context merges it (refreshes
///   or unregisters the models it holds) at the start of its next fetch;
/// - live results (``Query``, ``ResultsObserver``, fetched-results controllers) observe every
///   commit, their own context's saves included, through a ``CommitWatch`` (this is its
///   ``CommitSource``), and refetch when it wrote a table they read.
package final class ContainerChanges: CommitSource, @unchecked Sendable {
    package typealias Failure = Never

    // @unchecked Sendable: `inboxes`, `observers` and `nextObserverID` are only touched under
    // `lock`; listeners are called outside it.

    private let lock = NSLock()
    private var inboxes: [ObjectIdentifier: ContextInbox] = [:]
    private var observers: [Int: @Sendable (Set<String>) -> Void] = [:]
    private var nextObserverID = 0
    /// The stores whose commits land here.
    private let stores: [ModelStore]
    /// How often contexts' fetches look for other connections' commits (the shortest interval
    /// of the stores that look; `nil` when none does), and the earliest monotonic time, in
    /// nanoseconds, of the next look: read by every fetch without a lock.
    private let othersCommitsInterval: Int64?
    private let nextOthersCommitsCheck = Atomic<Int64>(0)

    /// Installs the commit handlers of the stores.
    init(stores: [ModelStore]) {
        self.stores = stores
        othersCommitsInterval = stores.compactMap(\.othersCommitsPollingInterval).min().map(Self.nanoseconds)
        for store in stores {
            store.observeCommits { [weak self] tables in self?.storeDidCommit(tables) }
            store.observeOthersCommits { [weak self] tables in self?.storeDidCommit(tables) }
        }
    }

    // MARK: - Commits

    /// Called on the committing thread, while the store's connection is held: only records
    /// and schedules, never reads the store.
    func storeDidCommit(_ written: Set<String>) {
        // Cairn's own tables (the history, the metadata) are no model's: nothing to merge or
        // refetch for them.
        let tables = written.filter { !$0.hasPrefix("_Cairn") }
        guard !tables.isEmpty else { return }
        let saver = SavingContext.current
        let (targets, listeners) = lock.withLock { () -> ([ContextInbox], [@Sendable (Set<String>) -> Void]) in
            (inboxes.filter { UInt(bitPattern: $0.key) != saver }.map(\.value), observers.sorted { $0.key < $1.key }.map(\.value))
        }
        for inbox in targets { inbox.add(tables) }
        for listener in listeners { listener(tables) }
    }

    /// Calls `observer` with the tables of every commit to the container's stores, on the
    /// committing thread (it must not read the store synchronously: hop to an actor). Every
    /// table is reported, so `tables` narrows nothing.
    package func observeCommits(
        to tables: Set<String>?, _ observer: @escaping @Sendable (Set<String>) -> Void
    ) -> CommitObservation {
        let id = lock.withLock {
            nextObserverID += 1
            observers[nextObserverID] = observer
            return nextObserverID
        }
        // A live result hears other connections' commits between fetches too.
        for store in stores { store.checkOthersCommitsPeriodically() }
        return CommitObservation { [weak self] in
            guard let self else { return }
            _ = self.lock.withLock { self.observers.removeValue(forKey: id) }
        }
    }

    /// Looks for other connections' commits if the polling interval has passed since the last
    /// look (at the start of a context's fetch), so that they reach the inboxes. Costs a
    /// coarse clock read and an atomic load when it is not time (W5's 10,000 fetches: a lock
    /// and `ContinuousClock.now` instead cost 2% more instructions).
    func checkOthersCommitsIfDue() {
        guard let interval = othersCommitsInterval else { return }
        let now = Self.monotonicNanoseconds()
        guard now >= nextOthersCommitsCheck.load(ordering: .relaxed) else { return }
        // Two fetches on two threads may both look: harmless, the first takes the news.
        nextOthersCommitsCheck.store(now + interval, ordering: .relaxed)
        for store in stores { store.checkOthersCommits() }
    }

    private static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        // The coarse clock (a few milliseconds' resolution) is a plain read of the vDSO page.
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    // MARK: - Contexts

    /// The inbox of a context, made on first use.
    func inbox(for context: ModelContext) -> ContextInbox {
        // No walk over the others to drop those of contexts gone: each context removes its
        // own as it goes (`removeInbox`), where pruning here cost a request handler's new
        // context about 2,000 instructions (callgrind, cairn-bench W13).
        let key = ObjectIdentifier(context)
        return lock.withLock {
            if let inbox = inboxes[key], inbox.isOwned(by: context) { return inbox }
            let inbox = ContextInbox(context)
            inboxes[key] = inbox
            return inbox
        }
    }

    /// How many contexts have an inbox (tests: a context gone leaves none behind).
    var inboxCount: Int { lock.withLock { inboxes.count } }

    /// Forgets a context's inbox, as the context goes (its `deinit`).
    func removeInbox(_ inbox: ContextInbox, of context: ObjectIdentifier) {
        lock.withLock {
            if inboxes[context] === inbox { inboxes[context] = nil }
        }
    }
}

/// The tables other contexts, actors or raw writes changed since a context last merged.
final class ContextInbox: @unchecked Sendable {
    // @unchecked Sendable: `tables` is only touched under `lock`. `owner` is a weak reference
    // that is only compared and checked for nil (an atomic operation of the runtime), never
    // used to reach the context off its actor.
    private let lock = NSLock()
    private var tables: Set<String> = []
    private weak var owner: ModelContext?

    init(_ owner: ModelContext) { self.owner = owner }

    func isOwned(by context: ModelContext) -> Bool { owner === context }

    func add(_ changed: Set<String>) { lock.withLock { tables.formUnion(changed) } }

    /// The tables changed since the last call, emptied.
    func take() -> Set<String> {
        lock.withLock {
            defer { tables = [] }
            return tables
        }
    }
}

/// The context whose save runs on the current thread, while its transactions run: commits
/// made meanwhile are that context's own. Kept in a thread-specific slot as the context's
/// address (a save runs on one thread from start to end): a POSIX thread-specific value is a
/// load, where `Thread.current.threadDictionary` cost a dictionary of bridged keys and boxed
/// values on every save and commit.
enum SavingContext {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // Fails only when the process has used up its keys (PTHREAD_KEYS_MAX); then every
        // commit counts as another's, which costs the saving context a refetch, not a wrong
        // answer.
        if pthread_key_create(&key, nil) != 0 { return pthread_key_t.max }
        return key
    }()

    /// Runs `body` (a save's writes) with `context` as the saving context.
    static func during<T>(_ context: AnyObject, _ body: () throws -> T) rethrows -> T {
        begin(ObjectIdentifier(context))
        defer { clear() }
        return try body()
    }

    private static func begin(_ context: ObjectIdentifier?) {
        guard key != .max else { return }
        pthread_setspecific(key, context.flatMap { UnsafeRawPointer(bitPattern: UInt(bitPattern: $0)) })
    }

    /// The address of the context saving on the current thread, if one is.
    static var current: UInt? {
        guard key != .max, let address = pthread_getspecific(key) else { return nil }
        return UInt(bitPattern: address)
    }

    /// Forgets the saving context (its save ended, or a raw write begins).
    static func clear() { begin(nil) }
}
