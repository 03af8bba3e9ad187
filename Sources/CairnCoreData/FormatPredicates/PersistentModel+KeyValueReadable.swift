import Foundation

/// Reads a `@Model`'s persisted properties by name for the in-memory evaluator and sort, so
/// every model works with `evaluate(with:)` and `sortedArray(using:)` without further code.
///
/// ```swift
/// try FormatPredicate("minutes > 20 AND title BEGINSWITH 'R'").evaluate(with: run)  // true
/// ```
struct PersistentModelReader: KeyValueReadable {
    let model: any PersistentModel

    func value(forKey key: String) -> Any? {
        let entity = Schema.Entity.cached(for: type(of: model))
        guard let keyPath = entity.storedPropertiesByName[key]?.keypath else { return nil }
        return model[keyPath: keyPath]
    }
}

extension FormatOperand {
    /// The object behind an operand read from a model or a dictionary, for identity checks.
    static func identity(of object: any KeyValueReadable) -> AnyObject {
        if let reader = object as? PersistentModelReader { return reader.model }
        return object as AnyObject
    }
}
