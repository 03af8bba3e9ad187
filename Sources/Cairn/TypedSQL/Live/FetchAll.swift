/// A live array of rows: fetched when created, fetched again after every commit that touches
/// a table the query reads, published through Observation.
///
/// ```swift
/// @Observable
/// final class RemindersModel {
///     @ObservationIgnored
///     @FetchAll(Reminder.where { !$0.isCompleted }.order(by: \.position)) var reminders
/// }
/// // SELECT … FROM "reminders" WHERE NOT "reminders"."isCompleted" ORDER BY "reminders"."position"
/// ```
///
/// Reading `reminders` inside `withObservationTracking` (or a SwiftUI view) tracks it.
@propertyWrapper
public struct FetchAll<Element: Sendable>: Sendable {
    /// The live rows, or, with `sectionBy:`, the live sections.
    enum Live: Sendable {
        case rows(LiveQuery<[Element]>)
        case sections(LiveQuery<SectionedResults<Element, String?>>)
    }

    let live: Live

    /// The rows.
    public var wrappedValue: [Element] {
        switch live {
        case .rows(let query): query.value
        case .sections(let query): query.value.flatMap(\.elements)
        }
    }

    /// The rows grouped by the `sectionBy:` expression (one unnamed section without it).
    public var sections: SectionedResults<Element, String?> {
        switch live {
        case .rows(let query): SectionedResults(grouping: query.value.map { (nil, $0) })
        case .sections(let query): query.value
        }
    }

    /// The wrapper itself: `$reminders.load(…)`, `$reminders.loadError`.
    public var projectedValue: Self { self }

    /// The error of the last fetch, if it failed (the rows keep their previous value).
    public var loadError: (any Error)? {
        switch live {
        case .rows(let query): query.loadError
        case .sections(let query): query.loadError
        }
    }

    /// Whether a fetch is running.
    public var isLoading: Bool {
        switch live {
        case .rows(let query): query.isLoading
        case .sections(let query): query.isLoading
        }
    }

    /// Every row of the table.
    public init(wrappedValue: [Element] = [], database: (any LiveQueryDatabase)? = nil) where Element: Table, Element.QueryOutput == Element {
        live = .rows(LiveQuery(initial: wrappedValue, database: database) { try Element.all.fetchAll($0) })
    }

    /// The rows of a statement over one table.
    public init(
        wrappedValue: [Element] = [], _ statement: SelectOf<Element>, database: (any LiveQueryDatabase)? = nil
    ) where Element.QueryOutput == Element {
        live = .rows(LiveQuery(initial: wrappedValue, database: database) { try statement.fetchAll($0) })
    }

    /// The rows of a one-table statement, grouped into ``sections`` by a text expression
    /// (prepended to `ORDER BY`).
    ///
    /// ```swift
    /// @FetchAll(Reminder.order(by: \.title), sectionBy: \.listTitle) var reminders
    /// ```
    public init<Section: QueryExpression>(
        wrappedValue: [Element] = [], _ statement: SelectOf<Element>,
        sectionBy section: KeyPath<Element.TableColumns, Section>, database: (any LiveQueryDatabase)? = nil
    ) where Element.QueryOutput == Element, Section.QueryValue: QueryRepresentable,
        Section.QueryValue.QueryOutput == String? {
        let expression = Element.columns[keyPath: section].sqlExpression
        live = .sections(LiveQuery(initial: SectionedResults(grouping: wrappedValue.map { (nil, $0) }), database: database) {
            try statement.fetchSections($0, by: expression, as: Section.QueryValue.self)
        })
    }

    /// `init(wrappedValue:_:sectionBy:database:)` with a non-optional text column
    /// (`sectionBy: \.category`): every section has a title.
    public init<Section: QueryExpression>(
        wrappedValue: [Element] = [], _ statement: SelectOf<Element>,
        sectionBy section: KeyPath<Element.TableColumns, Section>, database: (any LiveQueryDatabase)? = nil
    ) where Element.QueryOutput == Element, Section.QueryValue: QueryRepresentable,
        Section.QueryValue.QueryOutput == String {
        let expression = Element.columns[keyPath: section].sqlExpression
        live = .sections(LiveQuery(initial: SectionedResults(grouping: wrappedValue.map { (nil, $0) }), database: database) {
            try statement.fetchSections($0, by: expression, as: String?.self)
        })
    }

    /// The rows of a statement with selected columns.
    public init<From, Joins>(
        wrappedValue: [Element] = [], _ statement: Select<Element, From, Joins>, database: (any LiveQueryDatabase)? = nil
    ) {
        live = .rows(LiveQuery(initial: wrappedValue, database: database) { try Self.fetch(statement, $0) })
    }

    /// Runs the current query again now, as SQLiteData's `try await $rows.load()` does (a
    /// refresh the user asked for; commits already refetch by themselves).
    ///
    /// - Throws: the error the fetch threw (also kept in ``loadError``).
    public func load() async throws {
        switch live {
        case .rows(let query): try query.load()
        case .sections(let query): try query.load()
        }
    }

    /// Replaces the query at run time (for example after the user changes a filter) and
    /// loads it, as SQLiteData's `try await $rows.load(query)` does.
    ///
    /// - Returns: the observation, to tie to a task (``FetchSubscription/task``).
    /// - Throws: the error the first fetch threw (also kept in ``loadError``); a wrapper
    ///   created with `sectionBy:` keeps its statement and throws ``LiveQueryError``.
    @discardableResult
    public func load<From, Joins>(
        _ statement: Select<Element, From, Joins>, database: (any LiveQueryDatabase)? = nil
    ) async throws -> FetchSubscription {
        try replace(database: database) { try Self.fetch(statement, $0) }
    }

    /// Replaces the one-table query at run time and loads it.
    @discardableResult
    public func load(
        _ statement: SelectOf<Element>, database: (any LiveQueryDatabase)? = nil
    ) async throws -> FetchSubscription where Element.QueryOutput == Element {
        try replace(database: database) { try statement.fetchAll($0) }
    }

    private func replace(
        database: (any LiveQueryDatabase)?, _ fetch: @escaping @Sendable (any QueryConnection) throws -> [Element]
    ) throws -> FetchSubscription {
        guard case .rows(let query) = live else {
            throw LiveQueryError(description: "a @FetchAll made with sectionBy: keeps its statement; load() reloads it")
        }
        query.replace(fetch: fetch, database: database)
        if let error = query.loadError { throw error }
        return query.subscription
    }

    private static func fetch<From, Joins>(_ statement: Select<Element, From, Joins>, _ db: some QueryConnection) throws -> [Element] {
        guard let decode = statement.decodeSelection else {
            throw TypedSQLError(message: "the statement has no `select` to decode rows with", sql: "")
        }
        return try fetchRows(db, .select(statement.query), decode)
    }
}

#if !canImport(SwiftUI)
extension FetchAll {
    /// `init(wrappedValue:_:database:)`; `animation` is ignored without SwiftUI.
    public init(
        wrappedValue: [Element] = [], _ statement: SelectOf<Element>, database: (any LiveQueryDatabase)? = nil,
        animation: Animation
    ) where Element.QueryOutput == Element {
        self.init(wrappedValue: wrappedValue, statement, database: database)
    }

    /// `init(wrappedValue:_:database:)`; `animation` is ignored without SwiftUI.
    public init<From, Joins>(
        wrappedValue: [Element] = [], _ statement: Select<Element, From, Joins>,
        database: (any LiveQueryDatabase)? = nil, animation: Animation
    ) {
        self.init(wrappedValue: wrappedValue, statement, database: database)
    }
}
#endif
