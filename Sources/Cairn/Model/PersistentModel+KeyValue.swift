extension PersistentModel {
    /// Cairn: a persisted property's value by name, as Core Data's key-value coding reads it.
    ///
    /// Goes through the model's getter, so the read is observed and faulted in like any other.
    /// `nil` for a name that is not a persisted property.
    ///
    /// ```swift
    /// workout.value(forKey: "minutes") as? Int   // 30
    /// ```
    public func value(forKey key: String) -> Any? {
        guard let keyPath = Schema.Entity.of(Self.self).storedPropertiesByName[key]?.keypath else { return nil }
        return self[keyPath: keyPath]
    }

    /// Cairn: sets a persisted property by name, through the model's setter (observed,
    /// recorded as a change, inverses kept in sync).
    ///
    /// ```swift
    /// try workout.setValue(45, forKey: "minutes")
    /// ```
    ///
    /// - Throws: ``ModelError`` (`.invalidSchema`) for an unknown name, (`.valueEncodingFailed`)
    ///   for a value of the wrong type.
    public func setValue(_ value: Any?, forKey key: String) throws {
        let entity = Schema.Entity.of(Self.self)
        guard let property = entity.storedPropertiesByName[key], let keyPath = property.keypath as? any _KeyPathAssigning else {
            throw ModelError(.invalidSchema, entityName: entity.name, propertyName: key,
                             message: "\(entity.name) has no persisted property named '\(key)'")
        }
        let boxed: Any? = value ?? (property.valueType as? any _OptionalBuilding.Type)?._nilValue
        guard let boxed, keyPath._assign(boxed, on: self) else {
            throw ModelError(
                .valueEncodingFailed, entityName: entity.name, propertyName: key, value: value.map { "\($0)" } ?? "nil",
                message: "'\(key)' of \(entity.name) holds \(property.valueType); the value does not fit")
        }
    }
}
