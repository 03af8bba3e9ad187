import CairnSQLite
import Foundation

/// The results of a batched fetch: a random-access collection that loads its elements one
/// batch at a time and keeps about one batch of models in memory.
///
/// ```swift
/// var descriptor = FetchDescriptor<Workout>(sortBy: [SortDescriptor(\.startedAt)])
/// descriptor.includePendingChanges = false
/// let batched = try context.fetch(descriptor, batchSize: 200)
/// // SELECT "t0"."id" FROM "Workout" AS "t0" ORDER BY "t0"."startedAt" ASC, "t0"."id" ASC
/// let minutes = batched.reduce(0) { $0 + $1.minutes }
/// // per batch: SELECT "t0"."id", "t0"."title", … FROM "Workout" AS "t0"
/// //            WHERE "t0"."id" IN (SELECT value FROM json_each(?))
/// ```
///
/// The identifiers of every result are read up front (8 bytes each); models are read a batch
/// at a time. A model whose row was deleted after the fetch reads as an empty placeholder, as
/// `ModelContext.model(for:)` gives.
public struct FetchResultsCollection<Element>: RandomAccessCollection {
    private let total: Int
    let batchSize: Int
    private let loader: Loader

    /// Loads one batch and remembers it (a class, so reading through the collection can cache).
    final class Loader {
        let load: (Range<Int>) -> [Element]
        var batch: Int?
        var elements: [Element] = []

        init(load: @escaping (Range<Int>) -> [Element]) {
            self.load = load
        }
    }

    /// A collection of `count` elements that `load` reads a batch at a time; `load` must
    /// return exactly as many elements as the range it is given holds.
    @_spi(CairnCoreData)
    public init(count: Int, batchSize: Int, load: @escaping (Range<Int>) -> [Element]) {
        total = count
        self.batchSize = Swift.max(1, batchSize)
        loader = Loader(load: load)
    }

    /// A collection over elements already at hand: one batch, never reloaded, not copied.
    @_spi(CairnCoreData)
    public init(elements: [Element]) {
        self.init(count: elements.count, batchSize: Swift.max(1, elements.count)) { Array(elements[$0]) }
        loader.elements = elements
        loader.batch = 0
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { total }

    public subscript(position: Int) -> Element {
        let batch = position / batchSize
        if loader.batch != batch {
            let start = batch * batchSize
            let end = Swift.min(total, start + batchSize)
            loader.elements = []  // release the previous batch before loading the next
            loader.elements = loader.load(start..<end)
            loader.batch = batch
        }
        return loader.elements[position - batch * batchSize]
    }
}

/// The models of the batch read last, so they can be released when the next one is read.
private final class BatchHolder<T> {
    var models: [T] = []
}

extension ModelContext {
    /// The models a descriptor describes, loaded in batches of `batchSize` as the collection is
    /// read.
    ///
    /// - Throws: ``SwiftDataError/includePendingChangesWithBatchSize`` while
    ///   `descriptor.includePendingChanges` is `true` (set it to `false`), and the errors of
    ///   `fetch(_:)`.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws -> FetchResultsCollection<T> {
        guard !descriptor.includePendingChanges else {
            throw SwiftDataError.includePendingChangesWithBatchSize.with(
                reason: "A batched fetch reads only saved rows: set includePendingChanges = false on the FetchDescriptor")
        }
        mergeExternalChanges()
        // A custom store answers with every snapshot at once: one batch of its models.
        if let dataStore = dataStore(of: T.self) {
            return FetchResultsCollection(elements: try dataStoreModels(descriptor, in: dataStore))
        }
        let keys = try primaryKeys(descriptor)
        return FetchResultsCollection(count: keys.count, batchSize: batchSize, load: try batchLoader(T.self, primaryKeys: keys))
    }

    /// Loads the models of the rows with `keys` (in that order) a batch at a time: each call
    /// lets go of the previous batch (``releaseBatch(_:)``), then returns the models of the keys
    /// in its range, registered ones as they are and the rest read in one SELECT. Other
    /// contexts' commits are merged into registered models when the loader is made. The loader
    /// keeps the context alive: every position must be able to load its model.
    @_spi(CairnCoreData)
    public func batchLoader<T: PersistentModel>(_ type: T.Type, primaryKeys keys: [Int64]) throws -> (Range<Int>) -> [T] {
        mergeExternalChanges()
        let scope = try table(of: T.self).layout.identifierScope
        let holder = BatchHolder<T>()
        // What the context held before stays as it is (as in `enumerate`): a tag whose `trips`
        // the caller loaded is not detached again at every batch.
        let heldBefore = Set(tracked.keys)
        return { range in
            let previous = holder.models.compactMap { $0._storage.map(self.key) }
            holder.models = []
            self.releaseBatch(previous, keeping: heldBefore)
            let identifiers = keys[range].map {
                PersistentIdentifier.permanent(scope: scope, primaryKey: $0)
            }
            holder.models = self.models(T.self, for: identifiers)
            return holder.models
        }
    }

