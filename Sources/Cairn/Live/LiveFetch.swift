import Foundation
import Observation

/// The engine of ``Query`` and ``ResultsObserver``: one descriptor fetched on one context,
/// fetched again when a commit writes a table the fetch reads, published through Observation.
///
/// Commits arrive through a ``CommitWatch`` on the container's changes (any actor's save, a
/// raw write, another process's commit); the refetch runs on the main actor, at most one
/// queued at a time however many commits arrive meanwhile.
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
    /// The commit watch; it watches the tables the last successful fetch read.
    private var watch: CommitWatch<ContainerChanges>?
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
    var readTables: Set<String> { watch?.tables ?? [Schema.entityName(for: Element.self)] }

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
        watch?.clear()
        fetchCount += 1
        guard let context = resolvedContext() else {
            publish(error: QueryContextError(elementType: "\(Element.self)"))
            return
        }
        let watch = self.watch ?? startObserving(context)
        do {
            let results = try context.fetch(descriptor)
            watch.watch(context.tablesRead(by: descriptor))
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

    /// Starts watching the container's commits before the first fetch, so that one made
    /// while it runs is not missed; until a fetch says which tables it read, the entity's.
    private func startObserving(_ context: ModelContext) -> CommitWatch<ContainerChanges> {
        let watch = CommitWatch(source: context.container.changes, delivery: .mainActor { [weak self] in self?.refetch() })
        watch.watch([Schema.entityName(for: Element.self)])
        self.watch = watch
        return watch
    }

    /// Stops following commits; the results stay as they are.
    func stop() {
        watch?.cancel()
        watch = nil
    }
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
