/// One section of a sectioned fetch: the rows whose section expression has the same value.
public struct ResultsSection<Element, SectionName: Hashable>: RandomAccessCollection, Identifiable {
    /// The section's value of the section expression.
    public let name: SectionName
    /// The rows, in query order.
    public let elements: [Element]

    public var id: SectionName { name }
    public var startIndex: Int { elements.startIndex }
    public var endIndex: Int { elements.endIndex }
    public subscript(position: Int) -> Element { elements[position] }
}

/// The rows of a sectioned fetch, grouped by consecutive equal section names (the section
/// expression leads the `ORDER BY`, so equal names are consecutive).
///
/// ```swift
/// let byList = try Reminder.order(by: \.title).fetchAll(db, sectionBy: \.notes)
/// // SELECT "reminders".…, "reminders"."notes" FROM "reminders"
/// // ORDER BY "reminders"."notes" ASC, "reminders"."title" ASC
/// byList.sectionNames   // the distinct notes, in order
/// ```
public struct ResultsSectionCollection<Element, SectionName: Hashable>: RandomAccessCollection {
    /// The sections, in order.
    public let sections: [ResultsSection<Element, SectionName>]

    /// Groups `(name, element)` pairs that arrive ordered by name.
    public init(_ pairs: [(SectionName, Element)]) {
        var sections: [ResultsSection<Element, SectionName>] = []
        var current: (name: SectionName, elements: [Element])?
        for (name, element) in pairs {
            if current?.name == name {
                current?.elements.append(element)
            } else {
                if let done = current { sections.append(ResultsSection(name: done.name, elements: done.elements)) }
                current = (name, [element])
            }
        }
        if let done = current { sections.append(ResultsSection(name: done.name, elements: done.elements)) }
        self.sections = sections
    }

    public var startIndex: Int { sections.startIndex }
    public var endIndex: Int { sections.endIndex }
    public subscript(position: Int) -> ResultsSection<Element, SectionName> { sections[position] }

    /// The section names, in order.
    public var sectionNames: [SectionName] { sections.map(\.name) }

    /// The section with the given name, if any.
    public subscript(sectionName name: SectionName) -> ResultsSection<Element, SectionName>? {
        sections.first { $0.name == name }
    }

    /// Whether a section has the given name.
    public func contains(sectionName name: SectionName) -> Bool { index(ofSectionNamed: name) != nil }

    /// The index of the section with the given name.
    public func index(ofSectionNamed name: SectionName) -> Int? { sections.firstIndex { $0.name == name } }
}

extension ResultsSection: Sendable where Element: Sendable, SectionName: Sendable {}
extension ResultsSectionCollection: Sendable where Element: Sendable, SectionName: Sendable {}

extension Select where Columns == (), Joins == () {
    /// The rows grouped by a section expression, which is prepended to `ORDER BY` and read as
    /// one more result column.
    ///
    /// ```swift
    /// let sections = try Reminder.order(by: \.title).fetchAll(db, sectionBy: \.notes)
    /// ```
    public func fetchAll<Section: QueryExpression>(
        _ db: Database, sectionBy section: KeyPath<From.TableColumns, Section>
    ) throws -> ResultsSectionCollection<From.QueryOutput, Section.QueryValue.QueryOutput>
    where Section.QueryValue: QueryRepresentable, Section.QueryValue.QueryOutput: Hashable {
        try fetchSections(db, by: From.columns[keyPath: section].sqlExpression, as: Section.QueryValue.self)
    }

    func fetchSections<Name: QueryRepresentable>(
        _ db: Database, by expression: SQLExpression, as _: Name.Type
    ) throws -> ResultsSectionCollection<From.QueryOutput, Name.QueryOutput> {
        var sectioned = query
        sectioned.columns.append(SQLSelectColumn(expression))
        sectioned.ordering.insert(expression.ascending(), at: 0)
        let pairs = try fetchRows(db, sectioned.render()) { decoder in
            let row = try From.decode(from: &decoder)
            return (try Name.decode(from: &decoder), row)
        }
        return ResultsSectionCollection(pairs)
    }
}
