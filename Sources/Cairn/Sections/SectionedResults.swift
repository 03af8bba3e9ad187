import Foundation

/// Results grouped into sections by a key, in the query's order (the shape of iOS 27's
/// `SectionedResults`). SwiftData fetches (`context.fetch(_:sectionBy:)`) and typed SQL
/// (`fetchAll(db, sectionBy:)`, `@FetchAll(…, sectionBy:)`) both return it.
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

    /// Groups `(title, element)` pairs that arrive ordered by title: consecutive equal titles
    /// form one section (a query puts the section key first in `ORDER BY` so they are).
    public init(grouping pairs: [(SectionTitle, Element)]) {
        var sections: [ResultsSection<Element, SectionTitle>] = []
        var current: (title: SectionTitle, elements: [Element])?
        for (title, element) in pairs {
            if current?.title == title {
                current?.elements.append(element)
            } else {
                if let open = current { sections.append(ResultsSection(title: open.title, elements: open.elements)) }
                current = (title, [element])
            }
        }
        if let open = current { sections.append(ResultsSection(title: open.title, elements: open.elements)) }
        self.init(sections: sections)
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

extension ResultsSection: Sendable where Element: Sendable, SectionTitle: Sendable {}
extension SectionedResults: Sendable where Element: Sendable, SectionTitle: Sendable {}
