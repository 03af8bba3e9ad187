extension Schema {
    /// A reference from a model to other models: to-one (`var trip: Trip?`) or to-many
    /// (`var items: [Item]`).
    ///
    /// `@Relationship` writes one to a property's metadata; without it, a property whose type
    /// is a model (or an Optional or array of one) is a relationship with the defaults:
    ///
    /// ```swift
    /// @Relationship(deleteRule: .cascade, inverse: \Item.trip) var items: [Item] = []
    /// ```
    public final class Relationship: SchemaProperty, Hashable, @unchecked Sendable {
        // @unchecked Sendable: immutable after the entity that owns it is built (placement is
        // set during `Entity` construction, before sharing); key paths are immutable objects.

        /// What happens to related models when a model is deleted.
        public enum DeleteRule: String, Hashable, Codable, Sendable {
            /// Delete the related models too.
            case cascade
            /// Refuse to delete a model that still has related models (`save()` throws).
            case deny
            /// Leave related models alone; the app fixes references itself.
            case noAction
            /// Set the related models' reference to the deleted model to `nil` (the default).
            case nullify
        }

        /// Options of a relationship.
        public struct Option: Hashable, Sendable {
            enum Kind: Hashable, Sendable { case unique }
            let kind: Kind
            /// The related model must be unique (to-one relationships only).
            public static var unique: Option { Option(kind: .unique) }
        }

        /// The relationship's name.
        public let name: String
        /// The name the property had in the store before a rename, for migration.
        public let originalName: String
        /// The options the property was declared with.
        public let options: [Option]
        /// What deleting the model does to the related models.
        public let deleteRule: DeleteRule
        /// The fewest related models allowed (0: no minimum).
        public let minimumModelCount: Int?
        /// The most related models allowed (0: no maximum).
        public let maximumModelCount: Int?
        /// The key path of the inverse relationship on the destination, if declared.
        public let inverseKeyPath: AnyKeyPath?
        /// A value that changes the schema's version hash without changing the property.
        public let hashModifier: String?
        /// The property's Swift type.
        public let valueType: any Any.Type
        var placement = PropertyPlacement()
        /// Cairn: the destination model type, once placed.
        public internal(set) var destinationType: (any PersistentModel.Type)?
        /// Whether the property holds one model (`Trip` / `Trip?`) rather than an array.
        public internal(set) var isToOneRelationship: Bool = true
        /// The name of the inverse property on the destination, if any.
        public internal(set) var inverseName: String?
        private var optional = false

        /// The form `@Relationship(…)` uses.
        public init(
            _ options: Option..., deleteRule: DeleteRule = .nullify, minimumModelCount: Int? = 0,
            maximumModelCount: Int? = 0, originalName: String? = nil, inverse: AnyKeyPath? = nil,
            hashModifier: String? = nil
        ) {
            name = ""
            self.originalName = originalName ?? ""
            self.options = options
            self.deleteRule = deleteRule
            self.minimumModelCount = minimumModelCount
            self.maximumModelCount = maximumModelCount
            inverseKeyPath = inverse
            self.hashModifier = hashModifier
            valueType = Any.self
        }

        private init(copying other: Relationship, name: String, valueType: any Any.Type) {
            self.name = name
            originalName = other.originalName.isEmpty ? name : other.originalName
            options = other.options
            deleteRule = other.deleteRule
            minimumModelCount = other.minimumModelCount
            maximumModelCount = other.maximumModelCount
            inverseKeyPath = other.inverseKeyPath
            hashModifier = other.hashModifier
            self.valueType = valueType
        }

        /// The same relationship placed in an entity, with its destination worked out from the
        /// property's type.
        func placed(name: String, shape: RelationshipShape, keypath: AnyKeyPath, slot: Int) -> Relationship {
            let relationship = Relationship(copying: self, name: name, valueType: shape.valueType)
            relationship.placement = PropertyPlacement(keypath: keypath, slot: slot)
            relationship.destinationType = shape.destination
            relationship.isToOneRelationship = !shape.isToMany
            relationship.optional = shape.isOptional
            if let inverse = inverseKeyPath {
                relationship.inverseName = shape.destination.schemaMetadata.first { $0.keypath == inverse }?.name
            }
            return relationship
        }

        /// The destination entity's name.
        public var destination: String { destinationType.map { Schema.entityName(for: $0) } ?? "" }
        /// The property's key path on its model.
        public var keypath: AnyKeyPath? { placement.keypath }
        /// Whether the property is an attribute (stored as a column).
        public var isAttribute: Bool { false }
        /// Whether the property is a relationship to other models.
        public var isRelationship: Bool { true }
        /// Whether the property is not persisted.
        public var isTransient: Bool { false }
        /// Whether the property may be `nil`.
        public var isOptional: Bool { optional }
        /// Whether the property's values must be unique among the entity's rows.
        public var isUnique: Bool { options.contains(.unique) }

        public var description: String {
            "Relationship(\(name) → \(destination)\(isToOneRelationship ? "" : "[]"), \(deleteRule))"
        }

        public static func == (lhs: Relationship, rhs: Relationship) -> Bool {
            lhs.name == rhs.name && lhs.destination == rhs.destination && lhs.deleteRule == rhs.deleteRule
                && lhs.isToOneRelationship == rhs.isToOneRelationship && lhs.inverseName == rhs.inverseName
        }

        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// The schema errors of relationships of one entity that declare the same inverse.
    ///
    /// An inverse pairs two relationships one to one (Core Data's `inverseRelationship` names a
    /// single relationship): the destination's property records which model a row belongs to,
    /// and each side is read from it. Two relationships that both name `\Plant.backyard` would
    /// both read every plant whose `backyard` is this one, so each would read back the union of
    /// the two lists; the container refuses such a schema instead.
    static func sharedInverseProblems(_ relationships: [Relationship], entityName: String) -> [ModelError] {
        var firstByInverse: [AnyKeyPath: Relationship] = [:]
        var problems: [ModelError] = []
        for relationship in relationships {
            guard let inverse = relationship.inverseKeyPath else { continue }
            guard let first = firstByInverse[inverse] else {
                firstByInverse[inverse] = relationship
                continue
            }
            let inverseText = relationship.inverseName.map { "\\\(relationship.destination).\($0)" }
                ?? keyPathName(inverse)
            problems.append(ModelError(
                .invalidSchema, entityName: entityName, propertyName: relationship.name, value: inverseText,
                message: "\(entityName).\(first.name) and \(entityName).\(relationship.name) both declare "
                    + "\(inverseText) as their inverse, but an inverse belongs to one relationship: each would "
                    + "read back the models of both. Give \(entityName).\(relationship.name) its own inverse (add a "
                    + "property of type \(entityName)? to \(relationship.destination) and name it in "
                    + "@Relationship(inverse:)), or declare it without an inverse"))
        }
        return problems
    }

    /// The schema errors of inverses declared on both sides that do not name each other
    /// (`Backyard.trailingPlants` names `\Plant.backyard`, which names
    /// `\Backyard.leadingPlants`): both relationships of the first model would be read from the
    /// one property and each would read back the models of both.
    static func mismatchedInverseProblems(_ entities: [Entity]) -> [ModelError] {
        var problems: [ModelError] = []
        for entity in entities {
            for relationship in entity.properties.compactMap({ $0 as? Relationship }) {
                guard let inverseName = relationship.inverseName, let destinationType = relationship.destinationType,
                    let inverse = Entity.cached(for: destinationType).relationshipsByName[inverseName],
                    inverse.destination == entity.name,
                    let named = inverse.inverseName, named != relationship.name
                else { continue }
                problems.append(ModelError(
                    .invalidSchema, entityName: entity.name, propertyName: relationship.name,
                    value: "\\\(relationship.destination).\(inverseName)",
                    message: "\(entity.name).\(relationship.name) declares \\\(relationship.destination).\(inverseName) "
                        + "as its inverse, but \(relationship.destination).\(inverseName) declares "
                        + "\\\(entity.name).\(named): an inverse pairs two relationships that name each other, and "
                        + "these would read back each other's models. Make the two declarations agree, or give "
                        + "\(entity.name).\(relationship.name) its own inverse property on \(relationship.destination)"))
            }
        }
        return problems
    }

    /// A relationship property's type taken apart: `Trip?` → (Trip, optional, to-one).
    struct RelationshipShape {
        let destination: any PersistentModel.Type
        let isToMany: Bool
        let isOptional: Bool
        let valueType: any Any.Type

        /// `nil` if the type is not a model, an Optional of one or an array of them.
        init?(_ type: any Any.Type) {
            var current = type
            var optional = false
            if let wrapped = type as? any _OptionalMarker.Type {
                optional = true
                current = wrapped._wrappedType
            }
            if let model = current as? any PersistentModel.Type {
                destination = model
                isToMany = false
            } else if let array = current as? any _ArrayMarker.Type, let model = array._elementType as? any PersistentModel.Type {
                destination = model
                isToMany = true
            } else {
                return nil
            }
            isOptional = optional
            valueType = type
        }
    }
}

/// Implemented by `Optional` so Cairn can see through `T?` at run time. Not public API.
public protocol _OptionalMarker {
    static var _wrappedType: any Any.Type { get }
    var _wrappedAny: Any? { get }
}

extension Optional: _OptionalMarker {
    public static var _wrappedType: any Any.Type { Wrapped.self }
    public var _wrappedAny: Any? { self.map { $0 as Any } }
}

/// Implemented by `Array` and `Set` so Cairn can see a to-many collection's element type at run
/// time. Not public API.
public protocol _ArrayMarker {
    static var _elementType: any Any.Type { get }
    var _elementsAny: [Any] { get }
    /// The elements as models when the element type is a model type (`[Item]`), else nil.
    var _persistentModels: [any PersistentModel]? { get }
    /// Whether an element is `object` (by identity), for an array of a model type.
    func _containsIdentical(_ object: AnyObject) -> Bool
    /// The addresses of the elements (`UInt(bitPattern: ObjectIdentifier(model))`) when the
    /// element type is a model type, else nil.
    var _modelIdentities: [UInt]? { get }
    /// The element at `index` as a model, for an array of a model type.
    func _model(at index: Int) -> (any PersistentModel)?
    /// The models of `models` that are `Element`s, as this collection type (`[Item]`,
    /// `Set<Item>`): what a relationship slot of this type holds.
    static func _collection(of models: [any PersistentModel]) -> Any
}

extension Array: _ArrayMarker {
    public static var _elementType: any Any.Type { Element.self }
    public var _elementsAny: [Any] { map { $0 as Any } }
    public static func _collection(of models: [any PersistentModel]) -> Any { models.compactMap { $0 as? Element } }

    // A to-many relationship is read whole on every change of it (a model appended to
    // `trip.items` is compared with the items already there), so these avoid a dynamic cast
    // per element: the element type is checked once, and the array is then read as what it is.
    public var _persistentModels: [any PersistentModel]? {
        guard let type = Element.self as? any PersistentModel.Type else { return nil }
        return Self.models(self, as: type)
    }

    // The element type is a model type, a class, so each element is one reference: these read
    // the references from the array's storage. A loop over the elements themselves, in code not
    // specialized for their type, retains and releases each one.

    public func _containsIdentical(_ object: AnyObject) -> Bool {
        guard holdsModelReferences else { return false }
        let target = UInt(bitPattern: ObjectIdentifier(object))
        return withUnsafeBytes { raw in
            (0..<count).contains { raw.load(fromByteOffset: $0 * MemoryLayout<UInt>.stride, as: UInt.self) == target }
        }
    }

    public var _modelIdentities: [UInt]? {
        guard holdsModelReferences else { return nil }
        return withUnsafeBytes { raw in
            (0..<count).map { raw.load(fromByteOffset: $0 * MemoryLayout<UInt>.stride, as: UInt.self) }
        }
    }

    private var holdsModelReferences: Bool {
        Element.self is any PersistentModel.Type && MemoryLayout<Element>.stride == MemoryLayout<UInt>.stride
    }

    public func _model(at index: Int) -> (any PersistentModel)? {
        guard indices.contains(index), let type = Element.self as? any PersistentModel.Type else { return nil }
        return Self.model(at: index, in: self, as: type)
    }

    /// `elements` as `[M]`: `M` is `Element` itself, opened from `Element.self`, so the
    /// reinterpretation is of an array as its own type.
    private static func typed<M: PersistentModel>(_ elements: [Element], _ type: M.Type) -> [M]? {
        guard Element.self == M.self else { return nil }
        return unsafeBitCast(elements, to: [M].self)
    }

    private static func models<M: PersistentModel>(_ elements: [Element], as type: M.Type) -> [any PersistentModel]? {
        typed(elements, type)?.map { $0 }
    }

    private static func model<M: PersistentModel>(at index: Int, in elements: [Element], as type: M.Type)
        -> (any PersistentModel)?
    {
        typed(elements, type)?[index]
    }
}
