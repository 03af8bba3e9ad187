import Foundation

/// The values of one model at one moment, in a form a custom ``DataStore`` can keep and
/// `Codable` can write.
public protocol DataStoreSnapshot: Codable, Sendable {
    /// The snapshot of a model's backing data. `relatedBackingDatas` collects the backing data
    /// of the models it refers to.
    init(from: any BackingData, relatedBackingDatas: inout [PersistentIdentifier: any BackingData])
    /// The model's identifier.
    var persistentIdentifier: PersistentIdentifier { get }
    /// The same values under another identifier, with references to models whose identifiers
    /// changed (`remappedIdentifiers`, temporary to permanent) rewritten.
    func copy(persistentIdentifier: PersistentIdentifier, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]?)
        -> Self
}

extension DataStoreSnapshot {
    /// The same values under another identifier.
    public func copy(persistentIdentifier: PersistentIdentifier) -> Self {
        copy(persistentIdentifier: persistentIdentifier, remappedIdentifiers: nil)
    }
}

/// A value a snapshot holds.
public typealias DataStoreSnapshotValue = Codable & Sendable

/// The keys a snapshot is encoded with: its identifier, then one per stored property.
public enum DataStoreSnapshotCodingKey: CodingKey, Hashable, Sendable {
    /// The snapshot's ``PersistentIdentifier``.
    case persistentIdentifier
    /// A stored property, by name.
    case modeledProperty(String)

    /// `persistentIdentifier`, or the property's name.
    public var stringValue: String {
        switch self {
        case .persistentIdentifier: "persistentIdentifier"
        case .modeledProperty(let name): name
        }
    }

    /// The key of a property name (`persistentIdentifier` is the identifier's).
    public init?(stringValue: String) {
        self = stringValue == "persistentIdentifier" ? .persistentIdentifier : .modeledProperty(stringValue)
    }

    /// `nil`: snapshots are keyed by name.
    public var intValue: Int? { nil }

    /// `nil`: snapshots are keyed by name.
    public init?(intValue: Int) { nil }
}

/// The snapshot Cairn makes of a model: its identifier and every stored property, attributes
/// as their stored values (the ones a SQLite column holds: a `Date` as seconds since
/// 2001-01-01, a `UUID` as text, a `Codable` struct as JSON text) and relationships as the
/// identifiers of the related models.
///
/// Encoded, it is an object keyed by property name:
///
/// ```json
/// { "persistentIdentifier": { … }, "name": "Lisbon", "startDate": 801100800, "items": [ { … } ] }
/// ```
public struct DefaultSnapshot: DataStoreSnapshot, Hashable {
    /// The model's identifier.
    public let persistentIdentifier: PersistentIdentifier
    /// The stored values by property name.
    let values: [String: Value]

