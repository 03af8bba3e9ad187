import Foundation

/// The description of a store's entities that Cairn keeps in the store itself, under the
/// `_CairnMetadata` key `schema`, so that tools reading the file without the app's model types
/// (the `cairn` command) see what the columns mean: which REAL column holds dates, which
/// INTEGER column Bools, where each relationship's keys are.
///
/// ```json
/// {"entities": [{"name": "Trip", "table": "Trip", "primaryKey": "id",
///   "attributes": [{"name": "start", "column": "start", "type": "date"}],
///   "relationships": [
///     {"name": "items", "destination": "Item", "toMany": true, "inverse": "trip", "inverseColumn": "trip"},
///     {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "trips",
///      "joinTable": "Tag_trips", "sourceColumn": "target", "destinationColumn": "source"}]}]}
/// ```
///
/// Attribute types: `integer`, `double`, `decimal` (text), `string`, `bool` (0 or 1), `date`
/// (seconds since 2001-01-01), `binary`, `uuid` (text), `uri` (text), `json` (text).
/// Written by the migrator as the store opens for writing; a container that holds only some of
/// a file's entities replaces their entries and keeps the others'.
package struct StoredSchemaRecord: Codable, Sendable, Equatable {
    /// One entity's table.
    package struct Entity: Codable, Sendable, Equatable {
        package var name: String
        package var table: String
        package var primaryKey: String
        package var attributes: [Attribute]
        package var relationships: [Relationship]
    }

    /// An attribute's column and the type of the values in it.
    package struct Attribute: Codable, Sendable, Equatable {
        package var name: String
        package var column: String
        package var type: String
    }

    /// A relationship and where its keys are: `column` (a to-one's foreign key in this table),
    /// `inverseColumn` (a to-many's, in the destination's table), or a join table whose
    /// `sourceColumn` holds this entity's keys.
    package struct Relationship: Codable, Sendable, Equatable {
        package var name: String
        package var destination: String
        package var toMany: Bool
        package var inverse: String?
        package var column: String?
        package var inverseColumn: String?
        package var joinTable: String?
        package var sourceColumn: String?
        package var destinationColumn: String?
    }

    package var entities: [Entity]

    /// The `_CairnMetadata` key the record is kept under.
    package static let metadataKey = "schema"

    /// The record of these table layouts, merged into `existing` (another container's record of
    /// the same file): entries of the same entity are replaced, the others kept.
    static func merging(_ layouts: [TableLayout], into existing: StoredSchemaRecord?) -> StoredSchemaRecord {
        let mine = layouts.map(entity(of:))
        let names = Set(mine.map(\.name))
        let kept = (existing?.entities ?? []).filter { !names.contains($0.name) }
        return StoredSchemaRecord(entities: (kept + mine).sorted { $0.name < $1.name })
    }

    private static func entity(of layout: TableLayout) -> Entity {
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        for column in layout.columns {
            switch column.kind {
            case .attribute(let attribute):
                attributes.append(Attribute(name: attribute.name, column: column.name, type: typeName(attribute.valueType)))
            case .toOne(let relationship):
                relationships.append(Relationship(
                    name: relationship.name, destination: relationship.destination, toMany: false,
                    inverse: TableLayout.inverse(of: relationship, in: layout.entity)?.name, column: column.name))
            }
        }
        for (name, storage) in layout.toMany.sorted(by: { $0.key < $1.key }) {
            guard let relationship = layout.entity.relationshipsByName[name] else { continue }
            var record = Relationship(
                name: name, destination: relationship.destination, toMany: true,
                inverse: TableLayout.inverse(of: relationship, in: layout.entity)?.name)
            switch storage {
            case .inverseForeignKey(let column):
                record.inverseColumn = column
            case .joinTable(let table, let reversed):
                record.joinTable = table
                record.sourceColumn = reversed ? "target" : "source"
                record.destinationColumn = reversed ? "source" : "target"
            }
            relationships.append(record)
        }
        return Entity(
            name: layout.entity.name, table: layout.tableName, primaryKey: layout.primaryKey, attributes: attributes,
            relationships: relationships)
    }

    /// The name of the kind of value an attribute of `type` stores (``AttributeCodec``'s table).
    static func typeName(_ type: any Any.Type) -> String {
        if let optional = type as? any _OptionalMarker.Type { return typeName(optional._wrappedType) }
        switch type {
        case is Bool.Type: return "bool"
        case is Date.Type: return "date"
        case is UUID.Type: return "uuid"
        case is URL.Type: return "uri"
        case is Decimal.Type: return "decimal"
        case is Data.Type: return "binary"
        case is String.Type, is Substring.Type: return "string"
        case is Double.Type, is Float.Type: return "double"
        case is any BinaryInteger.Type: return "integer"
        default: break
        }
        if let raw = type as? any RawRepresentable.Type { return rawValueTypeName(raw) }
        return "json"
    }

    private static func rawValueTypeName<R: RawRepresentable>(_ type: R.Type) -> String {
        let name = typeName(R.RawValue.self)
        // A raw value Cairn cannot store as it is makes the attribute JSON.
        return AttributeCodec.make(for: R.self)?.representation == .rawValue ? name : "json"
    }
}
