import CairnPostgres
import Foundation

extension ModelContext {
    /// Processes pending changes (``processPendingChanges()``), writes every insert, change and
    /// delete, in one transaction per store, then tells observers with ``didSave``.
    ///
    /// ```sql
    /// BEGIN IMMEDIATE TRANSACTION
    /// DELETE FROM "Workout" WHERE "id" BETWEEN ? AND ?                  -- a run of keys
    /// DELETE FROM "Workout" WHERE "id" IN (?, ?, …)                     -- other keys, 512 at most
    /// INSERT INTO "Workout" ("title", "startedAt", …) VALUES (?, ?, …)   -- then its rowid
    /// UPDATE "Workout" SET "minutes" = ? WHERE "id" = ?
    /// COMMIT TRANSACTION
    /// ```
    ///
    /// A model with a `.unique` attribute (or `#Unique` constraint) whose value is already
    /// stored updates that row instead of failing, as SwiftData does (an upsert:
    /// `INSERT … ON CONFLICT ("email") DO UPDATE SET … RETURNING "id"`); the inserted model
    /// then has the existing row's identifier.
    ///
    /// - Throws: ``ModelError`` (kind `.constraintViolation`, naming the entity, property,
    ///   column and value) when a row breaks a constraint; nothing of the save is on disk then,
    ///   and the context still has every change. Also thrown for a read-only store.
    public func save() throws {
        if let denial = applyDeleteRules().first { throw denial }
        // Core Data processes pending changes before it saves: observers of unsaved changes
        // (fetched-results controllers) hear them, deletes and reverts included, first.
        postProcessedChanges()
        guard hasChanges else { return }
        NotificationCenter.default.post(name: ModelContext.willSave, object: self)

        let inserted = insertionOrder.compactMap { trackedStorage($0) }
        let updated = changedModelsArray.compactMap { $0._storage }
        let deleted = deletionOrder.compactMap { trackedStorage($0) }
        for storage in inserted + updated { try checkRelationshipCounts(storage) }
        var writer = SaveWriter(context: self)
        // The commits of this save are this context's own: its inbox is not told of them.
        try SavingContext.during(self) { try writer.write(inserted: inserted, updated: updated, deleted: deleted) }

        // Everything is on disk: make the context agree.
        var insertedIDs: [PersistentIdentifier] = []
        for storage in inserted {
            guard let identifier = writer.assigned[ObjectIdentifier(storage)] else { continue }
            let key = key(storage)
            byIdentifier[storage.identifier] = nil
            if let otherKey = byIdentifier[identifier], otherKey != key, let other = trackedStorage(otherKey) {
                // The upsert wrote onto a row this context already holds: that instance takes
                // the new values, and the inserted one now stands for the row.
                other.copySlots(from: storage)
                other.commit()
            }
            storage.commit(identifier: identifier)
            byIdentifier[identifier] = key
            insertedIDs.append(identifier)
            // Only models that can hold related models need letting go of them (release pass).
            if !storage.entity.relationshipSlots.isEmpty { savedInsertions.append(key) }
        }
        for storage in updated { storage.commit() }
        if !writer.reregistered.isEmpty { try reregister(writer.reregistered) }
        // A deleted model has no row to load from, and may stay referenced by the models that
        // listed it (`.noAction`) in a cycle: it must not keep the stores open.
        let deletedLink = deleted.isEmpty ? nil : link.forModelsHoldingRelatedModels()
        deletedLink?.context = self  // `modelContext` stays what it was
        for storage in deleted {
            storage.commit()
            storage.link = deletedLink
            tracked[key(storage)] = nil
            byIdentifier[storage.identifier] = nil
        }
        insertionOrder = []
        deletionOrder = []
        clearDirty()
        releaseUnreferencedModels()

        NotificationCenter.default.post(
            name: ModelContext.didSave, object: self,
            userInfo: [
                NotificationKey.insertedIdentifiers.rawValue: insertedIDs,
                NotificationKey.updatedIdentifiers.rawValue: updated.map(\.identifier),
                NotificationKey.deletedIdentifiers.rawValue: deleted.map(\.identifier),
            ])
    }
}

