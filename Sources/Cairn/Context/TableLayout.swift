import Foundation

/// How an entity's rows sit in SQLite: its table, its columns in order, and the join tables of
/// its many-to-many relationships.
///
/// ```sql
/// CREATE TABLE "Workout" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "finishedAt" REAL, …)
/// ```
///
/// A struct, though every fetch copies one: as a class, reading its fields for each row cost
/// more (about 80 instructions a row, callgrind, W2) than the copy saves a fetch.
struct TableLayout {
    /// One column after the primary key.
    struct Column {
        enum Kind {
            case attribute(Schema.Attribute)
            /// A to-one relationship's foreign key: the related row's primary key, or NULL.
            case toOne(Schema.Relationship)
        }

        let name: String
        let slot: Int
        let kind: Kind

        var propertyName: String {
            switch kind {
            case .attribute(let attribute): attribute.name
            case .toOne(let relationship): relationship.name
            }
        }

        /// `"title" TEXT NOT NULL`; without `NOT NULL` when `nullable`.
        func definition(in dialect: StoreDialect, nullable: Bool = false) -> String {
            switch kind {
            case .attribute(let attribute):
                return SQLText.identifier(name) + " " + attribute.columnType(in: dialect) + (attribute.isOptional || nullable ? "" : " NOT NULL")
            case .toOne:
                return SQLText.identifier(name) + " " + SQLText.keyType(in: dialect)
            }
        }
    }

    /// A to-many relationship's storage.
    enum ToManyStorage {
        /// The destination's to-one inverse holds the foreign key (`Item.trip`).
        case inverseForeignKey(column: String)
        /// A join table `"<Owner>_<property>" ("source", "target")`; `reversed` when this side
        /// reads the owner's table from the target column.
        case joinTable(name: String, reversed: Bool)
    }

    let entity: Schema.Entity
    let columns: [Column]
    /// The storage of each to-many relationship, by property name.
    let toMany: [String: ToManyStorage]
    /// The slot and declared default of each transient attribute that has one: a model made
    /// from a row starts with these.
    let transientDefaults: [(slot: Int, value: Any)]
    /// The slots of attributes a fetch reads even when `propertiesToFetch` leaves them out:
    /// their type has no empty value to show if the row is gone before they are loaded (a
    /// non-optional `Codable` struct with required fields, and no declared default).
    let alwaysLoaded: Set<Int>
    /// How a row of ``selectColumns`` becomes the entity's slots.
    let slotPlan: SlotPlan
    /// The inheritance hierarchy whose table this entity's rows share, if any
    /// (TableLayout+Hierarchy.swift).
    let hierarchy: TableHierarchy?
    /// The column behind each value of a row of ``selectColumns`` after the key, `nil` where
    /// this entity lacks it (a hierarchy's table has its subentities' columns too) and for
    /// the discriminator.
    let readColumns: [Column?]

    /// The entity and store of the permanent identifiers of this table's rows, shared by all.
    let identifierScope: IdentifierScope
    /// The names of ``columns``, in order: what a fetch of whole rows selects after the key.
    let columnNames: [String]
    /// `SELECT "id", "title", … FROM "Workout"`: the whole rows, which fetches, faults and
    /// refreshes narrow with a `WHERE`. Made once: building it per fetch cost about 3,500
    /// instructions a one-row Core Data lookup (callgrind, W5).
    let selectAll: SQLSelect

    /// Whether an attribute is `.preserveValueOnDeletion`: a delete then reads its values for
    /// the history's tombstone.
    var hasPreservedAttributes: Bool {
        columns.contains {
            if case .attribute(let attribute) = $0.kind { attribute.options.contains(.preserveValueOnDeletion) } else { false }
        }
    }

    var tableName: String { entity.tableName }
    var primaryKey: String { entity.primaryKeyColumn }
    /// The primary key, then every column.
    var selectColumns: [String] { [primaryKey] + columnNames }

