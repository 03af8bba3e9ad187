import Foundation

/// The shape of a store: its entities (one per model class), their attributes and
/// relationships, and a version.
///
/// ```swift
/// let schema = Schema([Workout.self, Trip.self])
/// schema.entitiesByName["Workout"]?.attributesByName["title"]?.columnName   // "title"
/// // CREATE TABLE "Workout" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, …)
/// ```
///
/// `Schema` is immutable once made, so a container can share it across actors.
public final class Schema: Hashable, @unchecked Sendable {
    // @unchecked Sendable: every stored property is a `let` of immutable values (entities are
    // immutable after construction), so sharing a schema across threads is safe.

    /// The entities, in the order given (duplicates removed).
    public let entities: [Entity]
    /// The entities by name.
    public let entitiesByName: [String: Entity]
    /// The schema's version.
    public let version: Version
    /// The version of the layout Cairn uses to store this schema (tables, columns).
    public let encodingVersion: Version = Version(1, 0, 0)

    /// A schema of the given entities.
    public convenience init(_ entities: Entity..., version: Version = Version(1, 0, 0)) {
        self.init(version: version, entities: entities)
    }

    /// A schema of the entities of the given model types, and of every model type they reach
    /// through relationships.
    ///
    /// ```swift
    /// let schema = Schema([Workout.self])
    /// ```
    public convenience init(_ types: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
        var entities: [Entity] = []
        var seen: Set<ObjectIdentifier> = []
        var queue = types
        while !queue.isEmpty {
            let type = queue.removeFirst()
            guard seen.insert(ObjectIdentifier(type)).inserted else { continue }
            let entity = Entity.cached(for: type)
            entities.append(entity)
            queue.append(contentsOf: entity.relationshipDestinationTypes)
            // A subclass's rows live in its root's table: the root is part of the schema.
            if let superentity = entity.superentity { queue.append(superentity.modelType) }
        }
        self.init(version: version, entities: entities)
    }

    /// A schema of a versioned schema's models, with its version.
    public convenience init(versionedSchema: any VersionedSchema.Type) {
        self.init(versionedSchema.models, version: versionedSchema.versionIdentifier)
    }

    private init(version: Version, entities: [Entity]) {
        self.version = version
        var seen: Set<String> = []
        self.entities = entities.filter { seen.insert($0.name).inserted }
        entitiesByName = Dictionary(self.entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The entity of a model type, or `nil` if this schema does not have it.
    public func entity<Model: PersistentModel>(for type: Model.Type) -> Entity? {
        entitiesByName[Schema.entityName(for: type)]
    }

    /// The entity of a model type given as an existential metatype.
    public func entity(for type: any PersistentModel.Type) -> Entity? {
        entitiesByName[Schema.entityName(for: type)]
    }

    /// The entity name of a model type: its class name without module or generic arguments.
    ///
    /// ```swift
    /// Schema.entityName(for: Workout.self)   // "Workout"
    /// ```
    public static func entityName<Model: PersistentModel>(for type: Model.Type) -> String {
        entityName(forAny: type)
    }

    static func entityName(for type: any PersistentModel.Type) -> String { entityName(forAny: type) }

    /// Worked out once per type: `String(describing:)` of a type cost about 12,000
    /// instructions, and every fetch asked for it several times (callgrind, W5: a tenth of a
    /// one-row `fetch`).
    static func entityName(forAny type: Any.Type) -> String {
        entityNames.value(for: type) {
            let described = String(describing: type)
            return described.split(separator: "<").first.map(String.init) ?? described
        }
    }

    private static let entityNames = TypeKeyedCache<String>()

    public static func == (lhs: Schema, rhs: Schema) -> Bool {
        lhs.version == rhs.version && lhs.entities == rhs.entities
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(entities.map(\.name))
    }
}

extension Schema {
    /// A schema version, `major.minor.patch`.
    public struct Version: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
        /// The major version: a change that needs a migration stage.
        public let major: Int
        /// The minor version.
        public let minor: Int
        /// The patch version.
        public let patch: Int

        /// `Schema.Version(1, 2, 0)`.
        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }

        /// `1.2.0`.
        public var description: String { "\(major).\(minor).\(patch)" }
    }
}

/// A version of a schema, for migration plans.
///
/// ```swift
/// enum SchemaV1: VersionedSchema {
///     static let versionIdentifier = Schema.Version(1, 0, 0)
///     static var models: [any PersistentModel.Type] { [Workout.self] }
/// }
/// ```
public protocol VersionedSchema: SendableMetatype {
    /// This schema's version.
    static var versionIdentifier: Schema.Version { get }
    /// The model types of this version.
    static var models: [any PersistentModel.Type] { get }
}
