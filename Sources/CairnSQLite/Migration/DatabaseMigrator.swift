import Foundation

/// Brings a database's schema up to date by running registered migrations in order, each once,
/// each in its own transaction: GRDB's `DatabaseMigrator`, which SQLiteData apps use to create
/// their tables.
///
/// ```swift
/// var migrator = DatabaseMigrator()
/// #if DEBUG
/// migrator.eraseDatabaseOnSchemaChange = true
/// #endif
/// migrator.registerMigration("Create reminders") { db in
///     try #sql("CREATE TABLE \"reminders\" (\"id\" INTEGER PRIMARY KEY, \"title\" TEXT NOT NULL)").execute(db)
/// }
/// try migrator.migrate(database)
/// // CREATE TABLE IF NOT EXISTS "grdb_migrations" ("identifier" TEXT NOT NULL PRIMARY KEY)
/// // BEGIN IMMEDIATE; CREATE TABLE "reminders" …; INSERT INTO "grdb_migrations" … ; COMMIT
/// ```
///
/// The identifiers of applied migrations are kept in `grdb_migrations`, as GRDB keeps them, so
/// a database GRDB migrated continues here. A migration that throws rolls back its own changes
/// and stops `migrate`, with the migrations before it applied.
public struct DatabaseMigrator {
    /// In development: when the migrations no longer produce the database's schema (one was
    /// edited, removed or renamed since it was applied), the database is emptied and every
    /// migration runs again, instead of leaving a schema no migration describes. Its data is
    /// lost: never set this in production.
    public var eraseDatabaseOnSchemaChange = false

    private var migrations: [(identifier: String, migrate: (Database) throws -> Void)] = []
    private var duplicates: [String] = []

    /// A migrator with no migrations registered yet.
    public init() {}

    /// Adds a migration, to run after those registered before it.
    public mutating func registerMigration(_ identifier: String, migrate: @escaping (Database) throws -> Void) {
        if migrations.contains(where: { $0.identifier == identifier }) { duplicates.append(identifier) }
        migrations.append((identifier, migrate))
    }

    /// Runs the migrations not applied yet, in order.
    ///
    /// - Throws: ``DatabaseMigratorError`` for a migration registered twice, or what a
    ///   migration threw (its changes rolled back).
    public func migrate(_ writer: any DatabaseWriter) throws {
        try migrate(writer, upTo: nil)
    }

    /// Runs the migrations not applied yet, up to and including `identifier`.
    public func migrate(_ writer: any DatabaseWriter, upTo identifier: String?) throws {
        if let duplicate = duplicates.first {
            throw DatabaseMigratorError(message: "the migration '\(duplicate)' is registered twice")
        }
        var wanted = migrations
        if let identifier {
            guard let last = migrations.firstIndex(where: { $0.identifier == identifier }) else {
                throw DatabaseMigratorError(message: "no migration is registered as '\(identifier)'")
            }
            wanted = Array(migrations[...last])
        }
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: Self.createTable)
            if eraseDatabaseOnSchemaChange, try schemaChanged(db, configuration: writer.configuration) {
                try Self.erase(db)
                try db.execute(sql: Self.createTable)
            }
            let applied = Set(try appliedIdentifiers(db))
            for migration in wanted where !applied.contains(migration.identifier) {
                try db.inTransaction(.immediate) {
                    try migration.migrate(db)
                    try db.execute(sql: #"INSERT INTO "grdb_migrations" ("identifier") VALUES (?)"#,
                                   arguments: [migration.identifier])
                }
            }
        }
    }

    /// The identifiers of the migrations applied to `db`, in the order they were applied.
    public func appliedIdentifiers(_ db: Database) throws -> [String] {
        guard try db.tableExists("grdb_migrations") else { return [] }
        return try db.fetchAll(sql: #"SELECT "identifier" FROM "grdb_migrations" ORDER BY rowid"#) { row in
            if case .text(let identifier) = row.databaseValue(at: 0) { identifier } else { "" }
        }
    }

    /// Whether every registered migration has been applied to `db`.
    public func hasCompletedMigrations(_ db: Database) throws -> Bool {
        Set(try appliedIdentifiers(db)).isSuperset(of: migrations.map(\.identifier))
    }

    // MARK: - Erasing on schema change

    static let createTable = #"CREATE TABLE IF NOT EXISTS "grdb_migrations" ("identifier" TEXT NOT NULL PRIMARY KEY)"#

    /// Whether the database holds a migration that is no longer registered, or a schema other
    /// than its applied migrations make from an empty database.
    private func schemaChanged(_ db: Database, configuration: Configuration) throws -> Bool {
        let applied = try appliedIdentifiers(db)
        let registered = Dictionary(migrations.map { ($0.identifier, $0.migrate) }, uniquingKeysWith: { first, _ in first })
        if applied.contains(where: { registered[$0] == nil }) { return true }
        // The writer's configuration: migrations may use its functions and collations.
        var scratchConfiguration = configuration
        scratchConfiguration.readonly = false
        let scratch = try Database.inMemory(configuration: scratchConfiguration)
        defer { try? scratch.close() }
        try scratch.execute(sql: Self.createTable)
        for migration in migrations where applied.contains(migration.identifier) {
            try scratch.inTransaction(.immediate) { try migration.migrate(scratch) }
        }
        return try Self.schema(of: scratch) != Self.schema(of: db)
    }

    /// The database's tables, indexes, views and triggers, as their SQL.
    private static func schema(of db: Database) throws -> Set<String> {
        Set(try db.fetchAll(sql: "SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'") { row in
            if case .text(let text) = row.databaseValue(at: 0) { text } else { "" }
        })
    }

    /// Drops every table, view and trigger (indexes go with their tables).
    private static func erase(_ db: Database) throws {
        let objects = try db.fetchAll(sql: "SELECT type, name FROM sqlite_master WHERE type IN ('view', 'trigger', 'table') AND name NOT LIKE 'sqlite_%'") { row -> (String, String) in
            let type = if case .text(let text) = row.databaseValue(at: 0) { text } else { "" }
            let name = if case .text(let text) = row.databaseValue(at: 1) { text } else { "" }
            return (type, name)
        }
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
        try db.inTransaction(.immediate) {
            for kind in ["view", "trigger", "table"] {
                for (type, name) in objects where type == kind {
                    try db.execute(sql: "DROP \(type.uppercased()) IF EXISTS \"\(name.replacingOccurrences(of: "\"", with: "\"\""))\"")
                }
            }
        }
    }
}

/// A misuse of ``DatabaseMigrator``: a migration registered twice, an unknown identifier.
public struct DatabaseMigratorError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the migration.
    public let message: String
    public var description: String { "DatabaseMigrator: \(message)" }
}
