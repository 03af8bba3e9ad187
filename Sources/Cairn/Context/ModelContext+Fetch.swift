import Foundation

extension ModelContext {
    /// The models a descriptor describes.
    ///
    /// ```swift
    /// let all = try context.fetch(FetchDescriptor<Workout>())
    /// // SELECT "id", "title", "startedAt", "finishedAt", "minutes", "calories", "isFavorite" FROM "Workout"
    /// ```
    ///
    /// Rows already registered come back as the same instances (with their unsaved changes).
    /// With `includePendingChanges` (the default), unsaved inserts are included and unsaved
    /// deletes left out. The predicate, sort, limit and offset run in SQL (see
    /// `ModelContext+Query.swift`), with the answers Foundation's evaluation gives.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        let fetching = try beginFetch()  // merges others' changes; a cancelled task throws (Concurrency/)
        defer { fetching.end() }
        return try fetchThroughSQL(descriptor)
    }

    /// The number of models a descriptor describes.
    public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        let fetching = try beginFetch()
        defer { fetching.end() }
        return try fetchCountThroughSQL(descriptor)
    }

    /// The identifiers of the models a descriptor describes.
    ///
    /// - Throws: ``SwiftDataError/sortingPendingChangesWithIdentifiers`` when the descriptor
    ///   sorts and includes pending changes, as SwiftData does.
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier] {
        if descriptor.sorts, descriptor.includePendingChanges {
            throw SwiftDataError.sortingPendingChangesWithIdentifiers.with(
                reason: "Set includePendingChanges = false to fetch sorted identifiers")
        }
        let fetching = try beginFetch()
        defer { fetching.end() }
        return try fetchIdentifiersThroughSQL(descriptor)
    }

    /// The model with an identifier: the registered one, else the stored row's model, else
    /// (the row does not exist) a model with that identifier whose properties read as empty.
    ///
    /// One kind of property has no empty value: a `Codable` enum with associated values (and
    /// any type without a declared default that cannot be made from nothing). For an entity
    /// with such a property and no row, reading it could only stop the program, so the answer
    /// is a bare model of no known entity that carries the identifier: `model(for: id) as? Trip`
    /// is then `nil`, as a fetch of the missing row would be empty.
    public func model(for persistentModelID: PersistentIdentifier) -> any PersistentModel {
        mergeExternalChanges()
        if let key = byIdentifier[persistentModelID], let model = tracked[key] { return model }
        if let dataStore = dataStore(ofEntity: persistentModelID.entityName),
            let model = dataStoreModel(for: persistentModelID, in: dataStore)
        {
            return model
        }
        guard let entity = state.schema.entitiesByName[persistentModelID.entityName] else {
            return UnknownEntityModel(identifier: persistentModelID)
        }
        if let key = persistentModelID.primaryKey, persistentModelID.storeIdentifier == nil
            || persistentModelID.storeIdentifier == (try? state.store(for: entity.name))?.identifier,
            let model = try? fetchStored(entity.modelType, primaryKey: key)
        {
            return model
        }
        if let layout = try? state.store(for: entity.name).layout(for: entity.name), !layout.alwaysLoaded.isEmpty {
            return UnknownEntityModel(identifier: persistentModelID)
        }
        return placeholder(entity.modelType, identifier: persistentModelID)
    }

    private func placeholder<M: PersistentModel>(_ type: M.Type, identifier: PersistentIdentifier) -> M {
        let entity = Schema.Entity.of(type)
        let storage = ModelStorage.stored(entity: entity, identifier: identifier)
        return M(backingData: DefaultBackingData<M>(storage: storage))
    }

    // MARK: - Reading rows

    /// Every stored row of a model type, as registered models.
    func fetchStored<T: PersistentModel>(_ type: T.Type) throws -> [T] {
        try fetchStored(type) { $0 }
    }

    /// The models of the rows a SELECT over the entity's columns returns, registered (rows
    /// already registered come back as the same instances).
    ///
    /// The hook for SQL-side fetching: `adjust` receives
    /// `SELECT "id", <every column> FROM "<Entity>"` and adds WHERE, ORDER BY, LIMIT and
    /// OFFSET; it must keep the selected columns.
    func fetchStored<T: PersistentModel>(_ type: T.Type, adjusting adjust: (SQLSelect) throws -> SQLSelect) throws -> [T] {
        let (store, layout) = try table(of: type)
        return try fetchStored(type, try adjust(selectAll(layout)), layout: layout, store: store)
    }

    /// The registered models of the rows `select` (over the layout's full SELECT) returns.
    func fetchStored<T: PersistentModel>(_ type: T.Type, _ select: SQLSelect, layout: TableLayout, store: ModelStore) throws
        -> [T]
    {
        try fetchStored(type, try store.dialect.render(select), layout: layout, store: store)
    }

    /// The registered models of the rows `rendered` (the layout's full SELECT) returns.
    ///
    /// Models are made while the statement steps: no row is copied out first. Nothing in
    /// `materializeUnregistered` reaches the store again, so holding its lock meanwhile is safe.
    /// They are registered after the last row, when their number is known (`registerFetched`),
    /// from what each row left in `fresh` while its model was in the cache: by then, 16,000
    /// rows later, a model and its storage no longer are, and reading them there again costs
    /// two cache misses a row (`Scripts/bench-samples.sh swiftdata 6`).
    ///
    /// One statement: its own snapshot (`readStatement`).
    func fetchStored<T: PersistentModel>(_ type: T.Type, _ rendered: RenderedSQL, layout: TableLayout, store: ModelStore)
        throws -> [T]
    {
        try store.readStatement { connection in
            var fresh: [FreshModel] = []
            do {
                var index = 0
                var models = try connection.models(rendered) { row in
                    let (model, storage, primaryKey) = try materializeUnregistered(
                        T.self, row: row, layout: layout, store: store)
                    if let storage {
                        fresh.append(FreshModel(index: index, storage: storage, primaryKey: primaryKey, model: model))
                    }
                    index += 1
                    return model
                }
                registerFetched(&models, fresh, layout: layout)
                return models
            } catch {
                for entry in fresh { entry.model.release() }
                throw error
            }
        }
    }

    /// The stored row of a model type with a primary key, as a registered model, or `nil`.
    func fetchStored<T: PersistentModel>(_ type: T.Type, primaryKey: Int64) throws -> T? {
        let (store, layout) = try table(of: type)
        let select = selectAll(layout).where(.column(layout.primaryKey).equals(.value(.integer(primaryKey))))
        guard let row = try store.read({ try $0.rows(select) }).first else { return nil }
        return try materialize(T.self, row: row, layout: layout, store: store)
    }

    /// `SELECT "id", "title", … FROM "Workout"`.
    func selectAll(_ layout: TableLayout) -> SQLSelect { layout.selectAll }

    /// The registered model of a row (the primary key, then the layout's columns), made and
    /// registered if the context does not hold it yet.
    func materialize<T: PersistentModel>(_ type: T.Type, row: some RowValues, layout: TableLayout, store: ModelStore) throws -> T {
        let (model, storage, _) = try materializeUnregistered(type, row: row, layout: layout, store: store)
        if let storage { register(model, storage.takeUnretainedValue()) }
        return model
    }

    /// The registered model of a row, or a new one with its storage, which the caller
    /// registers (`register` or `registerFetched`), and the row's primary key. The storage is
    /// unretained: the new model holds it, and the model is the only reference a new storage
    /// needs (a retained storage beside it cost a retain and a release a row, callgrind W2).
    @inline(__always)
    func materializeUnregistered<T: PersistentModel>(
        _ type: T.Type, row: some RowValues, layout: TableLayout, store: ModelStore
    ) throws -> (T, Unmanaged<ModelStorage>?, Int64) {
        // Read as an INTEGER straight from the statement; only a row without one builds a
        // `DatabaseValue` (for the error). Through `value(at:)`, every row paid for it (about
        // 60 instructions, callgrind W2).
        guard row.count > 0, let primaryKey = row.integer(at: 0) else {
            throw noIntegerPrimaryKey(row, layout: layout)
        }
        // A context that holds no model yet (a first fetch) has none to find.
        if !byIdentifier.isEmpty,
            let key = byIdentifier[PersistentIdentifier.permanent(scope: layout.identifierScope, primaryKey: primaryKey)],
            let existing = tracked[key] as? T
        {
            return (existing, nil, primaryKey)
        }
        if let position = layout.discriminatorPosition {
            return try materializeMember(T.self, row: row, layout: layout, primaryKey: primaryKey, discriminatorAt: position)
        }
        let storage = try ModelStorage.fetched(
            entity: layout.entity, scope: layout.identifierScope, primaryKey: primaryKey, link: link
        ) { slots in
            try row.fill(layout.slotPlan, into: slots, tableName: layout.tableName)
        }
        let unmanaged = Unmanaged.passUnretained(storage)
        // The storage moves into the model: `_$makeFetched` consumes it.
        let model = T._$makeFetched(_FetchedStorage(storage: consume storage))
        // The model must hold the storage (`_$makeFetched`'s contract), or the caller would
        // read freed memory. A hand-written `init(backingData:)` may drop what it was given:
        // `_FetchedStorage.model` then keeps the storage alive and marks it. Reading the mark
        // is one load; comparing the model's storage with this one cost about 80 instructions
        // a row (callgrind W2), for models `@Model` makes, which always keep it.
        if unmanaged._withUnsafeGuaranteedRef({ $0.droppedByModel }) { throw droppedBackingData(T.self, layout: layout) }
        assert(model._storage === unmanaged.takeUnretainedValue(),
               "\(T.self)._$makeFetched did not keep the storage it was given")
        return (model, unmanaged, primaryKey)
    }

    /// The error for a model whose `init(backingData:)` did not keep the backing data it was
    /// given (``_FetchedStorage/model(_:)`` marks its storage).
    @inline(never)
    func droppedBackingData<T: PersistentModel>(_ type: T.Type, layout: TableLayout) -> ModelError {
        ModelError(
            .invalidSchema, entityName: layout.tableName,
            message: "\(T.self).init(backingData:) did not keep the backing data it was given: a model must "
                + "store it in `persistentBackingData`, as SwiftData requires")
    }

    /// The error for a row whose first column is not an integer primary key.
    @inline(never)
    private func noIntegerPrimaryKey(_ row: some RowValues, layout: TableLayout) -> ModelError {
        ModelError(.valueDecodingFailed, entityName: layout.tableName,
                   column: SQLText.identifier(layout.tableName) + "." + SQLText.identifier(layout.primaryKey),
                   value: row.count > 0 ? row.value(at: 0).description : nil, message: "A row has no integer primary key")
    }

    /// Registers the models one fetch made (`fresh`: their places in `models`, their storages
    /// and primary keys, and a reference to each model; see `insertFetched`). A row that came
    /// twice in the result keeps the model made for it first, in both places.
    ///
    /// A fetch whose rows came in primary-key order is not registered here but kept as the
    /// context's ``DeferredRegistration``, registered the same way when something first reads
    /// the tables (ModelContext+DeferredRegistration.swift).
    func registerFetched<T: PersistentModel>(_ models: inout [T], _ fresh: [FreshModel], layout: TableLayout) {
        guard !fresh.isEmpty else { return }
        if !layout.entity.relationshipSlots.isEmpty { mayHoldRelatedModels = true }
        if deferredRegistration != nil { registerDeferred() }
        if let deferred = DeferredRegistration(T.self, fresh, layout: layout, in: self) {
            deferredRegistration = deferred
            return
        }
        let logsRegistrations = registrationLog != nil
        // Through a buffer: this code is not specialized for `T`, and `Array`'s own subscript
        // is then a call with `T`'s metadata (about 57 instructions a model).
        models.withUnsafeMutableBufferPointer { models in
            insertFetched(fresh, scope: layout.identifierScope, replacingRowsMetTwiceIn: models,
                          logsRegistrations: logsRegistrations)
        }
    }

    /// Puts a fetch's models in the identity tables, growing them once: what `registerFetched`
    /// does now, and `registerDeferred` later. `models` is the fetch's result, where a row
    /// whose identifier names a registered model of its type (a row met twice) is replaced by
    /// that model; nil where that cannot happen (a deferred registration).
    ///
    /// Neither a model nor its storage is read here: each entry already holds the storage's
    /// key (its address), its identifier's parts (`scope` and the primary key) and the
    /// reference the table keeps, taken while the row was being made. A deferred registration
    /// has already been registered: the stored tables are used directly.
    func insertFetched<T: PersistentModel>(
        _ fresh: [FreshModel], scope: IdentifierScope, replacingRowsMetTwiceIn models: UnsafeMutableBufferPointer<T>?,
        logsRegistrations: Bool
    ) {
        trackedTable.reserveCapacity(trackedTable.count + fresh.count)
        byIdentifierTable.reserveCapacity(byIdentifierTable.count + fresh.count)
        // Each entry's identifier holds the scope: its references are all taken here, before
        // the loop, and each identifier below takes one over without an atomic increment. In
        // the loop, an increment waited for the identity tables' cache misses before it (a
        // locked instruction orders every memory access around it), and took 4% of W6's
        // samples.
        let scopeReference = Unmanaged.passUnretained(scope)
        for _ in fresh { _ = scopeReference.retain() }
        for entry in fresh {
            // The address alone: nothing of the storage is read.
            let key = entry.storage._withUnsafeGuaranteedRef { self.key($0) }
            let identifier = PersistentIdentifier.permanent(
                scope: scopeReference.takeRetainedValue(), primaryKey: entry.primaryKey)
            if let firstKey = byIdentifierTable.insertIfAbsent(key, for: consume identifier) {
                if let models, let first = trackedTable[firstKey] as? T {
                    // The entry's reference goes first; the model at `index` still holds
                    // the storage, whose last use this is: the assignment below releases
                    // that model.
                    entry.model.release()
                    entry.storage._withUnsafeGuaranteedRef { $0.context = nil }
                    models[entry.index] = first
                    continue
                }
                // A model of another type (two `@Model` classes of one entity name,
                // `SchemaV1.Note` and `SchemaV2.Note`): the new model takes the identifier, as
                // `register` gives it. (Made again: the call above took `identifier`.)
                byIdentifierTable[.permanent(scope: scope, primaryKey: entry.primaryKey)] = key
            }
            // A new storage's address: no tracked model's storage (each alive) has it. The
            // entry's reference moves into the table.
            trackedTable.insertNew(unsafeDowncast(entry.model.takeRetainedValue(), to: T.self), for: key)
            // Those not replaced by an instance registered before (for `enumerate`). Here,
            // not in a loop after this one: a replaced model's storage is gone by then.
            if logsRegistrations { registrationLog?.append(key) }
        }
    }

    /// The slots of a row of the layout's full SELECT: attributes decoded, to-one relationships
    /// as raw keys, to-many relationships unloaded.
    func decodeSlots(row: some RowValues, layout: TableLayout) throws -> [ModelStorage.Slot] {
        var slots = Array(repeating: ModelStorage.Slot.unloaded, count: layout.entity.properties.count)
        try slots.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            try row.fill(layout.slotPlan, into: base, tableName: layout.tableName)
        }
        return slots
    }

    /// Loads an unloaded slot of a stored model: an attribute or to-one key with its row (every
    /// unloaded column at once), a to-many relationship with one query.
    func faultIn(_ storage: ModelStorage, slot index: Int) {
        if let dataStore = dataStore(ofEntity: storage.entity.name) { return faultIn(storage, from: dataStore) }
        guard let primaryKey = storage.identifier.primaryKey, storage.state != .deletedSaved,
            let store = try? state.store(for: storage.entity.name),
            let layout = try? store.layout(for: storage.entity.name)
        else { return }
        let wasRestoring = isRestoring
        isRestoring = true
        defer { isRestoring = wasRestoring }
        if let relationship = storage.entity.properties[index] as? Schema.Relationship, !relationship.isToOneRelationship {
            if let models = try? loadToMany(relationship, of: storage, primaryKey: primaryKey, layout: layout, store: store) {
                storage.slots[index] = .value(models)
            }
            return
        }
        let select = selectAll(layout).where(.column(layout.primaryKey).equals(.value(.integer(primaryKey))))
        guard let row = try? store.read({ try $0.rows(select) }).first,
            let slots = try? decodeSlots(row: row, layout: layout)
        else { return }
        for column in layout.columns {
            if case .unloaded = storage.slots[column.slot] { storage.slots[column.slot] = slots[column.slot] }
        }
    }
}

