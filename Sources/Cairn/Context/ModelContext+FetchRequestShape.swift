import Foundation

extension ModelContext {
    /// ``fetchStoredModels(_:where:orderBy:limit:offset:)`` for a query another surface
    /// compiles (a Core Data fetch request, in CairnCoreData), whose `SELECT` is compiled once
    /// per `shape` and kept in the cache that keeps each `FetchDescriptor` shape's SQL
    /// (`QueryCache`), so a lookup by key in a loop compiles and renders its SQL once.
    ///
    /// `shape` is the surface's own value for what fixes the SQL (its predicate without the
    /// values that are only bound, its sort): equal shapes must compile to the same SQL with
    /// `values` as parameters `0..<values.count`. `nil` runs `compile` uncached.
    /// `compileShape` compiles the shape with parameters in place of the values; one that
    /// fails runs `compile` (the query with its values), whose error is thrown.
    package func fetchStoredModels<T: PersistentModel>(
        _ type: T.Type, shape: (any SurfaceQueryShape)?, boundValues values: [DatabaseValue], limit: Int?, offset: Int,
        compileShape: () throws -> (condition: SQLExpression?, ordering: [SQLOrderingTerm]),
        compile: () throws -> (condition: SQLExpression?, ordering: [SQLOrderingTerm])
    ) throws -> [T] {
        mergeExternalChanges()
        let (store, layout) = try table(of: type)
        func uncached() throws -> [T] {
            let (condition, ordering) = try compile()
            return try storedModels(type, where: condition, orderBy: ordering, limit: limit, offset: offset, layout: layout, store: store)
        }
        guard let shape else { return try uncached() }

        let key = QueryShapeKey(
            entity: ObjectIdentifier(T.self), predicate: [.surface(SurfaceShape(shape: shape))], sort: [],
            selection: .columns(layout.columnNames), hasLimit: limit != nil, hasOffset: offset > 0, tieBreak: .ascending,
            dialect: store.dialect)
        let compiled: CompiledQuery
        if let cached = QueryCache.current[key] {
            compiled = cached
        } else {
            QueryCache.current.noteCompile()
            guard let (condition, ordering) = try? compileShape() else { return try uncached() }
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