    /// The identifiers a descriptor describes, as a collection (identifiers are small, so all
    /// are read at once).
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws
        -> FetchResultsCollection<PersistentIdentifier>
    {
        let identifiers = try fetchIdentifiers(descriptor)
        return FetchResultsCollection(count: identifiers.count, batchSize: batchSize) { Array(identifiers[$0]) }
    }

    /// The primary keys of the saved rows a descriptor selects, in its order (8 bytes each).
    func primaryKeys<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [Int64] {
        let store = try table(of: T.self).store
        let rendered = try QueryCompiler.render(descriptor, selecting: .identifiers, in: store.dialect)
        return try store.read { connection in
            try connection.rows(rendered) { try $0.decode(Int64.self, at: 0) }
        }
    }

    /// The models with these identifiers, in that order: registered ones as they are, the
    /// rest read in one SELECT. A collection's subscript cannot throw: a row that is gone, or
    /// that a failed read did not bring, is what `model(for:)` gives, and a failed read says so
    /// on standard error (`enumerate` throws instead).
    func models<T: PersistentModel>(_ type: T.Type, for identifiers: [PersistentIdentifier]) -> [T] {
        let found: [PersistentIdentifier: T]
        do {
            found = try registeredOrStoredModels(T.self, for: identifiers)
        } catch {
            lastBatchReadError = error
            writeDiagnostic("a batched fetch of \(T.self) could not read \(identifiers.count) rows; "
                + "they read as empty placeholders (a collection's subscript cannot throw): \(error)")
            found = [:]
        }
        return identifiers.map { identifier in
            found[identifier] ?? (model(for: identifier) as? T) ?? T(backingData: DefaultBackingData<T>(for: T.self))
        }
    }

    /// The models with these identifiers that are registered or stored, by identifier: the
    /// registered ones as they are, the rest read in one SELECT.
    func registeredOrStoredModels<T: PersistentModel>(_ type: T.Type, for identifiers: [PersistentIdentifier]) throws
        -> [PersistentIdentifier: T]
    {
        var found: [PersistentIdentifier: T] = [:]
        var missing: [Int64] = []
        for identifier in identifiers {
            if let key = byIdentifier[identifier], let model = tracked[key] as? T {
                found[identifier] = model
            } else if let primaryKey = identifier.primaryKey {
                missing.append(primaryKey)
            }
        }
        if !missing.isEmpty {
            for model in try storedModels(T.self, primaryKeys: missing) { found[model.persistentModelID] = model }
        }
        return found
    }

    /// `SELECT … WHERE "t0"."id" IN (SELECT value FROM json_each(?))`.
    func storedModels<T: PersistentModel>(_ type: T.Type, primaryKeys: [Int64]) throws -> [T] {
        let (store, layout) = try table(of: T.self)
        let alias = "t0"
        let select = SQLSelect(
            layout.selectColumns.map { SQLSelectColumn(.column($0, table: alias)) }, from: .table(layout.tableName, as: alias)
        ).where(store.dialect.key(.column(layout.primaryKey, table: alias), in: primaryKeys))
        return try fetchStored(T.self, select, layout: layout, store: store)
    }

    /// Lets go of a batch the caller has moved past: the batch's saved, unchanged models and
    /// the saved, unchanged models reached from them through loaded relationships (`trip.items`,
    /// then each item's `trip` and `tags`) give up those relationships, which breaks the cycles
    /// that would keep them alive (ModelStorage+Detach.swift); then the context forgets those
    /// that nothing else holds. A model the caller kept stays registered, so reading its
    /// position again gives the same instance, and its relationships load again on first use.
    /// Models in `kept` (registered before the collection was made) are neither walked through
    /// nor let go of.
    func releaseBatch(_ keys: [ObjectIdentifier], keeping kept: Set<ObjectIdentifier>) {
        let keys = keys.filter { !kept.contains($0) }
        var reached = Set(keys)
        var frontier = keys
        while let key = frontier.popLast() {
            guard let storage = trackedStorage(key), storage.state == .persisted, !storage.hasChanges else { continue }
            for index in storage.entity.relationshipSlots {
                guard case .value(let value) = storage.slots[index] else { continue }
                for related in relatedModels(value) {
                    guard let relatedKey = related._storage.map(self.key), tracked[relatedKey] != nil,
                        !kept.contains(relatedKey), reached.insert(relatedKey).inserted
                    else { continue }
                    frontier.append(relatedKey)
                }
            }
        }
        for key in reached { trackedStorage(key)?.detachSavedRelatedModels() }
        releaseUnreferenced(Array(reached), collecting: false)
    }
}