/// What ``ModelContext/model(for:)`` returns for an identifier whose entity the container does
/// not know, or whose row is gone when its entity has a property with no empty value. Written
/// by hand: a minimal manual `PersistentModel` conformance.
final class UnknownEntityModel: PersistentModel {
    static var schemaMetadata: [Schema.PropertyMetadata] { [] }
    private let registrar = ObservationRegistrar()
    var persistentBackingData: any BackingData<UnknownEntityModel>

    init(backingData: any BackingData<UnknownEntityModel>) {
        persistentBackingData = backingData
    }

    convenience init(identifier: PersistentIdentifier) {
        let storage = ModelStorage.stored(entity: Schema.Entity.of(UnknownEntityModel.self), identifier: identifier)
        self.init(backingData: DefaultBackingData<UnknownEntityModel>(storage: storage))
    }
}

/// A model one fetch made: its place in the result, its storage, its row's primary key and a
/// reference to it, to register after the last row. A struct, not a tuple: an array of tuples
/// is destroyed through the runtime's generic tuple destroy, element by element (about 35
/// instructions a W2 row).
///
/// The storage is held unretained: the model in the result holds it for as long as
/// `registerFetched` reads it (a model replaced there by one registered before is replaced
/// after its storage's last use), and a retain and release per row cost about 40
/// instructions (callgrind, W2). `Unmanaged`, as `materializeUnregistered` hands it over: the
/// hand-off itself retains nothing, where returning the storage strongly beside its model did.
///
/// `model` is retained (+1) when the entry is made, while the new model is in the cache: it
/// is the reference `tracked` keeps, moved there by `registerFetched` or, deferred, by
/// `registerDeferred` (or released by either, by the fetch that throws, or by a context that
/// goes with its registration still deferred). The storage is then only ever used for its
/// address (the table's key), never read. Retaining it in `registerFetched` instead would read
/// every model again after the last row, a cache miss a row. Not generic over the model's type:
/// the fetch is not specialized for it, and appending to an array of a generic struct costs
/// the fetch a metadata lookup a row (about a tenth of SwiftData's W2 on the clock).
struct FreshModel {
    let index: Int
    let storage: Unmanaged<ModelStorage>
    let primaryKey: Int64
    let model: Unmanaged<AnyObject>

    init(index: Int, storage: Unmanaged<ModelStorage>, primaryKey: Int64, model: some PersistentModel) {
        self.index = index
        self.storage = storage
        self.primaryKey = primaryKey
        self.model = .passRetained(model)
    }
}
