import Foundation

/// The state behind one model instance: a slot per persisted property, the committed value of
/// each property changed since the last save, the model's identifier and its context.
///
/// Values are Swift values: `Int64`, `Int`, `Double`, `String`, `Bool`, `Date` and their
/// Optionals unboxed (`.primitive`, see ``Primitive``), anything else as `Any` (`.value`), in a
/// box of its own (`indirect`): an inline `Any` made every slot 40 bytes, the box makes it 24,
/// and most slots hold primitives. `Slot.loaded` gives either as `Any`. A to-one relationship
/// read from a row starts as the related row's primary key (`.raw`) and becomes a model on
/// first access; a property whose column was not fetched is `.unloaded` and is faulted in by
/// the context on first access.
///
/// The slots are tail-allocated in the storage object (a `ManagedBuffer`), and the other
/// fields live in its header: a fetch makes one storage per row, and a separate `[Slot]` was
/// a second allocation plus a run-time lookup of `_ContiguousArrayStorage<Slot>`'s metadata
/// on every row.
@usableFromInline
final class ModelStorage: ManagedBuffer<ModelStorage.Fields, ModelStorage.Slot> {
    @usableFromInline
    enum Slot {
        case unloaded
        case raw(DatabaseValue)
        /// Boxed: a slot is 24 bytes rather than 40 (a 14-property storage 432 bytes, not 656).
        indirect case value(Any)
        /// A fetched value of a common attribute type, unboxed (see ``Primitive``).
        case primitive(Primitive)
    }

    /// Where the model is in its life.
    enum State: Equatable {
        /// Made in memory, not inserted in a context.
        case new
        /// Inserted in a context, not saved yet.
        case inserted
        /// Has a row in the store.
        case persisted
        /// Deleted in its context; the delete is not saved yet.
        case deleted
        /// Its row was deleted by a save.
        case deletedSaved
    }

    /// Everything but the slots (a `ManagedBuffer` subclass keeps its stored state in the header).
    @usableFromInline
    struct Fields {
        /// The model's entity.
        let entity: Schema.Entity
        var changed = SlotSet()
        var identifier: PersistentIdentifier
        var state: State
        /// Set when a model made around this storage did not keep it (a hand-written
        /// `init(backingData:)` that drops what it is given): the storage is then kept alive on
        /// purpose and the fetch throws (`_FetchedStorage.model(_:)`). Beside `state`, it takes
        /// the header's padding, not a word of its own.
        var droppedByModel = false
        /// The context's link, held strongly: assigning it costs a retain, where a `weak`
        /// context reference cost a weak-reference update per fetched row (about 70
        /// instructions, callgrind W2).
        var link: ContextLink?
        /// What few storages use, made when first set (see ``RareFields``).
        var rare: RareFields?
        /// The number of slots: the entity's property count. Last, next to the first slots: a
        /// getter checks its slot against it, and a model read where nothing of it is in the
        /// cache then loads one line for the count and the first slots, not two.
        @usableFromInline
        let slotCount: Int
    }

    /// The fields most storages never set, in a box made when one is: the committed values of
    /// edited properties, a hand-written model's values outside its schema, and the model
    /// once something names it. In the header they were two empty dictionaries and a box
    /// reference: 16 bytes more in every fetched row's storage, and two more releases when it
    /// is freed.
    final class RareFields {
        var originals: [Int: Slot] = [:]
        var extra: [AnyKeyPath: Any] = [:]
        /// The model, held weakly (the model holds the storage). A `weak` field in the header
        /// cost every fetched row a weak-reference initialization and destruction, and made
        /// the header a type the runtime moves through value witnesses (`swift_weakTakeInit`,
        /// about 55 instructions a row, callgrind W2).
        weak var owner: (any PersistentModel)?
        /// Whether a model was ever named as the owner.
        var ownerNamed = false
    }

    /// The storage of a new model: its Optional properties are `nil` and changed, as Swift's
    /// implicit initialization leaves them; the model's initializer sets the rest.
    static func new(entity: Schema.Entity) -> ModelStorage {
        let storage = make(entity: entity, identifier: { .temporary(scope: entity.unsavedScope) }, state: .new)
        for (slot, value) in entity.implicitNils {
            storage.slots[slot] = value
            storage.changed.insert(slot)
        }
        return storage
    }

