import Foundation
import Synchronization

extension Schema {
    /// One model class as the store sees it: a table named ``name`` with an `id INTEGER PRIMARY
    /// KEY` column and one column per stored attribute.
    ///
    /// Other surfaces (the predicate compiler, typed SQL, Core Data) reach a model's storage
    /// through the entity:
    ///
    /// ```swift
    /// let entity = Schema.Entity.of(Workout.self)
    /// entity.tableName                                  // "Workout"
    /// entity.columnName(for: \Workout.minutes)          // "minutes"
    /// entity.attribute(for: \Workout.startedAt)?.databaseValue(for: date)  // .real(…)
    /// ```
    public final class Entity: Hashable, @unchecked Sendable, CustomStringConvertible {
        // @unchecked Sendable: every stored property is a `let` set in `init` (attributes and
        // relationships are immutable once built), so entities are shared read-only. The
        // slots of `implicitNils` are copied into new storages: a copy shares a boxed value's
        // box, which nothing mutates (a slot is replaced whole), and its count is atomic.

        /// The entity's name: the model's class name. Also its table's name.
        public let name: String
        /// Cairn: the model class.
        public let modelType: any PersistentModel.Type
        /// Every persisted property in declaration order: attributes and relationships.
        public let properties: [any SchemaProperty]
        /// The attributes (including `.ephemeral` ones, which have no column).
        public let attributes: Set<Attribute>
        /// The relationships.
        public let relationships: Set<Relationship>
        /// The attributes by name.
        public let attributesByName: [String: Attribute]
        /// The relationships by name.
        public let relationshipsByName: [String: Relationship]
        /// Every persisted property by name.
        public let storedPropertiesByName: [String: any SchemaProperty]
        /// Property-name lists that must be unique together (`.unique` and `#Unique`).
        public let uniquenessConstraints: [[String]]
        /// Property-name lists with an index (`#Index`).
        public let indices: [[String]]
        /// Cairn: the name of the integer primary key column: `id`, or `rowid` when the model
        /// has its own property named `id`.
        public let primaryKeyColumn: String
        /// Cairn: attributes stored in columns, in declaration order (the table's column order
        /// after the primary key).
        public let storedAttributes: [Attribute]
        /// Problems found while building (types that cannot be stored, unknown key paths); the
        /// container refuses a schema whose entities have any.
        public let problems: [ModelError]

        let slotsByKeyPath: [AnyKeyPath: Int]
        /// Every Optional property's slot index and the `nil` slot it starts with in a new
        /// model's storage, as Swift initializes those properties (the generated init accessors
        /// do not pass that nil on; see `_PersistedPropertyMacro`). Made once: a copy of a boxed
        /// `nil` shares its box.
        let implicitNils: [(slot: Int, value: ModelStorage.Slot)]
        /// The slots of the relationships, in declaration order.
        let relationshipSlots: [Int]
        /// The scope of the temporary identifiers of this entity's new models.
        let unsavedScope: IdentifierScope

        /// The entity of the model class this one inherits from (`@Model class Tutorial:
        /// Article` has `Article`'s), or `nil`.
        public let superentity: Entity?
        /// The properties inherited from ``superentity``: the first ones of ``properties``, in
        /// the superentity's order.
        public let inheritedProperties: [any SchemaProperty]
        /// Cairn: the table that holds this entity's rows: its own name, or the hierarchy
        /// root's for a subentity (every entity of a hierarchy shares the root's table).
        public let tableName: String

