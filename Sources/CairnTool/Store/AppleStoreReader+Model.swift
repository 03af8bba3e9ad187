import CairnSQLite
import Foundation

extension AppleStoreReader {
    /// Names and types from the model file: each attribute's column is `Z` + its name in upper
    /// case (or that with a numeric suffix, Core Data's answer to a collision), each
    /// relationship stored as Core Data stores its kind.
    func resolveNames(
        _ definitions: ModelContents, into model: inout StoreModel, columnsByTable: [String: [ColumnInfo]], rows: [Row]
    ) throws {
        let known = Set(model.entities.map(\.name))
        for name in definitions.entities.map(\.name) where !known.contains(name) {
            model.notes.append("\(model.namesSource) has an entity \(name) that this store does not (Z_PRIMARYKEY): a different model version?")
        }
        for index in model.entities.indices {
            let entity = model.entities[index]
            let lineage = definitions.lineage(of: entity.name)
            guard !lineage.isEmpty else {
                model.notes.append("entity \(entity.name) is not in \(model.namesSource): its keys are its Z columns, matched by name")
                model.entities[index].attributes = matchedAttributes(columnsByTable[entity.table] ?? [], table: entity.table, rows: rows)
                continue
            }
            let columns = columnsByTable[entity.table] ?? []
            func column(for key: String) -> String? {
                let base = "Z" + key.uppercased()
                if columns.contains(where: { $0.name == base }) { return base }
                return columns.first { $0.name.hasPrefix(base) && $0.name.dropFirst(base.count).allSatisfy(\.isNumber) }?.name
            }
            for attribute in lineage.flatMap(\.attributes) {
                guard let name = column(for: attribute.name) else {
                    model.notes.append("\(entity.name).\(attribute.name) has no column in \(entity.table)")
                    continue
                }
                model.entities[index].attributes.append(StoreAttribute(name: attribute.name, column: name, type: attribute.type))
            }
            for declaring in lineage {
                for relationship in declaring.relationships {
                    if let resolved = try storage(of: relationship, declaredBy: declaring.name, definitions: definitions,
                                                  column: column, model: model, rows: rows) {
                        model.entities[index].relationships.append(resolved)
                    } else {
                        model.notes.append("\(entity.name).\(relationship.name) (to \(relationship.destination)): its storage was not found")
                    }
                }
            }
        }
    }

    func storage(
        of relationship: ModelContents.Relationship, declaredBy owner: String, definitions: ModelContents,
        column: (String) -> String?, model: StoreModel, rows: [Row]
    ) throws -> StoreRelationship? {
        func make(_ storage: StoreRelationship.Storage) -> StoreRelationship {
            StoreRelationship(name: relationship.name, destination: relationship.destination, isToMany: relationship.isToMany,
                              inverse: relationship.inverse, storage: storage)
        }
        if !relationship.isToMany {
            return column(relationship.name).map { make(.foreignKey(column: $0)) }
        }
        guard let destination = model.entities.first(where: { $0.name == relationship.destination }),
            let ownerNumber = rows.first(where: { $0.name == owner })?.number
        else { return nil }
        let destinationColumns = try db.columns(in: destination.table).map(\.name)
        let inverse = relationship.inverse.flatMap { inverseName in
            definitions.lineage(of: relationship.destination).flatMap(\.relationships).first { $0.name == inverseName }
        }
        if let inverse, !inverse.isToMany {
            let name = "Z" + inverse.name.uppercased()
            return destinationColumns.contains(name) ? make(.inverseForeignKey(column: name)) : nil
        }
        if let inverse, let destinationNumber = rows.first(where: { $0.name == relationship.destination })?.number {
            // Many-to-many: Z_<n><REL> named after either side, its columns Z_<n><INVERSE>.
            let sourceColumn = "Z_\(ownerNumber)\(inverse.name.uppercased())"
            let destinationColumn = "Z_\(destinationNumber)\(relationship.name.uppercased())"
            for table in tables where Self.numbered(table, underscore: true) != nil {
                let names = try db.columns(in: table).map(\.name)
                if names.contains(sourceColumn), names.contains(destinationColumn) {
                    return make(.joinTable(table: table, sourceColumn: sourceColumn, destinationColumn: destinationColumn))
                }
            }
            return nil
        }
        // No inverse: the destination's table keeps this side's key in Z<n><REL>.
        let name = "Z\(ownerNumber)\(relationship.name.uppercased())"
        return destinationColumns.contains(name) ? make(.inverseForeignKey(column: name)) : nil
    }
}