    /// The storage of a stored row; `fill` writes its slots, which start `.unloaded` (they
    /// are all initialized whether or not `fill` throws).
    static func stored(
        entity: Schema.Entity, identifier: PersistentIdentifier, fill: (UnsafeMutablePointer<Slot>) throws -> Void
    ) rethrows -> ModelStorage {
        let storage = make(entity: entity, identifier: { identifier }, state: .persisted)
        try storage.withUnsafeMutablePointerToElements { try fill($0) }
        return storage
    }

    /// The storage of row `primaryKey` of a fetch, linked to the context behind `link` (which
    /// registers it after the fetch's last row, `registerFetched`);
    /// `fill` writes its slots, as above. The identifier is made in the storage's header and
    /// the link set there: an identifier made first and copied in cost a retain and a release
    /// of its scope, and setting the link afterwards a store and a release (callgrind, W2).
    @inline(__always)
    static func fetched(
        entity: Schema.Entity, scope: IdentifierScope, primaryKey: Int64, link: ContextLink,
        fill: (UnsafeMutablePointer<Slot>) throws -> Void
    ) rethrows -> ModelStorage {
        let storage = make(
            entity: entity, identifier: { .permanent(scope: scope, primaryKey: primaryKey) }, state: .persisted, link: link)
        try storage.withUnsafeMutablePointerToElements { try fill($0) }
        return storage
    }

    /// The storage of a stored row whose slots are all `.unloaded`.
    static func stored(entity: Schema.Entity, identifier: PersistentIdentifier) -> ModelStorage {
        make(entity: entity, identifier: { identifier }, state: .persisted)
    }

    /// `identifier` is called once, inside the header's initializer: an identifier it makes
    /// there (`fetched`) is moved into the header rather than copied; one it captures (`new`,
    /// `stored`) is copied, as before.
    @inline(__always)
    private static func make(
        entity: Schema.Entity, identifier: () -> PersistentIdentifier, state: State, link: ContextLink? = nil
    ) -> ModelStorage {
        let count = entity.properties.count
        let buffer = create(minimumCapacity: count) { _ in
            Fields(entity: entity, identifier: identifier(), state: state, link: link, slotCount: count)
        }
        // `create` makes an instance of the class it is called on.
        let storage = unsafeDowncast(buffer, to: ModelStorage.self)
        // One store per slot: `initialize(repeating:count:)` copied the `.unloaded` value
        // through an outlined copy of `Slot` per element.
        storage.withUnsafeMutablePointerToElements { slots in
            for index in 0..<count { (slots + index).initialize(to: .unloaded) }
        }
        return storage
    }

    deinit {
        withUnsafeMutablePointers { fields, slots in
            let count = fields.pointee.slotCount
            if SlotLayout.textAtStart {
                for index in 0..<count { Self.destroy(slots + index) }
            } else {
                for index in 0..<count { _ = (slots + index).move() }
            }
        }
    }

    /// Destroys a slot in place, case by case, so that the numbers and Bools most slots hold
    /// cost nothing and text costs one release. `deinitialize(count:)` destroyed every slot
    /// through `Slot`'s value witness and then `Primitive`'s (about 37 instructions a slot);
    /// a `switch` over the consumed slot still called the outlined consumes of `Slot` and
    /// then `Primitive` for each text value (about 26 instructions before the release,
    /// callgrind W6). The text cases are destroyed as the `String` or `String?` at the
    /// slot's start, where ``SlotLayout`` has checked that Swift keeps them.
    @inline(__always)
    private static func destroy(_ slot: UnsafeMutablePointer<Slot>) {
        switch slot.pointee {  // Reads the case only: no payload is copied.
        case .unloaded: return
        case .primitive(.string):
            UnsafeMutableRawPointer(slot).withMemoryRebound(to: String.self, capacity: 1) { _ = $0.move() }
        case .primitive(.optionalString):
            UnsafeMutableRawPointer(slot).withMemoryRebound(to: String?.self, capacity: 1) { _ = $0.move() }
        case .primitive: return
        case .raw, .value: _ = slot.move()
        }
    }

    // MARK: - Fields

    /// The header, reached through its address. `ManagedBuffer.header` is a stored property of
    /// a class in another module, so each access to it through the property paid a dynamic
    /// exclusivity check (about 76 instructions, twice per fetched row). A storage is confined
    /// to its context's thread or actor, no access below overlaps another, and the address
    /// stays valid while `self` is alive, which every caller here keeps it.
    @inline(__always)
    fileprivate var fields: UnsafeMutablePointer<Fields> {
        withUnsafeMutablePointerToHeader { $0 }
    }