        /// The properties, as stored, in declaration order.
        public var storedProperties: [any SchemaProperty] { properties.filter { !$0.isTransient } }
        /// The parent entity's name, or `nil`.
        public var superentityName: String? { superentity?.name }
        /// The inherited properties by name.
        public var inheritedPropertiesByName: [String: any SchemaProperty] {
            Dictionary(inheritedProperties.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        }
        /// The entities of the model classes that inherit directly from this one, among those
        /// the process has built a schema of (`ModelContainer(for: Article.self, Tutorial.self)`).
        public var subentities: Set<Entity> { Set(EntityCache.subentities(of: self)) }
        /// Cairn: the hierarchy's root entity, whose table holds this entity's rows (itself
        /// when it has no superentity).
        public var rootEntity: Entity { superentity?.rootEntity ?? self }
        /// This entity's name and those of every entity below it: the discriminator values of
        /// the rows a fetch of this entity reads.
        package var namesWithSubentities: [String] {
            [name] + EntityCache.subentities(of: self).sorted { $0.name < $1.name }.flatMap(\.namesWithSubentities)
        }
        /// The column of a hierarchy's table that names each row's entity (`'Tutorial'`).
        /// Core Data keeps an entity number in `Z_ENT`; Cairn keeps the name, readable in
        /// `sqlite3`, and starts it with an underscore so that it cannot clash with a
        /// property (`@Model` persists no property whose name starts with `_$`, and a Swift
        /// property named `_entity` is the only one that could).
        public static let discriminatorColumn = "_entity"

        /// The entity of a model type, built once from its `schemaMetadata` and cached.
        public static func of<Model: PersistentModel>(_ type: Model.Type) -> Entity { cached(for: type) }

        /// The property a key path names (`\Workout.title`), or `nil`.
        public func property(for keyPath: AnyKeyPath) -> (any SchemaProperty)? {
            slotsByKeyPath[keyPath].map { properties[$0] }
        }

        /// The attribute a key path names, or `nil` if it names no stored attribute.
        public func attribute(for keyPath: AnyKeyPath) -> Attribute? { property(for: keyPath) as? Attribute }

        /// The column a key path is stored in, or `nil`: the attribute's column, or a to-one
        /// relationship's foreign-key column (named as the property).
        public func columnName(for keyPath: AnyKeyPath) -> String? {
            guard let property = property(for: keyPath), !property.isTransient else { return nil }
            if let relationship = property as? Relationship {
                return relationship.isToOneRelationship ? relationship.name : nil
            }
            return property.name
        }

        public var description: String {
            "Entity(\(name): " + properties.map(\.description).joined(separator: ", ") + ")"
        }

        public static func == (lhs: Entity, rhs: Entity) -> Bool {
            lhs === rhs || (lhs.name == rhs.name && lhs.attributes == rhs.attributes
                && lhs.relationships == rhs.relationships && lhs.uniquenessConstraints == rhs.uniquenessConstraints
                && lhs.indices == rhs.indices)
        }

        public func hash(into hasher: inout Hasher) { hasher.combine(name) }

        // MARK: - Building

        init(modelType: any PersistentModel.Type) {
            let name = Schema.entityName(for: modelType)
            self.name = name
            self.modelType = modelType
            let superentity = modelType._$superentityType.map { Entity.cached(for: $0) }
            self.superentity = superentity
            tableName = superentity?.rootEntity.name ?? name
            unsavedScope = IdentifierScope(entityName: name, storeIdentifier: nil)
            var properties: [any SchemaProperty] = []
            var problems: [ModelError] = []
            var slots: [AnyKeyPath: Int] = [:]
            for metadata in modelType.schemaMetadata {
                let slot = properties.count
                let valueType = type(of: metadata.keypath).valueType
                if slots[metadata.keypath] != nil || properties.contains(where: { $0.name == metadata.name }) {
                    problems.append(ModelError(
                        .invalidSchema, entityName: name, propertyName: metadata.name,
                        message: "The property is listed twice in \(name).schemaMetadata"))
                    continue
                }
                slots[metadata.keypath] = slot
                if let shape = RelationshipShape(valueType) {
                    let declared = metadata.metadata as? Relationship ?? Relationship()
                    properties.append(declared.placed(name: metadata.name, shape: shape, keypath: metadata.keypath, slot: slot))
                } else {
                    let declared = metadata.metadata as? Attribute ?? Attribute()
                    let attribute = declared.placed(
                        name: metadata.name, valueType: valueType, defaultValue: metadata.defaultValue,
                        keypath: metadata.keypath, slot: slot)
                    if attribute.codec == nil {
                        var error = attribute.unsupported()
                        error = ModelError(.unsupportedType, entityName: name, propertyName: metadata.name,
                                           value: error.value, message: error.message)
                        problems.append(error)
                    }
                    properties.append(attribute)
                }
            }
            self.properties = properties
            var inherited: [any SchemaProperty] = []
            if let superentity {
                let count = superentity.properties.count
                if properties.count < count || zip(properties, superentity.properties).contains(where: { $0.name != $1.name }) {
                    problems.append(ModelError(
                        .invalidSchema, entityName: name,
                        message: "\(name).schemaMetadata does not start with the properties of its superentity "
                            + "\(superentity.name); a subclass's metadata must be super.schemaMetadata followed by its own"))
                } else {
                    inherited = Array(properties.prefix(count))
                    // The superclass's accessors name its key paths (`\Article.title`); a
                    // subclass's storage answers them at the same slots.
                    for (keyPath, slot) in superentity.slotsByKeyPath where slots[keyPath] == nil { slots[keyPath] = slot }
                }
            }
            inheritedProperties = inherited
            slotsByKeyPath = slots
            implicitNils = properties.enumerated().compactMap { slot, property in
                (property.valueType as? any _OptionalBuilding.Type).map { (slot, $0._nilSlot) }
            }
            relationshipSlots = properties.indices.filter { properties[$0] is Relationship }
            let attributes = properties.compactMap { $0 as? Attribute }
            let relationships = properties.compactMap { $0 as? Relationship }
            self.attributes = Set(attributes)
            self.relationships = Set(relationships)
            problems += Schema.sharedInverseProblems(relationships, entityName: name)
            attributesByName = Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            relationshipsByName = Dictionary(relationships.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            storedPropertiesByName = Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            let stored = attributes.filter { !$0.isTransient }
            storedAttributes = stored
            let primaryKey = properties.contains { $0.name == "id" } ? "rowid" : "id"
            primaryKeyColumn = primaryKey

            func names(_ keyPaths: [AnyKeyPath], _ what: String) -> [String]? {
                var names: [String] = []
                for keyPath in keyPaths {
                    guard let slot = slots[keyPath] else {
                        problems.append(ModelError(
                            .invalidSchema, entityName: name, value: keyPathName(keyPath),
                            message: "A key path in \(what) does not name a persisted property of \(name)"))
                        return nil
                    }
                    names.append(properties[slot].name)
                }
                return names
            }
            var unique = attributes.filter(\.isUnique).map { [$0.name] }
            unique += relationships.filter { $0.isUnique && $0.isToOneRelationship }.map { [$0.name] }
            unique += modelType._$uniquenessConstraints.compactMap { names($0, "#Unique") }
            uniquenessConstraints = unique
            indices = modelType._$indices.compactMap { names($0, "#Index") }
            self.problems = problems
        }

        package static func cached(for type: any PersistentModel.Type) -> Entity {
            EntityCache.entity(for: type)
        }

        /// Every model type a relationship of this entity points to.
        var relationshipDestinationTypes: [any PersistentModel.Type] {
            properties.compactMap { ($0 as? Relationship)?.destinationType }
        }

        /// The storage slot of a key path, if it names a persisted property.
        func slot(for keyPath: AnyKeyPath) -> Int? { slotsByKeyPath[keyPath] }
    }
}

/// One entity per model type per process: building reads `schemaMetadata` and resolves codecs,
/// which should happen once.
enum EntityCache {
    private static let entities = TypeKeyedCache<Schema.Entity>()

    /// Each entity's direct subentities, by the superentity's identity: entities are made
    /// once per type, and a hierarchy is known once its subclasses' entities are made.
    /// By name: two threads making one type's entity at once both register it, and only the
    /// first is kept.
    private static let children = Mutex<[ObjectIdentifier: [String: Schema.Entity]]>([:])

    static func entity(for type: any PersistentModel.Type) -> Schema.Entity {
        entities.value(for: type) {
            let entity = Schema.Entity(modelType: type)
            if let superentity = entity.superentity {
                children.withLock { children in
                    if children[ObjectIdentifier(superentity)]?[entity.name] == nil {
                        children[ObjectIdentifier(superentity), default: [:]][entity.name] = entity
                        generation.add(1, ordering: .relaxed)
                    }
                }
            }
            return entity
        }
    }

    private static let generation = Atomic<Int>(0)

    /// How many subentities have been registered so far (see `QueryShapeKey`).
    static var hierarchyGeneration: Int { generation.load(ordering: .relaxed) }

    static func subentities(of entity: Schema.Entity) -> [Schema.Entity] {
        children.withLock { $0[ObjectIdentifier(entity)].map { Array($0.values) } ?? [] }
    }
}
