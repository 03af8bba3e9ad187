// Typed queries over `@Model` tables, fetched as models by a `ModelContext`: the typed
// builder writes the WHERE, ORDER BY, LIMIT and OFFSET; the context selects the model's
// columns and materializes (or finds already registered) models.

extension ModelContext {
    /// The models whose stored rows a typed query selects, in its order.
    ///
    /// ```swift
    /// let long = try context.fetch(Workout.where { $0.minutes.gte(30) }.order { $0.startedAt.desc() }.limit(10))
    /// // SELECT "id", "title", "startedAt", … FROM "Workout"
    /// // WHERE "Workout"."minutes" >= ? ORDER BY "Workout"."startedAt" DESC LIMIT ?
    /// ```
    ///
    /// The query may use everything a single-table statement offers (`where`, `order`,
    /// `limit`, `offset`, `distinct`, `group(by:)`, `having`, subqueries in its conditions);
    /// the selected columns are always the model's, whatever `select` would say.
    ///
    /// Rows already registered in the context come back as the same instances, with their
    /// unsaved edits. The query runs in SQL on **saved** rows only, as a `FetchDescriptor`
    /// with `includePendingChanges = false` does: typed SQL conditions cannot be evaluated on
    /// unsaved models, so unsaved inserts are not included and an unsaved edit does not move
    /// a model in or out of the result. Save first when that matters.
    ///
    /// - Throws: ``TypedSQLError`` for a compound statement (`union`, `intersect`, `except`),
    ///   whose other members' columns cannot be replaced; the database's error otherwise.
    public func fetch<T: PersistentModel>(_ query: Select<(), T, ()>) throws -> [T] {
        let select = try modelQuery(query)
        let fetching = try beginFetch()
        defer { fetching.end() }
        return try fetchStored(T.self) { base in
            var adjusted = select
            adjusted.columns = base.columns
            adjusted.from = base.from
            return adjusted
        }
    }

    /// The identifiers of the models a typed query selects, in its order, without loading
    /// the models (saved rows only, as ``fetch(_:)-(Select<(),T,()>)`` reads them).
    ///
    /// ```swift
    /// let ids = try context.fetchIdentifiers(Workout.where(\.isFavorite))
    /// // SELECT "Workout"."id" FROM "Workout" WHERE "Workout"."isFavorite"
    /// ```
    public func fetchIdentifiers<T: PersistentModel>(_ query: Select<(), T, ()>) throws -> [PersistentIdentifier] {
        var select = try modelQuery(query)
        select.columns = [SQLSelectColumn(_ModelTable.primaryKey(T.self).sqlExpression)]
        let fetching = try beginFetch()
        defer { fetching.end() }
        let (store, layout) = try table(of: T.self)
        let entityName = layout.tableName
        let rendered = try store.dialect.renderCache.render(.select(select))
        let scope = layout.identifierScope
        let rows = try store.read { try $0.rows(PreparedStatement(rendered: rendered)) }
        return try rows.map { row in
            guard case .integer(let key)? = row.first else {
                throw ModelError(.valueDecodingFailed, entityName: entityName, value: row.first?.description,
                                 message: "A row has no integer primary key (SQL: \(rendered.sql))")
            }
            return PersistentIdentifier.permanent(scope: scope, primaryKey: key)
        }
    }

    private func modelQuery<T: PersistentModel>(_ query: Select<(), T, ()>) throws -> SQLSelect {
        guard query.query.compounds.isEmpty else {
            throw TypedSQLError(
                message: "a ModelContext fetches models with a single SELECT; \(T.self) with union, intersect or "
                    + "except cannot be fetched as models: fetch each statement, or select identifiers",
                sql: (try? query.render().sql) ?? "")
        }
        return query.query
    }
}
