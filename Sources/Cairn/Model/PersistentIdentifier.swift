import Foundation
import Synchronization

/// The identity of a model's row, stable across contexts of one container and across reopening.
///
/// A model gets a *temporary* identifier when it is created or inserted; the first `save()` that
/// writes its row replaces it with a *permanent* one made of the store identifier, the entity
/// name and the row's primary key (the table's `id` column):
///
/// ```swift
/// let run = Workout(title: "Run", startedAt: .now, minutes: 30, calories: 250)
/// context.insert(run)
/// run.persistentModelID.isTemporary       // true
/// try context.save()                      // INSERT INTO "Workout" (…) VALUES (…); the rowid is the key
/// run.persistentModelID.primaryKey        // 1
/// ```
///
/// Identifiers are `Sendable` and `Codable`: pass them between actors and look the model up
/// again with ``ModelContext/model(for:)`` or ``ModelContext/registeredModel(for:)``.
public struct PersistentIdentifier: Hashable, Codable, Sendable, Comparable {
    /// The opaque value that tells identifiers apart.
    public struct ID: Hashable, Codable, Sendable {
        /// `.permanent(rowid)` once saved, `.temporary(UUID)` before; `.custom` for the
        /// primary key of a custom data store that is not an integer (a `UUID`, a name).
        ///
        /// Every case holds a number, so a key is copied as plain bits: with a `String` payload
        /// (inline or `indirect`), Swift 6.3's optimizer stopped release builds on switches over
        /// the key ("Found ownership error" in CopyPropagation), and an inline one made every
        /// identifier 8 bytes larger.
        enum Key: Hashable, Codable, Sendable {
            /// A number unique in this process (temporary identifiers never outlive it).
            case temporary(UInt64)
            case permanent(Int64)
            /// The key's `description` (what `identifier(for:entityName:primaryKey:)` was
            /// given), as its number in ``CustomKeyText``.
            case custom(UInt64)

            private enum CodingKeys: String, CodingKey {
                case temporary, permanent, custom
            }

            private enum PayloadKeys: String, CodingKey {
                case _0
            }

