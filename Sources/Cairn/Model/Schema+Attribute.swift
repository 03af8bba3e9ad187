import Foundation

extension Schema {
    /// A persisted value of a model: one column of the entity's table.
    ///
    /// `@Attribute` writes one to a property's metadata:
    ///
    /// ```swift
    /// @Attribute(.unique) var email: String
    /// // "email" TEXT NOT NULL, plus CREATE UNIQUE INDEX "Person_email_unique" ON "Person"("email")
    /// ```
    public final class Attribute: SchemaProperty, Hashable, @unchecked Sendable {
        // @unchecked Sendable: immutable after the entity that owns it is built (the key path
        // and slot are set during `Entity` construction, before the attribute is shared), and
        // `defaultValue` is only ever copied out.

        /// The property's name, which is also its column's.
        public let name: String
        /// The name the property had in the store before a rename, for migration.
        public let originalName: String
        /// The options given with `@Attribute`.
        public let options: [Option]
        /// The property's Swift type.
        public let valueType: any Any.Type
        /// The declared default value, used for new rows and when migrating an added column.
        public let defaultValue: Any?
        /// A marker that forces a new schema version hash when changed (kept, unused).
        public let hashModifier: String?
        var placement = PropertyPlacement()
        /// How values convert to and from the column. `nil` if the type cannot be stored.
        let codec: AttributeCodec?
        /// Whether the codec stores the value as it is (`Int`, `Double`, `String`, …): a save
        /// then writes an unboxed slot directly. Kept apart from `codec`, whose copy (two
        /// closures) cost about 100 instructions a column on every saved row (callgrind, W1).
        let storesPrimitive: Bool

        /// The options form `@Attribute` uses.
        public convenience init(_ options: Option..., originalName: String? = nil, hashModifier: String? = nil) {
            self.init(name: "", originalName: originalName, options: options, valueType: Any.self,
                      defaultValue: nil, hashModifier: hashModifier)
        }

        /// A complete attribute.
        public init(
            name: String, originalName: String? = nil, options: [Option] = [], valueType: any Any.Type,
            defaultValue: Any? = nil, hashModifier: String? = nil
        ) {
            self.name = name
            self.originalName = originalName ?? name
            self.options = options
            self.valueType = valueType
            self.defaultValue = defaultValue
            self.hashModifier = hashModifier
            codec = name.isEmpty ? nil : AttributeCodec.make(for: valueType)
            storesPrimitive = codec?.representation == .primitive
        }

        /// The same attribute placed in an entity.
        func placed(name: String, valueType: any Any.Type, defaultValue: Any?, keypath: AnyKeyPath, slot: Int) -> Attribute {
            let attribute = Attribute(
                name: name, originalName: originalName.isEmpty ? nil : originalName, options: options,
                valueType: valueType, defaultValue: defaultValue, hashModifier: hashModifier)
            attribute.placement = PropertyPlacement(keypath: keypath, slot: slot)
            return attribute
        }

        /// The property's key path on its model.
        public var keypath: AnyKeyPath? { placement.keypath }
        /// Whether the property is an attribute (stored as a column).
        public var isAttribute: Bool { true }
        /// Whether the property is a relationship to other models.
        public var isRelationship: Bool { false }
        /// `.ephemeral` attributes are tracked but have no column.
        public var isTransient: Bool { options.contains(.ephemeral) }
        /// Whether the property may be `nil`.
        public var isOptional: Bool { codec?.isOptional ?? (valueType is any _OptionalMarker.Type) }
        /// Whether the property's values must be unique among the entity's rows.
        public var isUnique: Bool { options.contains(.unique) }
        /// Whether the attribute is stored through a named transformer (`.transformable(by:)`).
        public var isTransformable: Bool { options.contains { if case .transformable = $0.kind { true } else { false } } }

        /// The attribute's column in the entity's table (Cairn: the property's name).
        public var columnName: String { name }
        /// The column's declared SQLite type: `INTEGER`, `REAL`, `TEXT` or `BLOB`.
        public var columnType: String { codec?.columnType.rawValue ?? "BLOB" }

