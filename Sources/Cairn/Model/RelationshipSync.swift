/// Keeps both sides of a relationship in agreement: setting `item.trip = trip` adds `item` to
/// `trip.items` and removes it from its former trip's `items`; setting `trip.items` sets each
/// item's `trip`. Many-to-many relationships are kept the same way.
///
/// The inverse side is written through its model's setter when the model is known, so
/// observers of `trip.items` hear `item.trip = trip`; the nested sync that setter starts finds
/// both sides already agreeing and stops.
enum RelationshipSync {
    /// A relationship of `owner` changed from `old` to `new` models.
    static func didSet(
        _ owner: ModelStorage, model ownerModel: any PersistentModel, relationship: Schema.Relationship,
        old: [any PersistentModel], new: [any PersistentModel]
    ) {
        let (removed, added) = difference(old.map { UInt(bitPattern: ObjectIdentifier($0)) },
                                          new.map { UInt(bitPattern: ObjectIdentifier($0)) })
        apply(owner, model: ownerModel, relationship: relationship, removed: removed.map { old[$0] },
              added: added.map { new[$0] })
    }

    /// A to-many relationship of `owner` changed from the loaded array `oldValue` to
    /// `newValue`; false (and nothing done) when either is not an array of models.
    ///
    /// Appending to a to-many side rewrites it whole, so this compares the two arrays by
    /// identity as the typed arrays they are, and makes models only of what changed: turning
    /// every element into an `any PersistentModel` costs a retain and a release each (a slow
    /// one, for objects with weak references), which dominated appending one item at a time.
    static func didSet(
        _ owner: ModelStorage, model ownerModel: any PersistentModel, relationship: Schema.Relationship,
        oldValue: Any, newValue: Any
    ) -> Bool {
        guard let oldArray = oldValue as? any _ArrayMarker, let newArray = newValue as? any _ArrayMarker,
            let oldIdentities = oldArray._modelIdentities, let newIdentities = newArray._modelIdentities
        else { return false }
        let (removed, added) = difference(oldIdentities, newIdentities)
        apply(owner, model: ownerModel, relationship: relationship, removed: removed.compactMap { oldArray._model(at: $0) },
              added: added.compactMap { newArray._model(at: $0) })
        return true
    }

    private static func apply(
        _ owner: ModelStorage, model ownerModel: any PersistentModel, relationship: Schema.Relationship,
        removed: [any PersistentModel], added: [any PersistentModel]
    ) {
        guard !removed.isEmpty || !added.isEmpty, let (inverse, inverseIndex) = inverse(of: relationship, in: owner.entity)
        else { return }
        for target in removed {
            guard let storage = target._storage else { continue }
            remove(ownerModel, fromSlot: inverseIndex, of: storage, relationship: inverse)
        }
        for target in added {
            guard let storage = target._storage else { continue }
            storage.owner = storage.owner ?? target
            link(storage, inverse: inverse, at: inverseIndex, to: ownerModel, through: relationship)
        }
    }

    /// The positions of the models only in `old`, and of those only in `new`. Comparing each
    /// model with each would make a change of a relationship of n models cost n² comparisons
    /// (a tag given to 600 trips, one at a time, took 19 seconds). The common prefix and
    /// suffix are skipped first (an append, an insertion or a removal leaves little between
    /// them); what remains is checked against the whole other side, since a model listed twice
    /// may also sit in the prefix.
    static func difference(_ old: [UInt], _ new: [UInt]) -> (removed: [Int], added: [Int]) {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
            old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        {
            suffix += 1
        }
        return (positions(in: old, prefix..<(old.count - suffix), notIn: new),
                positions(in: new, prefix..<(new.count - suffix), notIn: old))
    }

    /// The positions in `range` of `identities` whose identity is not in `others`.
    private static func positions(
        in identities: [UInt], _ range: Range<Int>, notIn others: [UInt]
    ) -> [Int] {
        if range.isEmpty { return [] }
        // A scan of `others` per candidate is cheaper than hashing all of them for a few.
        if range.count <= 8 || range.count * others.count <= 256 {
            return range.filter { !others.contains(identities[$0]) }
        }
        let set = Set(others)
        return range.filter { !set.contains(identities[$0]) }
    }

