/// The storage behind a model's properties: the values, what changed, and the model's identity.
///
/// `@Model` gives every instance a ``DefaultBackingData``; a context swaps in the backing data
/// of a fetched row when it makes a model with `init(backingData:)`.
public protocol BackingData<Model>: AnyObject {
    /// The model type whose values this backing data holds.
    associatedtype Model: PersistentModel

    /// Empty backing data for a new model of `modelType`.
    init(for modelType: Model.Type)
    /// The model's identifier, or `nil` if it has none yet.
    var persistentModelID: PersistentIdentifier? { get }
    /// Store-specific information about the model.
    var metadata: Any { get }

    /// Reads an attribute's value.
    func getValue<Value: Decodable>(forKey key: KeyPath<Model, Value>) -> Value
    /// Reads a to-one relationship.
    func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value>) -> Value
    /// Reads an optional to-one relationship.
    func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value?>) -> Value?
    /// Reads a to-many relationship.
    func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, [Value]>) -> [Value]
    /// Reads an optional to-many relationship.
    func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, [Value]?>) -> [Value]?
    /// Reads a to-many relationship declared as a `Set`.
    func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, Set<Value>>) -> Set<Value>
    /// Reads an optional to-many relationship declared as a `Set`.
    func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, Set<Value>?>) -> Set<Value>?

    /// Writes an attribute's value.
    func setValue<Value: Encodable>(forKey key: KeyPath<Model, Value>, to newValue: Value)
    /// Writes a to-one relationship.
    func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value>, to newValue: Value)
    /// Writes an optional to-one relationship.
    func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value?>, to newValue: Value?)
    /// Writes a to-many relationship.
    func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, [Value]>, to newValue: [Value])
    /// Writes an optional to-many relationship.
    func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, [Value]?>, to newValue: [Value]?)
    /// Writes a to-many relationship declared as a `Set`.
    func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, Set<Value>>, to newValue: Set<Value>)
    /// Writes an optional to-many relationship declared as a `Set`.
    func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, Set<Value>?>, to newValue: Set<Value>?)
}

/// Cairn's backing data: one slot per persisted property, loaded from the row lazily, with the
/// set of properties changed since the last save.
public final class DefaultBackingData<Model: PersistentModel>: BackingData {
    private var made: ModelStorage?

    /// The storage, made when a new model's initializer sets its first property (a fetched
    /// row's backing data starts with its storage).
    var storage: ModelStorage {
        if let made { return made }
        let storage = ModelStorage.new(entity: Schema.Entity.of(Model.self))
        made = storage
        return storage
    }

    /// Empty backing data for a new model of `modelType`.
    public init(for modelType: Model.Type) {}

    init(storage: ModelStorage) {
        made = storage
    }

    /// The backing data of a fetched row (what `PersistentModel/_$makeFetched(_:)` makes).
    public init(fetched: _FetchedStorage) {
        made = fetched.storage
    }

    /// `backingData` as Cairn's own, or `nil` for a custom backing data. An exact type check
    /// (the class is final) rather than `as?`, which goes through swift_dynamicCast at about 220
    /// instructions: fetches and saves ask this of every model.
    @inlinable
    static func exactly(_ backingData: any BackingData<Model>) -> DefaultBackingData? {
        guard type(of: backingData) == DefaultBackingData.self else { return nil }
        return unsafeDowncast(backingData, to: DefaultBackingData.self)
    }

    /// The storage (made if need be), for `@Model` init accessors' writes by slot.
    @usableFromInline
    var madeStorage: _FetchedStorage { _FetchedStorage(storage: storage) }

    /// The storage, if there is one yet, for `@Model` getters' reads by slot.
    @usableFromInline
    var existingStorage: _FetchedStorage? { made.map(_FetchedStorage.init) }

    /// The model's identifier, or `nil` if it has none yet.
    public var persistentModelID: PersistentIdentifier? { storage.identifier }
    /// The model's ``Schema/Entity``.
    public var metadata: Any { storage.entity }

