import Foundation

extension ModelContext {
    /// ``fetchStoredModels(_:where:orderBy:limit:offset:)`` for a Core Data fetch request given
    /// as its predicate's and sort descriptors' trees: the `SELECT` is compiled once per shape
    /// (``FormatPredicate/fetchShape()``: the tree without the values that are only bound) and
    /// kept in the cache that keeps each `FetchDescriptor` shape's SQL (`QueryCache`), so a
    /// lookup by key in a loop compiles and renders its SQL once.
    ///
    /// `compile` turns a predicate (the shape's, or the request's own) into the condition and
    /// the ordering of the `SELECT`, with the request's sort descriptors. A shape whose compile
    /// fails is compiled again from the request's predicate, whose error (with its values) is
    /// thrown. Not cached: a predicate that calls `now()`, and a page whose last sort key is
    /// descending, which is read in index order (`storedModelsInIndexOrder`).
    @_spi(CairnCoreData)
    public func fetchStoredModels<T: PersistentModel>(
        _ type: T.Type, matching predicate: FormatPredicate?, sortedBy sorts: [FormatSortDescriptor], limit: Int?,
        offset: Int, compile: (FormatPredicate?) throws -> (condition: SQLExpression?, ordering: [SQLOrderingTerm])
    ) throws -> [T] {
        mergeExternalChanges()
        let (store, layout) = try table(of: type)
        func uncached() throws -> [T] {
            let (condition, ordering) = try compile(predicate)
            return try storedModels(type, where: condition, orderBy: ordering, limit: limit, offset: offset, layout: layout, store: store)
        }
        var shape: FormatPredicate?
        var values: [DatabaseValue] = []
        if let predicate {
            guard let (tree, taken) = predicate.fetchShape() else { return try uncached() }
            (shape, values) = (tree, taken)
        }
        if limit != nil, sorts.last?.ascending == false { return try uncached() }

        let key = QueryShapeKey(
            entity: ObjectIdentifier(T.self), predicate: [.formatPredicate(shape)], sort: sorts.map { .formatSort($0) },
            selection: .columns(layout.columnNames), hasLimit: limit != nil, hasOffset: offset > 0, tieBreak: .ascending,
            dialect: store.dialect)
        let compiled: CompiledQuery
        if let cached = QueryCache.current[key] {
            compiled = cached
        } else {
            QueryCache.current.noteCompile()
            guard let (condition, ordering) = try? compile(shape) else { return try uncached() }
            var select = selectAll(layout)
            select.condition = condition
            select.ordering = store.dialect == .postgres ? layout.markingNeverNullKeys(ordering) : ordering
            // Parameters after the values: the limit, then the offset.
            if limit != nil { select.limit = .parameter(values.count) }
            if offset > 0 { select.offset = .parameter(values.count + 1) }
            let template = try store.dialect.render(select)
            compiled = CompiledQuery(sql: template.sql, recipe: template.argumentSources(values: values.count))
            QueryCache.current[key] = compiled
        }
        let arguments = try compiled.recipe.map { try $0.value(boundValues: values, limit: limit, offset: offset) }
        return try fetchStored(type, RenderedSQL(sql: compiled.sql, arguments: arguments), layout: layout, store: store)
    }
}

extension RenderedSQL {
    /// Where each argument of a statement rendered with parameters comes from: parameter `i`
    /// below `values` is bound value `i`, parameter `values` the limit and `values + 1` the
    /// offset; any other argument is fixed by the statement.
    func argumentSources(values: Int) -> [ArgumentSource] {
        var sources = arguments.map { ArgumentSource.literal($0) }
        for slot in parameterSlots {
            sources[slot.argument] =
                slot.parameter < values ? .constant(slot.parameter) : slot.parameter == values ? .limit : .offset
        }
        return sources
    }
}
