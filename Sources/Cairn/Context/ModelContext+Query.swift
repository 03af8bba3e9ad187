import Foundation

// Fetching through SQL: the descriptor's predicate, sort, limit and offset compiled to one
// SELECT (see QueryCompiler), with this context's unsaved changes merged in when
// `includePendingChanges` is true.

/// An already rendered statement, for the store connection's `rows` (which records it).
struct PreparedStatement: SQLRenderable {
    let rendered: RenderedSQL
    func render(dialect: any SQLDialect) throws -> RenderedSQL { rendered }
}

extension ModelContext {
    /// The unsaved changes of this context that touch `T`'s rows.
    struct PendingChanges<T: PersistentModel> {
        var inserted: [T] = []
        var changed: [T] = []
        var deleted: Set<ObjectIdentifier> = []
        var isEmpty: Bool { inserted.isEmpty && changed.isEmpty && deleted.isEmpty }
    }

    func pendingChanges<T: PersistentModel>(of type: T.Type) -> PendingChanges<T> {
        var pending = PendingChanges<T>()
        for key in insertionOrder {
            if let model = tracked[key] as? T, model._storage?.state == .inserted { pending.inserted.append(model) }
        }
        for key in dirty {
            if let model = tracked[key] as? T, let storage = model._storage, storage.state == .persisted, storage.hasChanges {
                pending.changed.append(model)
            }
        }
        for key in deletionOrder where tracked[key] is T {
            if let storage = tracked[key]?._storage, storage.state == .deleted { pending.deleted.insert(key) }
        }
        return pending
    }

