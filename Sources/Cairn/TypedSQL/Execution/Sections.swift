extension Select where Columns == (), Joins == () {
    /// The rows grouped by a section expression, which is prepended to `ORDER BY` and read as
    /// one more result column.
    ///
    /// ```swift
    /// let sections = try Reminder.order(by: \.title).fetchAll(db, sectionBy: \.notes)
    /// ```
    public func fetchAll<Section: QueryExpression>(
        _ db: some QueryConnection, sectionBy section: KeyPath<From.TableColumns, Section>
    ) throws -> SectionedResults<From.QueryOutput, Section.QueryValue.QueryOutput>
    where Section.QueryValue: QueryRepresentable, Section.QueryValue.QueryOutput: Hashable {
        try fetchSections(db, by: From.columns[keyPath: section].sqlExpression, as: Section.QueryValue.self)
    }

    func fetchSections<Name: QueryRepresentable>(
        _ db: some QueryConnection, by expression: SQLExpression, as _: Name.Type
    ) throws -> SectionedResults<From.QueryOutput, Name.QueryOutput> {
        var sectioned = query
        sectioned.columns.append(SQLSelectColumn(expression))
        sectioned.ordering.insert(expression.ascending(), at: 0)
        let pairs = try fetchRows(db, .select(sectioned)) { decoder in
            let row = try From.decode(from: &decoder)
            return (try Name.decode(from: &decoder), row)
        }
        return SectionedResults(grouping: pairs)
    }
}
