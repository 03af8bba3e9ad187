import Foundation

/// The one table of an inheritance hierarchy, as Core Data stores entity inheritance: the root
/// entity's table holds the rows of every entity of the hierarchy, with the columns of all of
/// them (a subentity's own columns nullable, since the other entities' rows leave them NULL)
/// and a discriminator column naming each row's entity.
///
/// ```sql
/// CREATE TABLE "Article" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "difficulty" INTEGER,
///   "topic" TEXT, "_entity" TEXT NOT NULL DEFAULT 'Article')
/// ```
///
/// Every entity of the hierarchy reads whole rows of that table (its own slot plan over the
/// same columns), so a fetch of the root makes each row's model from the entity its
/// discriminator names. The entities share one identifier scope, the root's: a row is one
/// model whichever entity it is fetched through, and a to-one reference to the root finds it.
final class TableHierarchy: @unchecked Sendable {
    // @unchecked Sendable: `members` is set once, while the store's layouts are built and
    // before the store is shared; everything else is a `let` of immutable values.

    /// One entity of the hierarchy: what a row whose discriminator names it becomes.
    struct Member {
        let entity: Schema.Entity
        let slotPlan: SlotPlan
    }

    let root: Schema.Entity
    /// The table's columns after the key (before the discriminator), the root's first.
    let columns: [TableLayout.Column]
    /// The columns only subentities have: nullable in the table.
    let addedColumns: Set<String>
    let identifierScope: IdentifierScope
    /// The hierarchy's entities in this store, by name (the discriminator's values).
    private(set) var members: [String: Member] = [:]
    /// The indexes of every entity's layout, which the root's layout creates.
    private(set) var indexes: [(name: String, sql: String)] = []

    private init(root: Schema.Entity, columns: [TableLayout.Column], addedColumns: Set<String>, scope: IdentifierScope) {
        self.root = root
        self.columns = columns
        self.addedColumns = addedColumns
        identifierScope = scope
    }

    /// The layouts of a store's entities by name: each entity of a hierarchy shares its root's
    /// table (see ``TableHierarchy``), every other entity has its own.
    ///
    /// - Throws: `ModelError.invalidSchema` when two entities of a hierarchy have a column of
    ///   one name stored differently (they would share it).
    static func layouts(of entities: [Schema.Entity], storeIdentifier: String?) throws -> [String: TableLayout] {
        var result: [String: TableLayout] = [:]
        var hierarchies: [String: [Schema.Entity]] = [:]
        // Of this store's entities: an entity is a hierarchy's when it has a superentity or
        // one of them is its subentity.
        for entity in entities {
            if entity.superentity != nil || entities.contains(where: { $0.superentity === entity }) {
                hierarchies[entity.tableName, default: []].append(entity)
            } else if result[entity.name] == nil {
                result[entity.name] = TableLayout(entity: entity, storeIdentifier: storeIdentifier)
            }
        }
        for (tableName, members) in hierarchies.sorted(by: { $0.key < $1.key }) {
            // The root first, then deeper entities after shallower ones, by name within a depth.
            let ordered = members.sorted { (depth($0), $0.name) < (depth($1), $1.name) }
            guard let root = ordered.first?.rootEntity else { continue }
            let plain = ordered.map { TableLayout(entity: $0, storeIdentifier: storeIdentifier) }
            var columns: [TableLayout.Column] = []
            var owners: [String: String] = [:]
            for layout in plain {
                for column in layout.columns {
                    if let owner = owners[column.name] {
                        let first = columns.first { $0.name == column.name }
                        if let first, first.definition(in: .sqlite, nullable: true) != column.definition(in: .sqlite, nullable: true) {
                            throw ModelError(
                                .invalidSchema, entityName: layout.entity.name, propertyName: column.propertyName,
                                column: SQLText.identifier(tableName) + "." + SQLText.identifier(column.name),
                                message: "\(layout.entity.name) and \(owner) share the table \(tableName) and both store "
                                    + "'\(column.name)', as different types; rename one of the properties")
                        }
                        continue
                    }
                    owners[column.name] = layout.entity.name
                    columns.append(column)
                }
            }
            let rootNames = Set(plain.first { $0.entity === root }?.columns.map(\.name) ?? [])
            let hierarchy = TableHierarchy(
                root: root, columns: columns, addedColumns: Set(columns.map(\.name)).subtracting(rootNames),
                scope: IdentifierScope(entityName: root.name, storeIdentifier: storeIdentifier))
            var indexes: [(name: String, sql: String)] = []
            for entity in ordered {
                let layout = TableLayout(entity: entity, storeIdentifier: storeIdentifier, hierarchy: hierarchy)
                result[entity.name] = layout
                hierarchy.members[entity.name] = Member(entity: entity, slotPlan: layout.slotPlan)
                for index in layout.ownIndexes where !indexes.contains(where: { $0.name == index.name }) { indexes.append(index) }
            }
            hierarchy.indexes = indexes
        }
        return result
    }

    private static func depth(_ entity: Schema.Entity) -> Int {
        entity.superentity.map { depth($0) + 1 } ?? 0
    }

    /// The entity a row's discriminator names, when it is this hierarchy's.
    func member(named value: DatabaseValue) -> Member? {
        guard case .text(let name) = value else { return nil }
        return members[name]
    }
}

extension TableLayout {
    /// Whether this layout's entity owns its table (a hierarchy's subentities use the root's).
    var ownsTable: Bool { entity.tableName == entity.name }

    /// Every column of the table after the key, the discriminator aside.
    var tableColumns: [Column] { hierarchy?.columns ?? columns }

    /// The position of the discriminator in a row of ``selectAll``, for a hierarchy's layout.
    var discriminatorPosition: Int? { hierarchy == nil ? nil : columnNames.count }

    /// A column's definition in the table: a subentity's own columns are nullable.
    func definition(of column: Column, in dialect: StoreDialect) -> String {
        column.definition(in: dialect, nullable: hierarchy?.addedColumns.contains(column.name) ?? false)
    }

    /// `"_entity" TEXT NOT NULL DEFAULT 'Article'`: rows stored before the hierarchy had
    /// subentities are the root's.
    func discriminatorDefinition(in dialect: StoreDialect) -> String {
        SQLText.identifier(Schema.Entity.discriminatorColumn) + " TEXT NOT NULL DEFAULT "
            + SQLText.literal(.text(entity.rootEntity.name), in: dialect, isBoolean: false)
    }
}
