import CairnSQLite

/// Reads the entities of a Cairn store or a plain SQLite database: a table per entity, its
/// columns as attributes, foreign keys (declared, or for Cairn's to-one columns named as a
/// table) as relationships.
struct SQLiteStoreReader {
    let db: Database
    let tables: [String]
    let kind: StoreKind

    func read() throws -> StoreModel {
        var model = StoreModel(
            kind: kind, entities: [],
            namesSource: kind == .cairn ? "the tables and columns (Cairn names them as the model does)" : "the tables and columns")
        if kind == .cairn {
            model.notes.append(
                "a Cairn store does not record which REAL columns hold dates or which INTEGER columns hold Bools: they print as "
                    + "numbers unless 'query' and 'export' are told with --types startedAt=date,isFavorite=bool")
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
}