    /// Reads a property's value from the model's storage.
    public func getValue<Value: Decodable>(forKey key: KeyPath<Model, Value>) -> Value {
        storage.value(forKey: key, as: Value.self)
    }
    /// Reads a property's value from the model's storage.
    public func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value>) -> Value {
        storage.value(forKey: key, as: Value.self)
    }
    /// Reads a property's value from the model's storage.
    public func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value?>) -> Value? {
        storage.value(forKey: key, as: Value?.self)
    }
    /// Reads a property's value from the model's storage.
    public func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, [Value]>) -> [Value] {
        storage.value(forKey: key, as: [Value].self)
    }
    /// Reads a property's value from the model's storage.
    public func getValue<Value: PersistentModel>(forKey key: KeyPath<Model, [Value]?>) -> [Value]? {
        storage.value(forKey: key, as: [Value]?.self)
    }

    /// Writes a property's value into the model's storage.
    public func setValue<Value: Encodable>(forKey key: KeyPath<Model, Value>, to newValue: Value) {
        storage.setValue(newValue, forKey: key)
    }
    /// Writes a property's value into the model's storage.
    public func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value>, to newValue: Value) {
        storage.setValue(newValue, forKey: key)
    }
    /// Writes a property's value into the model's storage.
    public func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value?>, to newValue: Value?) {
        storage.setValue(newValue as Any, forKey: key)
    }
    /// Writes a property's value into the model's storage.
    public func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, [Value]>, to newValue: [Value]) {
        storage.setValue(newValue, forKey: key)
    }
    /// Writes a property's value into the model's storage.
    public func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, [Value]?>, to newValue: [Value]?) {
        storage.setValue(newValue as Any, forKey: key)
    }
}

/// What `@Model` keeps behind a model's `persistentBackingData`: nothing until it is first
/// needed. Swift runs a stored property's initial value in every initializer, so a plain
/// `= Workout.createBackingData()` made a new model's backing data even for a model that a
/// context makes around a fetched row, and threw it away (an allocation and about 460
/// instructions a row, callgrind). Empty, the slot costs nothing; a new model's initializer
/// makes the backing data when it sets its first property.
public struct _ModelBackingDataSlot<Model: PersistentModel> {
    @usableFromInline
    var stored: (any BackingData<Model>)?
    /// The storage behind `stored` when that is Cairn's own backing data with its storage
    /// made (a fetched row's, or a new model's once its initializer set a property): getters
    /// read loaded values from it by slot, and init accessors write to it.
    @usableFromInline
    var storage: _FetchedStorage? {
        get { retained }
        set {
            retained = newValue
            unretained = newValue.map { .passUnretained($0.storage) }
        }
    }
    /// What `storage` holds; set only through `storage`, which keeps `unretained` with it.
    @usableFromInline
    private(set) var retained: _FetchedStorage?
    /// `retained`'s storage, unretained: what getters read through. A getter that read
    /// `storage` copied it out of the model, a retain and a release a read (callgrind
    /// SwiftData W6, 18,396.7M -> 18,252.6M, two reads a row). Safe: the model holds
    /// `retained` for as long as a getter runs, and both change together, in `storage`'s
    /// setter, or when the model's whole slot is replaced.
    @usableFromInline
    private(set) var unretained: Unmanaged<ModelStorage>?

    /// The backing data, once there is one.
    @inlinable
    public var existing: (any BackingData<Model>)? { stored }

    /// Cairn's storage behind the model, when the slot holds it (see `storage`).
    @inlinable
    public var existingStorage: _FetchedStorage? { storage }

    /// An empty slot: the backing data is made on first use.
    @inlinable
    public init() {}

    /// A slot holding `backingData` (a fetched row's, or one assigned to
    /// `persistentBackingData`).
    @inlinable
    public init(_ backingData: any BackingData<Model>) {
        stored = backingData
        storage = DefaultBackingData.exactly(backingData)?.existingStorage ?? Self.subclassStorage(of: backingData)
    }

    /// A fetched row's slot (what `@Model`'s `_$makeFetched` makes): its storage only. The
    /// backing data object around it is made when something asks for `persistentBackingData`;
    /// getters and setters reach the storage without it. Making it for every row cost an
    /// allocation and about 300 instructions a fetched row (callgrind, W2), for an object most
    /// models never hand out.
    @inlinable
    public init(fetched: _FetchedStorage) {
        storage = fetched
    }

