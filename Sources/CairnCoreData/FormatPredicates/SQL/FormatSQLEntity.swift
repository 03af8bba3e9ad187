import CairnQuery
import Foundation

/// What the SQL compiler of format predicates needs to know about an entity: its table, the
/// column of each attribute, and its relationships. Key paths are checked against it, so a
/// `%K` or a typo can only name a real column.
///
/// ```swift
/// let expense = FormatSQLEntity(
///     table: "Expense", attributes: ["name": "name", "amount": "amount"],
///     relationships: ["items": .toMany(foreignKey: "expense") { item }])
/// try FormatPredicate("amount > 50").sqlCondition(for: expense).render().sql
/// // "t0"."amount" > ?
/// ```
///
/// ``init(_:)`` builds one from a `@Model`'s `Schema.Entity`.
public struct FormatSQLEntity: Sendable {
    /// The entity's name, for error messages.
    public var name: String
    /// The table that holds its rows.
    public var table: String
    /// The integer primary key column.
    public var primaryKey: String
    /// Each attribute's key and its column.
    public var attributes: [String: String]
    /// Each relationship's key.
    public var relationships: [String: FormatSQLRelationship]
    /// The rows of the table that belong to this entity, when its table also holds other
    /// entities' rows (Core Data keeps sub-entities in their root's table, told apart by
    /// `Z_ENT`); nil when every row does.
    public var rowRestriction: RowRestriction?

    /// An entity stored in `table`, for a table not declared with `@Model` (``init(_:)``
    /// covers those).
    ///
    /// ```swift
    /// let expense = FormatSQLEntity(table: "Expense", attributes: ["name": "name", "amount": "amount_cents"])
    /// try FormatPredicate("amount > 50").sqlCondition(for: expense).render().sql
    /// // "Expense"."amount_cents" > ?
    /// ```
    ///
    /// - Parameters:
    ///   - name: The entity's name in error messages; the table's name by default.
    ///   - table: The table that holds its rows.
    ///   - primaryKey: The integer primary key column; `id` by default.
    ///   - attributes: Each attribute's key, mapped to its column.
    ///   - relationships: Each relationship's key, mapped to its foreign key and destination.
    public init(
        name: String? = nil, table: String, primaryKey: String = "id", attributes: [String: String],
        relationships: [String: FormatSQLRelationship] = [:]
    ) {
        self.name = name ?? table
        self.table = table
        self.primaryKey = primaryKey
        self.attributes = attributes
        self.relationships = relationships
    }

    /// Every key a predicate may name, sorted, for error messages.
    public var validKeys: [String] { (Array(attributes.keys) + Array(relationships.keys)).sorted() }

    /// The condition that keeps this entity's rows of a shared table, qualified with `alias`;
    /// nil when there is no ``rowRestriction``.
    ///
    /// ```swift
    /// var car = FormatSQLEntity(name: "SportCar", table: "ZCAR", primaryKey: "Z_PK", attributes: [:])
    /// car.rowRestriction = .init(column: "Z_ENT", values: [2, 3])
    /// try car.rowCondition(alias: "t")?.render().sql   // "t"."Z_ENT" IN (?, …), values bound
    /// ```
    public func rowCondition(alias: String) -> SQLExpression? {
        rowRestriction.map { restriction in
            let stored = restriction.names.isEmpty
                ? restriction.values.map(DatabaseValue.integer) : restriction.names.map(DatabaseValue.text)
            return SQLExpression.column(restriction.column, table: alias).in(values: stored)
        }
    }

    /// Which rows of a shared table are the entity's: those whose `column` holds one of
    /// `values` (an entity and its sub-entities), or one of `names`.
    public struct RowRestriction: Sendable, Hashable {
        /// The column that tells entities apart (`Z_ENT`, or Cairn's `_entity`).
        public var column: String
        /// The numbers of the entity and of each of its sub-entities (Core Data's `Z_ENT`).
        public var values: [Int64]
        /// The names of the entity and of each of its sub-entities, where the column holds
        /// names (a `@Model` hierarchy's `_entity`); when not empty, they are matched instead
        /// of ``values``.
        public var names: [String] = []

        /// Rows whose `column` is one of `values`.
        public init(column: String, values: [Int64]) {
            self.column = column
            self.values = values
        }

        /// Rows whose `column` is one of `names`.
        public init(column: String, names: [String]) {
            self.column = column
            self.values = []
            self.names = names
        }
    }
}

