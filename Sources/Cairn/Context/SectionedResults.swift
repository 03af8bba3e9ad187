import Foundation

/// Fetched models grouped into sections by a key, in the fetch's order (the shape of iOS 27's
/// `SectionedResults`).
///
/// ```swift
/// let byTitle = try context.fetch(
///     FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.startedAt)]), sectionBy: \.title)
/// // SELECT … FROM "Workout" AS "t0"
/// //   ORDER BY "t0"."title" COLLATE cairn_swift ASC, "t0"."startedAt" ASC, "t0"."id" ASC
/// byTitle.sectionTitles            // ["HIIT", "Row", "Run", …]
/// byTitle[sectionTitle: "Run"]?.count
/// ```
public struct SectionedResults<Element, SectionTitle: Hashable>: RandomAccessCollection {
    /// The sections, in order.
    public let sections: [ResultsSection<Element, SectionTitle>]
    private let positions: [SectionTitle: Int]

    init(sections: [ResultsSection<Element, SectionTitle>]) {
        self.sections = sections
        positions = Dictionary(sections.enumerated().map { ($0.element.title, $0.offset) }, uniquingKeysWith: { a, _ in a })
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { sections.count }
    public subscript(position: Int) -> ResultsSection<Element, SectionTitle> { sections[position] }

    /// The section titles, in order.
    public var sectionTitles: [SectionTitle] { sections.map(\.title) }

    /// Whether a section has this title.
    public func contains(sectionTitle: SectionTitle) -> Bool { positions[sectionTitle] != nil }

    /// The index of the section with this title.
    public func index(ofSectionTitled title: SectionTitle) -> Int? { positions[title] }

    /// The section with this title.
    public subscript(sectionTitle title: SectionTitle) -> ResultsSection<Element, SectionTitle>? {
        positions[title].map { sections[$0] }
    }
}

/// One section of ``SectionedResults``: its title and its models, in the fetch's order.
public struct ResultsSection<Element, SectionTitle: Hashable>: RandomAccessCollection, Identifiable {
    /// The section's title (its key value).
    public let title: SectionTitle
    /// The section's elements.
    public let elements: [Element]

    /// The title identifies the section.
    public var id: SectionTitle { title }
    public var startIndex: Int { elements.startIndex }
    public var endIndex: Int { elements.endIndex }
    public subscript(position: Int) -> Element { elements[position] }
}

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
        var sections: [ResultsSection<T, String>] = []
        var current: (title: String, elements: [T])?
        for model in models {
            let key = title(model)
            if let open = current, open.title == key {
                current?.elements.append(model)
            } else {
                if let open = current { sections.append(ResultsSection(title: open.title, elements: open.elements)) }
                current = (key, [model])
            }
        }
        if let open = current { sections.append(ResultsSection(title: open.title, elements: open.elements)) }
        return SectionedResults(sections: sections)
    }
}
