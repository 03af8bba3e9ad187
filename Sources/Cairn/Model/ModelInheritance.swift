/// How a model of a subclass (`@Model class Tutorial: Article`) gets one storage for all its
/// properties.
///
/// Swift initializes a subclass's own properties before it calls `super.init`, and neither
/// initializer can see the instance's class: the root's init accessors write into the root's
/// slot (`_ModelBackingDataSlot<Article>`), which makes an `Article` storage, and the
/// subclass's into its own slot (`_ModelBackingDataSlot<Tutorial>`). The first time Cairn or
/// a getter reaches the model through `_$storage` (the root's `persistentBackingData` goes
/// through it too), the root's slot is given a storage of the instance's entity, with the
/// root's values at the same slots (a subentity's properties start with its superentity's),
/// and each subclass moves the values its initializer set into it. Fetched models are made
/// around a storage of their entity, and skip both steps.
extension _ModelBackingDataSlot {
    /// Makes the slot's storage one of `model`'s entity, for a model of a subclass of `Model`.
    /// One comparison for a model of `Model` itself.
    @inlinable
    public mutating func conform(to model: Model) {
        let dynamicType = type(of: model)
        if dynamicType == Model.self { return }
        conform(toSubclass: dynamicType)
    }

    @usableFromInline
    mutating func conform(toSubclass type: any PersistentModel.Type) {
        let entity = Schema.Entity.cached(for: type)
        guard let current = storage?.storage else {
            // Custom backing data, or a subclass's `DefaultBackingData` handed to
            // `init(backingData:)`: its storage, if any, is found through it.
            guard stored == nil else { return }
            self = _ModelBackingDataSlot(DefaultBackingData<Model>(storage: ModelStorage.new(entity: entity)))
            return
        }
        guard current.entity !== entity, current.state == .new, current.slotCount <= entity.properties.count else { return }
        let upgraded = ModelStorage.new(entity: entity)
        var changed = upgraded.changed
        for index in 0..<current.slotCount {
            upgraded.slots[index] = current.slots[index]
            if current.changed.contains(index) { changed.insert(index) } else { changed.remove(index) }
        }
        upgraded.changed = changed
        self = _ModelBackingDataSlot(DefaultBackingData<Model>(storage: upgraded))
    }

    /// Moves the values a subclass's initializer set in this slot (the subclass's own) into
    /// `target`, the model's storage, and empties the slot. Only the subclass's own properties
    /// move: its slot's storage also starts the inherited Optionals at `nil`.
    public mutating func mergeSubclassValues(into target: _FetchedStorage?) -> _FetchedStorage? {
        guard let pending = storage?.storage else { return target }
        self = _ModelBackingDataSlot()
        guard let model = target?.storage, model !== pending else { return target }
        let target = model
        let own = pending.entity.inheritedProperties.count..<min(pending.slotCount, target.slotCount)
        var changed = target.changed
        for index in own where pending.changed.contains(index) {
            target.slots[index] = pending.slots[index]
            changed.insert(index)
        }
        target.changed = changed
        return _FetchedStorage(storage: target)
    }

    /// The storage of Cairn's backing data made for a subclass of `Model` (the generic
    /// `M(backingData: DefaultBackingData<M>(…))` paths make `DefaultBackingData<Tutorial>`
    /// and hand it on as `any BackingData<Article>`), or `nil`.
    @usableFromInline
    static func subclassStorage(of backingData: any BackingData<Model>) -> _FetchedStorage? {
        (backingData as? any AnyDefaultBackingData)?.existingStorage
    }
}

/// `DefaultBackingData` of any model type.
protocol AnyDefaultBackingData {
    var existingStorage: _FetchedStorage? { get }
}

extension DefaultBackingData: AnyDefaultBackingData {}