/// A relationship as the SQL compiler sees it.
public struct FormatSQLRelationship: Sendable {
    /// Where the foreign key lives.
    public enum Kind: Sendable, Hashable {
        /// This entity's table has the destination's primary key in `foreignKey`.
        case toOne(foreignKey: String)
        /// The destination table has this entity's primary key in `foreignKey`.
        case toMany(foreignKey: String)
        /// A join table pairs the two sides' primary keys: `sourceColumn` holds this entity's,
        /// `destinationColumn` the destination's (Core Data's `Z_1TAGS (Z_1POSTS, Z_2TAGS)`).
        case manyToMany(joinTable: String, sourceColumn: String, destinationColumn: String)
    }

    /// To-one or to-many, and the foreign key column.
    public var kind: Kind
    /// The destination entity (a closure, so entities can refer to each other).
    public var destination: @Sendable () -> FormatSQLEntity

    /// A relationship of `kind` to the entity `destination` returns.
    ///
    /// ```swift
    /// let items = FormatSQLRelationship(.toMany(foreignKey: "expense"), destination: { item })
    /// ```
    ///
    /// - Parameters:
    ///   - kind: To-one or to-many, with the foreign key column.
    ///   - destination: The destination entity, read when the compiler follows the
    ///     relationship, so two entities may refer to each other.
    public init(_ kind: Kind, destination: @escaping @Sendable () -> FormatSQLEntity) {
        self.kind = kind
        self.destination = destination
    }

    /// A to-one relationship stored in this table's `foreignKey` column.
    public static func toOne(foreignKey: String, _ destination: @escaping @Sendable () -> FormatSQLEntity) -> Self {
        FormatSQLRelationship(.toOne(foreignKey: foreignKey), destination: destination)
    }

    /// A to-many relationship whose rows point back through their `foreignKey` column.
    public static func toMany(foreignKey: String, _ destination: @escaping @Sendable () -> FormatSQLEntity) -> Self {
        FormatSQLRelationship(.toMany(foreignKey: foreignKey), destination: destination)
    }
}

extension FormatSQLEntity {
    /// The entity of a `@Model`'s schema: attributes by property name, to-one relationships by
    /// their foreign-key column (named as the property), to-many relationships through their
    /// inverse's column. Built once per model type (an entity is made once per type and never
    /// changes): every `NSFetchRequest` asks for it, and building its dictionaries would cost
    /// about 10,700 instructions a fetch.
    public init(_ entity: Schema.Entity) {
        self = Self.ofModels.value(for: entity.modelType) { FormatSQLEntity(building: entity) }
        if entity.superentity != nil {
            // A subentity's rows are those of its root's table that name it or an entity below
            // it (read now: subclasses may join the hierarchy after the entity was built).
            table = entity.tableName
            rowRestriction = RowRestriction(column: Schema.Entity.discriminatorColumn, names: entity.namesWithSubentities)
        }
    }

    /// ``init(_:)``'s answers, by model type.
    private static let ofModels = TypeKeyedCache<FormatSQLEntity>()

    /// What ``init(_:)`` answers for an entity, before a subentity's table and rows are set. A
    /// relationship's destination is looked up when the compiler follows it: two entities may
    /// point at each other.
    private init(building entity: Schema.Entity) {
        var attributes: [String: String] = [:]
        for attribute in entity.storedAttributes { attributes[attribute.name] = attribute.columnName }
        var byName: [String: FormatSQLRelationship] = [:]
        for relationship in entity.relationships {
            guard let destinationType = relationship.destinationType else { continue }
            let model = ModelType(type: destinationType)
            let destination: @Sendable () -> FormatSQLEntity = { FormatSQLEntity(Schema.Entity.cached(for: model.type)) }
            if relationship.isToOneRelationship {
                byName[relationship.name] = .toOne(foreignKey: relationship.name, destination)
            } else if let inverse = relationship.inverseName {
                byName[relationship.name] = .toMany(foreignKey: inverse, destination)
            }
        }
        self.init(
            name: entity.name, table: entity.name, primaryKey: entity.primaryKeyColumn, attributes: attributes,
            relationships: byName)
    }
}

/// A model type carried into a `@Sendable` closure. `@unchecked Sendable`: a metatype is a
/// pointer to the type's metadata, which is immutable and lives as long as the process.
private struct ModelType: @unchecked Sendable {
    let type: any PersistentModel.Type
}
