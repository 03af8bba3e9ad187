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
    // The predicate is stored last: its size is not known where the fetch code, generic over
    // the model, reads a descriptor (Foundation's types are resilient), and every property
    // stored after it would be found through the descriptor's type metadata, a lookup of about
    // 330 instructions each time (callgrind, W5). Stored before it, they sit at fixed offsets.

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
    /// Which models to fetch; `nil` fetches all.
    public var predicate: Predicate<T>?

    /// A descriptor with a predicate and sort order.
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}

extension FetchDescriptor {
    // What every fetch asks of its descriptor. `count`, not `isEmpty`: the fetch code is
    // generic over the model and not specialized for it, and there `isEmpty` goes through
    // `Collection`, looking up the array's type metadata first (about 600 instructions a
    // question, callgrind, W5), while `Array.count` is inlined as a read of the array's header.

    /// Whether the results are sorted.
    @inline(__always) var sorts: Bool { sortBy.count > 0 }
    /// Whether only some properties are fetched up front.
    @inline(__always) var fetchesSomeProperties: Bool { propertiesToFetch.count > 0 }
    /// Whether relationships are prefetched.
    @inline(__always) var prefetches: Bool { relationshipKeyPathsForPrefetching.count > 0 }
}