    var entity: Schema.Entity { fields.pointee.entity }

    /// Whether something has named the storage's owner, so that it keeps it weakly (tests
    /// check that a model without relationships never does).
    var ownerIsNamed: Bool { fields.pointee.rare?.ownerNamed ?? false }

    /// Whether the rare fields' box was made (for tests).
    var hasRareFields: Bool { fields.pointee.rare != nil }

    /// The rare fields' box, made on first use.
    private var rare: RareFields {
        if let rare = fields.pointee.rare { return rare }
        let made = RareFields()
        fields.pointee.rare = made
        return made
    }

    /// The slots, read and written in place.
    var slots: Slots { Slots(storage: self) }

    /// The committed slot of every property changed since the last save (for rollback).
    /// Setting it empty makes no box where there is none (every save of every model does).
    var originals: [Int: Slot] {
        get { fields.pointee.rare?.originals ?? [:] }
        set {
            if newValue.isEmpty, fields.pointee.rare == nil { return }
            rare.originals = newValue
        }
        _modify {
            let box = self.rare
            yield &box.originals
        }
    }

    /// The properties changed since the last save (every property set on a new model).
    var changed: SlotSet {
        get { fields.pointee.changed }
        _modify { yield &fields.pointee.changed }
    }

    var identifier: PersistentIdentifier {
        get { fields.pointee.identifier }
        set { fields.pointee.identifier = newValue }
    }

    var state: State {
        get { fields.pointee.state }
        set { fields.pointee.state = newValue }
    }

    /// Whether the model made around this storage did not keep it (see `Fields.droppedByModel`).
    var droppedByModel: Bool {
        get { fields.pointee.droppedByModel }
        set { fields.pointee.droppedByModel = newValue }
    }

    /// The context the model is registered with.
    var context: ModelContext? {
        get { fields.pointee.link?.context }
        set { fields.pointee.link = newValue?.link }
    }

    /// The link to the model's context (for a context that goes away and moves the models it
    /// leaves to another link, ModelStorage+Detach.swift).
    var link: ContextLink? {
        get { fields.pointee.link }
        set { fields.pointee.link = newValue }
    }

    /// The context that loads what the model has not loaded yet: its own, or, once that is
    /// gone, one of the same container's made for the models it left behind.
    var loadingContext: ModelContext? {
        context ?? fields.pointee.link?.detachedContext
    }

    /// The model this storage backs, once known (set by relationship setters, and by a
    /// context inserting a model whose entity has relationships); needed to put the model into
    /// the inverse of a relationship, so only storages with relationship slots are asked. A
    /// model a context made from a row is found through the context instead: a weak reference
    /// per fetched model would cost an allocation each.
    var owner: (any PersistentModel)? {
        get { fields.pointee.rare?.owner ?? context?.tracked[ObjectIdentifier(self)] }
        set {
            guard newValue != nil || fields.pointee.rare?.ownerNamed == true else { return }
            let box = self.rare
            box.owner = newValue
            box.ownerNamed = true
        }
    }

    /// Values of key paths outside the schema metadata (hand-written models only).
    var extra: [AnyKeyPath: Any] {
        get { fields.pointee.rare?.extra ?? [:] }
        _modify {
            let box = self.rare
            yield &box.extra
        }
    }

    /// A view of the tail-allocated slots.
    struct Slots {
        let storage: ModelStorage

        var count: Int { storage.slotCount }

        subscript(index: Int) -> Slot {
            get {
                precondition(index >= 0 && index < count, "slot \(index) out of range")
                return storage.withUnsafeMutablePointerToElements { $0[index] }
            }
            nonmutating set {
                precondition(index >= 0 && index < count, "slot \(index) out of range")
                storage.withUnsafeMutablePointerToElements { $0[index] = newValue }
            }
        }
    }

    /// Takes every slot of another storage of the same entity.
    func copySlots(from other: ModelStorage) {
        for index in 0..<Swift.min(slots.count, other.slots.count) { slots[index] = other.slots[index] }
    }

    var hasChanges: Bool {
        switch state {
        case .inserted, .deleted: true
        case .new, .persisted: !changed.isEmpty
        case .deletedSaved: false
        }
    }

