import Foundation

// A fetch's models go into the context's identity tables when something first reads the
// tables, not when the fetch returns.
//
// Registering 16,000 fetched rows is two hash-table inserts each, at addresses all over two
// tables of about a megabyte, and emptying those tables when the context goes is a walk over
// them again. A context made for one fetch and dropped after it (a request handler, a
// command-line tool, the benchmark's W6) never reads the tables, and paid for both. Deferred,
// such a context holds the fetch's `FreshModel` entries (the models' references, in one
// array) and lets them go in order.
//
// Every read and write of the tables goes through `tracked` and `byIdentifier`, whose
// accessors register the deferred models first, so nothing can see the tables without them:
// the next fetch (its first row looks for a registered model), `model(for:)`, `insert`,
// `delete`, `save`, merges, `registeredModel(for:)`, and a storage looking up its model. The
// registration is the one `registerFetched` does, from the same entries; it only runs later.

/// The models of one fetch, not yet in the context's tables.
///
/// Only a fetch whose models cannot need anything of registration before the tables are read
/// defers it:
/// - its primary keys come in ascending order, so no row came twice (a row that did would
///   have to be replaced by the first one's model in the returned array, which only
///   registration finds out);
/// - no `enumerate` batch is logging what it registers.
///
/// A context that goes with models of an entity with relationships walks them, deferred or
/// not, to break the cycles they may hold (`ModelContext.deinit`, ``storages``).
struct DeferredRegistration {
    /// The rows' entries, each holding a reference to its model (`FreshModel`).
    let fresh: [FreshModel]
    /// The scope of the rows' identifiers (the table's).
    let scope: IdentifierScope
    /// The fetched type, for the table's values (`any PersistentModel`).
    let modelType: any PersistentModel.Type

    /// The deferred registration of `fresh`, or nil when it must be registered now.
    init?<T: PersistentModel>(_ type: T.Type, _ fresh: [FreshModel], layout: TableLayout, in context: ModelContext) {
        guard context.registrationLog == nil, Self.ascending(fresh) else { return nil }
        (self.fresh, scope, modelType) = (fresh, layout.identifierScope, type)
    }

    /// Whether the primary keys strictly increase: a scan in rowid order, or along any
    /// ordering that happens to follow it.
    private static func ascending(_ fresh: [FreshModel]) -> Bool {
        fresh.withUnsafeBufferPointer { entries in
            guard var previous = entries.first?.primaryKey else { return true }
            for entry in entries.dropFirst() {
                guard entry.primaryKey > previous else { return false }
                previous = entry.primaryKey
            }
            return true
        }
    }

    /// The models' storages, as each model holds it now: not the entries' own, which a model
    /// given new backing data (`persistentBackingData = …`) has let go of. The entries hold the
    /// models until ``release()``.
    var storages: [ModelStorage] {
        storages(of: modelType)
    }

    private func storages<T: PersistentModel>(of type: T.Type) -> [ModelStorage] {
        fresh.compactMap { unsafeDowncast($0.model.takeUnretainedValue(), to: T.self)._storage }
    }

    /// Gives back each entry's reference to its model: the context goes without having
    /// registered them.
    func release() {
        for entry in fresh { entry.model.release() }
    }
}

extension ModelContext {
    /// Registers the deferred models, as `registerFetched` registers a fetch's models.
    func registerDeferred() {
        guard let deferred = deferredRegistration else { return }
        deferredRegistration = nil
        register(deferred, as: deferred.modelType)
    }

    private func register<T: PersistentModel>(_ deferred: DeferredRegistration, as type: T.Type) {
        // No row came twice (keys ascend), and nothing registered anything since the fetch
        // (every way to the tables registers these first), so no row is replaced. These
        // models were fetched before any `enumerate` batch now logging began: not logged.
        insertFetched(deferred.fresh, scope: deferred.scope, replacingRowsMetTwiceIn: UnsafeMutableBufferPointer<T>?.none,
                      logsRegistrations: false)
    }
}