            /// The form Swift gives an enum: `{"permanent": {"_0": 42}}`, with a custom key's
            /// text (not its number, which only this process knows): `{"custom": {"_0": "A1"}}`.
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                guard let which = container.allKeys.first, container.allKeys.count == 1 else {
                    throw DecodingError.dataCorrupted(.init(
                        codingPath: container.codingPath,
                        debugDescription: "A PersistentIdentifier key has one of temporary, permanent or custom"))
                }
                let payload = try container.nestedContainer(keyedBy: PayloadKeys.self, forKey: which)
                switch which {
                case .temporary: self = .temporary(try payload.decode(UInt64.self, forKey: ._0))
                case .permanent: self = .permanent(try payload.decode(Int64.self, forKey: ._0))
                case .custom: self = .custom(CustomKeyText.number(for: try payload.decode(String.self, forKey: ._0)))
                }
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                switch self {
                case .temporary(let number):
                    var payload = container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .temporary)
                    try payload.encode(number, forKey: ._0)
                case .permanent(let key):
                    var payload = container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .permanent)
                    try payload.encode(key, forKey: ._0)
                case .custom(let number):
                    var payload = container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .custom)
                    try payload.encode(CustomKeyText.text(of: number), forKey: ._0)
                }
            }
        }

        let key: Key
        /// The entity and the store, shared by the identifiers of one table.
        let scope: IdentifierScope

        /// The entity, as in the `PersistentIdentifier`.
        var entityName: String { scope.entityName }
        /// The store, as in the `PersistentIdentifier`.
        var storeIdentifier: String? { scope.storeIdentifier }

        init(key: Key, scope: IdentifierScope) {
            self.key = key
            self.scope = scope
        }

        public static func == (lhs: ID, rhs: ID) -> Bool {
            lhs.key == rhs.key && lhs.scope.names(equal: rhs.scope)
        }

        /// Hashes the key alone: contexts look identifiers up once per fetched row, and hashing
        /// the two strings as well cost more than the rest of the lookup. Equal identifiers
        /// still hash equally; identifiers of different entities with the same key are told
        /// apart by `==`.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(key)
        }

        private enum CodingKeys: String, CodingKey {
            case key, entityName, storeIdentifier
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            key = try container.decode(Key.self, forKey: .key)
            scope = IdentifierScope(
                entityName: try container.decode(String.self, forKey: .entityName),
                storeIdentifier: try container.decodeIfPresent(String.self, forKey: .storeIdentifier))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
            try container.encode(scope.entityName, forKey: .entityName)
            try container.encodeIfPresent(scope.storeIdentifier, forKey: .storeIdentifier)
        }
    }

    /// The value that tells identifiers apart (entity, store and key together).
    public let id: ID

    /// The name of the entity (the model's class name unless the schema says otherwise).
    public var entityName: String { id.entityName }

    /// The store that holds the row: its configuration's name, or `nil` before the first save.
    public var storeIdentifier: String? { id.storeIdentifier }

    /// Whether the model has not been saved yet: its identifier will change on the first save.
    public var isTemporary: Bool {
        if case .temporary = id.key { return true }
        return false
    }

    /// The row's primary key (`id` column) in the entity's table, or `nil` before the first save.
    public var primaryKey: Int64? {
        if case .permanent(let key) = id.key { return key }
        return nil
    }

    init(scope: IdentifierScope, key: ID.Key) {
        id = ID(key: key, scope: scope)
    }

    /// A fresh temporary identifier for an unsaved model of `entityName`.
    static func temporary(entityName: String) -> PersistentIdentifier {
        temporary(scope: IdentifierScope(entityName: entityName, storeIdentifier: nil))
    }

    /// A fresh temporary identifier in `scope` (an entity's ``Schema/Entity/unsavedScope``).
    static func temporary(scope: IdentifierScope) -> PersistentIdentifier {
        PersistentIdentifier(scope: scope, key: .temporary(TemporaryKeys.shared.next()))
    }

    /// The permanent identifier of row `primaryKey` of `entityName` in a store.
    package static func permanent(entityName: String, storeIdentifier: String?, primaryKey: Int64) -> PersistentIdentifier {
        permanent(scope: IdentifierScope(entityName: entityName, storeIdentifier: storeIdentifier), primaryKey: primaryKey)
    }

    /// The permanent identifier of row `primaryKey` in `scope` (a table layout's
    /// ``TableLayout/identifierScope``, made once per store and entity).
    static func permanent(scope: IdentifierScope, primaryKey: Int64) -> PersistentIdentifier {
        PersistentIdentifier(scope: scope, key: .permanent(primaryKey))
    }

    /// Makes the identifier of a row from its parts, as SwiftData's custom stores do.
    ///
    /// ```swift
    /// let id = try PersistentIdentifier.identifier(for: "default", entityName: "Workout", primaryKey: 42)
    /// let other = try PersistentIdentifier.identifier(for: "trips.json", entityName: "Trip", primaryKey: UUID())
    /// ```
    ///
    /// An integer key (or a string of one) names the row of that `id` in a SQLite or PostgreSQL
    /// store; any other key (a `UUID`, a name) is kept as its `description`, for a custom data
    /// store (see ``DataStore``). Identifiers made from the same parts are equal, and stay equal
    /// after a round trip through `Codable`.
    ///
    /// - Throws: ``ModelError`` if `primaryKey` describes itself as an empty string.
    public static func identifier<T>(for storeIdentifier: String, entityName: String, primaryKey: T) throws
        -> PersistentIdentifier
    where T: Comparable, T: CustomStringConvertible, T: Decodable, T: Encodable, T: Hashable {
        let integer: Int64? = switch primaryKey {
        case let value as Int64: value
        case let value as Int: Int64(value)
        case let value as Int32: Int64(value)
        case let value as String: Int64(value)
        default: nil
        }
        let scope = IdentifierScope(entityName: entityName, storeIdentifier: storeIdentifier)
        if let integer { return .permanent(scope: scope, primaryKey: integer) }
        let description = primaryKey.description
        guard !description.isEmpty else {
            throw ModelError.invalidPrimaryKey(entityName: entityName, value: String(describing: primaryKey))
        }
        return PersistentIdentifier(scope: scope, key: .custom(CustomKeyText.number(for: description)))
    }

    /// Orders by store, then entity name, then saved before unsaved, then primary key.
    public static func < (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
        let left = (lhs.storeIdentifier ?? "", lhs.entityName)
        let right = (rhs.storeIdentifier ?? "", rhs.entityName)
        if left != right { return left < right }
        switch (lhs.id.key, rhs.id.key) {
        case (.permanent(let a), .permanent(let b)): return a < b
        case (.custom(let a), .custom(let b)): return CustomKeyText.text(of: a) < CustomKeyText.text(of: b)
        case (.temporary(let a), .temporary(let b)): return a < b
        default: return lhs.id.key.rank < rhs.id.key.rank
        }
    }
}

