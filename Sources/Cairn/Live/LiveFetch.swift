import Foundation
import Observation

/// The engine of ``Query`` and ``ResultsObserver``: one descriptor fetched on one context,
/// fetched again when a commit writes a table the fetch reads, published through Observation.
///
/// Commits arrive on the committing thread (any actor's save, a raw write); the refetch runs
/// on the main actor, at most one queued at a time however many commits arrive meanwhile.
@MainActor
final class LiveFetch<Element: PersistentModel>: Observable {
    private let registrar = ObservationRegistrar()

    /// The descriptor; setting it fetches again.
    var descriptor: FetchDescriptor<Element> {
        didSet { refetch() }
    }
    private let explicitContext: ModelContext?
    /// The context, once known (given, or the default at first use).
    private var boundContext: ModelContext?

    private var storedResults: [Element] = []
    private var storedError: (any Error)?
    /// The commit listener; it watches the tables the last successful fetch read.
    private var trigger: CommitTrigger?
    /// How many fetches ran (tests check that unrelated commits cause none).
    private(set) var fetchCount = 0
    /// Bumped each time new results are published (what is derived from them, such as
    /// sections, is computed again when it changes).
    private(set) var generation = 0

    init(descriptor: FetchDescriptor<Element>, modelContext: ModelContext?) {
        self.descriptor = descriptor
        explicitContext = modelContext
    }

    // MARK: - Published state

    /// The results of the last successful fetch (fetching first if none ran yet).
    var results: [Element] {
        startIfNeeded()
        registrar.access(self, keyPath: \.results)
        return storedResults
    }

    /// The error of the last fetch, `nil` when it succeeded.
    var fetchError: (any Error)? {
        startIfNeeded()
        registrar.access(self, keyPath: \.fetchError)
        return storedError
    }

    /// The context the fetch reads from; without one (none given, no default set), a context
    /// of an empty in-memory container, and `fetchError` says why.
    var modelContext: ModelContext {
        resolvedContext() ?? DetachedContexts.context(for: Element.self)
    }

    /// The tables the fetch reads, as last fetched.
    var readTables: Set<String> { trigger?.tables ?? [Schema.entityName(for: Element.self)] }

    // MARK: - Fetching

    private func resolvedContext() -> ModelContext? {
        if let boundContext { return boundContext }
        boundContext = explicitContext ?? ModelEnvironment.modelContext ?? ModelEnvironment.modelContainer?.mainContext
        return boundContext
    }

    private func startIfNeeded() {
        if fetchCount == 0 { refetch() }
    }

    /// Fetches now and publishes the results; a failure keeps the last good results and sets
    /// `fetchError`.
    func refetch() {
        trigger?.clear()
        fetchCount += 1
        guard let context = resolvedContext() else {
            publish(error: QueryContextError(elementType: "\(Element.self)"))
            return
        }
        let trigger = self.trigger ?? startObserving(context)
        do {
            let results = try context.fetch(descriptor)
            trigger.watch(context.tablesRead(by: descriptor))
            registrar.withMutation(of: self, keyPath: \.results) {
                storedResults = results
                generation += 1
            }
            if storedError != nil { publish(error: nil) }
        } catch {
            publish(error: error)
        }
    }

    private func publish(error: (any Error)?) {
        registrar.withMutation(of: self, keyPath: \.fetchError) { storedError = error }
    }

    private func startObserving(_ context: ModelContext) -> CommitTrigger {
        let trigger = CommitTrigger(container: context.container) { [weak self] in self?.refetch() }
        trigger.watch([Schema.entityName(for: Element.self)])
        self.trigger = trigger
        return trigger
    }

    /// Stops following commits; the results stay as they are.
    func stop() {
        trigger?.cancel()
        trigger = nil
    }
}

/// A weak reference to a main-actor object, carried by the commit listener (which runs on
/// any thread) into a main-actor task.
struct WeakReference<Object: AnyObject>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read inside `@MainActor` tasks, and the objects it
    // refers to are main-actor isolated; off the main actor it is only carried, never read.
    weak var value: Object?
    init(_ value: Object) { self.value = value }
}

/// The set of tables a live fetch watches, read by the commit listener on any thread.
final class TableSet: @unchecked Sendable {
    // @unchecked Sendable: `storage` is only touched under `lock`.
    private let lock = NSLock()
    private var storage: Set<String>
    init(_ tables: Set<String>) { storage = tables }
    var tables: Set<String> { lock.withLock { storage } }
    func replace(with tables: Set<String>) { lock.withLock { storage = tables } }
    func intersects(_ other: Set<String>) -> Bool { lock.withLock { !storage.isDisjoint(with: other) } }
}

/// Whether a refetch is queued: commits arriving while one is queued do not queue another.
final class RefetchFlag: @unchecked Sendable {
    // @unchecked Sendable: `flag` is only touched under `lock`.
    private let lock = NSLock()
    private var flag = false
    /// Sets the flag; true when it was not set (the caller queues the refetch).
    func set() -> Bool { lock.withLock { defer { flag = true }; return !flag } }
    func clear() { lock.withLock { flag = false } }
    var isSet: Bool { lock.withLock { flag } }
}

extension ModelContext {
    /// The tables a fetch of `descriptor` reads, as the engine reports them for the fetch's
    /// SELECT: the entity's table and whatever the predicate and sort reach through
    /// relationships (subqueries, joins, join tables).
    func tablesRead<T: PersistentModel>(by descriptor: FetchDescriptor<T>) -> Set<String> {
        let entityName = Schema.entityName(for: T.self)
        guard let store = try? state.store(for: entityName) else { return [entityName] }
        guard let layout = try? store.layout(for: entityName),
            let rendered = try? QueryCompiler.render(descriptor, selecting: .columns(layout.columnNames), in: store.dialect),
            let tables = try? store.read({ try $0.readTables(rendered) }),
            !tables.isEmpty
        else { return [entityName] }
        return tables
    }
}