    init(entity: Schema.Entity, storeIdentifier: String?, hierarchy: TableHierarchy? = nil) {
        self.entity = entity
        identifierScope = hierarchy?.identifierScope ?? IdentifierScope(entityName: entity.name, storeIdentifier: storeIdentifier)
        var columns: [Column] = []
        var toMany: [String: ToManyStorage] = [:]
        var transientDefaults: [(slot: Int, value: Any)] = []
        var alwaysLoaded: Set<Int> = []
        for (slot, property) in entity.properties.enumerated() {
            if let attribute = property as? Schema.Attribute {
                if !attribute.isTransient {
                    columns.append(Column(name: attribute.columnName, slot: slot, kind: .attribute(attribute)))
                    if !ModelStorage.hasEmptyValue(attribute.valueType, defaultValue: attribute.defaultValue) {
                        alwaysLoaded.insert(slot)
                    }
                } else if let value = attribute.defaultValue {
                    transientDefaults.append((slot, value))
                }
            } else if let relationship = property as? Schema.Relationship {
                if relationship.isToOneRelationship {
                    columns.append(Column(name: relationship.name, slot: slot, kind: .toOne(relationship)))
                } else {
                    toMany[relationship.name] = Self.storage(of: relationship, in: entity)
                }
            }
        }
        self.columns = columns
        self.toMany = toMany
        self.transientDefaults = transientDefaults
        self.alwaysLoaded = alwaysLoaded
        self.hierarchy = hierarchy
        if let hierarchy {
            readColumns = hierarchy.columns.map { tableColumn in columns.first { $0.name == tableColumn.name } } + [nil]
            columnNames = hierarchy.columns.map(\.name) + [Schema.Entity.discriminatorColumn]
        } else {
            readColumns = columns
            columnNames = columns.map(\.name)
        }
        selectAll = SQLSelect(([entity.primaryKeyColumn] + columnNames).map { SQLSelectColumn(.column($0)) },
                              from: .table(entity.tableName))
        slotPlan = SlotPlan(entity: entity, columns: readColumns, transientDefaults: transientDefaults)
    }

    /// Where a to-many relationship is stored: the inverse's foreign key when the inverse is
    /// to-one, else a join table owned by the side whose `Entity.property` sorts first.
    static func storage(of relationship: Schema.Relationship, in entity: Schema.Entity) -> ToManyStorage {
        if let inverse = inverse(of: relationship, in: entity) {
            if inverse.isToOneRelationship { return .inverseForeignKey(column: inverse.name) }
            let mine = entity.name + "_" + relationship.name
            let theirs = relationship.destination + "_" + inverse.name
            return mine <= theirs ? .joinTable(name: mine, reversed: false) : .joinTable(name: theirs, reversed: true)
        }
        return .joinTable(name: entity.name + "_" + relationship.name, reversed: false)
    }

    /// The inverse of a relationship: the one declared with `inverse:` on either side, else the
    /// only relationship of the destination that points back to this entity.
    static func inverse(of relationship: Schema.Relationship, in entity: Schema.Entity) -> Schema.Relationship? {
        guard let destinationType = relationship.destinationType else { return nil }
        let destination = Schema.Entity.cached(for: destinationType)
        if let name = relationship.inverseName { return destination.relationshipsByName[name] }
        let pointingBack = destination.properties.compactMap { $0 as? Schema.Relationship }.filter {
            $0.destination == entity.name && !($0 === relationship)
        }
        // A relationship of the destination that names this one as its inverse.
        if let declared = pointingBack.first(where: { $0.inverseName == relationship.name }) { return declared }
        // One that another relationship of this entity already names as its inverse is taken:
        // sharing it would make both read the same rows.
        let mine = entity.properties.compactMap { $0 as? Schema.Relationship }
        let undeclared = pointingBack.filter { candidate in
            candidate.inverseName == nil && !mine.contains { $0.inverseName == candidate.name }
        }
        let mineUndeclared = mine.filter { $0.destination == relationship.destination && $0.inverseName == nil }
        if undeclared.count == 1, mineUndeclared.count == 1, destination.name != entity.name { return undeclared[0] }
        return nil
    }

    // MARK: - DDL

    /// `CREATE TABLE "Workout" ("id" INTEGER PRIMARY KEY, …)`; on PostgreSQL the key is
    /// `BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY`.
    func createTable(in dialect: StoreDialect) -> String {
        let key = dialect == .postgres ? " BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" : " INTEGER PRIMARY KEY"
        var definitions = [SQLText.identifier(primaryKey) + key] + tableColumns.map { definition(of: $0, in: dialect) }
        if hierarchy != nil { definitions.append(discriminatorDefinition(in: dialect)) }
        return "CREATE TABLE " + SQLText.identifier(tableName) + " (" + definitions.joined(separator: ", ") + ")"
    }

    /// The indexes Cairn keeps on this table, by name: uniqueness constraints, `#Index`, and
    /// foreign keys.
    var indexes: [(name: String, sql: String)] { hierarchy?.indexes ?? ownIndexes }