    /// `fetch(_:)` in SQL: one SELECT with WHERE, ORDER BY, LIMIT and OFFSET; unsaved inserts,
    /// edits and deletes merged in memory in the same order SQL would give.
    func fetchThroughSQL<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        let models = try fetchMergingPendingChanges(descriptor)
        // A custom store's relationships are already models (DataStore/): nothing to prefetch.
        if descriptor.prefetches, dataStore(of: T.self) == nil {
            try prefetchRelationships(descriptor.relationshipKeyPathsForPrefetching, of: models)
        }
        return models
    }

    private func fetchMergingPendingChanges<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        // A context without unsaved changes (most fetches) skips gathering them by type.
        guard descriptor.includePendingChanges, hasPendingChanges else { return try storedModels(descriptor) }
        let pending = pendingChanges(of: T.self)
        if pending.isEmpty { return try storedModels(descriptor) }
        // Unsaved changes can move rows in or out of the page: fetch every stored match, fix
        // it up in memory, then page.
        var all = descriptor
        all.fetchLimit = nil
        all.fetchOffset = nil
        let changedKeys = Set(pending.changed.compactMap { $0._storage.map(key) })
        var models = try storedModels(all).filter { model in
            guard let key = model._storage.map(key) else { return true }
            return !pending.deleted.contains(key) && !changedKeys.contains(key)
        }
        var extra = pending.changed + pending.inserted
        if let predicate = descriptor.predicate {
            extra = try extra.filter { try predicate.checkedEvaluate($0) }
        }
        models += extra
        if descriptor.sorts {
            // Stable: ties keep the stored rows' SQL order (their primary key), then new models.
            models = sortedByStoredOrder(models, using: descriptor.sortBy)
        }
        let offset = max(0, descriptor.fetchOffset ?? 0)
        if offset > 0 { models = Array(models.dropFirst(offset)) }
        if let limit = descriptor.fetchLimit, limit >= 0, models.count > limit { models = Array(models.prefix(limit)) }
        return models
    }

    /// Sorts with the descriptors; ties in primary-key order, unsaved models last (as SQL's
    /// final `"id" ASC` and the merge order).
    func sortedByStoredOrder<T: PersistentModel>(_ models: [T], using sortBy: [SortDescriptor<T>]) -> [T] {
        let keyed = models.map { ($0, $0.persistentModelID.primaryKey ?? Int64.max) }
        return keyed.sorted { lhs, rhs in
            for descriptor in sortBy {
                switch descriptor.compare(lhs.0, rhs.0) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return lhs.1 < rhs.1
        }.map(\.0)
    }

    /// The stored rows a descriptor selects, as registered models.
    func storedModels<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        if let dataStore = dataStore(of: T.self) { return try dataStoreModels(descriptor, in: dataStore) }
        let (store, layout) = try table(of: T.self)
        do {
            return try storedModelsInSQL(descriptor, layout: layout, store: store)
        } catch let error as SQLRenderError where error.unsupportedDialect != nil {
            return try storedModelsPartlyInSwift(descriptor, layout: layout, store: store)
        }
    }

    private func storedModelsInSQL<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, layout: TableLayout, store: ModelStore)
        throws -> [T]
    {
        // A hierarchy's rows are read whole: which class a row makes is known from its
        // discriminator, and the class's own columns come with it.
        if descriptor.fetchesSomeProperties, layout.hierarchy == nil {
            return try partialModels(descriptor, layout: layout, store: store)
        }
        if IndexOrderProbe<T>.mayApply(to: descriptor),
            let page = try storedModelsInIndexOrder(descriptor, layout: layout, store: store)
        {
            return page
        }
        let rendered = try QueryCompiler.render(descriptor, selecting: .columns(layout.columnNames), in: store.dialect)
        return try fetchStored(T.self, rendered, layout: layout, store: store)
    }

    /// `propertiesToFetch`: only the listed columns are read; the model's other columns load
    /// together on the first access to one of them.
    private func partialModels<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, layout: TableLayout, store: ModelStore)
        throws -> [T]
    {
        let wanted = Set(descriptor.propertiesToFetch.compactMap { layout.entity.property(for: $0)?.name })
        let columns = layout.columns.filter { wanted.contains($0.propertyName) || layout.alwaysLoaded.contains($0.slot) }
        let rendered = try QueryCompiler.render(descriptor, selecting: .columns(columns.map(\.name)), in: store.dialect)
        let plan = SlotPlan(entity: layout.entity, columns: columns, transientDefaults: layout.transientDefaults)
        let rows = try store.read { try $0.rows(PreparedStatement(rendered: rendered)) }
        return try rows.map { row in
            guard case .integer(let primaryKey)? = row.first, row.count == columns.count + 1 else {
                throw ModelError(.valueDecodingFailed, entityName: layout.tableName, message: "A row has no integer primary key")
            }
            let identifier = PersistentIdentifier.permanent(scope: layout.identifierScope, primaryKey: primaryKey)
            if let key = byIdentifier[identifier], let existing = tracked[key] as? T { return existing }
            let storage = try ModelStorage.stored(entity: layout.entity, identifier: identifier) { slots in
                try row.fill(plan, into: slots, tableName: layout.tableName)
            }
            storage.context = self
            let model = T._$makeFetched(_FetchedStorage(storage: storage))
            if storage.droppedByModel { throw droppedBackingData(T.self, layout: layout) }
            register(model, storage)
            return model
        }
    }

    /// A fetch whose predicate or sort the store's SQL cannot express, as a server cannot
    /// Swift's localized and case-insensitive string comparisons: SQL reads the rows with what
    /// it can express (the predicate, or the sort, or neither), and the rest runs in Swift with
    /// Foundation's answers (`evaluate`, `sorted(using:)` with SQL's tie order), then the page.
    /// Every row the SQL part selects is read: on a server, a search over a large table is
    /// faster with a predicate the server runs (`contains`, `==`).
    private func storedModelsPartlyInSwift<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, layout: TableLayout, store: ModelStore
    ) throws -> [T] {
        var page = descriptor
        page.fetchLimit = nil
        page.fetchOffset = nil
        page.propertiesToFetch = []
        var withoutSort = page
        withoutSort.sortBy = []
        var withoutPredicate = page
        withoutPredicate.predicate = nil
        var neither = withoutSort
        neither.predicate = nil
        for (inSQL, filters, sorts) in [(withoutSort, false, true), (withoutPredicate, true, false), (neither, true, true)] {
            let rendered: RenderedSQL
            do {
                rendered = try QueryCompiler.render(inSQL, selecting: .columns(layout.columnNames), in: store.dialect)
            } catch let error as SQLRenderError where error.unsupportedDialect != nil {
                continue
            }
            var models = try fetchStored(T.self, rendered, layout: layout, store: store)
            if filters, let predicate = descriptor.predicate { models = try models.filter { try predicate.checkedEvaluate($0) } }
            if sorts, descriptor.sorts { models = sortedByStoredOrder(models, using: descriptor.sortBy) }
            let offset = max(0, descriptor.fetchOffset ?? 0)
            if offset > 0 { models = Array(models.dropFirst(offset)) }
            if let limit = descriptor.fetchLimit, limit >= 0, models.count > limit { models = Array(models.prefix(limit)) }
            return models
        }
        // Reading every row expresses nothing a store could refuse.
        throw ModelError(.storeFailure, entityName: layout.tableName, message: "The store cannot read the rows of \(layout.tableName)")
    }

    /// `fetchCount(_:)`: `SELECT COUNT(*)` unless unsaved changes of `T` must be merged.
    func fetchCountThroughSQL<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        if descriptor.includePendingChanges, hasPendingChanges, !pendingChanges(of: T.self).isEmpty {
            return try fetchThroughSQL(descriptor).count
        }
        if let dataStore = dataStore(of: T.self) { return try dataStoreCount(descriptor, in: dataStore) }
        let store = try table(of: T.self).store
        var counted = descriptor
        counted.sortBy = []
        counted.fetchLimit = nil
        counted.fetchOffset = nil
        let rendered: RenderedSQL
        do {
            rendered = try QueryCompiler.render(counted, selecting: .count, in: store.dialect)
        } catch let error as SQLRenderError where error.unsupportedDialect != nil {
            return try storedModels(descriptor).count  // counted in Swift (storedModelsPartlyInSwift)
        }
        let rows = try store.read { try $0.rows(PreparedStatement(rendered: rendered)) }
        guard case .integer(var count)? = rows.first?.first else { return 0 }
        // COUNT(*) ignores LIMIT/OFFSET of the same SELECT; apply them to the count.
        count = max(0, count - Int64(max(0, descriptor.fetchOffset ?? 0)))
        if let limit = descriptor.fetchLimit, limit >= 0 { count = min(count, Int64(limit)) }
        return Int(count)
    }

    /// `fetchIdentifiers(_:)`: the primary keys only, unless unsaved changes must be merged.
    func fetchIdentifiersThroughSQL<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier] {
        if descriptor.includePendingChanges, hasPendingChanges, !pendingChanges(of: T.self).isEmpty {
            return try fetchThroughSQL(descriptor).map(\.persistentModelID)
        }
        if let dataStore = dataStore(of: T.self) { return try dataStoreIdentifiers(descriptor, in: dataStore) }
        let (store, layout) = try table(of: T.self)
        let rendered: RenderedSQL
        do {
            rendered = try QueryCompiler.render(descriptor, selecting: .identifiers, in: store.dialect)
        } catch let error as SQLRenderError where error.unsupportedDialect != nil {
            return try storedModels(descriptor).map(\.persistentModelID)  // chosen in Swift
        }
        let scope = layout.identifierScope
        let rows = try store.read { try $0.rows(PreparedStatement(rendered: rendered)) }
        return rows.compactMap { row in
            guard case .integer(let key)? = row.first else { return nil }
            return .permanent(scope: scope, primaryKey: key)
        }
    }
}

