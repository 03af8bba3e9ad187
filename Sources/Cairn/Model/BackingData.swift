/// The storage behind a model's properties: the values, what changed, and the model's identity.
///
/// `@Model` gives every instance a ``DefaultBackingData``; a context swaps in the backing data
/// of a fetched row when it makes a model with `init(backingData:)`.
public protocol BackingData<Model>: AnyObject {
    associatedtype Model: PersistentModel

    /// Empty backing data for a new model of `modelType`.
    init(for modelType: Model.Type)
    /// The model's identifier, or `nil` if it has none yet.
    var persistentModelID: PersistentIdentifier? { get }
    /// Store-specific information about the model.
    var metadata: Any { get }

    func getValue<Value: Decodable>(forKey key: KeyPath<Model, Value>) -> Value
    func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value>) -> Value
    func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value?>) -> Value?
    func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, [Value]>) -> [Value]
    func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, [Value]?>) -> [Value]?

    func setValue<Value: Encodable>(forKey key: KeyPath<Model, Value>, to newValue: Value)
    func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value>, to newValue: Value)
    func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value?>, to newValue: Value?)
    func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, [Value]>, to newValue: [Value])
    func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, [Value]?>, to newValue: [Value]?)
}

/// Cairn's backing data: one slot per persisted property, loaded from the row lazily, with the
/// set of properties changed since the last save.
public final class DefaultBackingData<Model: PersistentModel>: BackingData {
    private var made: ModelStorage?
    /// Values set before the storage exists, applied in order when it is made.
    private var initialValues: [InitialValue] = []

    /// The storage, made on first use: the backing data `@Model`'s property initializer makes
    /// for every instance is thrown away unused when a context makes the model from a row.
    /// Values set before then (a model's initializer, or the `nil` of an Optional whose type
    /// `@Model` did not recognize as one, which it otherwise keeps back) wait in
    /// `initialValues` rather than making a storage per row.
    var storage: ModelStorage {
        if let made { return made }
        let storage = ModelStorage.new(entity: Schema.Entity.of(Model.self))
        made = storage
        for initial in initialValues { storage.setValue(initial.value, forKey: initial.key) }
        initialValues = []
        return storage
    }

    /// Sets a value, or keeps it for later while there is no storage yet.
    private func set(_ value: Any, forKey key: AnyKeyPath) {
        if let made { return made.setValue(value, forKey: key) }
        initialValues.append(InitialValue(key: key, value: value))
    }

    public init(for modelType: Model.Type) {}

    init(storage: ModelStorage) {
        made = storage
    }

    /// The backing data of a fetched row (what ``PersistentModel/_$makeFetched(_:)`` makes).
    public init(fetched: _FetchedStorage) {
        made = fetched.storage
    }

    public var persistentModelID: PersistentIdentifier? { storage.identifier }
    /// The model's ``Schema/Entity``.
    public var metadata: Any { storage.entity }

    public func getValue<Value: Decodable>(forKey key: KeyPath<Model, Value>) -> Value {
        storage.value(forKey: key, as: Value.self)
    }
    public func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value>) -> Value {
        storage.value(forKey: key, as: Value.self)
    }
    public func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value?>) -> Value? {
        storage.value(forKey: key, as: Value?.self)
    }
    public func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, [Value]>) -> [Value] {
        storage.value(forKey: key, as: [Value].self)
    }
    public func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, [Value]?>) -> [Value]? {
        storage.value(forKey: key, as: [Value]?.self)
    }

    public func setValue<Value: Encodable>(forKey key: KeyPath<Model, Value>, to newValue: Value) {
        set(newValue, forKey: key)
    }
    public func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value>, to newValue: Value) {
        storage.setValue(newValue, forKey: key)
    }
    public func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value?>, to newValue: Value?) {
        storage.setValue(newValue as Any, forKey: key)
    }
    public func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, [Value]>, to newValue: [Value]) {
        storage.setValue(newValue, forKey: key)
    }
    public func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, [Value]?>, to newValue: [Value]?) {
        storage.setValue(newValue as Any, forKey: key)
    }
}

/// A value set on a model before its storage exists. A non-generic struct rather than a tuple
/// or a type nested in `DefaultBackingData<Model>`: for those the runtime looks up the array's
/// type metadata on every allocation.
private struct InitialValue {
    var key: AnyKeyPath
    var value: Any
}
