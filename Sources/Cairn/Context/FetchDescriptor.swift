import Foundation

/// What to fetch: a model type, an optional predicate, sort order, paging and prefetching.
///
/// ```swift
/// var descriptor = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.startedAt, order: .reverse)])
/// descriptor.fetchLimit = 10
/// let recent = try context.fetch(descriptor)
/// // SELECT "id", "title", … FROM "Workout" ORDER BY "startedAt" DESC LIMIT 10
/// ```
public struct FetchDescriptor<T: PersistentModel> {
    /// Which models to fetch; `nil` fetches all.
    public var predicate: Predicate<T>?
    /// The order of the results, first descriptor first.
    public var sortBy: [SortDescriptor<T>]
    /// The most models to return; `nil` for no limit.
    public var fetchLimit: Int?
    /// How many matching models to skip first; `nil` for none.
    public var fetchOffset: Int?
    /// Whether unsaved inserts, changes and deletes of the context are reflected (default `true`).
    public var includePendingChanges: Bool = true
    /// The properties to load up front; empty loads every attribute. Others load on first use.
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// Relationships to load together with the results, avoiding one query per model.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []

    /// A descriptor with a predicate and sort order.
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
