import CairnPostgres
import Foundation

extension StoreWriter {
    /// Inserts one new model's row and notes the key the database gave it.
    mutating func insert(_ storage: ModelStorage, layout: TableLayout) throws {
        let row = try insertRow(storage, layout: layout)
        let key: Int64
        if row.template.returnsKey {
            let rows = try rows(row.template.sql.binding(row.values), storage, layout)
            guard case .integer(let returned)? = rows.first?.first else {
                throw ModelError(.storeFailure, entityName: layout.tableName, message: "The insert returned no primary key")
            }
            key = returned
        } else {
            key = try insertedRowID(row.template.sql.binding(row.values), storage, layout)
        }
        noteInserted(row, key: key, layout: layout)
    }

    /// Inserts a run of new models of one entity. On a server, consecutive rows of one INSERT
    /// are sent together in libpq's pipeline mode, each `RETURNING` its key: waiting a round
    /// trip for every row was most of a large save's time there. On SQLite each row runs at
    /// once and its key is `last_insert_rowid`, which costs no round trip.
    ///
    /// A row whose to-one relationship points at a row still waiting in the batch defers that
    /// foreign key, as it does for a row inserted later in the save: it is set by the
    /// `UPDATE` that fixes up the save's foreign keys.
    mutating func insert(_ run: ArraySlice<ModelStorage>, layout: TableLayout) throws {
        guard connection.dialect.returnsInsertedKeys, run.count > 1 else {
            for storage in run { try insert(storage, layout: layout) }
            return
        }
        var batch: [InsertRow] = []
        batch.reserveCapacity(min(run.count, StoreWriter.insertBatchSize))
        for storage in run {
            let row = try insertRow(storage, layout: layout)
            if let first = batch.first, first.template !== row.template || batch.count == StoreWriter.insertBatchSize {
                try insertBatch(&batch, layout: layout)
            }
            batch.append(row)
        }
        try insertBatch(&batch, layout: layout)
    }

    /// The most rows one pipelined batch holds: the argument rows are built before they are
    /// sent, so a larger save is sent in pieces of this many.
    static let insertBatchSize = 1_000

    private mutating func insertBatch(_ batch: inout [InsertRow], layout: TableLayout) throws {
        guard let first = batch.first else { return }
        let keys: [Int64]
        do {
            keys = try connection.insertedPrimaryKeys(first.template.sql, valueRows: batch.map(\.values))
        } catch {
            throw SaveWriter.describe(error, storage: first.storage, layout: layout)
        }
        for (row, key) in zip(batch, keys) { noteInserted(row, key: key, layout: layout) }
        batch.removeAll(keepingCapacity: true)
    }

    /// A new model's row: its column values, the foreign keys it leaves for later, and the
    /// INSERT that writes it.
    struct InsertRow {
        let storage: ModelStorage
        let values: [DatabaseValue]
        let deferred: [(column: String, target: ModelStorage)]
        let template: InsertTemplate
    }

    private mutating func insertRow(_ storage: ModelStorage, layout: TableLayout) throws -> InsertRow {
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
        return InsertRow(storage: storage, values: values, deferred: deferred, template: template)
    }

    private mutating func noteInserted(_ row: InsertRow, key: Int64, layout: TableLayout) {
        assigned[ObjectIdentifier(row.storage)] = .permanent(scope: layout.identifierScope, primaryKey: key)
        insertedRows.append((layout.entity, key))
        for (column, target) in row.deferred { pendingForeignKeys.append((layout, key, column, target)) }
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
