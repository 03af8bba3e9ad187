import Foundation
import Observation

/// The shared state behind `@FetchAll`, `@FetchOne` and `@Fetch`: the current value, the
/// last error, whether a load is running, and the observation of the tables the query read.
///
/// It refetches after every commit (from any connection of the database, or on PostgreSQL any
/// client of the server) that touched a table the last fetch read, and publishes each change
/// through Observation. A query that failed
/// before any table was known (a table not created yet, a transient error) retries after every
/// commit until it loads, and then watches its tables: it never stops listening. Each load
/// makes a ``CommitWatch`` on the database, which coalesces commits into one refetch at a
/// time, off the main actor.
///
/// `@unchecked Sendable`: `value`, `loadError`, `isLoading`, `generation`, `fetch`,
/// `database` and `watch` are only read and written under `lock`; the registrar is
/// Sendable.
final class LiveQuery<Value: Sendable>: Observable, @unchecked Sendable {
    private let lock = NSLock()
    private let registrar = ObservationRegistrar()
    private var storedValue: Value
    private var storedError: (any Error)?
    private var storedIsLoading = false
    private var generation = 0
    private var fetch: @Sendable (any QueryConnection) throws -> Value
    private var database: (any LiveQueryDatabase)?
    private var watch: CommitWatch<LiveQuerySource>?

    init(
        initial: Value, database: (any LiveQueryDatabase)?,
        fetch: @escaping @Sendable (any QueryConnection) throws -> Value
    ) {
        self.storedValue = initial
        self.fetch = fetch
        self.database = database ?? DependencyValues.current.defaultDatabase
        reload()
    }

    /// A query with nothing to fetch yet: it holds `initial` and reads nothing until
    /// ``replace(fetch:database:)`` gives it a query.
    init(idle initial: Value, database: (any LiveQueryDatabase)?) {
        self.storedValue = initial
        self.fetch = { _ in initial }
        self.database = database ?? DependencyValues.current.defaultDatabase
    }

    var value: Value {
        registrar.access(self, keyPath: \.value)
        return locked { storedValue }
    }

    var loadError: (any Error)? {
        registrar.access(self, keyPath: \.loadError)
        return locked { storedError }
    }

    var isLoading: Bool {
        registrar.access(self, keyPath: \.isLoading)
        return locked { storedIsLoading }
    }

    /// Replaces the query and loads it now.
    func replace(fetch: @escaping @Sendable (any QueryConnection) throws -> Value, database: (any LiveQueryDatabase)?) {
        locked {
            self.fetch = fetch
            if let database { self.database = database }
        }
        reload()
    }

    /// Stops refetching: the value stays as it is until the next load (``FetchSubscription``).
    func stopObserving() {
        let watch = locked { () -> CommitWatch<LiveQuerySource>? in
            generation += 1
            defer { self.watch = nil }
            return self.watch
        }
        watch?.cancel()
        setLoading(false)
    }

    /// A subscription whose end stops this query's observation.
    var subscription: FetchSubscription {
        FetchSubscription { [weak self] in self?.stopObserving() }
    }

    /// Runs the query again now (`$reminders.load()`): throws what the load threw, which
    /// ``loadError`` also keeps.
    func load() throws {
        reload()
        if let error = loadError { throw error }
    }

    /// Runs the query now, on the calling thread, and starts watching the tables it read.
    func reload() {
        let (database, fetch, generation, replaced) = locked {
            () -> ((any LiveQueryDatabase)?, @Sendable (any QueryConnection) throws -> Value, Int, CommitWatch<LiveQuerySource>?) in
            self.generation += 1
            defer { self.watch = nil }
            return (self.database, self.fetch, self.generation, self.watch)
        }
        replaced?.cancel()
        let source: LiveQuerySource
        do {
            guard let database else { throw LiveQueryError.noDatabase }
            source = try LiveQuerySource(database)
        } catch {
            publish(generation: generation, result: .failure(error))
            return
        }
        setLoading(true)
        let result = Result { try source.load(fetch) }
        publish(generation: generation, result: result.map(\.result))
        let watch = CommitWatch(source: source, delivery: .task { [weak self] in await self?.commitArrived(generation: generation) })
        guard startWatching(try? result.get().tables, with: watch, generation: generation) else { return }
        locked {
            if self.generation == generation { self.watch = watch }
        }
    }

    /// Watches `tables`; with `nil` (the query never loaded, so what it reads is unknown),
    /// every commit, until a load succeeds. False (and the error published) when the database
    /// cannot report them.
    private func startWatching(_ tables: Set<String>?, with watch: CommitWatch<LiveQuerySource>, generation: Int) -> Bool {
        do {
            try watch.watch(tables)
            return true
        } catch {
            let reason = LiveQueryError(description: "the query loaded, but its tables cannot be watched for changes: \(error)")
            publish(generation: generation, result: .failure(reason))
            return false
        }
    }

    /// What a watched commit does: refetch; or, for a query that never loaded, load again
    /// and, on success, watch the tables it read.
    private func commitArrived(generation: Int) async {
        let (fetch, watch) = locked { (self.fetch, self.generation == generation ? self.watch : nil) }
        guard let watch else { return }
        setLoading(true)
        if watch.tables == nil {
            let result = await Result { try await watch.source.load(fetch) }
            publish(generation: generation, result: result.map(\.result))
            if case .success(let (_, tables)) = result { _ = startWatching(tables, with: watch, generation: generation) }
        } else {
            let result = await Result { try await watch.source.fetch(fetch) }
            publish(generation: generation, result: result)
        }
    }

    private func publish(generation: Int, result: Result<Value, any Error>) {
        guard locked({ self.generation == generation }) else { return }
        switch result {
        case .success(let value):
            registrar.withMutation(of: self, keyPath: \.value) { locked { storedValue = value } }
            if locked({ storedError != nil }) {
                registrar.withMutation(of: self, keyPath: \.loadError) { locked { storedError = nil } }
            }
        case .failure(let error):
            registrar.withMutation(of: self, keyPath: \.loadError) { locked { storedError = error } }
        }
        setLoading(false)
    }

    private func setLoading(_ loading: Bool) {
        guard locked({ storedIsLoading != loading }) else { return }
        registrar.withMutation(of: self, keyPath: \.isLoading) { locked { storedIsLoading = loading } }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

/// Why a live query has no value.
public struct LiveQueryError: Error, Sendable, CustomStringConvertible {
    public let description: String

    static let noDatabase = LiveQueryError(
        description: "no database: pass `database:` or set `prepareDependencies { $0.defaultDatabase = … }`")
}