extension ModelContext {
    /// Checks `minimumModelCount` / `maximumModelCount` of the loaded relationships of a model
    /// (a `nil` optional relationship is not checked, as in SwiftData).
    func checkRelationshipCounts(_ storage: ModelStorage) throws {
        // Most entities have no relationship: no property to cast and look at.
        guard !storage.entity.relationshipSlots.isEmpty else { return }
        for (index, property) in storage.entity.properties.enumerated() {
            guard let relationship = property as? Schema.Relationship, !relationship.isToOneRelationship,
                case .value(let value) = storage.slots[index]
            else { continue }
            if let optional = value as? any _OptionalMarker, optional._wrappedAny == nil { continue }
            let count = relatedModels(value).count
            let minimum = relationship.minimumModelCount ?? 0
            let maximum = relationship.maximumModelCount ?? 0
            if count < minimum || (maximum > 0 && count > maximum) {
                throw ModelError(
                    .constraintViolation, entityName: storage.entity.name, propertyName: relationship.name,
                    value: "\(count) \(relationship.destination)",
                    message: "Cannot save \(storage.entity.name): '\(relationship.name)' holds \(count) models, outside its "
                        + "allowed \(minimum)...\(maximum > 0 ? String(maximum) : "any") (minimumModelCount/maximumModelCount)")
            }
        }
    }
}

/// Writes one save: deletes, inserts (with foreign keys to other new rows fixed up after),
/// updates and join-table rows, per store, each store in one transaction.
struct SaveWriter {
    let context: ModelContext
    /// The permanent identifier each inserted storage got.
    var assigned: [ObjectIdentifier: PersistentIdentifier] = [:]
    /// The snapshots custom stores gave back for their models to take (``DataStoreSaveChangesResult/snapshotsToReregister``).
    var reregistered: [PersistentIdentifier: DefaultSnapshot] = [:]

    init(context: ModelContext) { self.context = context }

    mutating func write(inserted: [ModelStorage], updated: [ModelStorage], deleted: [ModelStorage]) throws {
        var (inserted, updated, deleted) = (inserted, updated, deleted)
        if !context.state.dataStores.isEmpty {
            try writeDataStores(inserted: &inserted, updated: &updated, deleted: &deleted)
        }
        var storeOrder: [ObjectIdentifier] = []
        var stores: [ObjectIdentifier: ModelStore] = [:]
        // Looked up once per run of models of one entity: by name, each lookup hashed the name.
        var lastEntity: Schema.Entity?
        for storage in [deleted, inserted, updated].joined() where storage.entity !== lastEntity {
            lastEntity = storage.entity
            let store = try context.state.store(for: storage.entity.name)
            if stores.updateValue(store, forKey: ObjectIdentifier(store)) == nil { storeOrder.append(ObjectIdentifier(store)) }
        }
        // Only a to-one relationship's column can point at a row this save inserts: without
        // relationships, no set of 100,000 keys to hash (an import's save).
        let insertedKeys = inserted.contains { !$0.entity.relationshipSlots.isEmpty }
            ? Set(inserted.map(ObjectIdentifier.init)) : []
        for storeKey in storeOrder {
            guard let store = stores[storeKey] else { continue }
            guard store.configuration.allowsSave else {
                throw ModelError(.storeFailure, message: "The store '\(store.identifier)' was opened with allowsSave: false; it cannot be written")
            }
            var newAssigned: [ObjectIdentifier: PersistentIdentifier] = assigned
            try store.write { connection in
                var writer = StoreWriter(
                    connection: connection, store: store, inserting: inserted.count, insertedKeys: insertedKeys, assigned: newAssigned)
                try writer.forEachRun(deleted) { try $0.delete($1, layout: $2) }
                try writer.forEach(inserted) { try $0.insert($1, layout: $2) }
                try writer.fixUpForeignKeys()
                try writer.forEach(updated) { try $0.update($1, layout: $2) }
                try writer.forEach(inserted) { try $0.writeJoinTables($1, layout: $2) }
                try writer.forEach(updated) { try $0.writeJoinTables($1, layout: $2) }
                try writer.recordHistory(updated: updated, author: context.author)
                newAssigned = writer.assigned
            }
            assigned = newAssigned
        }
    }
}