    var isDeleted: Bool { state == .deleted || state == .deletedSaved }

    var changedPropertyNames: Set<String> { Set(changed.map { entity.properties[$0].name }) }

    // MARK: - Reading

    func value<Value>(forKey key: AnyKeyPath, as type: Value.Type) -> Value {
        guard let index = entity.slot(for: key) else {
            if let value = extra[key] as? Value { return value }
            return Self.placeholder(Value.self, property: key.debugDescription, entity: entity.name, defaultValue: nil)
        }
        return value(at: index, as: type)
    }

    func value<Value>(at index: Int, as type: Value.Type) -> Value {
        if case .unloaded = slots[index], let context = loadingContext { context.faultIn(self, slot: index) }
        switch slots[index] {
        case .value(let value):
            if let value = value as? Value { return value }
        case .primitive(let primitive):
            if let value = primitive.cast(to: Value.self) { return value }
        case .raw(let raw):
            if let context = loadingContext, let resolved = context.resolve(raw, property: entity.properties[index], of: self),
                let value = resolved as? Value
            {
                slots[index] = .value(value)
                return value
            }
        case .unloaded:
            break
        }
        let property = entity.properties[index]
        return Self.placeholder(
            Value.self, property: property.name, entity: entity.name,
            defaultValue: (property as? Schema.Attribute)?.defaultValue)
    }

    /// The slot's Swift value if it is loaded, without faulting or resolving.
    func loadedValue(at index: Int) -> Any? {
        slots[index].loaded
    }

    /// Slot `index`'s Swift value as `Value` if it is loaded and of that type; `nil` for an
    /// unloaded slot, one the entity does not have, or a value of another type. What `@Model`
    /// getters read: inlined into the model's module, so that the check is compiled for the
    /// property's type.
    @inlinable
    func loadedValue<Value>(_ type: Value.Type, at index: Int) -> Value? {
        withUnsafeMutablePointers { fields, slots in
            guard index >= 0, index < fields.pointee.slotCount else { return nil }
            if let value = (slots + index).pointee.exactPrimitive(Value.self) { return value }
            switch slots[index] {
            case .primitive(let primitive): return primitive.cast(to: Value.self)
            case .value(let value): return exactCast(value, to: Value.self)
            case .unloaded, .raw: return nil
            }
        }
    }

    /// ``loadedValue(_:at:)`` for an Optional property of one of ``ModelStorage/Primitive``'s
    /// types: its exact case read with resolved tests (``Slot/exactOptionalPrimitive(_:)``),
    /// anything else through the general path.
    @inlinable
    func loadedOptional<Wrapped: _ModelSlotPrimitive>(_ type: Wrapped.Type, at index: Int) -> Wrapped?? {
        let exact = withUnsafeMutablePointers { fields, slots -> Wrapped?? in
            guard index >= 0, index < fields.pointee.slotCount else { return nil }
            return (slots + index).pointee.exactOptionalPrimitive(Wrapped.self)
        }
        return exact ?? loadedValue(Wrapped?.self, at: index)
    }

    // MARK: - Writing

    func setValue(_ value: Any, forKey key: AnyKeyPath) {
        guard let index = entity.slot(for: key) else {
            extra[key] = value
            return
        }
        setValue(value, at: index)
    }

    func setValue(_ value: Any, at index: Int) {
        setSlot(.value(value), at: index)
    }

    /// Sets a slot to a new value (`.value` or `.primitive`), recording the change.
    @usableFromInline
    func setSlot(_ slot: Slot, at index: Int) {
        if state != .new, originals[index] == nil { originals[index] = slots[index] }
        slots[index] = slot
        changed.insert(index)
        context?.noteChange(of: self, at: index)
    }

    /// The number of slots, for bounds checks in code inlined into a model's module.
    @usableFromInline
    var slotCount: Int { fields.pointee.slotCount }

    /// The models a relationship slot holds now, loading it if needed (an unloaded slot of a
    /// model without a stored row is empty).
    func currentRelatedModels(at index: Int) -> [any PersistentModel] {
        switch slots[index] {
        case .value(let value):
            return relatedModels(value)
        case .primitive:
            return []
        case .raw, .unloaded:
            guard loadingContext != nil else { return [] }
            return relatedModels(value(at: index, as: Any.self))
        }
    }

