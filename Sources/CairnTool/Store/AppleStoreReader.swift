import CairnSQLite
import Foundation

/// Reads a Core Data / SwiftData store's entities: `Z_PRIMARYKEY` for the entity numbers and
/// inheritance, `Z_METADATA` for the version hashes, and the names either from a model file or
/// by matching the `Z` columns.
struct AppleStoreReader {
    let db: Database
    let tables: [String]
    let modelPath: String?
    let definitions: ModelContents?
    /// Whether names come from `Z_MODELCACHE` when no model file is given.
    var readModelCache = true

    struct Row {
        let number: Int64
        let name: String
        let parent: Int64
    }

    func read() throws -> StoreModel {
        // Entity numbers from 16000 up are the persistent-history tables' (ACHANGE, ATRANSACTION).
        let rows = try db.fetchAll(sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT") {
            Row(number: try $0.decode(Int64.self, at: 0), name: try $0.decode(String.self, at: 1),
                parent: try $0.decode(Int64?.self, at: 2) ?? 0)
        }
        var model = StoreModel(
            kind: .apple, entities: [],
            namesSource: modelPath.map { "the model \($0)" }
                ?? "the Z columns, matched by name (keys are lower case; pass --model X.xcdatamodeld for the model's names and types)")
        model.facts = try metadataFacts()
        var definitions = self.definitions
        if definitions == nil, readModelCache, tables.contains("Z_MODELCACHE"),
            let blob = try db.fetchOne(sql: "SELECT Z_CONTENT FROM Z_MODELCACHE", { try $0.decode(Data?.self, at: 0) }) ?? nil
        {
            do {
                definitions = try ModelCache.read(Array(blob))
                model.namesSource = "the model cached in the store (Z_MODELCACHE)"
            } catch {
                model.notes.append("the model cached in Z_MODELCACHE could not be read (\(error)); keys are matched from the Z columns")
            }
        }
        var columnsByTable: [String: [ColumnInfo]] = [:]
        for row in rows {
            let root = self.root(of: row, in: rows)
            let table = "Z" + root.name.uppercased()
            guard tables.contains(table) else {
                model.notes.append("entity \(row.name) (Z_ENT \(row.number)) has no table \(table)")
                continue
            }
            if columnsByTable[table] == nil { columnsByTable[table] = try db.columns(in: table) }
            let family = rows.filter { isDescendant($0, of: row, in: rows) }.map(\.number)
            // The rows of a sub-entity (or of a root whose table also holds other roots') are
            // told apart by Z_ENT; a root that owns every row of its table needs no restriction.
            let tableMates = rows.filter { self.root(of: $0, in: rows).number == root.number }
            let sharesTable = family.count < tableMates.count
            var entity = StoreEntity(
                name: row.name, table: table, primaryKey: "Z_PK", entityNumber: row.number,
                parent: rows.first { $0.number == row.parent }?.name,
                rowRestriction: sharesTable ? .init(column: "Z_ENT", values: family) : nil,
                attributes: [], relationships: [])
            if definitions == nil {
                entity.attributes = matchedAttributes(columnsByTable[table] ?? [], table: table, rows: rows)
            }
            model.entities.append(entity)
        }
        if let definitions {
            try resolveNames(definitions, into: &model, columnsByTable: columnsByTable, rows: rows)
        } else {
            try matchRelationships(into: &model, columnsByTable: columnsByTable, rows: rows)
            model.keysFromColumns = true
        }
        return model
    }

    func root(of row: Row, in rows: [Row]) -> Row {
        var current = row
        var seen: Set<Int64> = [row.number]
        while current.parent != 0, let parent = rows.first(where: { $0.number == current.parent }), seen.insert(parent.number).inserted {
            current = parent
        }
        return current
    }

    func isDescendant(_ row: Row, of ancestor: Row, in rows: [Row]) -> Bool {
        var current: Row? = row
        var seen: Set<Int64> = []
        while let candidate = current, seen.insert(candidate.number).inserted {
            if candidate.number == ancestor.number { return true }
            current = rows.first { $0.number == candidate.parent }
        }
        return false
    }

    /// `Z_METADATA`'s property list as lines for `info`.
    func metadataFacts() throws -> [(label: String, value: String)] {
        guard let data = try db.fetchOne(sql: "SELECT Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION DESC", { try $0.decode(Data?.self, at: 0) }),
            let blob = data
        else { return [] }
        guard let plist = try? PropertyListSerialization.propertyList(from: blob, format: nil) as? [String: Any] else {
            return [("metadata", "Z_METADATA.Z_PLIST is not a property list (\(blob.count) bytes)")]
        }
        var facts: [(label: String, value: String)] = []
        for key in ["NSStoreType", "NSStoreUUID", "NSPersistenceFrameworkVersion", "NSStoreModelVersionHashesVersion"] {
            if let value = plist[key] { facts.append((key, "\(value)")) }
        }
        if let identifiers = plist["NSStoreModelVersionIdentifiers"] as? [Any], !identifiers.isEmpty {
            facts.append(("NSStoreModelVersionIdentifiers", identifiers.map { "\"\($0)\"" }.joined(separator: ", ")))
        }
        if let hashes = plist["NSStoreModelVersionHashes"] as? [String: Any] {
            for name in hashes.keys.sorted() {
                let value = (hashes[name] as? Data)?.base64EncodedString() ?? "\(hashes[name] ?? "")"
                facts.append(("version hash \(name)", value))
            }
        }
        return facts
    }

