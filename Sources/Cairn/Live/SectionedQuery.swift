import Foundation
#if canImport(SwiftUI)
import SwiftUI
#endif

// iOS 27's sectioned queries: every `Query` shape with a trailing `sectionBy:`, whose results
// are `SectionedResults<Element, String>`. The fetch sorts by the section key first (then by
// the query's own sort), and the sections are grouped from its rows as
// `ModelContext.fetch(_:sectionBy:)` groups them (see `Sectioning`).

extension Query {
    /// The current results in sections by the query's `sectionBy:` key path (titles are
    /// `String`; `nil` keys share the "" section); empty for a query made without
    /// `sectionBy:`.
    ///
    /// ```swift
    /// @Query(sort: \Workout.startedAt, sectionBy: \Workout.title) var byTitle: SectionedResults<Workout, String>
    /// // SELECT … FROM "Workout" AS "t0"
    /// //   ORDER BY "t0"."title" COLLATE cairn_swift ASC, "t0"."startedAt" ASC, "t0"."id" ASC
    /// _byTitle.sections.sectionTitles   // ["Ride", "Row", "Run"]
    /// ```
    public var sections: SectionedResults<Element, String> {
        sectioning?.sections ?? SectionedResults(sections: [])
    }
}

/// The sections of a sectioned query, grouped again only after a new fetch.
@MainActor
final class QuerySections<Element: PersistentModel> {
    private let live: LiveFetch<Element>
    private let sectioning: Sectioning<Element>
    private var cached: (generation: Int, sections: SectionedResults<Element, String>)?

    init(live: LiveFetch<Element>, sectioning: Sectioning<Element>) {
        self.live = live
        self.sectioning = sectioning
    }

    /// The sections of the current results (reading them is tracked like reading the results).
    var sections: SectionedResults<Element, String> {
        let results = live.results
        if let cached, cached.generation == live.generation { return cached.sections }
        let sections = sectioning.group(results)
        cached = (live.generation, sections)
        return sections
    }
}

extension Query where Result == SectionedResults<Element, String> {
    private init(_ descriptor: FetchDescriptor<Element>, sectioning: Sectioning<Element>, modelContext: ModelContext?) {
        let live = LiveFetch(descriptor: sectioning.descriptor(descriptor), modelContext: modelContext)
        let sections = QuerySections(live: live, sectioning: sectioning)
        self.init(live: live, sectioning: sections, transform: { _ in sections.sections })
    }

    /// The models a prepared descriptor describes, in sections by a `String` key path.
    ///
    /// ```swift
    /// @Query(FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.startedAt)]), sectionBy: \Workout.title)
    /// var byTitle: SectionedResults<Workout, String>
    /// // SELECT … FROM "Workout" AS "t0"
    /// //   ORDER BY "t0"."title" COLLATE cairn_swift ASC, "t0"."startedAt" ASC, "t0"."id" ASC
    /// ```
    public init(
        _ descriptor: FetchDescriptor<Element>, sectionBy sectionKeyPath: any KeyPath<Element, String> & Sendable,
        modelContext: ModelContext? = nil
    ) {
        self.init(descriptor, sectioning: Sectioning(sectionKeyPath), modelContext: modelContext)
    }

    /// The same, by an optional `String` key path: `nil` values share the "" section.
    public init(
        _ descriptor: FetchDescriptor<Element>, sectionBy sectionKeyPath: any KeyPath<Element, String?> & Sendable,
        modelContext: ModelContext? = nil
    ) {
        self.init(descriptor, sectioning: Sectioning(sectionKeyPath), modelContext: modelContext)
    }