    /// After a successful save: the current values are the committed ones.
    func commit(identifier: PersistentIdentifier? = nil) {
        if let identifier { self.identifier = identifier }
        originals = [:]
        changed = []
        switch state {
        case .new, .inserted, .persisted: state = .persisted
        case .deleted, .deletedSaved: state = .deletedSaved
        }
    }

    /// Puts back the committed value of every changed property; returns the restored slots.
    @discardableResult
    func restoreOriginals() -> [Int] {
        let restored = Array(originals.keys)
        for (index, slot) in originals { slots[index] = slot }
        originals = [:]
        changed = []
        return restored
    }

    // MARK: - Placeholders

    /// A value for a property that has none (its row is gone, or a hand-written model read a key
    /// path it never set): the declared default, `nil`, an empty collection, zero, an empty
    /// string, or a placeholder model. A getter cannot throw, so this is the least surprising
    /// answer. A `Codable` type gets its fields' empty values (``EmptyValueDecoder``); one that
    /// cannot be made even so has none, and a fetch never leaves such a property unloaded (see
    /// `TableLayout.alwaysLoaded`).
    static func placeholder<Value>(_ type: Value.Type, property: String, entity: String, defaultValue: Any?) -> Value {
        if let value = emptyValue(Value.self, defaultValue: defaultValue) { return value }
        // Not reachable from a stored row: a fetch always reads the columns of such types
        // (`TableLayout.alwaysLoaded`), so only a hand-written model reading a key path it
        // never set gets here.
        preconditionFailure(
            "\(entity).\(property) has no value: its row was deleted or never loaded, and \(Value.self) has no empty value")
    }

    /// The value `placeholder` falls back to, or `nil` when `Value` has none.
    static func emptyValue<Value>(_ type: Value.Type, defaultValue: Any?) -> Value? {
        if let value = defaultValue as? Value { return value }
        if let optional = Value.self as? any _OptionalBuilding.Type, let value = optional._nilValue as? Value {
            return value
        }
        if let value = ([] as [Any]) as? Value { return value }
        if let model = Value.self as? any PersistentModel.Type, let value = makePlaceholderModel(model) as? Value {
            return value
        }
        if let value = emptyPrimitive(Value.self) { return value }
        if let decodable = Value.self as? any Decodable.Type {
            for json in ["null", "[]", "{}", "0", "\"\"", "false"] {
                if let value = try? JSONDecoder().decode(decodable, from: Data(json.utf8)) as? Value { return value }
            }
            if let value = EmptyValueDecoder.make(decodable) as? Value { return value }
        }
        return nil
    }

    /// "", zero, false, empty data, the nil UUID or `about:blank`, for a column primitive ("" is
    /// tried first: a `String` read as the number 0 would be "0").
    static func emptyPrimitive<Value>(_ type: Value.Type) -> Value? {
        guard let primitive = Value.self as? any ColumnPrimitive.Type else { return nil }
        for candidate: DatabaseValue in [.text(""), .integer(0), .blob(Data()), .text("00000000-0000-0000-0000-000000000000"), .text("about:blank")] {
            if let value = primitive.init(databaseValue: candidate) as? Value { return value }
        }
        return nil
    }

    /// Whether a property of `type` can be left unloaded: reading it after its row is gone
    /// needs an empty value.
    static func hasEmptyValue(_ type: any Any.Type, defaultValue: Any?) -> Bool {
        func check<Value>(_ type: Value.Type) -> Bool { emptyValue(Value.self, defaultValue: defaultValue) != nil }
        return check(type)
    }

    private static func makePlaceholderModel<M: PersistentModel>(_ type: M.Type) -> M {
        M(backingData: DefaultBackingData<M>(for: M.self))
    }
}

/// `value as? Value`, with the common case first: a slot holds a value of exactly its
/// property's type, and comparing the opened type with `Value` and copying the value costs a
/// few dozen instructions where `swift_dynamicCast` from `Any` cost about 290 (callgrind, W6's
/// two reads a row). Any other type goes through the dynamic cast, so the answer is the same.
@inlinable
func exactCast<Value>(_ value: Any, to type: Value.Type) -> Value? {
    func open<Opened>(_ opened: Opened) -> Value? {
        Opened.self == Value.self ? unsafeBitCast(opened, to: Value.self) : opened as? Value
    }
    return _openExistential(value, do: open)
}
