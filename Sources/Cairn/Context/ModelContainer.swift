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
/// when the models changed (see ``StoreMigrator``):
///
/// ```sql
/// CREATE TABLE "Workout" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "startedAt" REAL NOT NULL,
///   "finishedAt" REAL, "minutes" INTEGER NOT NULL, "calories" REAL NOT NULL, "isFavorite" INTEGER NOT NULL)
/// ```
///
/// A container is `Sendable`: share it between actors and give each actor its own context.
public final class ModelContainer: Sendable {
    /// The models the container stores.
    public let schema: Schema
    /// The stores' configurations.
    public let configurations: Set<ModelConfiguration>
    /// The migration plan given when opening, if any.
    public let migrationPlan: (any SchemaMigrationPlan.Type)?

    let stores: [ModelStore]
    /// The store of each entity, by entity name.
    let storesByEntity: [String: ModelStore]
    private let mainContextBox = MainContextBox()
    /// What every commit changed, for contexts and live queries (Concurrency/ContainerChanges.swift).
    let changes = ContainerChanges()

    /// Opens (creating or migrating) the stores of a schema.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when a store cannot be opened,
    ///   ``ModelError`` when a model's property cannot be stored or migration fails.
    public init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: [ModelConfiguration]
    ) throws {
        let configurations = configurations.isEmpty ? [ModelConfiguration()] : configurations
        if let problem = givenSchema.entities.flatMap(\.problems).first { throw problem }
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
        schema = givenSchema
        self.configurations = Set(configurations)
        self.migrationPlan = migrationPlan
        self.stores = stores
        self.storesByEntity = storesByEntity
        changes.attach(to: stores)
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
        let context = ModelContext(self)
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
    /// Models that contexts already hold keep their values but no longer have rows.
    public func deleteAllData() {
        for store in stores {
            try? store.access { connection in
                try connection.transaction {
                    for layout in store.layouts.values {
                        try connection.execute(SQLDelete(from: layout.tableName))
                        for (name, _) in layout.ownedJoinTables { try connection.execute(SQLDelete(from: name)) }
                    }
                }
            }
        }
    }

    func store(for entityName: String) throws -> ModelStore {
        guard let store = storesByEntity[entityName] else {
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
    /// Two containers are equal when they are the same container.
    public static func == (lhs: ModelContainer, rhs: ModelContainer) -> Bool { lhs === rhs }
}