extension PersistentIdentifier: CustomStringConvertible {
    /// `Workout/42` (saved, with its store as `default:Workout/42`) or `Workout/t7` (unsaved).
    public var description: String {
        let store = storeIdentifier.map { $0 + ":" } ?? ""
        switch id.key {
        case .permanent(let key): return "\(store)\(entityName)/\(key)"
        case .custom(let number): return "\(store)\(entityName)/\(CustomKeyText.text(of: number))"
        case .temporary(let number): return "\(store)\(entityName)/t\(number)"
        }
    }
}

extension PersistentIdentifier.ID.Key {
    /// Saved (integer, then custom keys) before unsaved, for `<`.
    fileprivate var rank: Int {
        switch self {
        case .permanent: 0
        case .custom: 1
        case .temporary: 2
        }
    }
}

/// The entity name and store identifier of persistent identifiers, one object for many
/// identifiers: copying an identifier (into a model's storage, into the context's identity map)
/// retains this one object instead of two strings, about 180 instructions less per copy.
/// Identifiers with different scope objects but the same names are equal.
final class IdentifierScope: Sendable {
    let entityName: String
    let storeIdentifier: String?

    init(entityName: String, storeIdentifier: String?) {
        self.entityName = entityName
        self.storeIdentifier = storeIdentifier
    }

    /// Whether both scopes name the same entity in the same store.
    @inline(__always)
    func names(equal other: IdentifierScope) -> Bool {
        self === other || (entityName == other.entityName && storeIdentifier == other.storeIdentifier)
    }
}

/// Hands out the numbers of temporary identifiers.
final class TemporaryKeys: @unchecked Sendable {
    // @unchecked Sendable: `last` is only touched while holding `lock`.
    static let shared = TemporaryKeys()
    private let lock = NSLock()
    private var last: UInt64 = 0

    func next() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        last &+= 1
        return last
    }
}

/// The text of custom data stores' keys that are not integers (a `UUID`, a name), each given a
/// number once per process: an identifier holds the number, so that its key is plain bits like
/// a row's primary key. Equal texts get the same number, so identifiers compare and hash by it.
/// A text stays for the life of the process: as many as the distinct keys the process met.
enum CustomKeyText {
    private static let table = Mutex<(numbers: [String: UInt64], texts: [String])>(([:], []))

    static func number(for text: String) -> UInt64 {
        table.withLock { table in
            if let number = table.numbers[text] { return number }
            let number = UInt64(table.texts.count)
            table.texts.append(text)
            table.numbers[text] = number
            return number
        }
    }

    static func text(of number: UInt64) -> String {
        table.withLock { table in table.texts.indices.contains(Int(number)) ? table.texts[Int(number)] : "?" }
    }
}