        /// The column's type in a store's dialect. PostgreSQL's: `BIGINT`, `DOUBLE PRECISION`,
        /// `TEXT`, `BYTEA`, and `BOOLEAN` for a `Bool` (whose values read back as SQLite's 0 and 1).
        func columnType(in dialect: StoreDialect) -> String {
            guard dialect == .postgres else { return columnType }
            if isBoolean { return "BOOLEAN" }
            switch codec?.columnType ?? .blob {
            case .integer: return "BIGINT"
            case .real: return "DOUBLE PRECISION"
            case .text: return "TEXT"
            case .blob: return "BYTEA"
            }
        }

        /// Whether the value type is `Bool` or `Bool?`.
        var isBoolean: Bool { valueType == Bool.self || valueType == Bool?.self }

        /// The value as it is bound for this attribute's column.
        ///
        /// The predicate compiler and other surfaces bind values through this, so a comparison
        /// with a stored value uses the stored representation:
        ///
        /// ```swift
        /// try attribute.databaseValue(for: Date(timeIntervalSinceReferenceDate: 60))  // .real(60)
        /// ```
        public func databaseValue(for value: Any) throws -> DatabaseValue {
            guard let codec else { throw unsupported() }
            return try codec.encode(value)
        }

        /// The Swift value of a column value read for this attribute.
        public func value(from databaseValue: DatabaseValue) throws -> Any {
            guard let codec else { throw unsupported() }
            return try codec.decode(databaseValue)
        }

        func unsupported() -> ModelError {
            ModelError(
                .unsupportedType, propertyName: name, value: String(describing: valueType),
                message: "The type \(valueType) of '\(name)' cannot be stored: use a number, Bool, String, Date, "
                    + "Data, UUID, URL, Decimal, a RawRepresentable or Codable type, an array or Optional of these, "
                    + "or a model; or mark the property @Transient")
        }

        public var description: String {
            "Attribute(\(name): \(valueType)\(options.isEmpty ? "" : ", \(options)"))"
        }

        public static func == (lhs: Attribute, rhs: Attribute) -> Bool {
            lhs.name == rhs.name && lhs.originalName == rhs.originalName && lhs.options == rhs.options
                && lhs.valueType == rhs.valueType
        }

        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }
}

extension Schema.Attribute {
    /// How an attribute is stored, as `@Attribute(…)` options.
    ///
    /// Cairn honours `.unique` (a unique index, and inserts that upsert), `.ephemeral` (no
    /// column), `.preserveValueOnDeletion` and `.externalStorage` (stored in the row like any
    /// other value: SQLite keeps large BLOBs efficiently). `.spotlight`,
    /// `.allowsCloudEncryption`, `.transformable(by:)` and `.codable` compile and do nothing on
    /// Linux.
    public struct Option: Hashable, Sendable, CustomStringConvertible {
        enum Kind: Hashable, Sendable {
            case unique, externalStorage, allowsCloudEncryption, preserveValueOnDeletion, spotlight
            case ephemeral, codable
            case transformable(String)
        }

        let kind: Kind

        /// The value must be unique among the entity's rows; inserting a model with an existing
        /// value updates that row instead (SwiftData's upsert).
        public static var unique: Option { Option(kind: .unique) }
        /// Store large binary data outside the row. Cairn keeps it in the row (no-op).
        public static var externalStorage: Option { Option(kind: .externalStorage) }
        /// Encrypt the value in CloudKit. No-op on Linux.
        public static var allowsCloudEncryption: Option { Option(kind: .allowsCloudEncryption) }
        /// Keep the value in the history tombstone of a deleted model.
        public static var preserveValueOnDeletion: Option { Option(kind: .preserveValueOnDeletion) }
        /// Index the value for Spotlight. No-op on Linux.
        public static var spotlight: Option { Option(kind: .spotlight) }
        /// Track changes to the property but do not persist it (no column).
        public static var ephemeral: Option { Option(kind: .ephemeral) }
        /// Store the property through its `Codable` representation (JSON text; Cairn's default
        /// for `Codable` types that are not numbers, strings or the other column types).
        public static var codable: Option { Option(kind: .codable) }
        /// Store through a named `ValueTransformer`. Linux Foundation has no value transformers,
        /// so this compiles and the property is stored as its `Codable` representation.
        public static func transformable(by transformerName: String) -> Option {
            Option(kind: .transformable(transformerName))
        }

        public var description: String {
            switch kind {
            case .transformable(let name): ".transformable(by: \"\(name)\")"
            default: ".\(kind)"
            }
        }
    }
}
