import Foundation

/// The stores of an app's models, and the contexts that work with them.
///
/// ```swift
/// let container = try ModelContainer(for: Workout.self)           // default store file
/// let memory = try ModelContainer(for: Workout.self,
///                                 configurations: ModelConfiguration(isStoredInMemoryOnly: true))
/// let context = ModelContext(container)
/// ```
///
/// Opening creates the tables and indexes of every entity the first time, and migrates them
/// when the models changed (see `StoreMigrator`):
///
/// ```sql
/// CREATE TABLE "Workout" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "startedAt" REAL NOT NULL,
///   "finishedAt" REAL, "minutes" INTEGER NOT NULL, "calories" REAL NOT NULL, "isFavorite" INTEGER NOT NULL)
/// ```
///
/// A container is `Sendable`: share it between actors and give each actor its own context.
///
/// The container's stores stay open while the container, one of its contexts or one of their
/// models is in use, and close when none is: a container and its ``mainContext`` do not keep
/// each other alive (see `ContainerState`). Models a context leaves holding each other
/// (unsaved) do not keep them open (Docs/ModelsAndContexts.md).
public final class ModelContainer: Sendable {
    /// The models the container stores.
    public var schema: Schema { state.schema }
    /// The stores' configurations.
    public var configurations: Set<ModelConfiguration> { state.configurations }
    /// The migration plan given when opening, if any.
    public var migrationPlan: (any SchemaMigrationPlan.Type)? { state.migrationPlan }

    /// The open stores, shared with every context of the container.
    let state: ContainerState
    private let mainContextBox = MainContextBox()

    var stores: [ModelStore] { state.stores }
    /// What every commit changed, for contexts and live queries (Concurrency/ContainerChanges.swift).
    package var changes: ContainerChanges { state.changes }

    /// Opens (creating or migrating) the stores of a schema.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when a store cannot be opened,
    ///   ``ModelError`` when a model's property cannot be stored or migration fails.
    public convenience init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: [ModelConfiguration]
    ) throws {
        try self.init(
            schema: givenSchema, migrationPlan: migrationPlan,
            configurations: configurations.isEmpty ? [ModelConfiguration()] : configurations, dataStores: [])
    }

    /// Opens the SQL stores of `configurations` and the custom stores of `dataStores`.
    init(
        schema givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: [ModelConfiguration],
        dataStores dataStoreConfigurations: [any DataStoreConfiguration]
    ) throws {
        if let problem = givenSchema.entities.flatMap(\.problems).first
            ?? Schema.mismatchedInverseProblems(givenSchema.entities).first
        {
            throw problem
        }
        var seen: Set<URL> = []
        for configuration in configurations {
            try configuration.validate()
            if !configuration.isStoredInMemoryOnly, !seen.insert(configuration.url).inserted {
                throw SwiftDataError.duplicateConfiguration.with(
                    reason: "Two configurations use the store \(configuration.url.path)")
            }
        }
        var stores: [ModelStore] = []
        var storesByEntity: [String: ModelStore] = [:]
        for configuration in configurations {
            var entities = givenSchema.entities
            if let subset = configuration.schema {
                for entity in subset.entities where givenSchema.entitiesByName[entity.name] == nil {
                    throw SwiftDataError.configurationSchemaNotFoundInContainerSchema.with(
                        reason: "The configuration '\(configuration.name)' has the entity \(entity.name), which the container's schema lacks")
                }
                entities = subset.entities
            }
            entities = entities.filter { storesByEntity[$0.name] == nil }
            if let migrationPlan, !configuration.isStoredInMemoryOnly {
                try MigrationPlanRunner(plan: migrationPlan, target: givenSchema.version, configuration: configuration).run()
            }
            let store = try ModelStore(configuration: configuration, entities: entities, version: givenSchema.version)
            stores.append(store)
            for entity in entities { storesByEntity[entity.name] = store }
        }
        let dataStores = try Self.openDataStores(
            dataStoreConfigurations, schema: givenSchema, migrationPlan: migrationPlan, taken: Set(storesByEntity.keys))
        state = ContainerState(
            schema: givenSchema, configurations: Set(configurations), migrationPlan: migrationPlan, stores: stores,
            storesByEntity: storesByEntity, dataStores: dataStores)
    }

    /// Another handle on open stores: for a main context whose container was released while
    /// the context is still in use (``ModelContext/container``; its main context is `context`),
    /// and for loading what models left behind by their context had not loaded (`ContextLink`).
    init(state: ContainerState, mainContext context: ModelContext? = nil) {
        self.state = state
        mainContextBox.context = context
    }

    /// Opens the stores of the given model types (and the models they reach).
    ///
    /// ```swift
    /// let container = try ModelContainer(for: Workout.self, Trip.self)
    /// ```
    public convenience init(
        for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws {
        try self.init(for: Schema(forTypes), migrationPlan: migrationPlan, configurations: configurations)
    }

    /// Opens the stores of a schema with the given configurations.
    public convenience init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations)
    }

    /// The main actor's context. Its ``ModelContext/autosaveEnabled`` is on: it saves soon after
    /// changes.
    @MainActor public var mainContext: ModelContext {
        if let context = mainContextBox.context { return context }
        let context = ModelContext(mainOf: self)
        context.autosaveEnabled = true
        context.isMainContext = true
        mainContextBox.context = context
        return context
    }

    /// Deletes every row of every entity, at once and for good.
    ///
    /// ```sql
    /// DELETE FROM "Workout"
    /// ```
    ///
    /// Models that contexts already hold keep their values but no longer have rows. A custom
    /// store (``DataStore``) is asked to ``DataStore/erase()``.
    public func deleteAllData() {
        for store in state.dataStores { try? store.erase() }
        for store in stores {
            try? store.write { connection in
                for layout in store.layouts.values {
                    try connection.execute(SQLDelete(from: layout.tableName))
                    for (name, _) in layout.ownedJoinTables(in: store.dialect) { try connection.execute(SQLDelete(from: name)) }
                }
                try connection.execute(SQLDelete(from: "_CairnHistoryTransaction"))
            }
        }
    }

    func store(for entityName: String) throws -> ModelStore {
        try state.store(for: entityName)
    }
}

