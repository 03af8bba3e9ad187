import Foundation

/// A plan to migrate a store through versions of its schema.
///
/// ```swift
/// enum WorkoutsPlan: SchemaMigrationPlan {
///     static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
///     static var stages: [MigrationStage] {
///         [.custom(fromVersion: SchemaV1.self, toVersion: SchemaV2.self,
///                  willMigrate: { context in /* dedupe with the V1 models */ try context.save() },
///                  didMigrate: nil)]
///     }
/// }
/// let container = try ModelContainer(for: Schema(versionedSchema: SchemaV2.self),
///                                    migrationPlan: WorkoutsPlan.self, configurations: [config])
/// ```
///
/// Cairn records the schema version in the store (table `_CairnMetadata`). When a plan is
/// given, the stages from the stored version to the container's are run in order, each in
/// its own transaction.
public protocol SchemaMigrationPlan: SendableMetatype {
    /// Every version of the schema, oldest first.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The steps between consecutive versions.
    static var stages: [MigrationStage] { get }
}

/// One step of a migration plan.
///
/// `Sendable`, as SwiftData declares it, so that a plan can keep its stages in static
/// constants (`static let v1ToV2 = MigrationStage.lightweight(…)`); the closures of a custom
/// stage are `@Sendable` for the same reason.
public enum MigrationStage: Sendable {
    /// A change Cairn makes by itself: entities or attributes added (optional or with a
    /// default), attributes removed or renamed with `originalName`, indexes and uniqueness
    /// added or removed.
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A change with code: `willMigrate` runs on a context of the old schema before the
    /// automatic part, `didMigrate` on a context of the new schema after it.
    case custom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
        willMigrate: (@Sendable (ModelContext) throws -> Void)?, didMigrate: (@Sendable (ModelContext) throws -> Void)?)

    var fromVersion: Schema.Version {
        switch self {
        case .lightweight(let from, _), .custom(let from, _, _, _): from.versionIdentifier
        }
    }
}

/// Runs the stages of a plan on one store file before the container opens it.
struct MigrationPlanRunner {
    let plan: any SchemaMigrationPlan.Type
    let target: Schema.Version
    let configuration: ModelConfiguration

    func run() throws {
        guard var current = try StoreMigrator.storedVersion(at: configuration.url), current != target else { return }
        let known = plan.schemas.map { $0.versionIdentifier }
        guard known.contains(current) else {
            throw SwiftDataError.unknownSchema.with(
                reason: "The store \(configuration.url.path) has schema version \(current), which the migration plan "
                    + "\(plan) does not list (it has \(known.map { $0.description }.joined(separator: ", ")))")
        }
        if current > target {
            throw SwiftDataError.backwardMigration.with(
                reason: "The store has schema version \(current), newer than the container's \(target)")
        }
        while current != target {
            guard let stage = plan.stages.first(where: { $0.fromVersion == current }) else {
                throw SwiftDataError.unknownSchema.with(
                    reason: "The migration plan \(plan) has no stage from version \(current) toward \(target)")
            }
            current = try run(stage)
        }
    }

    /// Runs one stage; returns the version the store is at afterwards.
    private func run(_ stage: MigrationStage) throws -> Schema.Version {
        switch stage {
        case .lightweight(_, let to):
            _ = try open(to)
            return to.versionIdentifier
        case .custom(let from, let to, let willMigrate, let didMigrate):
            if let willMigrate {
                let container = try open(from)
                try willMigrate(ModelContext(container))
            }
            let container = try open(to)
            try didMigrate?(ModelContext(container))
            return to.versionIdentifier
        }
    }

    /// A container of one version of the schema on the store (migrating it to that version).
    private func open(_ version: any VersionedSchema.Type) throws -> ModelContainer {
        try ModelContainer(for: Schema(versionedSchema: version), migrationPlan: nil, configurations: [configuration])
    }
}