/// The statements of one save in one store.
struct StoreWriter {
    let connection: StoreConnection
    let store: ModelStore
    /// The storages the save inserts, when one of them has relationships (else empty: no
    /// column can then point at an inserted row).
    let insertedKeys: Set<ObjectIdentifier>
    var assigned: [ObjectIdentifier: PersistentIdentifier]
    /// Rendered INSERT statements with parameters, by table and the columns they set (a row
    /// leaves out a foreign key to a row inserted later in the save): rendered once per save
    /// and bound for each row. Whether each returns its key with RETURNING (an upsert).
    private var insertTemplates: [InsertShape: InsertTemplate] = [:]
    /// The template the previous insert used, and its shape.
    private var lastInsert: (shape: InsertShape, template: InsertTemplate)?
    /// The rows deleted and inserted so far, in order, for the history (HistoryRecording.swift);
    /// a deleted row keeps its `.preserveValueOnDeletion` values.
    var deletedRows: [(entity: Schema.Entity, key: Int64, tombstone: [(name: String, value: DatabaseValue)]?)] = []
    var insertedRows: [(entity: Schema.Entity, key: Int64)] = []
    /// The template the previous update used, and its shape.
    private var lastUpdate: (shape: UpdateShape, template: RenderedSQL)?
    /// Foreign keys to rows inserted later in the save: (table, row key, column, related storage).
    private var pendingForeignKeys: [(layout: TableLayout, row: Int64, column: String, target: ModelStorage)] = []

    init(connection: StoreConnection, store: ModelStore, inserting insertCount: Int, insertedKeys: Set<ObjectIdentifier>,
         assigned: [ObjectIdentifier: PersistentIdentifier]) {
        self.connection = connection
        self.store = store
        self.insertedKeys = insertedKeys
        self.assigned = assigned
        // Grown once: one insert at a time, it resized again and again during a large save
        // (about 300 instructions a row, callgrind, W1).
        self.assigned.reserveCapacity(assigned.count + insertCount)
        insertedRows.reserveCapacity(insertCount)
    }

    /// Runs `body` for each storage of this store's entities, with its entity's table layout;
    /// storages of other stores' entities are left out. The layout is looked up once per run of
    /// storages of one entity (a save's inserts usually are one such run): by entity name, the
    /// lookup hashed the name and copied the layout for every row, about 1,500 instructions a
    /// row (callgrind, W1).
    mutating func forEach(
        _ storages: [ModelStorage], _ body: (inout StoreWriter, ModelStorage, TableLayout) throws -> Void
    ) throws {
        try forEachRun(storages) { writer, run, layout in
            for storage in run { try body(&writer, storage, layout) }
        }
    }

    /// Runs `body` for each run of consecutive storages of one of this store's entities, with
    /// its entity's table layout, so that one statement can cover the run.
    mutating func forEachRun(
        _ storages: [ModelStorage], _ body: (inout StoreWriter, ArraySlice<ModelStorage>, TableLayout) throws -> Void
    ) throws {
        var index = storages.startIndex
        while index < storages.endIndex {
            let entity = storages[index].entity
            var end = index + 1
            while end < storages.endIndex, storages[end].entity === entity { end += 1 }
            if let layout = store.layouts[entity.name] { try body(&self, storages[index..<end], layout) }
            index = end
        }
    }

    func primaryKey(of storage: ModelStorage) -> Int64? {
        assigned[ObjectIdentifier(storage)]?.primaryKey ?? storage.identifier.primaryKey
    }

