/// To-many relationships declared as a `Set` (`var cars: Set<Car> = []`), as Core Data code
/// ported to `@Model` often keeps them (`NSSet` in Core Data). They are stored, synced with
/// their inverse and loaded as the array form is: `Set` is a to-many collection
/// (``_ArrayMarker``), and the value a relationship slot holds is made as the property's own
/// collection type.

extension DefaultBackingData {
    /// Reads a `Set` to-many relationship from the model's storage.
    public func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, Set<Value>>) -> Set<Value> {
        storage.value(forKey: key, as: Set<Value>.self)
    }
    /// Reads an optional `Set` to-many relationship from the model's storage.
    public func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, Set<Value>?>) -> Set<Value>? {
        storage.value(forKey: key, as: Set<Value>?.self)
    }
    /// Writes a `Set` to-many relationship into the model's storage.
    public func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, Set<Value>>, to newValue: Set<Value>) {
        storage.setValue(newValue, forKey: key)
    }
    /// Writes an optional `Set` to-many relationship into the model's storage.
    public func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, Set<Value>?>, to newValue: Set<Value>?) {
        storage.setValue(newValue as Any, forKey: key)
    }
}

extension PersistentModel {
    /// Reads a to-many relationship declared as a `Set`.
    public func getValue<Value: PersistentModel>(forKey key: KeyPath<Self, Set<Value>>) -> Set<Value> {
        persistentBackingData.getValue(forKey: key)
    }
    /// Reads an optional to-many relationship declared as a `Set`.
    public func getValue<Value: PersistentModel>(forKey key: KeyPath<Self, Set<Value>?>) -> Set<Value>? {
        persistentBackingData.getValue(forKey: key)
    }
    /// Writes a to-many relationship declared as a `Set`, keeping its inverse in sync.
    public func setValue<Value: PersistentModel>(forKey key: KeyPath<Self, Set<Value>>, to newValue: Set<Value>) {
        setRelationship(key, newValue) { persistentBackingData.setValue(forKey: key, to: newValue) }
    }
    /// Writes an optional to-many relationship declared as a `Set`, keeping its inverse in sync.
    public func setValue<Value: PersistentModel>(forKey key: KeyPath<Self, Set<Value>?>, to newValue: Set<Value>?) {
        setRelationship(key, newValue as Any) { persistentBackingData.setValue(forKey: key, to: newValue) }
    }
}

// The `@Model` accessors' entry points (see the array forms in BackingData.swift).
extension _ModelBackingDataSlot {
    /// A to-many relationship declared as a `Set`.
    @inlinable
    public func value<Value: PersistentModel>(of model: Model, forKey key: KeyPath<Model, Set<Value>>, slot: Int)
        -> Set<Value>
    {
        model.getValue(forKey: key)
    }
    /// An optional to-many relationship declared as a `Set`.
    @inlinable
    public func value<Value: PersistentModel>(of model: Model, forKey key: KeyPath<Model, Set<Value>?>, slot: Int)
        -> Set<Value>?
    {
        model.getValue(forKey: key)
    }
    /// A to-many relationship declared as a `Set`, from an init accessor.
    @inlinable
    public mutating func setValue<Value: PersistentModel>(
        forKey key: KeyPath<Model, Set<Value>>, to newValue: Set<Value>, slot: Int
    ) {
        resolve().setValue(forKey: key, to: newValue)
    }
    /// An optional to-many relationship declared as a `Set`, from an init accessor.
    @inlinable
    public mutating func setValue<Value: PersistentModel>(
        forKey key: KeyPath<Model, Set<Value>?>, to newValue: Set<Value>?, slot: Int
    ) {
        resolve().setValue(forKey: key, to: newValue)
    }
    /// A to-many relationship declared as a `Set`, from a setter.
    @inlinable
    public func setValue<Value: PersistentModel>(
        of model: Model, forKey key: KeyPath<Model, Set<Value>>, to newValue: Set<Value>, slot: Int
    ) {
        model.setValue(forKey: key, to: newValue)
    }
    /// An optional to-many relationship declared as a `Set`, from a setter.
    @inlinable
    public func setValue<Value: PersistentModel>(
        of model: Model, forKey key: KeyPath<Model, Set<Value>?>, to newValue: Set<Value>?, slot: Int
    ) {
        model.setValue(forKey: key, to: newValue)
    }
}

extension Set: _ArrayMarker {
    public static var _elementType: any Any.Type { Element.self }
    public var _elementsAny: [Any] { map { $0 as Any } }
    public var _persistentModels: [any PersistentModel]? {
        guard Element.self is any PersistentModel.Type else { return nil }
        return compactMap { $0 as? any PersistentModel }
    }
    public func _containsIdentical(_ object: AnyObject) -> Bool {
        guard Element.self is any PersistentModel.Type else { return false }
        return contains { ($0 as? any PersistentModel) === object }
    }
    // Offsets are positions in this set's iteration order, which is fixed for one instance:
    // `_modelIdentities` and `_model(at:)` of the same set agree.
    public var _modelIdentities: [UInt]? {
        guard Element.self is any PersistentModel.Type else { return nil }
        return compactMap { ($0 as? any PersistentModel).map { UInt(bitPattern: ObjectIdentifier($0)) } }
    }
    public func _model(at index: Int) -> (any PersistentModel)? {
        guard index >= 0, index < count else { return nil }
        return self[self.index(startIndex, offsetBy: index)] as? any PersistentModel
    }
    public static func _collection(of models: [any PersistentModel]) -> Any { Set(models.compactMap { $0 as? Element }) }
}
