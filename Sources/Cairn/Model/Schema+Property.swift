extension Schema {
    /// What `@Model` writes for each persisted property: its name, key path, default value,
    /// and the `@Attribute` or `@Relationship` options written on it.
    ///
    /// ```swift
    /// static var schemaMetadata: [Schema.PropertyMetadata] {
    ///     [
    ///         Schema.PropertyMetadata(name: "title", keypath: \Workout.title),
    ///         Schema.PropertyMetadata(name: "isFavorite", keypath: \Workout.isFavorite,
    ///                                 defaultValue: false as Bool),
    ///         Schema.PropertyMetadata(name: "email", keypath: \Person.email,
    ///                                 metadata: Schema.Attribute(.unique)),
    ///     ]
    /// }
    /// ```
    public struct PropertyMetadata {
        /// The property's name, which is also its column's name.
        public let name: String
        /// The key path of the property (`\Workout.title`).
        public let keypath: AnyKeyPath
        /// The property's declared default value, if any.
        public let defaultValue: Any?
        /// The `Schema.Attribute` or `Schema.Relationship` written with `@Attribute` /
        /// `@Relationship`, or `nil` for the defaults.
        public let metadata: (any SchemaProperty)?

        /// Metadata `@Model` generates for one persisted property.
        public init(name: String, keypath: AnyKeyPath, defaultValue: Any? = nil, metadata: (any SchemaProperty)? = nil) {
            self.name = name
            self.keypath = keypath
            self.defaultValue = defaultValue
            self.metadata = metadata
        }
    }
}

/// A persisted property of an entity: a ``Schema/Attribute`` or a ``Schema/Relationship``.
public protocol SchemaProperty: AnyObject, Sendable, CustomStringConvertible {
    /// The property's name (and its column's name).
    var name: String { get }
    /// The name the property had in an earlier schema version (for migration), or `name`.
    var originalName: String { get }
    /// The property's Swift type (`String`, `Date?`, `[Tag]`).
    var valueType: any Any.Type { get }
    /// The property's key path on its model, once the property belongs to an entity.
    var keypath: AnyKeyPath? { get }
    /// Whether this is an attribute (a value stored in a column).
    var isAttribute: Bool { get }
    /// Whether this is a relationship (a reference to other models).
    var isRelationship: Bool { get }
    /// Whether the property is tracked but not stored (`.ephemeral`).
    var isTransient: Bool { get }
    /// Whether the property's type is an `Optional`.
    var isOptional: Bool { get }
    /// Whether values must be unique among the entity's rows.
    var isUnique: Bool { get }
}

extension Schema {
    /// Key path bookkeeping shared by attributes and relationships. Not public API.
    ///
    /// The key path is set once, when the entity is built, before the property is shared.
    struct PropertyPlacement {
        var keypath: AnyKeyPath?
        var slot: Int = -1
    }
}