    /// Makes `target`'s inverse hold `ownerModel`.
    private static func link(
        _ target: ModelStorage, inverse: Schema.Relationship, at index: Int, to ownerModel: any PersistentModel,
        through relationship: Schema.Relationship
    ) {
        if !inverse.isToOneRelationship, case .value(let value) = target.slots[index] {
            // The usual case, a loaded to-many side: checked and extended as the typed array it
            // is, not element by element as models.
            if let array = value as? any _ArrayMarker, array._containsIdentical(ownerModel) { return }
            if let destination = inverse.destinationType, let extended = appending(ownerModel, to: value, destination) {
                return write(extended, at: index, of: target)
            }
        }
        let current = target.currentRelatedModels(at: index)
        if inverse.isToOneRelationship {
            if let previous = current.first, previous === ownerModel { return }
            // The target leaves its previous owner's side of the relationship.
            if let previous = current.first, let previousStorage = previous._storage,
                let forwardIndex = previousStorage.entity.properties.firstIndex(where: { $0 === relationship })
            {
                remove(target.owner, fromSlot: forwardIndex, of: previousStorage, relationship: relationship)
            }
            write(ownerModel, at: index, of: target)
        } else {
            guard !current.contains(where: { $0 === ownerModel }) else { return }
            write(typedArray(current + [ownerModel], of: inverse), at: index, of: target)
        }
    }

    /// `array` (a loaded to-many value of `M`s) with `model` appended, or nil when either is
    /// not what it should be.
    private static func appending<M: PersistentModel>(_ model: any PersistentModel, to array: Any, _ type: M.Type) -> Any? {
        guard let model = model as? M else { return nil }
        if let models = array as? [M] { return models + [model] }
        if let models = array as? [M]? { return (models ?? []) + [model] }
        return nil
    }

    /// Takes `model` out of a relationship slot (to-one: set to nil; to-many: removed).
    static func remove(
        _ model: (any PersistentModel)?, fromSlot index: Int, of storage: ModelStorage, relationship: Schema.Relationship
    ) {
        guard let model else { return }
        if !relationship.isToOneRelationship, case .value(let value) = storage.slots[index],
            let array = value as? any _ArrayMarker, let destination = relationship.destinationType
        {
            // A loaded to-many side, filtered as the typed array it is (see `link`).
            guard array._containsIdentical(model) else { return }
            if let remaining = removing(model, from: value, destination) { return write(remaining, at: index, of: storage) }
        }
        let current = storage.currentRelatedModels(at: index)
        guard current.contains(where: { $0 === model }) else { return }
        if relationship.isToOneRelationship {
            if let none = (relationship.valueType as? any _OptionalBuilding.Type)?._nilValue { write(none, at: index, of: storage) }
        } else {
            write(typedArray(current.filter { $0 !== model }, of: relationship), at: index, of: storage)
        }
    }

    /// `array` (a loaded to-many value of `M`s) without `model`, or nil when it is not one.
    private static func removing<M: PersistentModel>(_ model: any PersistentModel, from array: Any, _ type: M.Type) -> Any? {
        if let models = array as? [M] { return models.filter { $0 !== model } }
        if let models = array as? [M]? { return (models ?? []).filter { $0 !== model } }
        return nil
    }

    /// Sets a relationship slot through the model's observed setter when possible.
    private static func write(_ value: Any, at index: Int, of storage: ModelStorage) {
        if let model = storage.owner, let keyPath = storage.entity.properties[index].keypath as? any _KeyPathAssigning,
            keyPath._assign(value, on: model)
        {
            return
        }
        storage.setValue(value, at: index)
    }

    /// The inverse relationship of `relationship` and its slot in the destination entity.
    static func inverse(of relationship: Schema.Relationship, in entity: Schema.Entity) -> (Schema.Relationship, Int)? {
        guard let inverse = TableLayout.inverse(of: relationship, in: entity), let destination = relationship.destinationType,
            let index = Schema.Entity.cached(for: destination).properties.firstIndex(where: { $0 === inverse })
        else { return nil }
        return (inverse, index)
    }

    /// `models` as the Swift collection type of a to-many relationship (`[Item]`, or
    /// `Set<Item>` when the property is declared so), so the generated getter's cast succeeds.
    static func typedArray(_ models: [any PersistentModel], of relationship: Schema.Relationship) -> Any {
        let declared = (relationship.valueType as? any _OptionalMarker.Type)?._wrappedType ?? relationship.valueType
        if let collection = declared as? any _ArrayMarker.Type { return collection._collection(of: models) }
        guard let destination = relationship.destinationType else { return models }
        return makeArray(destination, models)
    }

    private static func makeArray<M: PersistentModel>(_ type: M.Type, _ models: [any PersistentModel]) -> Any {
        models.compactMap { $0 as? M }
    }
}
