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
        guard let (inverse, inverseIndex) = inverse(of: relationship, in: owner.entity) else { return }
        let (removed, added) = difference(old, new)
        for target in removed {
            guard let storage = target._storage else { continue }
            unlink(storage, inverse: inverse, at: inverseIndex, from: ownerModel)
        }
        for target in added {
            guard let storage = target._storage else { continue }
            storage.owner = storage.owner ?? target
            link(storage, inverse: inverse, at: inverseIndex, to: ownerModel, through: relationship)
        }
    }

    /// The models only in `old`, and those only in `new`, by identity. Appending to a to-many
    /// side rewrites it whole, so comparing each model with each would make a relationship of
    /// n models cost n² comparisons a change: a tag given to 600 trips took 19 seconds.
    static func difference(
        _ old: [any PersistentModel], _ new: [any PersistentModel]
    ) -> (removed: [any PersistentModel], added: [any PersistentModel]) {
        if old.count * new.count <= 64 {
            return (old.filter { candidate in !new.contains { $0 === candidate } },
                    new.filter { candidate in !old.contains { $0 === candidate } })
        }
        let oldIdentities = Set(old.map { ObjectIdentifier($0) })
        let newIdentities = Set(new.map { ObjectIdentifier($0) })
        return (old.filter { !newIdentities.contains(ObjectIdentifier($0)) },
                new.filter { !oldIdentities.contains(ObjectIdentifier($0)) })
    }

    /// Makes `target`'s inverse hold `ownerModel`.
    private static func link(
        _ target: ModelStorage, inverse: Schema.Relationship, at index: Int, to ownerModel: any PersistentModel,
        through relationship: Schema.Relationship
    ) {
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

    /// Makes `target`'s inverse no longer hold `ownerModel`.
    private static func unlink(
        _ target: ModelStorage, inverse: Schema.Relationship, at index: Int, from ownerModel: any PersistentModel
    ) {
        let current = target.currentRelatedModels(at: index)
        guard current.contains(where: { $0 === ownerModel }) else { return }
        if inverse.isToOneRelationship {
            if let none = (inverse.valueType as? any _OptionalBuilding.Type)?._nilValue { write(none, at: index, of: target) }
        } else {
            write(typedArray(current.filter { $0 !== ownerModel }, of: inverse), at: index, of: target)
        }
    }

    /// Takes `model` out of a relationship slot (to-one: set to nil; to-many: removed).
    static func remove(
        _ model: (any PersistentModel)?, fromSlot index: Int, of storage: ModelStorage, relationship: Schema.Relationship
    ) {
        guard let model else { return }
        let current = storage.currentRelatedModels(at: index)
        guard current.contains(where: { $0 === model }) else { return }
        if relationship.isToOneRelationship {
            if let none = (relationship.valueType as? any _OptionalBuilding.Type)?._nilValue { write(none, at: index, of: storage) }
        } else {
            write(typedArray(current.filter { $0 !== model }, of: relationship), at: index, of: storage)
        }
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

    /// `models` as the Swift array type of a to-many relationship (`[Item]`), so the
    /// generated getter's cast succeeds.
    static func typedArray(_ models: [any PersistentModel], of relationship: Schema.Relationship) -> Any {
        guard let destination = relationship.destinationType else { return models }
        return makeArray(destination, models)
    }

    private static func makeArray<M: PersistentModel>(_ type: M.Type, _ models: [any PersistentModel]) -> Any {
        models.compactMap { $0 as? M }
    }
}