    /// Models matching `filter`, sorted by `descriptors` within sections by a `String` key path.
    ///
    /// ```swift
    /// @Query(sort: [SortDescriptor(\Workout.startedAt, order: .reverse)], sectionBy: \Workout.title)
    /// var byTitle: SectionedResults<Workout, String>
    /// // SELECT … FROM "Workout" AS "t0"
    /// //   ORDER BY "t0"."title" COLLATE cairn_swift ASC, "t0"."startedAt" DESC, "t0"."id" ASC
    /// ```
    public init(
        filter: Predicate<Element>? = nil, sort descriptors: [SortDescriptor<Element>] = [],
        sectionBy sectionKeyPath: any KeyPath<Element, String> & Sendable, modelContext: ModelContext? = nil
    ) {
        self.init(FetchDescriptor(predicate: filter, sortBy: descriptors), sectionBy: sectionKeyPath, modelContext: modelContext)
    }

    /// The same, by an optional `String` key path: `nil` values share the "" section.
    public init(
        filter: Predicate<Element>? = nil, sort descriptors: [SortDescriptor<Element>] = [],
        sectionBy sectionKeyPath: any KeyPath<Element, String?> & Sendable, modelContext: ModelContext? = nil
    ) {
        self.init(FetchDescriptor(predicate: filter, sortBy: descriptors), sectionBy: sectionKeyPath, modelContext: modelContext)
    }

    /// Models matching `filter`, sorted by one key path within sections by a `String` key path.
    ///
    /// ```swift
    /// @Query(sort: \Workout.startedAt, order: .reverse, sectionBy: \Workout.title)
    /// var byTitle: SectionedResults<Workout, String>
    /// // SELECT … FROM "Workout" AS "t0"
    /// //   ORDER BY "t0"."title" COLLATE cairn_swift ASC, "t0"."startedAt" DESC, "t0"."id" ASC
    /// ```
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value> & Sendable, order: SortOrder = .forward,
        sectionBy sectionKeyPath: any KeyPath<Element, String> & Sendable, modelContext: ModelContext? = nil
    ) {
        self.init(filter: filter, sort: [SortDescriptor(keyPath, order: order)], sectionBy: sectionKeyPath,
                  modelContext: modelContext)
    }

    /// The same, by an optional `String` key path: `nil` values share the "" section.
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value> & Sendable, order: SortOrder = .forward,
        sectionBy sectionKeyPath: any KeyPath<Element, String?> & Sendable, modelContext: ModelContext? = nil
    ) {
        self.init(filter: filter, sort: [SortDescriptor(keyPath, order: order)], sectionBy: sectionKeyPath,
                  modelContext: modelContext)
    }

    /// Sorted by one optional key path (`nil` first when ascending), in sections by a `String`
    /// key path.
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value?> & Sendable, order: SortOrder = .forward,
        sectionBy sectionKeyPath: any KeyPath<Element, String> & Sendable, modelContext: ModelContext? = nil
    ) {
        self.init(filter: filter, sort: [SortDescriptor(keyPath, order: order)], sectionBy: sectionKeyPath,
                  modelContext: modelContext)
    }

    /// Sorted by one optional key path, in sections by an optional `String` key path.
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value?> & Sendable, order: SortOrder = .forward,
        sectionBy sectionKeyPath: any KeyPath<Element, String?> & Sendable, modelContext: ModelContext? = nil
    ) {
        self.init(filter: filter, sort: [SortDescriptor(keyPath, order: order)], sectionBy: sectionKeyPath,
                  modelContext: modelContext)
    }
}

