import Observation

/// A class whose instances are stored: what `@Model` makes of a class.
///
/// The macro writes the conformance; a model can also be written by hand. This is what
/// `@Model` writes for
///
/// ```swift
/// @Model final class Workout {
///     var title: String
///     var isFavorite: Bool = false
///     init(title: String) { self.title = title }
/// }
/// ```
///
/// (every stored property becomes a computed property backed by the model's backing data,
/// observed through Observation's `ObservationRegistrar`):
///
/// ```swift
/// final class Workout {
///     var title: String {
///         @storageRestrictions(accesses: _$backingData, initializes: _title)
///         init(initialValue) {
///             _$backingData.setValue(forKey: \.title, to: initialValue, slot: 0)
///             _title = _SwiftDataNoType()
///         }
///         get {
///             _$observationRegistrar.access(self, keyPath: \.title)
///             // slot 0: the property's place in schemaMetadata. A fetched row's loaded value
///             // is read from its slot; anything else through self.getValue(forKey: \.title).
///             return _$backingData.value(of: self, forKey: \.title, slot: 0)
///         }
///         set {
///             _$observationRegistrar.withMutation(of: self, keyPath: \.title) {
///                 _$backingData.setValue(of: self, forKey: \.title, to: newValue, slot: 0)
///             }
///         }
///     }
///     @Transient private var _title: _SwiftDataNoType   // `_$title` when the class has a `_title`
///     // … the same for isFavorite; an Optional property's init accessor passes only a
///     // non-nil value on (`if initialValue != nil { … }`): a new model's storage starts its
///     // Optionals at nil, and `init(backingData:)` should not write them into a throwaway …
///
///     init(title: String) { self.title = title }
///
///     // Empty until used: a new model's first property makes its backing data; a fetched
///     // row's model never makes one to throw away.
///     @Transient @exclusivity(unchecked) private var _$backingData = Cairn._ModelBackingDataSlot<Workout>()
///     public var persistentBackingData: any Cairn.BackingData<Workout> {
///         get {
///             if let existing = _$backingData.existing { return existing }
///             return _$backingData.resolve()
///         }
///         set { _$backingData = Cairn._ModelBackingDataSlot(newValue) }
///     }
///     public var _$storage: Cairn._FetchedStorage? { _$backingData.existingStorage }
///     public static var schemaMetadata: [Cairn.Schema.PropertyMetadata] {
///         [
///             Cairn.Schema.PropertyMetadata(name: "title", keypath: \Workout.title),
///             Cairn.Schema.PropertyMetadata(name: "isFavorite", keypath: \Workout.isFavorite,
///                                           defaultValue: (false) as Bool),
///         ]
///     }
///     public required init(backingData: any Cairn.BackingData<Workout>) {
///         _title = _SwiftDataNoType()
///         _isFavorite = _SwiftDataNoType()
///         _$backingData = Cairn._ModelBackingDataSlot(backingData)
///     }
///     // For a final class: fetched rows become models without generic type lookups, and
///     // without a backing data object until one is asked for.
///     private init(_$fetched storage: Cairn._FetchedStorage) {
///         _title = _SwiftDataNoType()
///         _isFavorite = _SwiftDataNoType()
///         _$backingData = Cairn._ModelBackingDataSlot(fetched: storage)
///     }
///     public static func _$makeFetched(_ storage: consuming Cairn._FetchedStorage) -> Workout {
///         Workout(_$fetched: storage)
///     }
///     // Observation's registrar, made on the model's first read (a fetched model dropped
///     // unread does not pay for one; see `_ModelObservationRegistrar`).
///     @Transient @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar =
///         Cairn._ModelObservationRegistrar()
///     struct _SwiftDataNoType {}
/// }
/// extension Workout: Cairn.PersistentModel {}
/// extension Workout: Observation.Observable {}
/// extension Workout: Swift.Hashable {}   // implied by PersistentModel; stated for models
///                                         // named in a `Set` above their declaration
/// extension Workout: Cairn.Table {   // Cairn: the model in typed SQL (values and aggregates)
///     struct TableColumns: Cairn.PrimaryKeyedTableDefinition, Sendable {
///         typealias QueryValue = Workout
///         let title = Cairn.TableColumn<Workout, String>("title", table: Workout.tableName)
///         let isFavorite = Cairn.TableColumn<Workout, Bool>("isFavorite", table: Workout.tableName)
///         var primaryKey: Cairn.TableColumn<Workout, Int> { Cairn._ModelTable.primaryKey(Workout.self) }
///         var allColumns: [any Cairn.TableColumnExpression] { Cairn._ModelTable.allColumns(Workout.self) }
///     }
///     static let columns = TableColumns()
///     static var tableName: String { Cairn._ModelTable.tableName(Workout.self) }
///     static var columnWidth: Int { columns.allColumns.count }
///     static func decode(from decoder: inout Cairn.QueryDecoder) throws -> Workout {
///         throw Cairn._ModelTable.rowDecodingUnsupported(Workout.self)
///     }
/// }
/// ```
///
/// A model written by hand may leave out the `Table` extension; it then has no typed-SQL
/// surface.
///
/// `#Unique<Workout>([\.title])` adds `static var _$uniquenessConstraints: [[AnyKeyPath]]` and
/// `#Index<Workout>([\.minutes])` adds `static var _$indices: [[AnyKeyPath]]`.
public protocol PersistentModel: AnyObject, Observable, Hashable, Identifiable, FetchRequestResult {
    /// Makes a model around existing backing data (a context does this for each fetched row).
    init(backingData: any BackingData<Self>)
    /// The persisted properties: name, key path, default value and options.
    static var schemaMetadata: [Schema.PropertyMetadata] { get }
    /// The storage behind the model's properties.
    var persistentBackingData: any BackingData<Self> { get set }
    /// Key-path lists that must be unique together, from `#Unique`. Defaults to none.
    static var _$uniquenessConstraints: [[AnyKeyPath]] { get }
    /// Key-path lists to index, from `#Index`. Defaults to none.
    static var _$indices: [[AnyKeyPath]] { get }
    /// Cairn: the model of a fetched row, made around the row's storage. `@Model` writes this
    /// for a `final` class, where it is compiled for the concrete type: the generic default
    /// looks up `DefaultBackingData<Self>`'s type metadata and conformance on every row.
    /// The model must keep `storage` (through its backing data): the fetch holds no other
    /// reference to it until the model is registered. An implementation that calls a
    /// hand-written `init(backingData:)` must go through ``_FetchedStorage/model(_:)``, which
    /// keeps a dropped storage alive and marks it, so that the fetch throws
    /// `ModelError.invalidSchema` (the default and `@Model`'s do); one that drops the storage
    /// otherwise leaves the fetch reading freed memory.
    static func _$makeFetched(_ storage: consuming _FetchedStorage) -> Self
    /// Cairn: the model's storage when its backing data is Cairn's own and has made one, or
    /// `nil` to look through ``persistentBackingData``. `@Model` writes this, compiled for the
    /// class; the default answers `nil`.
    var _$storage: _FetchedStorage? { get }
    /// Cairn: the model class this one inherits its persisted properties from, or `nil`.
    /// `@Model` writes it on a non-final class as a `class var` answering `nil`, and on a
    /// subclass (`@Model class Tutorial: Article`) as an override answering `Article.self`.
    static var _$superentityType: (any PersistentModel.Type)? { get }
}

