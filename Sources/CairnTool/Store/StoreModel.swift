import Cairn
import CairnCoreData

/// What kind of file a store is, which decides how its tables read as entities.
enum StoreKind: String, Sendable {
    /// Written by Cairn: a table per entity named as the entity, `id` primary keys,
    /// `_CairnMetadata`.
    case cairn = "Cairn store"
    /// Written by Core Data or SwiftData on an Apple platform: `Z<ENTITY>` tables, `Z_PK`,
    /// `Z_ENT`, `Z_PRIMARYKEY`, `Z_METADATA`.
    case apple = "Core Data / SwiftData store"
    /// Any other SQLite database: a table per entity.
    case sqlite = "SQLite database"
}

/// The type of an attribute, which decides how its stored values print and how imported
/// values are stored.
enum ValueType: String, Sendable {
    case integer, double, decimal, string, bool, date, binary, uuid, uri, transformable
    /// Typed by SQLite alone (no declared type): values print as stored.
    case unknown

    /// The type a column's declared type names (`TIMESTAMP` is Core Data's date column).
    init(declaredType: String) {
        let type = declaredType.uppercased()
        if type.contains("INT") {
            self = .integer
        } else if type.contains("CHAR") || type.contains("TEXT") || type.contains("CLOB") {
            self = .string
        } else if type.contains("BLOB") {
            self = .binary
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self = .double
        } else if type.contains("TIMESTAMP") || type == "DATE" || type == "DATETIME" {
            self = .date
        } else if type.contains("DECIMAL") || type.contains("NUMERIC") {
            self = .decimal
        } else if type.contains("BOOL") {
            self = .bool
        } else {
            self = .unknown
        }
    }
}

/// An attribute: its key, its column, its type.
struct StoreAttribute: Sendable {
    let name: String
    let column: String
    let type: ValueType
}

/// A relationship and where its keys are stored.
struct StoreRelationship: Sendable {
    enum Storage: Sendable {
        /// This table's `column` holds the destination's primary key.
        case foreignKey(column: String)
        /// The destination table's `column` holds this entity's primary key.
        case inverseForeignKey(column: String)
        /// A join table pairs the primary keys.
        case joinTable(table: String, sourceColumn: String, destinationColumn: String)
    }

    let name: String
    let destination: String
    let isToMany: Bool
    let inverse: String?
    let storage: Storage
}

/// An entity as the store holds it.
struct StoreEntity: Sendable {
    let name: String
    let table: String
    let primaryKey: String
    /// Core Data's entity number (`Z_ENT`), nil outside Apple stores.
    var entityNumber: Int64?
    /// The parent entity's name, for a Core Data sub-entity.
    var parent: String?
    /// The `Z_ENT` values of this entity and its sub-entities, when the table holds other
    /// entities' rows too; nil when every row of the table is this entity's.
    var rowRestriction: FormatSQLEntity.RowRestriction?
    var attributes: [StoreAttribute]
    var relationships: [StoreRelationship]

    func attribute(named key: String) -> StoreAttribute? { attributes.first { $0.name == key } }
    func relationship(named key: String) -> StoreRelationship? { relationships.first { $0.name == key } }
    /// Every key a query may name, in the store's order.
    var keys: [String] { attributes.map(\.name) + relationships.map(\.name) }
}

/// A store's entities and where their names came from.
struct StoreModel: Sendable {
    let kind: StoreKind
    var entities: [StoreEntity]
    /// How keys were matched to columns, said in `info` (the model file, the schema, or the
    /// `Z` columns by name).
    var namesSource: String
    /// Whether the keys were made from `Z` column names, so queries match them without regard
    /// to case (``KeyCasing``).
    var keysFromColumns = false
    /// Whether the store says what type each attribute is (an Apple store's model, a Cairn
    /// store's recorded schema), rather than its columns' SQLite types alone.
    var typesRecorded = false
    /// Things `info` should say: what could not be resolved and why.
    var notes: [String] = []
    /// Labelled facts `info` prints about the store (an Apple store's metadata).
    var facts: [(label: String, value: String)] = []

    /// The entity named `name` (exact, else case-insensitive), or an error listing them all.
    func entity(named name: String) throws(ToolError) -> StoreEntity {
        if let entity = entities.first(where: { $0.name == name }) { return entity }
        let folded = entities.filter { $0.name.lowercased() == name.lowercased() || $0.table.lowercased() == name.lowercased() }
        if folded.count == 1 { return folded[0] }
        throw ToolError.failure(
            "the store has no entity '\(name)'; its entities: " + entities.map(\.name).joined(separator: ", "))
    }

    /// The entity as the format-predicate compiler sees it; relationships lead to the other
    /// entities of this model.
    func formatEntity(_ entity: StoreEntity) -> FormatSQLEntity {
        var attributes: [String: String] = [:]
        for attribute in entity.attributes { attributes[attribute.name] = attribute.column }
        // The primary key is a key too (`id > 100`, `Z_PK IN {1, 2}`), under its column's name.
        if entity.attribute(named: entity.primaryKey) == nil, entity.relationship(named: entity.primaryKey) == nil {
            attributes[entity.primaryKey] = entity.primaryKey
        }
        var relationships: [String: FormatSQLRelationship] = [:]
        for relationship in entity.relationships {
            guard let destination = entities.first(where: { $0.name == relationship.destination }) else { continue }
            let model = self
            let target: @Sendable () -> FormatSQLEntity = { model.formatEntity(destination) }
            switch relationship.storage {
            case .foreignKey(let column):
                relationships[relationship.name] = .toOne(foreignKey: column, target)
            case .inverseForeignKey(let column):
                relationships[relationship.name] = .toMany(foreignKey: column, target)
            case .joinTable(let table, let source, let destinationColumn):
                relationships[relationship.name] = FormatSQLRelationship(
                    .manyToMany(joinTable: table, sourceColumn: source, destinationColumn: destinationColumn),
                    destination: target)
            }
        }
        var result = FormatSQLEntity(
            name: entity.name, table: entity.table, primaryKey: entity.primaryKey, attributes: attributes,
            relationships: relationships)
        result.rowRestriction = entity.rowRestriction
        return result
    }
}