    /// The indexes of this entity's own constraints and foreign keys.
    var ownIndexes: [(name: String, sql: String)] {
        var result: [(String, String)] = []
        func add(_ names: [String], unique: Bool) {
            let name = ([tableName] + names + (unique ? ["unique"] : [])).joined(separator: "_")
            let columns = names.map(SQLText.identifier).joined(separator: ", ")
            let sql = "CREATE \(unique ? "UNIQUE " : "")INDEX " + SQLText.identifier(name) + " ON "
                + SQLText.identifier(tableName) + " (" + columns + ")"
            if !result.contains(where: { $0.0 == name }) { result.append((name, sql)) }
        }
        for constraint in entity.uniquenessConstraints { add(constraint, unique: true) }
        for index in entity.indices { add(index, unique: false) }
        for column in columns { if case .toOne = column.kind { add([column.name], unique: false) } }
        return result
    }

    /// `terms` with each key that is this table's primary key or a non-optional attribute
    /// column (qualified by the table's name) marked as never NULL, so that a dialect whose
    /// NULL order differs from SQLite's needs no `NULLS` clause, which would keep an index
    /// from serving the order.
    func markingNeverNullKeys(_ terms: [SQLOrderingTerm]) -> [SQLOrderingTerm] {
        terms.map { term in
            var term = term
            if !term.keyIsNeverNull {
                term.keyIsNeverNull = term.expression == .column(primaryKey, table: tableName) || columns.contains { column in
                    guard case .attribute(let attribute) = column.kind, !attribute.isOptional else { return false }
                    return term.expression == .column(column.name, table: tableName)
                }
            }
            return term
        }
    }

    /// The tables of `layouts`: the entities' and their join tables.
    static func tables(of layouts: [TableLayout]) -> Set<String> {
        var tables = Set(layouts.map(\.tableName))
        for layout in layouts {
            for case .joinTable(let name, false) in layout.toMany.values { tables.insert(name) }
        }
        return tables
    }

    /// The join tables this entity owns.
    func ownedJoinTables(in dialect: StoreDialect) -> [(name: String, sql: [String])] {
        let key = SQLText.keyType(in: dialect)
        // SQLite keeps a table without a rowid in its primary key's order: one B-tree, not two.
        let withoutRowID = dialect == .sqlite ? " WITHOUT ROWID" : ""
        return toMany.values.compactMap { storage in
            guard case .joinTable(let name, false) = storage else { return nil }
            let table = SQLText.identifier(name)
            return (name, [
                "CREATE TABLE \(table) (\"source\" \(key) NOT NULL, \"target\" \(key) NOT NULL, PRIMARY KEY (\"source\", \"target\"))"
                    + withoutRowID,
                "CREATE INDEX " + SQLText.identifier(name + "_target") + " ON \(table) (\"target\")",
            ])
        }.sorted { $0.name < $1.name }
    }
}

/// SQL text pieces that are not values: quoted identifiers and, for DDL `DEFAULT` clauses
/// only (where SQLite accepts no bound parameter), literals.
enum SQLText {
    /// The type of a key column (a primary key's value in another table): 64 bits on both.
    static func keyType(in dialect: StoreDialect) -> String { dialect == .postgres ? "BIGINT" : "INTEGER" }

    /// `"name"`, with embedded quotes doubled, byte by byte as SQLite reads them (the rendering's
    /// own quoting). `replacingOccurrences` compared characters, so a quote followed by a
    /// combining mark (`a"\u{301}b`) was one character that is not `"`, and stayed single.
    static func identifier(_ name: String) -> String {
        SQLiteDialect().quote(identifier: name)
    }

    /// A literal for a `DEFAULT` clause of `ALTER TABLE … ADD COLUMN`. Reals are decimal text:
    /// SQLite refuses a parenthesized expression there, so ``SQLLiterals/exactReal(_:)``
    /// cannot be used, and a default may read back one unit off in the last place.
    static func literal(_ value: DatabaseValue) -> String {
        literal(value, in: .sqlite, isBoolean: false)
    }

    /// A `DEFAULT` literal in `dialect`: PostgreSQL writes bytes as `'\x…'` and a `BOOLEAN`
    /// column's default as `TRUE`/`FALSE`.
    static func literal(_ value: DatabaseValue, in dialect: StoreDialect, isBoolean: Bool) -> String {
        if dialect == .postgres {
            switch value {
            case .integer(let number) where isBoolean: return number != 0 ? "TRUE" : "FALSE"
            case .blob(let data): return "'\\x" + data.map { String(format: "%02x", $0) }.joined() + "'::bytea"
            default: break
            }
        }
        return switch value {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): value.isFinite ? "\(value)" : "NULL"
        case .text(let text): SQLLiterals.quoted(text)
        case .blob(let data): SQLLiterals.blob(data)
        }
    }
}
