/// A request for `@Fetch`: several queries in one read transaction, with the result
/// transformed into any value.
///
/// ```swift
/// struct Counts: FetchKeyRequest {
///     struct Value: Sendable { var lists = 0; var reminders = 0 }
///     func fetch(_ db: Database) throws -> Value {
///         Value(lists: try RemindersList.fetchCount(db), reminders: try Reminder.fetchCount(db))
///     }
/// }
/// @Fetch(Counts()) var counts = Counts.Value()
/// ```
public protocol FetchKeyRequest<Value>: Hashable, Sendable {
    /// The result type.
    associatedtype Value
    /// Runs the queries; called in one read transaction.
    func fetch(_ db: Database) throws -> Value
}

/// A live value computed by a ``FetchKeyRequest``, fetched again after every commit that
/// touches a table the request read.
@propertyWrapper
public struct Fetch<Value: Sendable>: Sendable {
    let query: LiveQuery<Value>

    /// The value.
    public var wrappedValue: Value { query.value }

    /// The wrapper itself: `$counts.load(…)`, `$counts.loadError`.
    public var projectedValue: Self { self }

    /// The error of the last fetch, if it failed.
    public var loadError: (any Error)? { query.loadError }

    /// Whether a fetch is running.
    public var isLoading: Bool { query.isLoading }

    /// A value with no request yet, as SQLiteData's `@Fetch var results = Request.Value()`: it
    /// reads nothing until `$results.load(request)` gives it one.
    public init(wrappedValue: Value, database: (any LiveQueryDatabase)? = nil) {
        query = LiveQuery(idle: wrappedValue, database: database)
    }

    /// Fetches `request` now and whenever a table it read changes.
    public init<Request: FetchKeyRequest>(
        wrappedValue: Value, _ request: Request, database: (any LiveQueryDatabase)? = nil
    ) where Request.Value == Value {
        query = LiveQuery(initial: wrappedValue, database: database) { try Self.fetch(request, $0) }
    }

    /// Runs the current request again now (`try await $value.load()`).
    ///
    /// - Throws: the error the fetch threw (also kept in ``loadError``).
    public func load() async throws { try query.load() }

    /// Replaces the request at run time and loads it.
    ///
    /// - Returns: the observation, to tie to a task (``FetchSubscription/task``).
    /// - Throws: the error the request threw (also kept in ``loadError``).
    @discardableResult
    public func load<Request: FetchKeyRequest>(
        _ request: Request, database: (any LiveQueryDatabase)? = nil
    ) async throws -> FetchSubscription where Request.Value == Value {
        query.replace(fetch: { try Self.fetch(request, $0) }, database: database)
        if let error = query.loadError { throw error }
        return query.subscription
    }

    /// Runs `request` on SQLite's `Database`, the type its `fetch(_:)` takes.
    private static func fetch<Request: FetchKeyRequest>(_ request: Request, _ db: any QueryConnection) throws -> Value
    where Request.Value == Value {
        guard let db = db as? Database else {
            throw LiveQueryError(description: "@Fetch runs a FetchKeyRequest, whose fetch(_:) takes SQLite's Database: on PostgreSQL use @FetchAll or @FetchOne, or read the PostgresDatabase yourself")
        }
        return try request.fetch(db)
    }
}

#if !canImport(SwiftUI)
extension Fetch {
    /// `init(wrappedValue:_:database:)`; `animation` is ignored without SwiftUI.
    public init<Request: FetchKeyRequest>(
        wrappedValue: Value, _ request: Request, database: (any LiveQueryDatabase)? = nil, animation: Animation
    ) where Request.Value == Value {
        self.init(wrappedValue: wrappedValue, request, database: database)
    }
}
#endif