    /// The most keys one DELETE names: a power of two, so that every full batch renders the
    /// same `IN (?, …)` list (``SQLExpression/in(values:)`` pads the last one to a power of
    /// two), far below SQLite's limit on bound parameters (32,766 since 3.32, 999 before).
    static let deleteBatchSize = 512
    /// The fewest consecutive keys deleted with one `BETWEEN` instead of in an `IN` list.
    static let deleteRangeMinimum = 16

    /// Deletes the rows of a run of storages of one entity, and their join-table rows: each
    /// run of at least ``deleteRangeMinimum`` consecutive keys with one statement, the other
    /// keys in batches of up to ``deleteBatchSize``:
    ///
    /// ```sql
    /// DELETE FROM "Workout" WHERE "id" BETWEEN ? AND ?
    /// DELETE FROM "Workout" WHERE "id" IN (?, ?, …)
    /// ```
    ///
    /// A statement per row cost SQLite's per-statement work (a statement journal, a halt)
    /// for each row, about 11,000 instructions a row; an `IN` list still seeks each key,
    /// where a range walks the rows in key order (callgrind, W12).
    mutating func delete(_ storages: ArraySlice<ModelStorage>, layout: TableLayout) throws {
        var keyed: [(key: Int64, storage: ModelStorage)] = []
        keyed.reserveCapacity(storages.count)
        for storage in storages {
            guard let key = storage.identifier.primaryKey else { continue }
            deletedRows.append((layout.entity, key, layout.hasPreservedAttributes ? try tombstone(key: key, layout: layout) : nil))
            keyed.append((key, storage))
        }
        // Rows go in any order within one save's deletes of one table (no foreign key
        // constraints between Cairn's tables); the history keeps the order they were deleted in.
        keyed.sort { $0.key < $1.key }
        var batch: [DatabaseValue] = []
        var batchFirst: ModelStorage?  // named by an error
        func flush(_ writer: StoreWriter) throws {
            guard let first = batchFirst else { return }
            let keys = batch
            try writer.deleteRows(where: { .column($0).in(values: keys) }, layout: layout, reporting: first)
            batch.removeAll(keepingCapacity: true)
            batchFirst = nil
        }
        var start = 0
        while start < keyed.count {
            var end = start + 1
            while end < keyed.count, keyed[end].key == keyed[end - 1].key || keyed[end].key == keyed[end - 1].key &+ 1 { end += 1 }
            if end - start >= Self.deleteRangeMinimum {
                let (low, high) = (keyed[start].key, keyed[end - 1].key)
                try deleteRows(where: { .column($0).between(.value(.integer(low)), and: .value(.integer(high))) },
                               layout: layout, reporting: keyed[start].storage)
            } else {
                for (key, storage) in keyed[start..<end] {
                    if batchFirst == nil { batchFirst = storage }
                    batch.append(.integer(key))
                    if batch.count == Self.deleteBatchSize { try flush(self) }
                }
            }
            start = end
        }
        try flush(self)
    }

    /// Deletes the rows of the table whose primary key matches `condition`, and the join-table
    /// rows on their side; a failure is described with `storage`, a model among them.
    private func deleteRows(where condition: (String) -> SQLExpression, layout: TableLayout, reporting storage: ModelStorage) throws {
        try run(SQLDelete(from: layout.tableName).where(condition(layout.primaryKey)), storage, layout)
        for storageKind in layout.toMany.values {
            guard case .joinTable(let name, let reversed) = storageKind else { continue }
            try run(SQLDelete(from: name).where(condition(reversed ? "target" : "source")), storage, layout)
        }
    }