/// What a container opened: its stores and their schema, shared by the container and its
/// contexts.
///
/// Every context holds this strongly, and the container too. The main context holds its
/// container weakly: the container keeps its main context for as long as it lives (so
/// `container.mainContext` is always the same context), and a strong reference back would keep
/// both, and the store files, open for the rest of the process. A main context whose container
/// was released still works, and its ``ModelContext/container`` is a new handle on this state.
final class ContainerState: Sendable {
    let schema: Schema
    let configurations: Set<ModelConfiguration>
    let migrationPlan: (any SchemaMigrationPlan.Type)?
    let stores: [ModelStore]
    /// The store of each entity, by entity name.
    let storesByEntity: [String: ModelStore]
    /// The custom stores (``DataStore``) of the entities they hold, by entity name; empty for
    /// most containers, which the fetch and save paths check first.
    let dataStoresByEntity: [String: any OpenDataStore]
    let dataStores: [any OpenDataStore]
    let changes: ContainerChanges

    init(
        schema: Schema, configurations: Set<ModelConfiguration>, migrationPlan: (any SchemaMigrationPlan.Type)?,
        stores: [ModelStore], storesByEntity: [String: ModelStore], dataStores: [any OpenDataStore] = []
    ) {
        self.schema = schema
        self.configurations = configurations
        self.migrationPlan = migrationPlan
        self.stores = stores
        self.storesByEntity = storesByEntity
        var byEntity: [String: any OpenDataStore] = [:]
        for store in dataStores {
            for name in store.entityNames { byEntity[name] = store }
        }
        dataStoresByEntity = byEntity
        self.dataStores = dataStores
        changes = ContainerChanges(stores: stores)
    }

    func store(for entityName: String) throws -> ModelStore {
        guard let store = storesByEntity[entityName] else {
            if let dataStore = dataStoresByEntity[entityName] {
                throw ModelError(
                    .storeFailure, entityName: entityName,
                    message: "'\(entityName)' is kept in the custom data store '\(dataStore.name)', which answers fetch, "
                        + "fetchCount, fetchIdentifiers, model(for:) and save; this operation needs a SQLite or PostgreSQL "
                        + "store (a ModelConfiguration)")
            }
            throw ModelError(
                .invalidSchema, entityName: entityName,
                message: "The container has no store for '\(entityName)'; list the model type in ModelContainer(for:)")
        }
        return store
    }
}

/// Holds the main context for the container.
private final class MainContextBox: @unchecked Sendable {
    // @unchecked Sendable: `context` is only read and written from `ModelContainer.mainContext`,
    // which is @MainActor, so every access happens on the main actor.
    var context: ModelContext?
}

extension ModelContainer: Equatable {
    /// Two containers are equal when they are the same container: handles on the same open
    /// stores (see `ContainerState`).
    public static func == (lhs: ModelContainer, rhs: ModelContainer) -> Bool { lhs.state === rhs.state }
}
