import Foundation

extension ModelContainer {
    /// Opens a container whose models live in custom stores (``DataStore``).
    ///
    /// ```swift
    /// let configuration = JSONStoreConfiguration(name: "Trips", fileURL: url)
    /// let container = try ModelContainer(for: Trip.self, configurations: configuration)
    /// ```
    ///
    /// A configuration whose `schema` is `nil` holds every model of the container's schema (the
    /// container sets its `schema` before the store opens); with a schema, only those models.
    ///
    /// - Throws: what a configuration's `validate()` or its store's initializer throws;
    ///   ``SwiftDataError/configurationSchemaNotFoundInContainerSchema`` for a configuration
    ///   with a model the container's schema lacks.
    public convenience init(
        for forTypes: any PersistentModel.Type..., configurations: any DataStoreConfiguration...
    ) throws {
        try self.init(for: Schema(forTypes), configurations: configurations)
    }

    /// Opens a container of `givenSchema` whose models live in custom stores (``DataStore``).
    public convenience init(for givenSchema: Schema, configurations: [any DataStoreConfiguration]) throws {
        try self.init(schema: givenSchema, migrationPlan: nil, configurations: [], dataStores: configurations)
    }

    /// Opens each custom store with its schema set; an entity goes to the first store that
    /// lists it and is not in `taken` (a SQL store's).
    static func openDataStores(
        _ configurations: [any DataStoreConfiguration], schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?,
        taken: Set<String>
    ) throws -> [any OpenDataStore] {
        var claimed = taken
        var names: Set<String> = []
        var opened: [any OpenDataStore] = []
        for var configuration in configurations {
            guard names.insert(configuration.name).inserted else {
                throw SwiftDataError.duplicateConfiguration.with(
                    reason: "Two data store configurations are named '\(configuration.name)'")
            }
            if let subset = configuration.schema {
                for entity in subset.entities where schema.entitiesByName[entity.name] == nil {
                    throw SwiftDataError.configurationSchemaNotFoundInContainerSchema.with(
                        reason: "The configuration '\(configuration.name)' has the entity \(entity.name), which the container's schema lacks")
                }
            } else {
                configuration.schema = schema
            }
            try configuration.validate()
            let entities = Set((configuration.schema ?? schema).entities.map(\.name)).subtracting(claimed)
            claimed.formUnion(entities)
            opened.append(try openDataStore(configuration, entityNames: entities, migrationPlan: migrationPlan))
        }
        return opened
    }
}
