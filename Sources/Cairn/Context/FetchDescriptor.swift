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
    // The fetch code is generic over the model and not specialized for it. There, each question
    // about an array of `SortDescriptor<T>` or `PartialKeyPath<T>` (even `count`) and each copy
    // of a `Predicate<T>` first makes that type's metadata, about 330 instructions each time
    // (callgrind, W5: five a fetch). So the answers are kept beside the arrays and the predicate,
    // updated by accessors that are inlined where the descriptor is built or changed, in the
    // caller's module, where `T` is known.
    //
    // The predicate is stored last: its size is not known in that generic code (Foundation's
    // types are resilient), and every property stored after it would be found through the
    // descriptor's type metadata. Stored before it, they sit at fixed offsets.

    @usableFromInline var storedSortBy: [SortDescriptor<T>]
    /// The most models to return; `nil` for no limit.
    public var fetchLimit: Int?
    /// How many matching models to skip first; `nil` for none.
    public var fetchOffset: Int?
    /// Whether unsaved inserts, changes and deletes of the context are reflected (default `true`).
    public var includePendingChanges: Bool = true
    @usableFromInline var storedPropertiesToFetch: [PartialKeyPath<T>] = []
    @usableFromInline var storedPrefetching: [PartialKeyPath<T>] = []
    /// Whether the results are sorted, and how by the last descriptor.
    @usableFromInline var sortSummary: SortSummary
    /// Whether only some properties are fetched up front.
    @usableFromInline var fetchesSomeProperties = false
    /// Whether relationships are prefetched.
    @usableFromInline var prefetches = false
    /// The predicate's expression and variable.
    @usableFromInline var predicateParts: PredicateParts?
    @usableFromInline var storedPredicate: Predicate<T>?

    /// The order of the results, first descriptor first.
    public var sortBy: [SortDescriptor<T>] {
        @inlinable get { storedSortBy }
        @inlinable set {
            storedSortBy = newValue
            sortSummary = SortSummary(newValue)
        }
        @inlinable _modify {
            defer { sortSummary = SortSummary(storedSortBy) }
            yield &storedSortBy
        }
    }

    /// The properties to load up front; empty loads every attribute. Others load on first use.
    public var propertiesToFetch: [PartialKeyPath<T>] {
        @inlinable get { storedPropertiesToFetch }
        @inlinable set {
            storedPropertiesToFetch = newValue
            fetchesSomeProperties = !newValue.isEmpty
        }
        @inlinable _modify {
            defer { fetchesSomeProperties = !storedPropertiesToFetch.isEmpty }
            yield &storedPropertiesToFetch
        }
    }

    /// Relationships to load together with the results, avoiding one query per model.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] {
        @inlinable get { storedPrefetching }
        @inlinable set {
            storedPrefetching = newValue
            prefetches = !newValue.isEmpty
        }
        @inlinable _modify {
            defer { prefetches = !storedPrefetching.isEmpty }
            yield &storedPrefetching
        }
    }

    /// Which models to fetch; `nil` fetches all.
    public var predicate: Predicate<T>? {
        @inlinable get { storedPredicate }
        @inlinable set {
            predicateParts = PredicateParts(newValue)
            storedPredicate = newValue
        }
        @inlinable _modify {
            defer { predicateParts = PredicateParts(storedPredicate) }
            yield &storedPredicate
        }
    }

    /// A descriptor with a predicate and sort order.
    @inlinable
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        storedSortBy = sortBy
        sortSummary = SortSummary(sortBy)
        predicateParts = PredicateParts(predicate)
        storedPredicate = predicate
    }
}

extension FetchDescriptor {
    /// Whether the results are sorted.
    @inline(__always) var sorts: Bool {
        if case .sorted = sortSummary { return true }
        return false
    }

    /// Whether the last sort descriptor is in `.reverse` order.
    @inline(__always) var lastSortIsReverse: Bool {
        if case .sorted(lastIsReverse: true) = sortSummary { return true }
        return false
    }
}

/// What a fetch needs to know of a descriptor's `sortBy` before it looks at the descriptors
/// themselves; not nested in `FetchDescriptor`, where it would be generic over the model.
@usableFromInline
enum SortSummary {
    case unsorted
    /// Sorted; `lastIsReverse` when the last descriptor's order is `.reverse`.
    case sorted(lastIsReverse: Bool)

    @inlinable
    init<T>(_ sortBy: [SortDescriptor<T>]) {
        guard let last = sortBy.last else {
            self = .unsorted
            return
        }
        self = .sorted(lastIsReverse: last.order == .reverse)
    }
}

/// A descriptor's predicate as the fetch code reads it: its expression and its variable.
@usableFromInline
struct PredicateParts {
    @usableFromInline let expression: any StandardPredicateExpression<Bool>
    @usableFromInline let variable: PredicateExpressions.VariableID

    @inlinable
    init?<T>(_ predicate: Predicate<T>?) {
        guard let predicate else { return nil }
        expression = predicate.expression
        variable = predicate.variable.key
    }
}
