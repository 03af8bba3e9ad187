/// A live single value: the first row of a statement, or an aggregate, with a default for
/// when there is no row. Fetched when created and again after every commit that touches a
/// table the statement reads.
///
/// ```swift
/// @FetchOne(Fact.count()) var factsCount = 0
/// // SELECT COUNT(*) FROM "facts"
/// @FetchOne(Reminder.select { Stats.Columns(allCount: $0.count(filter: !$0.isCompleted)) })
/// var stats = Stats()
/// ```
@propertyWrapper
public struct FetchOne<Value: Sendable>: Sendable {
    let query: LiveQuery<Value>

    /// The value (the default when the statement returns no row).
    public var wrappedValue: Value { query.value }

    /// The wrapper itself: `$stats.load(…)`, `$stats.loadError`.
    public var projectedValue: Self { self }

    /// The error of the last fetch, if it failed.
    public var loadError: (any Error)? { query.loadError }

    /// Whether a fetch is running.
    public var isLoading: Bool { query.isLoading }

    /// The first row of a statement with selected columns (an aggregate, a `@Selection`…).
    public init<From, Joins>(
        wrappedValue: Value, _ statement: Select<Value, From, Joins>, database: (any LiveQueryDatabase)? = nil
    ) {
        query = LiveQuery(initial: wrappedValue, database: database) { try Self.fetch(statement, default: wrappedValue, $0) }
    }

    /// The first row of the table, `wrappedValue` while there is none (SQLiteData's
    /// `FetchOne(wrappedValue: row)`, to be narrowed later with `load(_:default:)`).
    public init(wrappedValue: Value, database: (any LiveQueryDatabase)? = nil) where Value: Table, Value.QueryOutput == Value {
        query = LiveQuery(initial: wrappedValue, database: database) { db in
            try fetchFirst(db, .select(Value.all.limit(1).query)) { try Value.decode(from: &$0) } ?? wrappedValue
        }
    }

    /// The first row of a one-table statement, `nil` when there is none.
    public init<Row: Table>(
        wrappedValue: Value = nil, _ statement: SelectOf<Row>, database: (any LiveQueryDatabase)? = nil
    ) where Value == Row?, Row.QueryOutput == Row {
        query = LiveQuery(initial: wrappedValue, database: database) { db in
            try fetchFirst(db, .select(statement.query)) { try Row.decode(from: &$0) }
        }
    }

    /// Runs the current statement again now (`try await $value.load()`).
    ///
    /// - Throws: the error the fetch threw (also kept in ``loadError``).
    public func load() async throws { try query.load() }

    /// Replaces the statement at run time and loads it.
    ///
    /// - Returns: the observation, to tie to a task (``FetchSubscription/task``).
    /// - Throws: the error the fetch threw (also kept in ``loadError``).
    @discardableResult
    public func load<From, Joins>(
        _ statement: Select<Value, From, Joins>, default value: Value, database: (any LiveQueryDatabase)? = nil
    ) async throws -> FetchSubscription {
        query.replace(fetch: { try Self.fetch(statement, default: value, $0) }, database: database)
        if let error = query.loadError { throw error }
        return query.subscription
    }

    private static func fetch<From, Joins>(
        _ statement: Select<Value, From, Joins>, default value: Value, _ db: some QueryConnection
    ) throws -> Value {
        guard let decode = statement.decodeSelection else {
            throw TypedSQLError(message: "the statement has no `select` to decode rows with", sql: "")
        }
        return try fetchFirst(db, .select(statement.query), decode) ?? value
    }
}

#if !canImport(SwiftUI)
extension FetchOne {
    /// `init(wrappedValue:_:database:)` of an optional row; `animation` is ignored without
    /// SwiftUI.
    public init<Row: Table>(
        wrappedValue: Value = nil, _ statement: SelectOf<Row>, database: (any LiveQueryDatabase)? = nil, animation: Animation
    ) where Value == Row?, Row.QueryOutput == Row {
        self.init(wrappedValue: wrappedValue, statement, database: database)
    }

    /// `init(wrappedValue:_:database:)`; `animation` is ignored without SwiftUI.
    public init<From, Joins>(
        wrappedValue: Value, _ statement: Select<Value, From, Joins>, database: (any LiveQueryDatabase)? = nil,
        animation: Animation
    ) {
        self.init(wrappedValue: wrappedValue, statement, database: database)
    }
}
#endif