    /// The backing data: a fetched row's made around its storage, a new model's made empty, if
    /// there is none yet. Inlinable so that the model's own module names the concrete
    /// `DefaultBackingData<Model>`.
    ///
    /// A new model's storage is made here too, and kept in `storage`: a model whose
    /// initializer set no property gets its backing data here, from its first write, and
    /// without the storage in the slot every later read and write went through the backing
    /// data (a key-path lookup, about 2,500 instructions a read) for the model's life.
    @inlinable
    public mutating func resolve() -> any BackingData<Model> {
        if let stored { return stored }
        let made: any BackingData<Model>
        if let storage {
            made = DefaultBackingData<Model>(fetched: storage)
        } else {
            let created: any BackingData<Model> = Model.createBackingData()
            if let own = DefaultBackingData.exactly(created) { storage = own.madeStorage }
            made = created
        }
        stored = made
        return made
    }
}

// Reads for `@Model` getters: a loaded attribute of a fetched row straight from its slot; anything
// else (a value still to fault in, a relationship, a new model, custom backing data) through
// `getValue(forKey:)`. Through the backing data, each read looked its key path up in a
// dictionary (hashing an `AnyKeyPath`) and cast the value in code generic over its type: about
// 2,500 instructions a read (callgrind, W6's two reads a row); specialized here for the
// property's type, a read is the slot and one cast.
extension _ModelBackingDataSlot {
    /// An attribute. The key path is an autoclosure: only a read that misses the slot needs
    /// it, and making it from the getter's literal cost about 64 instructions a read.
    @inlinable
    public func value<Value: Decodable>(of model: Model, forKey key: @autoclosure () -> KeyPath<Model, Value>, slot: Int)
        -> Value
    {
        if let unretained, let value = unretained._withUnsafeGuaranteedRef({ $0.loadedValue(Value.self, at: slot) }) {
            return value
        }
        return model.getValue(forKey: key())
    }
    /// An Optional attribute of a type a slot keeps unboxed (``_ModelSlotPrimitive``): the
    /// slot's case is tested for `Wrapped`, which the compiler resolves where it cannot for
    /// `Wrapped?` (see ``ModelStorage/Slot/exactOptionalPrimitive(_:)``).
    @inlinable
    public func value<Wrapped: _ModelSlotPrimitive>(
        of model: Model, forKey key: @autoclosure () -> KeyPath<Model, Wrapped?>, slot: Int
    ) -> Wrapped? {
        if let unretained, let value = unretained._withUnsafeGuaranteedRef({ $0.loadedOptional(Wrapped.self, at: slot) }) {
            return value
        }
        return model.getValue(forKey: key())
    }
    /// A to-one relationship.
    @inlinable
    public func value<Value: PersistentModel>(of model: Model, forKey key: KeyPath<Model, Value>, slot: Int) -> Value {
        model.getValue(forKey: key)
    }
    /// An optional to-one relationship.
    @inlinable
    public func value<Value: PersistentModel>(of model: Model, forKey key: KeyPath<Model, Value?>, slot: Int) -> Value? {
        model.getValue(forKey: key)
    }
    /// A to-many relationship.
    @inlinable
    public func value<Value: PersistentModel>(of model: Model, forKey key: KeyPath<Model, [Value]>, slot: Int) -> [Value] {
        model.getValue(forKey: key)
    }
    /// An optional to-many relationship.
    @inlinable
    public func value<Value: PersistentModel>(of model: Model, forKey key: KeyPath<Model, [Value]?>, slot: Int)
        -> [Value]?
    {
        model.getValue(forKey: key)
    }
}