#if canImport(SwiftUI)
// Where SwiftUI exists, the sectioned animation and transaction shapes compile too (Cairn has
// no view update to animate, so they only fetch). `transaction:` is required here, unlike
// SwiftData's `Transaction? = nil`, so that a call without it is not ambiguous with the shapes
// above.
extension Query where Result == SectionedResults<Element, String> {
    public init(_ descriptor: FetchDescriptor<Element>, animation: Animation, sectionBy sectionKeyPath: any KeyPath<Element, String> & Sendable) {
        self.init(descriptor, sectionBy: sectionKeyPath)
    }
    public init(_ descriptor: FetchDescriptor<Element>, transaction: Transaction, sectionBy sectionKeyPath: any KeyPath<Element, String> & Sendable) {
        self.init(descriptor, sectionBy: sectionKeyPath)
    }
    public init(
        filter: Predicate<Element>? = nil, sort descriptors: [SortDescriptor<Element>] = [], animation: Animation,
        sectionBy sectionKeyPath: any KeyPath<Element, String> & Sendable
    ) {
        self.init(filter: filter, sort: descriptors, sectionBy: sectionKeyPath)
    }
    public init(
        filter: Predicate<Element>? = nil, sort descriptors: [SortDescriptor<Element>] = [], transaction: Transaction,
        sectionBy sectionKeyPath: any KeyPath<Element, String> & Sendable
    ) {
        self.init(filter: filter, sort: descriptors, sectionBy: sectionKeyPath)
    }
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value> & Sendable, order: SortOrder = .forward,
        animation: Animation, sectionBy sectionKeyPath: any KeyPath<Element, String> & Sendable
    ) {
        self.init(filter: filter, sort: keyPath, order: order, sectionBy: sectionKeyPath)
    }
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value> & Sendable, order: SortOrder = .forward,
        transaction: Transaction, sectionBy sectionKeyPath: any KeyPath<Element, String> & Sendable
    ) {
        self.init(filter: filter, sort: keyPath, order: order, sectionBy: sectionKeyPath)
    }
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value?> & Sendable, order: SortOrder = .forward,
        animation: Animation, sectionBy sectionKeyPath: any KeyPath<Element, String> & Sendable
    ) {
        self.init(filter: filter, sort: keyPath, order: order, sectionBy: sectionKeyPath)
    }
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value?> & Sendable, order: SortOrder = .forward,
        transaction: Transaction, sectionBy sectionKeyPath: any KeyPath<Element, String> & Sendable
    ) {
        self.init(filter: filter, sort: keyPath, order: order, sectionBy: sectionKeyPath)
    }
    public init(_ descriptor: FetchDescriptor<Element>, animation: Animation, sectionBy sectionKeyPath: any KeyPath<Element, String?> & Sendable) {
        self.init(descriptor, sectionBy: sectionKeyPath)
    }
    public init(_ descriptor: FetchDescriptor<Element>, transaction: Transaction, sectionBy sectionKeyPath: any KeyPath<Element, String?> & Sendable) {
        self.init(descriptor, sectionBy: sectionKeyPath)
    }
    public init(
        filter: Predicate<Element>? = nil, sort descriptors: [SortDescriptor<Element>] = [], animation: Animation,
        sectionBy sectionKeyPath: any KeyPath<Element, String?> & Sendable
    ) {
        self.init(filter: filter, sort: descriptors, sectionBy: sectionKeyPath)
    }
    public init(
        filter: Predicate<Element>? = nil, sort descriptors: [SortDescriptor<Element>] = [], transaction: Transaction,
        sectionBy sectionKeyPath: any KeyPath<Element, String?> & Sendable
    ) {
        self.init(filter: filter, sort: descriptors, sectionBy: sectionKeyPath)
    }
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value> & Sendable, order: SortOrder = .forward,
        animation: Animation, sectionBy sectionKeyPath: any KeyPath<Element, String?> & Sendable
    ) {
        self.init(filter: filter, sort: keyPath, order: order, sectionBy: sectionKeyPath)
    }
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value> & Sendable, order: SortOrder = .forward,
        transaction: Transaction, sectionBy sectionKeyPath: any KeyPath<Element, String?> & Sendable
    ) {
        self.init(filter: filter, sort: keyPath, order: order, sectionBy: sectionKeyPath)
    }
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value?> & Sendable, order: SortOrder = .forward,
        animation: Animation, sectionBy sectionKeyPath: any KeyPath<Element, String?> & Sendable
    ) {
        self.init(filter: filter, sort: keyPath, order: order, sectionBy: sectionKeyPath)
    }
    public init<Value: Comparable>(
        filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value?> & Sendable, order: SortOrder = .forward,
        transaction: Transaction, sectionBy sectionKeyPath: any KeyPath<Element, String?> & Sendable
    ) {
        self.init(filter: filter, sort: keyPath, order: order, sectionBy: sectionKeyPath)
    }
}
#endif
