import Foundation

/// The object that tracks models: inserts, changes and deletes, saved together.
public final class ModelContext {
    /// Loads the unloaded slots of a stored model (no store yet: nothing to load).
    func faultIn(_ storage: ModelStorage) {}

    /// Turns a raw slot (a related row's primary key) into a model.
    func resolve(_ raw: DatabaseValue, property: any SchemaProperty, of storage: ModelStorage) -> Any? { nil }

    /// Records that a registered model changed.
    func noteChange(of storage: ModelStorage, at index: Int) {}
}