// Writes for `@Model` init accessors, which run while a new model is initialized: an attribute
// goes straight to its slot when the backing data is Cairn's own (through the backing data,
// `setValue(forKey:to:)` looked the key path up in a dictionary, about 2,000 instructions a
// property); relationships, and custom backing data, through `setValue(forKey:to:)`.
extension _ModelBackingDataSlot {
    /// An attribute.
    @inlinable
    public mutating func setValue<Value: Encodable>(
        forKey key: @autoclosure () -> KeyPath<Model, Value>, to newValue: Value, slot: Int
    ) {
        initialize(forKey: key, to: newValue) { $0.setValue(newValue, at: slot) }
    }
    /// An Optional attribute of a type a slot keeps unboxed, its case chosen by tests the
    /// compiler resolves (``_FetchedStorage/setValue(optional:at:)``).
    @inlinable
    public mutating func setValue<Wrapped: _ModelSlotPrimitive>(
        forKey key: @autoclosure () -> KeyPath<Model, Wrapped?>, to newValue: Wrapped?, slot: Int
    ) {
        initialize(forKey: key, to: newValue) { $0.setValue(optional: newValue, at: slot) }
    }
    /// Writes an attribute's initial value with `write` into the storage, made first if the
    /// model has none yet, or through the backing data when it is not Cairn's own.
    @inlinable @inline(__always)
    mutating func initialize<Value: Encodable>(
        forKey key: () -> KeyPath<Model, Value>, to newValue: Value, write: (_FetchedStorage) -> Bool
    ) {
        if let storage, write(storage) { return }
        let backingData = resolve()
        // The storage the first property made (`resolve` keeps a new model's; one assigned to
        // `persistentBackingData` has its storage made here): the initializer's other
        // properties, and the getters, reach their slots without going through the backing
        // data again (each time, a copy of the existential and a read of its storage: about
        // 90 instructions a property, callgrind, W1).
        if storage == nil, let own = DefaultBackingData.exactly(backingData) { storage = own.madeStorage }
        if let storage, write(storage) { return }
        backingData.setValue(forKey: key(), to: newValue)
    }
    /// A to-one relationship.
    @inlinable
    public mutating func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value>, to newValue: Value, slot: Int) {
        resolve().setValue(forKey: key, to: newValue)
    }
    /// An optional to-one relationship.
    @inlinable
    public mutating func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, Value?>, to newValue: Value?, slot: Int) {
        resolve().setValue(forKey: key, to: newValue)
    }
    /// A to-many relationship.
    @inlinable
    public mutating func setValue<Value: PersistentModel>(forKey key: KeyPath<Model, [Value]>, to newValue: [Value], slot: Int) {
        resolve().setValue(forKey: key, to: newValue)
    }
    /// An optional to-many relationship.
    @inlinable
    public mutating func setValue<Value: PersistentModel>(
        forKey key: KeyPath<Model, [Value]?>, to newValue: [Value]?, slot: Int
    ) {
        resolve().setValue(forKey: key, to: newValue)
    }
}

// Writes for `@Model` setters: an attribute of a fetched row straight into its slot; anything
// else through the model's `setValue(forKey:to:)` (which keeps relationship inverses in sync).
// Not mutating: a relationship's write reads the slot again through the model.
extension _ModelBackingDataSlot {
    /// An attribute.
    @inlinable
    public func setValue<Value: Encodable>(
        of model: Model, forKey key: @autoclosure () -> KeyPath<Model, Value>, to newValue: Value, slot: Int
    ) {
        if let storage, storage.setValue(newValue, at: slot) { return }
        model.setValue(forKey: key(), to: newValue)
    }
    /// An Optional attribute of a type a slot keeps unboxed (see the init accessors' overload).
    @inlinable
    public func setValue<Wrapped: _ModelSlotPrimitive>(
        of model: Model, forKey key: @autoclosure () -> KeyPath<Model, Wrapped?>, to newValue: Wrapped?, slot: Int
    ) {
        if let storage, storage.setValue(optional: newValue, at: slot) { return }
        model.setValue(forKey: key(), to: newValue)
    }
    /// A to-one relationship.
    @inlinable
    public func setValue<Value: PersistentModel>(of model: Model, forKey key: KeyPath<Model, Value>, to newValue: Value, slot: Int) {
        model.setValue(forKey: key, to: newValue)
    }
    /// An optional to-one relationship.
    @inlinable
    public func setValue<Value: PersistentModel>(
        of model: Model, forKey key: KeyPath<Model, Value?>, to newValue: Value?, slot: Int
    ) {
        model.setValue(forKey: key, to: newValue)
    }
    /// A to-many relationship.
    @inlinable
    public func setValue<Value: PersistentModel>(
        of model: Model, forKey key: KeyPath<Model, [Value]>, to newValue: [Value], slot: Int
    ) {
        model.setValue(forKey: key, to: newValue)
    }
    /// An optional to-many relationship.
    @inlinable
    public func setValue<Value: PersistentModel>(
        of model: Model, forKey key: KeyPath<Model, [Value]?>, to newValue: [Value]?, slot: Int
    ) {
        model.setValue(forKey: key, to: newValue)
    }
}
