import Foundation
import Observation

/// Live results outside any view (iOS 27's `ResultsObserver`): a descriptor's models, kept
/// current as commits change them, observable with Observation.
///
/// ```swift
/// let observer = ResultsObserver(
///     fetchDescriptor: FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.startedAt)]),
///     sectionBy: \Workout.title,
///     modelContext: container.mainContext)
/// // SELECT "id", "title", … FROM "Workout" ORDER BY "startedAt"
/// withObservationTracking { _ = observer.results } onChange: { print("changed") }
/// ```
///
/// It fetches again when a commit of any context, actor or raw write writes a table the fetch
/// reads, and only then. Setting ``fetchDescriptor`` fetches at once. A failed fetch sets
/// ``fetchError`` and keeps the last good ``results``.
@MainActor
public final class ResultsObserver<Element: PersistentModel, SectionTitle: Hashable>: Observable {
    private let live: LiveFetch<Element>
    /// The key path that names each result's section, if sectioned.
    public let sectionBy: KeyPath<Element, SectionTitle>?

    /// Observes the models `fetchDescriptor` describes in `modelContext`, grouped into
    /// sections by `sectionBy`.
    public init(
        fetchDescriptor: FetchDescriptor<Element>, sectionBy: KeyPath<Element, SectionTitle>?,
        modelContext: ModelContext
    ) {
        live = LiveFetch(descriptor: fetchDescriptor, modelContext: modelContext)
        self.sectionBy = sectionBy
    }

    /// Observes in the `mainContext` of `modelContainer`.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element>, sectionBy: KeyPath<Element, SectionTitle>?,
        modelContainer: ModelContainer
    ) {
        self.init(fetchDescriptor: fetchDescriptor, sectionBy: sectionBy, modelContext: modelContainer.mainContext)
    }

    /// Observes with a predicate and sort order.
    public convenience init(
        filterBy predicate: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>] = [],
        sectionBy: KeyPath<Element, SectionTitle>?, modelContext: ModelContext
    ) {
        self.init(fetchDescriptor: FetchDescriptor(predicate: predicate, sortBy: sortBy), sectionBy: sectionBy,
                  modelContext: modelContext)
    }

    /// The descriptor; setting it fetches again.
    public var fetchDescriptor: FetchDescriptor<Element> {
        get { live.descriptor }
        set { live.descriptor = newValue }
    }

    /// The descriptor's predicate.
    public var filterBy: Predicate<Element>? { live.descriptor.predicate }
    /// The descriptor's sort order.
    public var sortBy: [SortDescriptor<Element>] { live.descriptor.sortBy }

    /// The current results, in the descriptor's order.
    public var results: [Element] { live.results }

    /// The error of the last fetch, or `nil`.
    public var fetchError: (any Error)? { live.fetchError }

    /// The context the observer fetches from.
    public var modelContext: ModelContext { live.modelContext }

    /// The results grouped by ``sectionBy``: sections in the order of their first result, each
    /// in the descriptor's order; `nil` when the observer is not sectioned.
    public var sections: SectionedResults<Element, SectionTitle>? {
        guard let sectionBy else { return nil }
        var order: [SectionTitle] = []
        var groups: [SectionTitle: [Element]] = [:]
        for element in results {
            let title = element[keyPath: sectionBy]
            if groups[title] == nil { order.append(title) }
            groups[title, default: []].append(element)
        }
        return SectionedResults(sections: order.map { ResultsSection(title: $0, elements: groups[$0] ?? []) })
    }

    /// The result at a position: `section` (0 when not sectioned) and `item`.
    public func element(at indexPath: IndexPath) -> Element? {
        guard indexPath.count == 2 else { return nil }
        let section = indexPath[0], item = indexPath[1]
        if let groups = sections {
            guard groups.indices.contains(section), groups[section].elements.indices.contains(item) else { return nil }
            return groups[section].elements[item]
        }
        let all = results
        return section == 0 && all.indices.contains(item) ? all[item] : nil
    }

    /// The position of a result, or `nil` when it is not among the results.
    public func indexPath(for element: Element) -> IndexPath? {
        if let groups = sections {
            for (section, group) in groups.enumerated() {
                if let item = group.elements.firstIndex(where: { $0 === element }) { return IndexPath(indexes: [section, item]) }
            }
            return nil
        }
        return results.firstIndex { $0 === element }.map { IndexPath(indexes: [0, $0]) }
    }

    /// Stops following commits.
    public func invalidate() { live.stop() }

    /// How many fetches ran (for tests).
    var fetchCount: Int { live.fetchCount }
}

extension ResultsObserver where SectionTitle == Never {
    /// Observes without sections.
    public convenience init(fetchDescriptor: FetchDescriptor<Element>, modelContext: ModelContext) {
        self.init(fetchDescriptor: fetchDescriptor, sectionBy: nil, modelContext: modelContext)
    }

    /// Observes without sections, in the `mainContext` of `modelContainer`.
    public convenience init(fetchDescriptor: FetchDescriptor<Element>, modelContainer: ModelContainer) {
        self.init(fetchDescriptor: fetchDescriptor, sectionBy: nil, modelContainer: modelContainer)
    }
}