/// Cairn's storage behind a model, opaque outside Cairn: a fetched row's on its way into a
/// model (``PersistentModel/_$makeFetched(_:)``), and what `@Model` accessors read and write
/// by slot (``_ModelBackingDataSlot``).
public struct _FetchedStorage {
    @usableFromInline
    let storage: ModelStorage

    /// Sets slot `slot` (recording the change, as `setValue(forKey:to:)` does); `false` for a
    /// slot the entity does not have. A value of a common attribute type is kept unboxed, as a
    /// fetch keeps it (``ModelStorage/Primitive``). Inlined into the model's module, so that
    /// the choice is made when the setter is compiled.
    /// The model `make` builds around this storage's backing data, through a hand-written
    /// `init(backingData:)`. The fetch keeps no reference to a new row's storage beside its
    /// model, so if the model drops the backing data it was given, the storage is kept alive
    /// for good (a leak, for a model that breaks SwiftData's rule) and marked, and the fetch,
    /// reading the mark, throws instead of reading freed memory. Only models made here are
    /// checked: `@Model`'s `init(_$fetched:)` always keeps its storage, and the check cost
    /// every fetched row about 80 instructions (callgrind W2).
    public consuming func model<Model: PersistentModel>(
        _ make: (DefaultBackingData<Model>) -> Model
    ) -> Model {
        let storage = self.storage
        let model = make(DefaultBackingData<Model>(fetched: self))
        if model._storage !== storage {
            _ = Unmanaged.passRetained(storage)
            storage.droppedByModel = true
        }
        return model
    }

