import Foundation

extension ModelContext {
    /// The models a descriptor describes, in sections by a `String` attribute: ordered by the
    /// section key first (SQL `ORDER BY`), then by the descriptor's own sort.
    public func fetch<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, sectionBy sectionKeyPath: any KeyPath<T, String> & Sendable
    ) throws -> SectionedResults<T, String> {
        let sectioning = Sectioning(sectionKeyPath)
        return sectioning.group(try fetch(sectioning.descriptor(descriptor)))
    }

    /// The same with an optional key: `nil` values share the empty-string section.
    public func fetch<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, sectionBy sectionKeyPath: any KeyPath<T, String?> & Sendable
    ) throws -> SectionedResults<T, String> {
        let sectioning = Sectioning(sectionKeyPath)
        return sectioning.group(try fetch(sectioning.descriptor(descriptor)))
    }
}

/// How models are put into `String`-titled sections, shared by `fetch(_:sectionBy:)` and the
/// sectioned ``Query``: the fetch sorts by the section key first, so equal titles arrive
/// together and ``SectionedResults/init(grouping:)`` makes one section of each run.
struct Sectioning<T: PersistentModel> {
    /// The sort that puts the section key first.
    private let keySort: SortDescriptor<T>
    /// The section title of a model (`nil` keys give "").
    let title: (T) -> String

    init(_ keyPath: any KeyPath<T, String> & Sendable) {
        keySort = SortDescriptor(keyPath)
        title = { $0[keyPath: keyPath] }
    }

    init(_ keyPath: any KeyPath<T, String?> & Sendable) {
        keySort = SortDescriptor(keyPath)
        title = { $0[keyPath: keyPath] ?? "" }
    }

    /// `descriptor` with the section key as its first sort (unless it already is).
    func descriptor(_ descriptor: FetchDescriptor<T>) -> FetchDescriptor<T> {
        var sectioned = descriptor
        if descriptor.sortBy.first?.keyPath != keySort.keyPath {
            sectioned.sortBy.insert(keySort, at: 0)
        }
        return sectioned
    }

    /// Models fetched with ``descriptor(_:)``, in sections.
    func group(_ models: [T]) -> SectionedResults<T, String> {
        SectionedResults(grouping: models.map { (title($0), $0) })
    }
}
