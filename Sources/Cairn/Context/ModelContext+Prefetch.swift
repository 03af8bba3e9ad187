import Foundation

// `FetchDescriptor.relationshipKeyPathsForPrefetching`: the named relationships of every fetched
// model load with one extra query per relationship, not one per model.

extension ModelContext {
    /// Loads the relationships named for prefetching for all fetched models at once.
    ///
    /// A to-one relationship: reading one model's relationship resolves the keys of every
    /// registered model of the type in one SELECT (see ``resolve(_:property:of:)``). A to-many
    /// relationship: one SELECT of the related rows of all owners, distributed to each owner.
    func prefetchRelationships<T: PersistentModel>(_ keyPaths: [PartialKeyPath<T>], of models: [T]) throws {
        guard let first = models.first else { return }
        let entity = Schema.Entity.of(T.self)
        for keyPath in keyPaths {
            guard let relationship = entity.property(for: keyPath) as? Schema.Relationship else { continue }
            if relationship.isToOneRelationship {
                _ = first[keyPath: keyPath]
            } else {
                try prefetchToMany(relationship, of: models.compactMap { $0._storage })
            }
        }
    }

    /// Loads a to-many relationship of the stored owners whose relationship is not loaded yet,
    /// with one query, in the order the lazy load (``loadToMany(_:of:primaryKey:layout:store:)``)
    /// gives: each owner's related rows in primary-key order.
    ///
    /// ```sql
    /// -- Trip.items, stored as Item.trip:
    /// SELECT "d"."id", "d"."title", "d"."trip", "d"."trip" FROM "Item" AS "d"
    ///   WHERE "d"."trip" IN (SELECT value FROM json_each(?)) ORDER BY "d"."id" ASC
    /// -- Trip.tags, stored in the join table "Tag_trips" that Tag.trips owns:
    /// SELECT "d"."id", "d"."name", "j"."target" FROM "Tag" AS "d" JOIN "Tag_trips" AS "j" ON "j"."source" = "d"."id"
    ///   WHERE "j"."target" IN (SELECT value FROM json_each(?)) ORDER BY "d"."id" ASC
    /// ```
    /// (one line each in the real output; the owners' keys are bound as one JSON array.)
    func prefetchToMany(_ relationship: Schema.Relationship, of storages: [ModelStorage]) throws {
        guard let first = storages.first, let destinationType = relationship.destinationType,
            let index = first.entity.properties.firstIndex(where: { $0 === relationship })
        else { return }
        let store = try state.store(for: first.entity.name)
        let layout = try store.layout(for: first.entity.name)
        guard let storageKind = layout.toMany[relationship.name] else { return }
        var owners: [Int64: [ModelStorage]] = [:]
        for storage in storages where storage.entity === first.entity && storage.state == .persisted {
            guard let primaryKey = storage.identifier.primaryKey, case .unloaded = storage.slots[index] else { continue }
            owners[primaryKey, default: []].append(storage)
        }
        guard !owners.isEmpty else { return }
        let wasRestoring = isRestoring
        isRestoring = true
        defer { isRestoring = wasRestoring }

        let destinationStore = try state.store(for: relationship.destination)
        let destination = try destinationStore.layout(for: relationship.destination)
        let alias = "d"
        let ownerColumn: SQLExpression
        var join: (table: String, on: SQLExpression)?
        switch storageKind {
        case .inverseForeignKey(let column):
            ownerColumn = .column(column, table: alias)
        case .joinTable(let table, let reversed):
            ownerColumn = .column(reversed ? "target" : "source", table: "j")
            join = (table, SQLExpression.column(reversed ? "source" : "target", table: "j")
                .equals(.column(destination.primaryKey, table: alias)))
        }
        // The destination's columns, then the owner's key.
        let columns = destination.selectColumns.map { SQLSelectColumn(.column($0, table: alias)) }
            + [SQLSelectColumn(ownerColumn)]
        var select = SQLSelect(columns, from: .table(destination.tableName, as: alias))
        if let join { select = select.join(.inner, .table(join.table, as: "j"), on: join.on) }
        select = select
            .where(destinationStore.dialect.key(ownerColumn, in: owners.keys.sorted()))
            .orderBy(SQLExpression.column(destination.primaryKey, table: alias).ascending())
        let rows = try destinationStore.read { try $0.rows(select) }

        var related: [Int64: [any PersistentModel]] = [:]
        for row in rows {
            // The owner's key is the last column; the rest is the destination's row.
            guard case .integer(let ownerKey)? = row.last else {
                throw ModelError(
                    .valueDecodingFailed, entityName: layout.tableName, propertyName: relationship.name,
                    value: row.last?.description,
                    message: "A prefetched \(relationship.destination) row has no integer key of its \(layout.tableName)")
            }
            let model = try materializeAny(
                destinationType, row: Array(row.dropLast()), layout: destination, store: destinationStore)
            related[ownerKey, default: []].append(model)
        }
        var loadedInverses: [any PersistentModel]?
        if case .inverseForeignKey(let column) = storageKind,
            let inverseIndex = destination.columns.first(where: { $0.name == column })?.slot
        {
            loadedInverses = self.loadedInverses(of: destination, slot: inverseIndex)
        }
        for (primaryKey, storagesOfKey) in owners {
            for storage in storagesOfKey {
                guard case .unloaded = storage.slots[index] else { continue }
                storage.slots[index] = .value(adjustedToMany(
                    related[primaryKey] ?? [], relationship, of: storage, storageKind: storageKind, destination: destination,
                    loadedInverses: loadedInverses))
            }
        }
    }
}
