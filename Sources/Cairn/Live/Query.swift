import Foundation
#if canImport(SwiftUI)
import SwiftUI
#endif

/// Live results of a fetch: the models a descriptor describes, fetched again whenever a
/// commit (of any context, actor, or raw write of the container) writes a table the fetch
/// reads, and published through Observation.
///
/// With the `@Query` macro, as in SwiftUI (the macro stores the query in `_workouts` and
/// takes the model type from the declared type):
///
/// ```swift
/// ModelEnvironment.modelContainer = container          // once: queries use its mainContext
///
/// @MainActor final class WorkoutHistory {
///     @Query(filter: #Predicate<Workout> { $0.minutes >= 30 },
///            sort: \Workout.startedAt, order: .reverse)
///     var workouts: [Workout]
///     // SELECT "id", "title", … FROM "Workout" WHERE "minutes" >= ? ORDER BY "startedAt" DESC
/// }
/// ```
///
/// In an `@Observable` class, write `@ObservationIgnored` after `@Query` (`@Observable` leaves
/// the property alone; the query is observable itself, so reading `workouts` is still tracked
/// and a commit that changes the results fires `onChange`):
///
/// ```swift
/// @MainActor @Observable final class Feed {
///     @Query(sort: \Workout.startedAt) @ObservationIgnored var workouts: [Workout]
///     var searchText = ""
/// }
/// let feed = Feed()
/// withObservationTracking { _ = feed.workouts } onChange: { print("workouts changed") }
/// ```
///
/// Without `@ObservationIgnored`, `@Observable` also makes `workouts` tracked storage and the
/// two expansions collide; written before `@Query`, Swift 6.3 rejects it ("expansion of macro
/// 'ObservationIgnored()' produced an unexpected getter"). `@Query` reports both with the
/// spelling that compiles.
///
/// On its own, with an explicit context:
///
/// ```swift
/// let recent = Query(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.startedAt, order: .reverse)]),
///                    modelContext: context)
/// print(recent.wrappedValue.count)
/// ```
///
/// How a query finds its context: the `modelContext:` argument, else
/// ``ModelEnvironment/modelContext``, else ``ModelEnvironment/modelContainer``'s
/// `mainContext`, looked up when the query is first read (see ``ModelEnvironment``).
///
/// A failed fetch sets ``fetchError`` and keeps the last successful results in
/// ``wrappedValue``; the next successful fetch clears the error.
@MainActor @preconcurrency
public struct Query<Element: PersistentModel, Result> {
    let live: LiveFetch<Element>
    private let transform: @MainActor ([Element]) -> Result
    /// The grouping of a query made with `sectionBy:`; `nil` otherwise.
    let sectioning: QuerySections<Element>?

    init(
        live: LiveFetch<Element>, sectioning: QuerySections<Element>? = nil,
        transform: @escaping @MainActor ([Element]) -> Result
    ) {
        self.live = live
        self.sectioning = sectioning
        self.transform = transform
    }

    /// The current results (the last successful fetch).
    public var wrappedValue: Result { transform(live.results) }

    /// The context the query fetches from.
    public var modelContext: ModelContext { live.modelContext }

    /// The error of the last fetch, or `nil` when it succeeded.
    public var fetchError: (any Error)? { live.fetchError }

    /// Fetches again now (changes are fetched by themselves; this is for a context whose
    /// unsaved changes should show, as `includePendingChanges` allows).
    public func update() { live.refetch() }
}

extension Query where Result == [Element] {
    /// All models matching `filter`, in the order of `descriptors`.
    ///
    /// ```swift
    /// @Query(filter: #Predicate<Workout> { $0.minutes >= 30 },
    ///        sort: [SortDescriptor(\Workout.startedAt, order: .reverse)]) var long: [Workout]
    /// // SELECT … FROM "Workout" WHERE "minutes" >= ? ORDER BY "startedAt" DESC
    /// ```
    public init(
        filter: Predicate<Element>? = nil, sort descriptors: [SortDescriptor<Element>] = [],
        modelContext: ModelContext? = nil
    ) {
        self.init(FetchDescriptor(predicate: filter, sortBy: descriptors), modelContext: modelContext)
    }

    /// All models matching `filter`, sorted by one key path.
    ///
    /// ```swift
    /// @Query(sort: \Workout.startedAt, order: .reverse) var workouts: [Workout]
    /// // SELECT … FROM "Workout" ORDER BY "startedAt" DESC
    /// ```
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value> & Sendable, order: SortOrder = .forward,
        modelContext: ModelContext? = nil
    ) {
        self.init(filter: filter, sort: [SortDescriptor(keyPath, order: order)], modelContext: modelContext)
    }

    /// All models matching `filter`, sorted by one optional key path (`nil` first when
    /// ascending).
    ///
    /// ```swift
    /// @Query(filter: #Predicate<Workout> { $0.isFavorite }, sort: \Workout.finishedAt, order: .forward)
    /// var favorites: [Workout]
    /// // SELECT … FROM "Workout" WHERE "isFavorite" ORDER BY "finishedAt"
    /// ```
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value?> & Sendable, order: SortOrder = .forward,
        modelContext: ModelContext? = nil
    ) {
        self.init(filter: filter, sort: [SortDescriptor(keyPath, order: order)], modelContext: modelContext)
    }

    /// The models a prepared descriptor describes (its limit and offset included).
    ///
    /// ```swift
    /// var lastTen = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.startedAt, order: .reverse)])
    /// lastTen.fetchLimit = 10
    /// let recent = Query(lastTen)
    /// // SELECT … FROM "Workout" ORDER BY "startedAt" DESC LIMIT 10
    /// ```
    public init(_ descriptor: FetchDescriptor<Element>, modelContext: ModelContext? = nil) {
        self.init(live: LiveFetch(descriptor: descriptor, modelContext: modelContext), transform: { $0 })
    }
}

#if canImport(SwiftUI)
// Where SwiftUI exists, the seed's animation and transaction shapes compile too. Cairn has no
// view update to animate, so they only fetch.
extension Query where Result == [Element] {
    public init(animation: Animation) { self.init() }
    public init(transaction: Transaction) { self.init() }
    public init(_ descriptor: FetchDescriptor<Element>, animation: Animation) { self.init(descriptor) }
    public init(_ descriptor: FetchDescriptor<Element>, transaction: Transaction) { self.init(descriptor) }
    public init(filter: Predicate<Element>? = nil, sort descriptors: [SortDescriptor<Element>] = [], animation: Animation) {
        self.init(filter: filter, sort: descriptors)
    }
    public init(filter: Predicate<Element>? = nil, sort descriptors: [SortDescriptor<Element>] = [], transaction: Transaction) {
        self.init(filter: filter, sort: descriptors)
    }
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value> & Sendable, order: SortOrder = .forward,
        animation: Animation
    ) {
        self.init(filter: filter, sort: keyPath, order: order)
    }
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value?> & Sendable, order: SortOrder = .forward,
        animation: Animation
    ) {
        self.init(filter: filter, sort: keyPath, order: order)
    }
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value> & Sendable, order: SortOrder = .forward,
        transaction: Transaction
    ) {
        self.init(filter: filter, sort: keyPath, order: order)
    }
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value?> & Sendable, order: SortOrder = .forward,
        transaction: Transaction
    ) {
        self.init(filter: filter, sort: keyPath, order: order)
    }
}
#endif
