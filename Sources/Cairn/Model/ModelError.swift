/// Cairn's errors about models, schemas and stores where SwiftData has no case of its own.
///
/// Each error says what failed and where: the entity, the property, the table column and the
/// value involved, and for store failures the SQL and SQLite's message.
///
/// ```swift
/// do { try context.save() } catch let error as ModelError {
///     print(error)   // Cannot save Person: property 'email' (column "Person"."email") must be
///                    // unique, and 'a@b.c' is already stored …
/// }
/// ```
public struct ModelError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: String, Sendable, Hashable {
        /// A property's type cannot be stored (only for models written by hand; `@Model`
        /// rejects such a property at compile time).
        case unsupportedType
        /// A stored value cannot be read back as the property's type.
        case valueDecodingFailed
        /// A value cannot be written as the property's column type.
        case valueEncodingFailed
        /// A row breaks a constraint (UNIQUE, NOT NULL, a relationship rule) when saving.
        case constraintViolation
        /// The schema is inconsistent (duplicate names, an index on an unknown property, …).
        case invalidSchema
        /// The store's tables could not be brought to the schema.
        case migrationFailed
        /// A primary key that cannot name a row (an empty one).
        case invalidPrimaryKey
        /// The store failed to read or write.
        case storeFailure
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The entity involved, if any.
    public let entityName: String?
    /// The property involved, if any.
    public let propertyName: String?
    /// The column involved (`"Entity"."column"`), if any.
    public let column: String?
    /// A description of the value involved, if any.
    public let value: String?
    /// The words that explain the failure.
    public let message: String

    init(
        _ kind: Kind, entityName: String? = nil, propertyName: String? = nil, column: String? = nil,
        value: String? = nil, message: String
    ) {
        self.kind = kind
        self.entityName = entityName
        self.propertyName = propertyName
        self.column = column
        self.value = value
        self.message = message
    }

    public var description: String {
        var where_: [String] = []
        if let entityName { where_.append("entity '\(entityName)'") }
        if let propertyName { where_.append("property '\(propertyName)'") }
        if let column { where_.append("column \(column)") }
        if let value { where_.append("value \(value)") }
        let place = where_.isEmpty ? "" : " [" + where_.joined(separator: ", ") + "]"
        return message + place
    }

    static func invalidPrimaryKey(entityName: String, value: String) -> ModelError {
        ModelError(
            .invalidPrimaryKey, entityName: entityName, value: value,
            message: "A persistent identifier's primary key must describe itself as a non-empty string "
                + "(an integer for the `id` column of a SQLite or PostgreSQL store; a UUID or a name for a custom store)")
    }
}
