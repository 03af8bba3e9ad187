import Cairn
import CairnSQLite
import Foundation

/// Reads the entities of a Cairn store or a plain SQLite database: a table per entity, its
/// columns as attributes, foreign keys (declared, or for Cairn's to-one columns named as a
/// table) as relationships.
struct SQLiteStoreReader {
    let db: Database
    let tables: [String]
    let kind: StoreKind

    func read() throws -> StoreModel {
        if kind == .cairn, let record = try recordedSchema() { return try model(from: record) }
        var model = StoreModel(
            kind: kind, entities: [],
            namesSource: kind == .cairn ? "the tables and columns (Cairn names them as the model does)" : "the tables and columns")
        if kind == .cairn {
            model.notes.append(
                "this Cairn store does not record its schema (it was last opened for writing by an older Cairn), so it does not say "
                    + "which REAL columns hold dates or which INTEGER columns hold Bools: they print as numbers unless 'query' and "
                    + "'export' are told with --types startedAt=date,isFavorite=bool")
        }
        var foreignKeys: [(table: String, column: String, target: String)] = []
        for table in tables where !table.hasPrefix("_Cairn") {
            let columns = try db.columns(in: table)
            let keyColumns = columns.filter { $0.primaryKeyIndex > 0 }
            let primaryKey =
                keyColumns.count == 1 && ValueType(declaredType: keyColumns[0].declaredType) == .integer ? keyColumns[0].name : "rowid"
            var declared: [String: String] = [:]
            if kind == .sqlite {
                for (column, target) in try db.fetchAll(sql: #"SELECT "from", "table" FROM pragma_foreign_key_list(?)"#, arguments: [table], {
                    (try $0.decode(String.self, at: 0), try $0.decode(String.self, at: 1))
                }) {
                    declared[column] = target
                }
            }
            var entity = StoreEntity(name: table, table: table, primaryKey: primaryKey, attributes: [], relationships: [])
            for column in columns where column.name != primaryKey {
                // Only Cairn and Core Data are known to keep dates as seconds since 2001; a
                // plain database's DATE column may hold anything, so it prints as stored.
                var type = ValueType(declaredType: column.declaredType)
                if type == .date { type = .unknown }
                let target =
                    declared[column.name]
                    ?? (kind == .cairn && type == .integer ? tables.first { $0.lowercased() == column.name.lowercased() } : nil)
                if let target, tables.contains(target) {
                    entity.relationships.append(
                        StoreRelationship(name: column.name, destination: target, isToMany: false, inverse: nil,
                                          storage: .foreignKey(column: column.name)))
                    foreignKeys.append((table, column.name, target))
                } else {
                    entity.attributes.append(StoreAttribute(name: column.name, column: column.name, type: type))
                }
            }
            model.entities.append(entity)
        }
        // The other side of each foreign key: a to-many named as the table that points here.
        for key in foreignKeys {
            guard let index = model.entities.firstIndex(where: { $0.table == key.target }),
                !model.entities[index].keys.contains(key.table),
                foreignKeys.filter({ $0.table == key.table && $0.target == key.target }).count == 1
            else { continue }
            model.entities[index].relationships.append(
                StoreRelationship(name: key.table, destination: key.table, isToMany: true, inverse: key.column,
                                  storage: .inverseForeignKey(column: key.column)))
        }
        return model
    }

    // MARK: - The schema a Cairn store records

    /// The description of its entities a Cairn store keeps in `_CairnMetadata`, if it has one.
    private func recordedSchema() throws -> StoredSchemaRecord? {
        let key = StoredSchemaRecord.metadataKey
        guard let json = try db.fetchAll(sql: #"SELECT "value" FROM "_CairnMetadata" WHERE "key" = ?"#, arguments: [key], {
            try $0.decode(String.self, at: 0)
        }).first else { return nil }
        do {
            return try JSONDecoder().decode(StoredSchemaRecord.self, from: Data(json.utf8))
        } catch {
            throw ToolError.failure("the store's recorded schema (_CairnMetadata key '\(key)') cannot be read: \(error)")
        }
    }

    /// The entities as the store's recorded schema describes them.
    private func model(from record: StoredSchemaRecord) throws -> StoreModel {
        var model = StoreModel(kind: kind, entities: [], namesSource: "the schema the store records (_CairnMetadata)")
        model.typesRecorded = true
        for recorded in record.entities where tables.contains(recorded.table) {
            let attributes = recorded.attributes.map {
                StoreAttribute(name: $0.name, column: $0.column, type: Self.valueType($0.type))
            }
            let relationships = recorded.relationships.compactMap { relationship -> StoreRelationship? in
                let storage: StoreRelationship.Storage
                if let column = relationship.column {
                    storage = .foreignKey(column: column)
                } else if let column = relationship.inverseColumn {
                    storage = .inverseForeignKey(column: column)
                } else if let table = relationship.joinTable, let source = relationship.sourceColumn,
                    let destination = relationship.destinationColumn
                {
                    storage = .joinTable(table: table, sourceColumn: source, destinationColumn: destination)
                } else {
                    model.notes.append("\(recorded.name).\(relationship.name): the recorded schema does not say where its keys are")
                    return nil
                }
                return StoreRelationship(
                    name: relationship.name, destination: relationship.destination, isToMany: relationship.toMany,
                    inverse: relationship.inverse, storage: storage)
            }
            model.entities.append(StoreEntity(
                name: recorded.name, table: recorded.table, primaryKey: recorded.primaryKey, attributes: attributes,
                relationships: relationships))
        }
        return model
    }

    /// How a recorded attribute type prints and compares (JSON and decimals are text).
    static func valueType(_ recorded: String) -> ValueType {
        switch recorded {
        case "json": .string
        case "decimal": .string
        default: ValueType(rawValue: recorded) ?? .unknown
        }
    }
}
