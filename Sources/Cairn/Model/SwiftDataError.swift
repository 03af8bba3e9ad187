/// SwiftData's error type, with SwiftData's cases, matchable in `catch` clauses.
///
/// ```swift
/// do {
///     _ = try context.fetch(descriptor, batchSize: 100)
/// } catch SwiftDataError.includePendingChangesWithBatchSize {
///     // set descriptor.includePendingChanges = false
/// }
/// ```
///
/// Two errors are equal when their cases are; ``debugDescription`` adds Cairn's explanation of
/// what failed and where (it does not take part in `==`).
public struct SwiftDataError: Error, Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    enum Code: String, Hashable, Sendable {
        case includePendingChangesWithBatchSize, sortingPendingChangesWithIdentifiers
        case unsupportedKeyPath, unsupportedPredicate, unsupportedSortDescriptor
        case historyTokenExpired, invalidTransactionFetchRequest
        case configurationFileNameContainsInvalidCharacters, configurationFileNameTooLong
        case configurationSchemaNotFoundInContainerSchema, duplicateConfiguration
        case loadIssueModelContainer
        case modelValidationFailure, missingModelContext
        case backwardMigration, unknownSchema
        case unknownDataStoreSchema
    }

    let code: Code
    /// Cairn's explanation: what failed, where and why. Empty for the bare static cases.
    public let reason: String

    init(_ code: Code, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// The same case with Cairn's explanation attached.
    func with(reason: String) -> SwiftDataError { SwiftDataError(code, reason: reason) }

    public static func == (lhs: SwiftDataError, rhs: SwiftDataError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Lets `catch SwiftDataError.missingModelContext` match any error of that case.
    ///
    /// Cairn's ``ModelError`` of kind `.constraintViolation` also matches
    /// `SwiftDataError.modelValidationFailure`.
    public static func ~= (pattern: SwiftDataError, value: any Error) -> Bool {
        if let modelError = value as? ModelError {
            return pattern.code == .modelValidationFailure && modelError.kind == .constraintViolation
        }
        return (value as? SwiftDataError)?.code == pattern.code
    }

    public var description: String {
        reason.isEmpty ? "SwiftDataError.\(code.rawValue)" : "SwiftDataError.\(code.rawValue): \(reason)"
    }
    public var debugDescription: String { description }

    // MARK: - Fetch errors

    /// `fetch(_:batchSize:)` was called with `includePendingChanges == true`.
    public static let includePendingChangesWithBatchSize = SwiftDataError(.includePendingChangesWithBatchSize)
    /// `fetchIdentifiers` with a sort while `includePendingChanges == true`.
    public static let sortingPendingChangesWithIdentifiers = SwiftDataError(.sortingPendingChangesWithIdentifiers)
    /// A key path that does not name a persisted property.
    public static let unsupportedKeyPath = SwiftDataError(.unsupportedKeyPath)
    /// A predicate the store cannot evaluate.
    public static let unsupportedPredicate = SwiftDataError(.unsupportedPredicate)
    /// A sort descriptor the store cannot evaluate.
    public static let unsupportedSortDescriptor = SwiftDataError(.unsupportedSortDescriptor)
    /// A history token that the store no longer has.
    public static let historyTokenExpired = SwiftDataError(.historyTokenExpired)
    /// A history fetch request that cannot be run.
    public static let invalidTransactionFetchRequest = SwiftDataError(.invalidTransactionFetchRequest)

    // MARK: - Configuration errors

    /// A configuration name with characters a file name cannot have.
    public static let configurationFileNameContainsInvalidCharacters =
        SwiftDataError(.configurationFileNameContainsInvalidCharacters)
    /// A configuration name too long for a file name.
    public static let configurationFileNameTooLong = SwiftDataError(.configurationFileNameTooLong)
    /// A configuration's schema has entities the container's schema lacks.
    public static let configurationSchemaNotFoundInContainerSchema =
        SwiftDataError(.configurationSchemaNotFoundInContainerSchema)
    /// Two configurations with the same name or URL.
    public static let duplicateConfiguration = SwiftDataError(.duplicateConfiguration)

    // MARK: - Container, context, migration and schema errors

    /// The container could not open or create its store.
    public static let loadIssueModelContainer = SwiftDataError(.loadIssueModelContainer)
    /// A model broke a constraint of its schema (uniqueness, required value, relationship count).
    public static let modelValidationFailure = SwiftDataError(.modelValidationFailure)
    /// The operation needs a model that belongs to a context.
    public static let missingModelContext = SwiftDataError(.missingModelContext)
    /// The store's schema is newer than every schema of the migration plan.
    public static let backwardMigration = SwiftDataError(.backwardMigration)
    /// The store's schema is not one of the migration plan's.
    public static let unknownSchema = SwiftDataError(.unknownSchema)
    /// The store was written with a schema this container does not know.
    public static let unknownDataStoreSchema = SwiftDataError(.unknownDataStoreSchema)
}