    mutating func insert(_ storage: ModelStorage, layout: TableLayout) throws {
        // Sized once: growing the array column by column cost about 3,000 instructions a row
        // (callgrind, W1).
        var values: [DatabaseValue] = []
        values.reserveCapacity(layout.columns.count)
        var deferred: [(column: String, target: ModelStorage)] = []
        for column in layout.columns {
            switch try columnValue(column, of: storage, layout: layout) {
            case .value(let value): values.append(value)
            case .pending(let target): deferred.append((column.name, target))
            }
        }
        if layout.hierarchy != nil { values.append(.text(layout.entity.name)) }
        let shape = InsertShape(layout: layout, columnCount: values.count, deferred: deferred.map(\.column))
        let template: InsertTemplate
        if let last = lastInsert, last.shape == shape {
            // A save's inserts come in runs of one entity and shape: comparing with the last
            // one costs less than hashing the shape for every row.
            template = last.template
        } else if let cached = insertTemplates[shape] {
            template = cached
        } else {
            template = try insertTemplate(layout, shape)
            insertTemplates[shape] = template
        }
        lastInsert = (shape, template)
        let key: Int64
        if template.returnsKey {
            let rows = try rows(template.sql.binding(values), storage, layout)
            guard case .integer(let returned)? = rows.first?.first else {
                throw ModelError(.storeFailure, entityName: layout.tableName, message: "The insert returned no primary key")
            }
            key = returned
        } else {
            key = try insertedRowID(template.sql.binding(values), storage, layout)
        }
        assigned[ObjectIdentifier(storage)] = .permanent(scope: layout.identifierScope, primaryKey: key)
        insertedRows.append((layout.entity, key))
        for (column, target) in deferred { pendingForeignKeys.append((layout, key, column, target)) }
    }

    /// The INSERT of a row of `layout` that sets every column but the shape's deferred foreign
    /// keys, with a parameter per column; an upsert that returns the row's key when the table
    /// has a uniqueness constraint over those columns.
    private func insertTemplate(_ layout: TableLayout, _ shape: InsertShape) throws -> InsertTemplate {
        var columns = layout.columns.map(\.name).filter { !shape.deferred.contains($0) }
        if layout.hierarchy != nil { columns.append(Schema.Entity.discriminatorColumn) }
        var insert = columns.isEmpty
            ? SQLInsert(into: layout.tableName, source: .defaultValues)
            : SQLInsert(into: layout.tableName, columns: columns, values: [columns.indices.map { SQLExpression.parameter($0) }])
        if let target = upsertTarget(layout), target.allSatisfy(columns.contains) {
            let others = columns.filter { !target.contains($0) }
            let assignments = (others.isEmpty ? [target[0]] : others).map { SQLAssignment($0, .excluded($0)) }
            insert = insert.onConflict(target, doUpdate: assignments)
            // An upsert may update an existing row, whose key only RETURNING gives.
            return InsertTemplate(sql: try connection.dialect.render(insert.returning([SQLSelectColumn(.column(layout.primaryKey))])),
                                  returnsKey: true)
        }
        if connection.dialect.returnsInsertedKeys {
            return InsertTemplate(sql: try connection.dialect.render(insert.returning([SQLSelectColumn(.column(layout.primaryKey))])),
                                  returnsKey: true)
        }
        // A plain INSERT's key is sqlite3_last_insert_rowid: RETURNING made SQLite build an
        // ephemeral table per statement, about 20,000 instructions a row (callgrind, W1).
        return InsertTemplate(sql: try connection.dialect.render(insert), returnsKey: false)
    }

    /// The first uniqueness constraint over attributes only: the upsert's conflict target.
    func upsertTarget(_ layout: TableLayout) -> [String]? {
        let attributeColumns = Set(layout.columns.compactMap { if case .attribute = $0.kind { $0.name } else { nil } })
        return layout.entity.uniquenessConstraints.first { $0.allSatisfy(attributeColumns.contains) }
    }

    mutating func fixUpForeignKeys() throws {
        for pending in pendingForeignKeys {
            guard let key = primaryKey(of: pending.target) else { continue }
            try connection.execute(
                SQLUpdate(pending.layout.tableName, set: [SQLAssignment(pending.column, .value(.integer(key)))])
                    .where(.column(pending.layout.primaryKey).equals(.value(.integer(pending.row)))))
        }
        pendingForeignKeys = []
    }