    // MARK: - Names matched from the Z columns

    /// `Z<digits><rest>` split into the digits and the rest (`Z3ITEMS` → 3, "ITEMS";
    /// `Z_1BOOKS` → 1, "BOOKS" with `underscore`).
    static func numbered(_ name: String, underscore: Bool) -> (number: Int64, rest: String)? {
        let prefix = underscore ? "Z_" : "Z"
        guard name.hasPrefix(prefix) else { return nil }
        let body = name.dropFirst(prefix.count)
        let digits = body.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int64(digits) else { return nil }
        return (number, String(body.dropFirst(digits.count)))
    }

    func matchedAttributes(_ columns: [ColumnInfo], table: String, rows: [Row]) -> [StoreAttribute] {
        var attributes: [StoreAttribute] = []
        for column in columns {
            let name = column.name
            guard name.hasPrefix("Z"), !["Z_PK", "Z_ENT", "Z_OPT"].contains(name), !name.hasPrefix("Z_"),
                Self.numbered(name, underscore: false) == nil
            else { continue }
            // Z<n>_<REL> beside Z<REL> names the destination of a to-one: handled as a relationship.
            if columns.contains(where: { Self.numbered($0.name, underscore: false)?.rest == "_" + name.dropFirst() }) { continue }
            if ValueType(declaredType: column.declaredType) == .integer,
                rows.contains(where: { $0.name.uppercased() == name.dropFirst() })
            {
                continue
            }
            attributes.append(StoreAttribute(name: name.dropFirst().lowercased(), column: name, type: ValueType(declaredType: column.declaredType)))
        }
        return attributes
    }

    func matchRelationships(into model: inout StoreModel, columnsByTable: [String: [ColumnInfo]], rows: [Row]) throws {
        func add(_ relationship: StoreRelationship, toEntityInTable table: String?, number: Int64?) {
            for index in model.entities.indices
            where (table != nil && model.entities[index].table == table && model.entities[index].parent == nil)
                || (number != nil && model.entities[index].entityNumber == number)
            {
                model.entities[index].relationships.append(relationship)
            }
        }
        for (table, columns) in columnsByTable.sorted(by: { $0.key < $1.key }) {
            guard let owner = model.entities.first(where: { $0.table == table && $0.parent == nil }) else { continue }
            for column in columns {
                if let (number, rest) = Self.numbered(column.name, underscore: false) {
                    if rest.hasPrefix("_") {
                        // Z1_BOOK: the to-one ZBOOK points into entity 1's hierarchy.
                        guard let target = rows.first(where: { $0.number == number }) else { continue }
                        let name = String(rest.dropFirst())
                        add(StoreRelationship(name: name.lowercased(), destination: target.name, isToMany: false, inverse: nil,
                                              storage: .foreignKey(column: "Z" + name)),
                            toEntityInTable: table, number: nil)
                    } else if let source = rows.first(where: { $0.number == number }) {
                        // Z3ITEMS in the destination's table: entity 3's to-many without an inverse.
                        add(StoreRelationship(name: rest.lowercased(), destination: owner.name, isToMany: true, inverse: nil,
                                              storage: .inverseForeignKey(column: column.name)),
                            toEntityInTable: nil, number: source.number)
                    }
                } else if column.name.hasPrefix("Z"), !column.name.hasPrefix("Z_"),
                    ValueType(declaredType: column.declaredType) == .integer,
                    !columns.contains(where: { Self.numbered($0.name, underscore: false)?.rest == "_" + column.name.dropFirst() }),
                    let target = rows.first(where: { $0.name.uppercased() == column.name.dropFirst() })
                {
                    add(StoreRelationship(name: column.name.dropFirst().lowercased(), destination: target.name, isToMany: false,
                                          inverse: nil, storage: .foreignKey(column: column.name)),
                        toEntityInTable: table, number: nil)
                }
            }
        }
        // Join tables Z_<a><X> (Z_<a><X>, Z_<b><Y>): entity a's to-many Y, entity b's to-many X.
        for table in tables where Self.numbered(table, underscore: true) != nil {
            let columns = try db.columns(in: table).compactMap { column in
                Self.numbered(column.name, underscore: true).map { (column.name, $0.number, $0.rest) }
            }
            guard columns.count == 2,
                let a = rows.first(where: { $0.number == columns[0].1 }), let b = rows.first(where: { $0.number == columns[1].1 })
            else {
                model.notes.append("\(table) looks like a join table but its columns do not name two entities")
                continue
            }
            add(StoreRelationship(name: columns[1].2.lowercased(), destination: b.name, isToMany: true, inverse: columns[0].2.lowercased(),
                                  storage: .joinTable(table: table, sourceColumn: columns[0].0, destinationColumn: columns[1].0)),
                toEntityInTable: nil, number: a.number)
            add(StoreRelationship(name: columns[0].2.lowercased(), destination: a.name, isToMany: true, inverse: columns[1].2.lowercased(),
                                  storage: .joinTable(table: table, sourceColumn: columns[1].0, destinationColumn: columns[0].0)),
                toEntityInTable: nil, number: b.number)
        }
        // Sub-entities see the relationships of their root's table.
        for index in model.entities.indices where model.entities[index].parent != nil {
            if let root = model.entities.first(where: { $0.table == model.entities[index].table && $0.parent == nil }) {
                model.entities[index].relationships = root.relationships + model.entities[index].relationships
            }
        }
    }
}
