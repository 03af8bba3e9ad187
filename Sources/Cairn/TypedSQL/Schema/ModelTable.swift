// `@Model` classes as typed-SQL tables: the runtime half of the `Table` conformance the
// `@Model` macro writes (its `TableColumns` come from the macro; everything that depends on
// the schema is read here from the model's `Schema.Entity`).

/// Support for the `Table` conformance `@Model` generates; not meant to be called directly.
///
/// ```swift
/// @Model final class Workout { var minutes: Int; var calories: Double; … }
///
/// let total = try container.read(for: Workout.self) { db in
///     try Workout.where { $0.minutes.gte(30) }.select { $0.calories.sum() }.fetchOne(db)
/// }
/// // SELECT sum("Workout"."calories") FROM "Workout" WHERE ("Workout"."minutes" >= ?)
/// ```
///
/// On a `Database`, a model's table columns select values and aggregates only: decoding a
/// whole model row (`Workout.all.fetchAll(db)`) throws, since models are materialized by a
/// `ModelContext`. For whole models, hand the query to a context:
/// `context.fetch(Workout.where { $0.minutes.gte(30) })` (see `ModelContext+TypedSQL.swift`).
public enum _ModelTable {
    /// The model's table name: its entity name (the class name).
    public static func tableName<Model: PersistentModel>(_ type: Model.Type) -> String {
        Schema.entityName(for: type)
    }

    /// The model's integer primary-key column: `id`, or `rowid` when the model has its own
    /// `id` property (``Schema/Entity/primaryKeyColumn``).
    public static func primaryKey<Model: PersistentModel>(_ type: Model.Type) -> TableColumn<Model, Int> {
        let entity = Schema.Entity.of(type)
        return TableColumn(entity.primaryKeyColumn, table: entity.tableName)
    }

    /// Every column the model's table stores, in the schema's declaration order: stored
    /// attributes and the foreign-key columns of to-one relationships (named after the
    /// property). To-many relationships and transient properties have no column.
    public static func allColumns<Model: PersistentModel>(_ type: Model.Type) -> [any TableColumnExpression] {
        let entity = Schema.Entity.of(type)
        var columns: [any TableColumnExpression] = []
        for property in entity.storedProperties {
            if let attribute = property as? Schema.Attribute {
                guard !attribute.isTransient else { continue }
            } else if let relationship = property as? Schema.Relationship {
                guard relationship.isToOneRelationship else { continue }
            } else {
                continue
            }
            columns.append(TableColumn<Model, Never>(property.name, table: entity.tableName))
        }
        return columns
    }

    /// Decoding a whole model row is not supported: this error says so and what to do instead.
    public static func rowDecodingUnsupported<Model: PersistentModel>(_ type: Model.Type) -> any Error {
        let name = Schema.entityName(for: type)
        return ModelError(
            .unsupportedType, entityName: name,
            message: "Typed SQL does not decode whole \(name) rows into models: select columns or "
                + "aggregates (\(name).select { $0.property }), or fetch the models through a ModelContext "
                + "(context.fetch(\(name).where { … }))")
    }
}