    mutating func update(_ storage: ModelStorage, layout: TableLayout) throws {
        guard let key = storage.identifier.primaryKey else { return }
        let changed = storage.changed
        // Sized once, with the key's place: grown one value at a time, each row reallocated
        // its arrays a few times.
        var columns: [String] = []
        var values: [DatabaseValue] = []
        columns.reserveCapacity(layout.columns.count)
        values.reserveCapacity(layout.columns.count + 1)
        for column in layout.columns where changed.contains(column.slot) {
            switch try columnValue(column, of: storage, layout: layout) {
            case .value(let value):
                columns.append(column.name)
                values.append(value)
            case .pending(let target):
                pendingForeignKeys.append((layout, key, column.name, target))
            }
        }
        if !columns.isEmpty {
            values.append(.integer(key))
            try run(try updateTemplate(layout, columns).binding(values), storage, layout)
        }
        try fixUpForeignKeys()
    }

    /// `UPDATE table SET column = ?, … WHERE primaryKey = ?` for a set of changed columns,
    /// rendered once per store (``ModelStore/updateTemplates``) and bound for each row, as the
    /// inserts are. The models a save updates mostly changed the same columns: comparing with
    /// the last shape costs less than hashing it, and taking the lock, for every row.
    private mutating func updateTemplate(_ layout: TableLayout, _ columns: [String]) throws -> RenderedSQL {
        let shape = UpdateShape(table: ObjectIdentifier(layout.identifierScope), columns: columns)
        if let last = lastUpdate, last.shape == shape { return last.template }
        let template: RenderedSQL
        if let cached = store.updateTemplates.withLock({ $0[shape] }) {
            template = cached
        } else {
            let assignments = columns.enumerated().map { SQLAssignment($1, .parameter($0)) }
            template = try connection.dialect.render(
                SQLUpdate(layout.tableName, set: assignments).where(.column(layout.primaryKey).equals(.parameter(columns.count))))
            store.updateTemplates.withLock { cache in
                if cache.count >= ModelStore.updateTemplateLimit { cache.removeAll() }
                cache[shape] = template
            }
        }
        lastUpdate = (shape, template)
        return template
    }

    /// Rewrites the join-table rows of the changed many-to-many (and unidirectional to-many)
    /// relationships of a model.
    mutating func writeJoinTables(_ storage: ModelStorage, layout: TableLayout) throws {
        guard !layout.toMany.isEmpty else { return }
        guard let key = primaryKey(of: storage) else { return }
        for (name, storageKind) in layout.toMany.sorted(by: { $0.key < $1.key }) {
            guard case .joinTable(let table, let reversed) = storageKind,
                let relationship = layout.entity.relationshipsByName[name],
                let index = layout.entity.properties.firstIndex(where: { $0 === relationship }),
                storage.changed.contains(index) || insertedKeys.contains(ObjectIdentifier(storage)),
                let members = storage.loadedValue(at: index).flatMap(relatedStorages)
            else { continue }
            let mine = reversed ? "target" : "source"
            let theirs = reversed ? "source" : "target"
            try run(SQLDelete(from: table).where(.column(mine).equals(.value(.integer(key)))), storage, layout)
            let rows: [[SQLExpression]] = members.compactMap { member in
                primaryKey(of: member).map { [.value(.integer(key)), .value(.integer($0))] }
            }
            if !rows.isEmpty {
                try run(SQLInsert(into: table, columns: [mine, theirs], values: rows).onConflictDoNothing(), storage, layout)
            }
        }
    }

    // MARK: - Values

    enum ColumnValue {
        case value(DatabaseValue)
        /// A foreign key to a row inserted later in this save.
        case pending(ModelStorage)
    }