    @inlinable
    func setValue<Value>(_ value: Value, at slot: Int) -> Bool {
        setValue(value, as: ModelStorage.Primitive.make(value), at: slot)
    }

    /// ``setValue(_:at:)`` for an Optional of one of ``ModelStorage/Primitive``'s types, its
    /// case chosen by tests the compiler resolves (``ModelStorage/Primitive/make(optional:)``).
    @inlinable
    func setValue<Wrapped: _ModelSlotPrimitive>(optional value: Wrapped?, at slot: Int) -> Bool {
        setValue(value, as: ModelStorage.Primitive.make(optional: value), at: slot)
    }

    /// Sets slot `slot` to `primitive`, or to `value` boxed when it has no primitive case.
    @inlinable @inline(__always)
    func setValue<Value>(_ value: Value, as primitive: ModelStorage.Primitive?, at slot: Int) -> Bool {
        guard slot >= 0, slot < storage.slotCount else { return false }
        if let primitive {
            storage.setSlot(.primitive(primitive), at: slot)
        } else {
            storage.setSlot(.value(value), at: slot)
        }
        return true
    }
}

extension PersistentModel {
    public static var _$uniquenessConstraints: [[AnyKeyPath]] { [] }
    public static var _$indices: [[AnyKeyPath]] { [] }

    /// The backing data `@Model` gives a new instance. Inlinable, so that the model's own
    /// module names the concrete `DefaultBackingData<P>` (a generic call looks its type up at
    /// run time for every instance).
    @inlinable
    public static func createBackingData<P: PersistentModel>() -> some BackingData<P> {
        DefaultBackingData<P>(for: P.self)
    }

    public static func _$makeFetched(_ storage: consuming _FetchedStorage) -> Self {
        storage.model { Self(backingData: $0) }
    }

    public var _$storage: _FetchedStorage? { nil }

    public static var _$superentityType: (any PersistentModel.Type)? { nil }

    /// Cairn's storage behind the model, or `nil` for a hand-written custom backing data.
    var _storage: ModelStorage? {
        if let made = _$storage { return made.storage }
        return DefaultBackingData.exactly(persistentBackingData)?.storage
    }

    /// The identity of the model's row: temporary until the first save, then permanent.
    public var persistentModelID: PersistentIdentifier {
        persistentBackingData.persistentModelID ?? .temporary(entityName: Schema.entityName(for: Self.self))
    }

    /// `Identifiable`: the model's ``persistentModelID``.
    public var id: PersistentIdentifier { persistentModelID }

    /// The context the model is registered with, or `nil` before insertion.
    public var modelContext: ModelContext? { _storage?.context }

    /// Whether the model has changes its context has not saved: it is new, changed or deleted.
    public var hasChanges: Bool { _storage?.hasChanges ?? false }