/// The SQL Cairn runs for a descriptor and SQLite's plan for it: check that an index is used.
///
/// ```swift
/// let plan = try context.explain(FetchDescriptor<Workout>(predicate: #Predicate { $0.minutes >= 30 }))
/// plan.sql      // SELECT "t0"."id", "t0"."title", … FROM "Workout" AS "t0" WHERE "t0"."minutes" >= ?
/// plan.details  // ["SCAN t0"]   (or "SEARCH t0 USING INDEX …" with an #Index on minutes)
/// ```
public struct QueryPlan: Sendable, CustomStringConvertible {
    /// The SQL text of the fetch.
    public let sql: String
    /// The values bound to its placeholders.
    public let arguments: [DatabaseValue]
    /// The `detail` column of `EXPLAIN QUERY PLAN`, one line per step.
    public let details: [String]

    public var description: String { sql + "\n" + details.map { "  " + $0 }.joined(separator: "\n") }
}

extension ModelContext {
    /// The SQL of `fetch(descriptor)` (saved rows; unsaved changes are merged in memory) and
    /// SQLite's query plan for it.
    ///
    /// A page whose last sort key is in `.reverse` order is read in index order first: one row
    /// more on each side, ties broken by `"id" DESC` (see `storedModelsInIndexOrder`); that is
    /// the SQL shown, unless rows of that shape tied before.
    public func explain<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> QueryPlan {
        let (store, layout) = try table(of: T.self)
        return try queryPlan(of: try firstFetchSQL(descriptor, layout: layout, store: store), on: store)
    }

    /// The SQL and query plan of ``fetchStoredModels(_:where:orderBy:limit:offset:)`` with the
    /// same arguments: what `explain(_:)` of an `NSFetchRequest` shows.
    @_spi(CairnCoreData)
    public func explainStoredModels<T: PersistentModel>(
        _ type: T.Type, where condition: SQLExpression?, orderBy ordering: [SQLOrderingTerm], limit: Int?, offset: Int
    ) throws -> QueryPlan {
        let (store, layout) = try table(of: type)
        var select = selectAll(layout)
        select.condition = condition
        select.ordering = ordering
        return try queryPlan(of: try store.dialect.render(select.limit(limit).offset(offset > 0 ? offset : nil)), on: store)
    }

    private func queryPlan(of rendered: RenderedSQL, on store: ModelStore) throws -> QueryPlan {
        // PostgreSQL's EXPLAIN answers a line of text per plan node, as SQLite's plan answers its steps.
        let command = store.dialect == .postgres ? "EXPLAIN " : "EXPLAIN QUERY PLAN "
        let explain = RenderedSQL(sql: command + rendered.sql, arguments: rendered.arguments)
        let rows = try store.read { try $0.rows(PreparedStatement(rendered: explain)) }
        let details = rows.compactMap { row -> String? in
            guard case .text(let detail)? = row.last else { return nil }
            return detail
        }
        return QueryPlan(sql: rendered.sql, arguments: rendered.arguments, details: details)
    }
}