    func columnValue(_ column: TableLayout.Column, of storage: ModelStorage, layout: TableLayout) throws -> ColumnValue {
        switch column.kind {
        case .attribute(let attribute):
            // An unboxed value of a primitive attribute is its column value, as the attribute's
            // codec would make it, without boxing it into `Any` and casting it back (about 780
            // instructions a column, callgrind W1).
            if case .primitive(let primitive) = storage.slots[column.slot], attribute.storesPrimitive {
                return .value(primitive.databaseValue)
            }
            guard let value = storage.loadedValue(at: column.slot) ?? attribute.defaultValue else { return .value(.null) }
            do {
                return .value(try attribute.databaseValue(for: value))
            } catch {
                let place = SQLText.identifier(layout.tableName) + "." + SQLText.identifier(column.name)
                throw ModelError(
                    .valueEncodingFailed, entityName: layout.tableName, propertyName: attribute.name, column: place,
                    value: "\(value)", message: "Cannot save \(layout.tableName): \(error)")
            }
        case .toOne:
            if case .raw(let raw) = storage.slots[column.slot] { return .value(raw) }
            guard let value = storage.loadedValue(at: column.slot), let related = relatedStorages(value)?.first else {
                return .value(.null)
            }
            if let key = primaryKey(of: related) { return .value(.integer(key)) }
            return insertedKeys.contains(ObjectIdentifier(related)) ? .pending(related) : .value(.null)
        }
    }

    // MARK: - Running

    private func run(_ statement: some SQLRenderable, _ storage: ModelStorage, _ layout: TableLayout) throws {
        try run(try connection.dialect.render(statement), storage, layout)
    }

    private func run(_ rendered: RenderedSQL, _ storage: ModelStorage, _ layout: TableLayout) throws {
        do {
            try connection.execute(rendered)
        } catch {
            throw SaveWriter.describe(error, storage: storage, layout: layout)
        }
    }

    private func rows(_ rendered: RenderedSQL, _ storage: ModelStorage, _ layout: TableLayout) throws -> [[DatabaseValue]] {
        do {
            return try connection.rows(rendered)
        } catch {
            throw SaveWriter.describe(error, storage: storage, layout: layout)
        }
    }

    private func insertedRowID(_ rendered: RenderedSQL, _ storage: ModelStorage, _ layout: TableLayout) throws -> Int64 {
        do {
            return try connection.insertedPrimaryKey(rendered)
        } catch {
            throw SaveWriter.describe(error, storage: storage, layout: layout)
        }
    }
}

/// A rendered INSERT with a parameter per column, and whether it returns the row's key. A
/// class: each inserted row takes the last one used, and copying the rendered SQL's string
/// and arrays cost a retain and release of each (about 300 instructions a row, callgrind W1).
final class InsertTemplate {
    let sql: RenderedSQL
    let returnsKey: Bool

    init(sql: RenderedSQL, returnsKey: Bool) {
        self.sql = sql
        self.returnsKey = returnsKey
    }
}

/// What decides an INSERT's text: the table, and which of its columns a row sets. A row sets
/// every column but the foreign keys it defers, so those name the shape; the table is told
/// apart by its layout's identifier scope, one object per table and store.
struct InsertShape: Hashable {
    let table: ObjectIdentifier
    /// The entity: the entities of a hierarchy share a table (and its scope), not columns.
    let entity: ObjectIdentifier
    let columnCount: Int
    let deferred: [String]

    init(layout: TableLayout, columnCount: Int, deferred: [String]) {
        table = ObjectIdentifier(layout.identifierScope)
        entity = ObjectIdentifier(layout.entity)
        self.columnCount = columnCount
        self.deferred = deferred
    }
}

/// What decides an UPDATE's text: the table (told apart as in ``InsertShape``) and the
/// columns it sets, in the layout's order.
struct UpdateShape: Hashable {
    let table: ObjectIdentifier
    let columns: [String]
}

