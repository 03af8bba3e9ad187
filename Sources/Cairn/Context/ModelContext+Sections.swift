import Foundation

extension ModelContext {
    /// The models a descriptor describes, in sections by a `String` attribute: ordered by the
    /// section key first (SQL `ORDER BY`), then by the descriptor's own sort.
    public func fetch<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, sectionBy sectionKeyPath: any KeyPath<T, String> & Sendable
    ) throws -> SectionedResults<T, String> {
        var sectioned = descriptor
        if descriptor.sortBy.first?.keyPath != sectionKeyPath as PartialKeyPath<T> {
            sectioned.sortBy.insert(SortDescriptor(sectionKeyPath), at: 0)
        }
        return group(try fetch(sectioned)) { $0[keyPath: sectionKeyPath] }
    }

    /// The same with an optional key: `nil` values share the empty-string section.
    public func fetch<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, sectionBy sectionKeyPath: any KeyPath<T, String?> & Sendable
    ) throws -> SectionedResults<T, String> {
        var sectioned = descriptor
        if descriptor.sortBy.first?.keyPath != sectionKeyPath as PartialKeyPath<T> {
            sectioned.sortBy.insert(SortDescriptor(sectionKeyPath), at: 0)
        }
        return group(try fetch(sectioned)) { $0[keyPath: sectionKeyPath] ?? "" }
    }

    private func group<T>(_ models: [T], by title: (T) -> String) -> SectionedResults<T, String> {
        SectionedResults(grouping: models.map { (title($0), $0) })
    }
}