    /// Whether the model was deleted from its context (pending or saved).
    public var isDeleted: Bool { _storage?.isDeleted ?? false }

    /// Cairn: the names of the properties changed since the last save (every property of a
    /// model never saved).
    ///
    /// ```swift
    /// workout.minutes = 45
    /// workout.changedPropertyNames   // ["minutes"]
    /// ```
    public var changedPropertyNames: Set<String> { _storage?.changedPropertyNames ?? [] }

    // MARK: Hashable, by identity (one instance per row per context)

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    // MARK: Values by key path (what the generated accessors call)

    /// Reads an attribute through the backing data (faulting it in if needed).
    public func getValue<Value: Decodable>(forKey key: KeyPath<Self, Value>) -> Value {
        persistentBackingData.getValue(forKey: key)
    }
    /// Reads a to-one relationship.
    public func getValue<Value: PersistentModel>(forKey key: KeyPath<Self, Value>) -> Value {
        persistentBackingData.getValue(forKey: key)
    }
    /// Reads an optional to-one relationship.
    public func getValue<Value: PersistentModel>(forKey key: KeyPath<Self, Value?>) -> Value? {
        persistentBackingData.getValue(forKey: key)
    }
    /// Reads a to-many relationship.
    public func getValue<Value: PersistentModel>(forKey key: KeyPath<Self, [Value]>) -> [Value] {
        persistentBackingData.getValue(forKey: key)
    }
    /// Reads an optional to-many relationship.
    public func getValue<Value: PersistentModel>(forKey key: KeyPath<Self, [Value]?>) -> [Value]? {
        persistentBackingData.getValue(forKey: key)
    }

    /// Writes an attribute through the backing data, recording the change.
    public func setValue<Value: Encodable>(forKey key: KeyPath<Self, Value>, to newValue: Value) {
        persistentBackingData.setValue(forKey: key, to: newValue)
    }
    /// Writes a to-one relationship, keeping its inverse in sync.
    public func setValue<Value: PersistentModel>(forKey key: KeyPath<Self, Value>, to newValue: Value) {
        setRelationship(key, newValue) { persistentBackingData.setValue(forKey: key, to: newValue) }
    }
    /// Writes an optional to-one relationship, keeping its inverse in sync.
    public func setValue<Value: PersistentModel>(forKey key: KeyPath<Self, Value?>, to newValue: Value?) {
        setRelationship(key, newValue as Any) { persistentBackingData.setValue(forKey: key, to: newValue) }
    }
    /// Writes a to-many relationship, keeping its inverse in sync.
    public func setValue<Value: PersistentModel>(forKey key: KeyPath<Self, [Value]>, to newValue: [Value]) {
        setRelationship(key, newValue) { persistentBackingData.setValue(forKey: key, to: newValue) }
    }
    /// Writes an optional to-many relationship, keeping its inverse in sync.
    public func setValue<Value: PersistentModel>(forKey key: KeyPath<Self, [Value]?>, to newValue: [Value]?) {
        setRelationship(key, newValue as Any) { persistentBackingData.setValue(forKey: key, to: newValue) }
    }

    func setRelationship(_ key: AnyKeyPath, _ newValue: Any, write: () -> Void) {
        guard let storage = _storage, let index = storage.entity.slot(for: key),
            let relationship = storage.entity.properties[index] as? Schema.Relationship
        else { return write() }
        storage.owner = self
        if case .value(let oldValue) = storage.slots[index] {
            write()
            if RelationshipSync.didSet(storage, model: self, relationship: relationship, oldValue: oldValue, newValue: newValue) {
                return
            }
            RelationshipSync.didSet(storage, model: self, relationship: relationship, old: relatedModels(oldValue),
                                    new: relatedModels(newValue))
            return
        }
        let old = storage.currentRelatedModels(at: index)
        write()
        RelationshipSync.didSet(storage, model: self, relationship: relationship, old: old, new: relatedModels(newValue))
    }
}