/// The models held by a relationship value (`Trip`, `Trip?`, `[Item]`), as storages.
///
/// Arrays are recognized first: on Linux, casting an array to a class-bound existential
/// (`as? any PersistentModel`) fails only after Foundation has bridged it to an `NSArray`,
/// boxing every element, which made each change of a to-many relationship cost time in
/// proportion to its length several times over.
func relatedStorages(_ value: Any) -> [ModelStorage]? {
    if let array = value as? any _ArrayMarker {
        if let models = array._persistentModels { return models.compactMap(\._storage) }
        return array._elementsAny.compactMap { ($0 as? any PersistentModel)?._storage }
    }
    if let optional = value as? any _OptionalMarker {
        guard let wrapped = optional._wrappedAny else { return [] }
        return relatedStorages(wrapped)
    }
    if let model = value as? any PersistentModel { return model._storage.map { [$0] } ?? [] }
    return nil
}

/// The models held by a relationship value (`Trip`, `Trip?`, `[Item]`).
///
/// Arrays first, for the reason given on `relatedStorages`.
func relatedModels(_ value: Any) -> [any PersistentModel] {
    if let array = value as? any _ArrayMarker {
        return array._persistentModels ?? array._elementsAny.compactMap { $0 as? any PersistentModel }
    }
    if let optional = value as? any _OptionalMarker {
        guard let wrapped = optional._wrappedAny else { return [] }
        return relatedModels(wrapped)
    }
    if let model = value as? any PersistentModel { return [model] }
    return []
}

extension SaveWriter {
    /// A save failure in words: for a constraint, the entity, property, column and value.
    static func describe(_ error: any Error, storage: ModelStorage, layout: TableLayout) -> any Error {
        // A server's serialization failure or deadlock passes through as it is: the store's
        // transaction retries the whole save on it.
        if let serverError = error as? PostgresError { return describe(serverError, layout: layout) }
        guard let databaseError = error as? DatabaseError else { return error }
        guard databaseError.resultCode == .SQLITE_CONSTRAINT else {
            return ModelError(.storeFailure, entityName: layout.tableName,
                              message: "Cannot save \(layout.tableName): \(databaseError)")
        }
        // SQLite names the columns: "UNIQUE constraint failed: Person.email, Person.name".
        let message = databaseError.message
        let names = message.split(separator: ":").last.map { $0.split(separator: ",") } ?? []
        let columns = names.compactMap { $0.split(separator: ".").last.map { String($0).trimmingCharacters(in: .whitespaces) } }
        let column = columns.first.flatMap { name in layout.columns.first { $0.name == name } }
        let value = column.map { column -> String in
            guard let value = storage.loadedValue(at: column.slot) else { return "nil" }
            if let attribute = storage.entity.properties[column.slot] as? Schema.Attribute,
                let stored = try? attribute.databaseValue(for: value)
            {
                return stored.description
            }
            return "\(value)"
        }
        let place = columns.map { SQLText.identifier(layout.tableName) + "." + SQLText.identifier($0) }.joined(separator: ", ")
        return ModelError(
            .constraintViolation, entityName: layout.tableName, propertyName: column?.propertyName,
            column: place.isEmpty ? nil : place, value: value,
            message: "Cannot save \(layout.tableName): \(message); nothing of this save was written")
    }

    /// A PostgreSQL unique or not-null violation as the ``ModelError`` SQLite's would be; other
    /// server errors as they are (with their SQLSTATE, message and statement).
    private static func describe(_ error: PostgresError, layout: TableLayout) -> any Error {
        guard error.sqlState == "23505" || error.sqlState == "23502" else { return error }
        // The server names the key: `Key ("handle")=(ada) already exists.`
        let detail = error.detail ?? ""
        let column = layout.columns.first { detail.contains("(\"\($0.name)\")") || detail.contains("(\($0.name))") }
        return ModelError(
            .constraintViolation, entityName: layout.tableName, propertyName: column?.propertyName,
            column: column.map { SQLText.identifier(layout.tableName) + "." + SQLText.identifier($0.name) },
            message: "Cannot save \(layout.tableName): \(error.message)\(detail.isEmpty ? "" : " (\(detail))"); "
                + "nothing of this save was written")
    }
}
