import Foundation

extension ModelContext {
    /// Inserts the new models a newly inserted model references.
    func insertRelatedModels(of storage: ModelStorage) {}

    /// Keeps inverses in sync when a relationship is set.
    func relationshipChanged(_ relationship: Schema.Relationship, of storage: ModelStorage, at index: Int) {}

    /// Applies delete rules to the deleted models.
    func applyDeleteRules() {}

    /// Turns a raw to-one slot (a related row's primary key) into a model.
    func resolve(_ raw: DatabaseValue, property: any SchemaProperty, of storage: ModelStorage) -> Any? { nil }

    /// The models of a to-many relationship, with one query.
    func loadToMany(
        _ relationship: Schema.Relationship, of storage: ModelStorage, primaryKey: Int64, layout: TableLayout, store: ModelStore
    ) throws -> Any {
        []
    }
}