    /// One property's stored value.
    enum Value: Hashable, Sendable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob(Data)
        /// A to-one relationship.
        case model(PersistentIdentifier)
        /// A to-many relationship.
        case models([PersistentIdentifier])
    }

    init(persistentIdentifier: PersistentIdentifier, values: [String: Value]) {
        self.persistentIdentifier = persistentIdentifier
        self.values = values
    }

    /// The snapshot of a model's values. Values that cannot be stored are left out; a
    /// context's save makes its snapshots with `init(of:)`, which throws for them instead.
    public init(from backingData: any BackingData, relatedBackingDatas: inout [PersistentIdentifier: any BackingData]) {
        guard let storage = (backingData as? any StorageBacked)?.backingStorage else {
            // A backing data of the app's own: its identifier, and no values Cairn can read.
            self.init(
                persistentIdentifier: backingData.persistentModelID ?? .temporary(entityName: entityName(of: backingData)),
                values: [:])
            return
        }
        var values: [String: Value] = [:]
        for (index, property) in storage.entity.properties.enumerated() {
            values[property.name] = try? Self.value(of: property, at: index, in: storage, related: &relatedBackingDatas)
        }
        self.init(persistentIdentifier: storage.identifier, values: values)
    }

    /// The snapshot of a model's storage; throws for a value its attribute cannot store.
    init(of storage: ModelStorage) throws {
        var related: [PersistentIdentifier: any BackingData] = [:]
        var values: [String: Value] = [:]
        for (index, property) in storage.entity.properties.enumerated() {
            values[property.name] = try Self.value(of: property, at: index, in: storage, related: &related)
        }
        self.init(persistentIdentifier: storage.identifier, values: values)
    }

    private static func value(
        of property: any SchemaProperty, at index: Int, in storage: ModelStorage,
        related: inout [PersistentIdentifier: any BackingData]
    ) throws -> Value? {
        if let attribute = property as? Schema.Attribute {
            guard !attribute.isTransient else { return nil }
            let value = storage.value(at: index, as: Any.self)
            do {
                return Value(try attribute.databaseValue(for: value))
            } catch {
                throw ModelError(
                    .valueEncodingFailed, entityName: storage.entity.name, propertyName: attribute.name, value: "\(value)",
                    message: "Cannot snapshot \(storage.entity.name) for its data store: \(error)")
            }
        }
        guard let relationship = property as? Schema.Relationship else { return nil }
        let models = storage.currentRelatedModels(at: index)
        for model in models { related[model.persistentModelID] = backingData(of: model) }
        if relationship.isToOneRelationship { return models.first.map { .model($0.persistentModelID) } ?? .null }
        return .models(models.map(\.persistentModelID))
    }

    /// The same values under `persistentIdentifier`, with relationships to models in
    /// `remappedIdentifiers` pointing to their new identifiers.
    public func copy(
        persistentIdentifier: PersistentIdentifier, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]?
    ) -> DefaultSnapshot {
        guard let remapped = remappedIdentifiers, !remapped.isEmpty else {
            return DefaultSnapshot(persistentIdentifier: persistentIdentifier, values: values)
        }
        return DefaultSnapshot(
            persistentIdentifier: persistentIdentifier,
            values: values.mapValues { value in
                switch value {
                case .model(let id): .model(remapped[id] ?? id)
                case .models(let ids): .models(ids.map { remapped[$0] ?? $0 })
                default: value
                }
            })
    }

    // MARK: - Codable

    /// Writes the identifier and each property's value under ``DataStoreSnapshotCodingKey``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DataStoreSnapshotCodingKey.self)
        try container.encode(persistentIdentifier, forKey: .persistentIdentifier)
        for (name, value) in values {
            let key = DataStoreSnapshotCodingKey.modeledProperty(name)
            switch value {
            case .null: try container.encodeNil(forKey: key)
            case .integer(let number): try container.encode(number, forKey: key)
            case .real(let number): try container.encode(number, forKey: key)
            case .text(let text): try container.encode(text, forKey: key)
            case .blob(let data): try container.encode(data, forKey: key)
            case .model(let id): try container.encode(id, forKey: key)
            case .models(let ids): try container.encode(ids, forKey: key)
            }
        }
    }

    /// Reads what `encode(to:)` wrote. The encoded form carries no types: a number, a string, an
    /// identifier or a list of them is read as such, and the context converts it to the
    /// property's type when it makes the model (a base64 string for `Data`, a whole number for
    /// a `Double`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DataStoreSnapshotCodingKey.self)
        persistentIdentifier = try container.decode(PersistentIdentifier.self, forKey: .persistentIdentifier)
        var values: [String: Value] = [:]
        for key in container.allKeys where key != .persistentIdentifier {
            values[key.stringValue] = try Self.decodeValue(container, key)
        }
        self.values = values
    }

    private static func decodeValue(_ container: KeyedDecodingContainer<DataStoreSnapshotCodingKey>, _ key: DataStoreSnapshotCodingKey)
        throws -> Value
    {
        if try container.decodeNil(forKey: key) { return .null }
        if let number = try? container.decode(Int64.self, forKey: key) { return .integer(number) }
        if let number = try? container.decode(Double.self, forKey: key) { return .real(number) }
        if let text = try? container.decode(String.self, forKey: key) { return .text(text) }
        if let data = try? container.decode(Data.self, forKey: key) { return .blob(data) }
        if let id = try? container.decode(PersistentIdentifier.self, forKey: key) { return .model(id) }
        if let ids = try? container.decode([PersistentIdentifier].self, forKey: key) { return .models(ids) }
        throw DecodingError.dataCorruptedError(
            forKey: key, in: container,
            debugDescription: "'\(key.stringValue)' is not a number, a string, data, or one or more persistent identifiers")
    }
}

extension DefaultSnapshot.Value {
    init(_ value: DatabaseValue) {
        switch value {
        case .null: self = .null
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .real(number)
        case .text(let text): self = .text(text)
        case .blob(let data): self = .blob(data)
        }
    }

    /// The stored value for a column of `type`, converting what an encoding without types
    /// changed (a whole `Double` read back as an integer, `Data` read back as base64 text).
    func databaseValue(for type: AttributeCodec.ColumnType) -> DatabaseValue? {
        switch (self, type) {
        case (.null, _): .null
        case (.integer(let number), .real): .real(Double(number))
        case (.integer(let number), _): .integer(number)
        case (.real(let number), .integer) where number.rounded() == number && abs(number) < 9.2e18: .integer(Int64(number))
        case (.real(let number), _): .real(number)
        case (.text(let text), .blob): Data(base64Encoded: text).map { .blob($0) }
        case (.text(let text), _): .text(text)
        case (.blob(let data), _): .blob(data)
        case (.model, _), (.models, _): nil
        }
    }
}

/// Cairn's backing data, which snapshots read through.
protocol StorageBacked {
    var backingStorage: ModelStorage { get }
}

extension DefaultBackingData: StorageBacked {
    var backingStorage: ModelStorage { storage }
}

/// The entity name of a backing data's model type.
private func entityName<Backing: BackingData>(of backingData: Backing) -> String {
    Schema.entityName(for: Backing.Model.self)
}
