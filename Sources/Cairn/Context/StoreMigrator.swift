import CairnPostgres
import Foundation

/// Brings a store's tables to the schema when it opens, in the one transaction its backend
/// runs it in: creates missing tables, join tables and indexes, and migrates changed tables
/// lightweight-style (columns added, removed, or renamed with `originalName`; indexes and
/// uniqueness added or removed).
///
/// ```sql
/// ALTER TABLE "Workout" ADD COLUMN "notes" TEXT
/// ALTER TABLE "Workout" ADD COLUMN "rating" INTEGER NOT NULL DEFAULT 0
/// ALTER TABLE "Workout" RENAME COLUMN "name" TO "title"
/// ALTER TABLE "Workout" DROP COLUMN "legacy"
/// ```
///
/// A failure rolls the whole transaction back, so the file is as it was, and throws a
/// ``ModelError`` of kind `.migrationFailed` naming the entity and attribute.
struct StoreMigrator {
    /// The store's connection, inside the transaction the backend opened for the migration.
    let connection: StoreConnection
    let layouts: [TableLayout]
    /// The schema version recorded in the store's `_CairnMetadata` table.
    let version: Schema.Version

    private var dialect: StoreDialect { connection.dialect }

    func run() throws {
        let tables = Set(try strings(StoreCatalog.tables(in: dialect)))
        try connection.execute(RenderedSQL(sql: StoreMigrator.createMetadata, arguments: []))
        for layout in layouts.sorted(by: { $0.entity.name < $1.entity.name }) {
            // A hierarchy's table is the root's layout's to create and migrate (it knows every
            // column); each entity still owns its join tables.
            if layout.ownsTable {
                if tables.contains(layout.tableName) {
                    try migrateColumns(of: layout)
                    try lowercaseUUIDs(in: layout)
                } else {
                    try execute(layout.createTable(in: dialect), entity: layout.tableName)
                    try connection.execute(HistoryStorage.setMetadata(Self.uuidTextKey(layout), to: Self.lowercaseUUIDText))
                }
            }
            for (name, statements) in layout.ownedJoinTables(in: dialect) where !tables.contains(name) {
                for sql in statements { try execute(sql, entity: layout.tableName) }
            }
            if layout.ownsTable { try migrateIndexes(of: layout) }
        }
        try connection.execute(RenderedSQL(sql: HistoryStorage.createTransactions(dialect), arguments: []))
        try connection.execute(HistoryStorage.setMetadata("schemaVersion", to: version.description))
        try recordSchema()
    }

    /// Keeps the description of the entities' tables in the store (``StoredSchemaRecord``),
    /// merged with what other containers of the same file recorded.
    private func recordSchema() throws {
        let key = StoredSchemaRecord.metadataKey
        let existing = try connection.rows(HistoryStorage.metadata(key)).first?.first
            .flatMap { value -> StoredSchemaRecord? in
                guard case .text(let json) = value else { return nil }
                return try? JSONDecoder().decode(StoredSchemaRecord.self, from: Data(json.utf8))
            }
        let record = StoredSchemaRecord.merging(layouts, into: existing)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(record), as: UTF8.self)
        try connection.execute(HistoryStorage.setMetadata(key, to: json))
    }

    private func migrateColumns(of layout: TableLayout) throws {
        let table = SQLText.identifier(layout.tableName)
        let existing = try strings(StoreCatalog.columns(of: layout.tableName, in: dialect))
        var remaining = Set(existing)
        remaining.remove(layout.primaryKey)
        var wanted = Set(layout.tableColumns.map(\.name))
        if layout.hierarchy != nil {
            // A table that becomes a hierarchy's: its rows are the root's.
            wanted.insert(Schema.Entity.discriminatorColumn)
            if remaining.remove(Schema.Entity.discriminatorColumn) == nil {
                try execute("ALTER TABLE \(table) ADD COLUMN " + layout.discriminatorDefinition(in: dialect),
                            entity: layout.tableName, property: Schema.Entity.discriminatorColumn)
            }
        }
        for column in layout.tableColumns {
            if remaining.remove(column.name) != nil { continue }
            if case .attribute(let attribute) = column.kind, attribute.originalName != attribute.name,
                remaining.contains(attribute.originalName), !wanted.contains(attribute.originalName)
            {
                remaining.remove(attribute.originalName)
                try execute(
                    "ALTER TABLE \(table) RENAME COLUMN \(SQLText.identifier(attribute.originalName)) TO \(SQLText.identifier(column.name))",
                    entity: layout.tableName, property: column.name)
                continue
            }
            try execute("ALTER TABLE \(table) ADD COLUMN " + (try addedColumnDefinition(column, layout: layout)),
                        entity: layout.tableName, property: column.name)
        }
        for name in remaining.sorted() {
            // Indexes on a column must go before the column can (PostgreSQL drops them with it).
            if let indexesOnColumn = StoreCatalog.indexes(of: layout.tableName, on: name, in: dialect) {
                for index in try strings(indexesOnColumn) {
                    try execute("DROP INDEX \(SQLText.identifier(index))", entity: layout.tableName, property: name)
                }
            }
            try execute("ALTER TABLE \(table) DROP COLUMN \(SQLText.identifier(name))", entity: layout.tableName, property: name)
        }
    }

    /// The definition of a column added to an existing table: nullable, or `NOT NULL` with the
    /// attribute's default value (existing rows take it).
    private func addedColumnDefinition(_ column: TableLayout.Column, layout: TableLayout) throws -> String {
        guard case .attribute(let attribute) = column.kind, !attribute.isOptional,
            layout.hierarchy?.addedColumns.contains(column.name) != true
        else { return layout.definition(of: column, in: dialect) }
        guard let defaultValue = attribute.defaultValue, let value = try? attribute.databaseValue(for: defaultValue) else {
            throw ModelError(
                .migrationFailed, entityName: layout.tableName, propertyName: attribute.name,
                column: SQLText.identifier(layout.tableName) + "." + SQLText.identifier(column.name),
                message: "Cannot add the non-optional attribute '\(attribute.name)' to the existing rows of \(layout.tableName): "
                    + "give it a default value (var \(attribute.name): \(attribute.valueType) = …) or make it optional")
        }
        return column.definition(in: dialect) + " DEFAULT " + SQLText.literal(value, in: dialect, isBoolean: attribute.isBoolean)
    }

    private func migrateIndexes(of layout: TableLayout) throws {
        let existing = Set(try strings(StoreCatalog.indexes(of: layout.tableName, in: dialect)))
        let wanted = layout.indexes
        for (name, sql) in wanted where !existing.contains(name) {
            try execute(sql, entity: layout.tableName)
        }
        let wantedNames = Set(wanted.map(\.name))
        for name in existing.sorted() where name.hasPrefix(layout.tableName + "_") && !wantedNames.contains(name)
            && !name.hasSuffix("_target")
        {
            try execute("DROP INDEX \(SQLText.identifier(name))", entity: layout.tableName)
        }
    }

    /// Rewrites a table's UUID attributes to lower case once, so that SQL comparisons with
    /// bound UUIDs, which are lowercase, find them in a store whose rows were written in upper
    /// case (by a Cairn release that stored `uuidString`, or by another tool):
    ///
    /// ```sql
    /// UPDATE "Trip" SET "token" = lower("token") WHERE "token" <> lower("token")
    /// ```
    ///
    /// The table's `_CairnMetadata` key `uuidText.<table>` records that it is done.
    private func lowercaseUUIDs(in layout: TableLayout) throws {
        let key = Self.uuidTextKey(layout)
        if try connection.rows(HistoryStorage.metadata(key)).first?.first == .text(Self.lowercaseUUIDText) { return }
        let table = SQLText.identifier(layout.tableName)
        for column in layout.tableColumns {
            guard case .attribute(let attribute) = column.kind, StoredSchemaRecord.typeName(attribute.valueType) == "uuid"
            else { continue }
            let name = SQLText.identifier(column.name)
            try execute("UPDATE \(table) SET \(name) = lower(\(name)) WHERE \(name) <> lower(\(name))",
                        entity: layout.tableName, property: attribute.name)
        }
        try connection.execute(HistoryStorage.setMetadata(key, to: Self.lowercaseUUIDText))
    }

    private static func uuidTextKey(_ layout: TableLayout) -> String { "uuidText." + layout.tableName }
    private static let lowercaseUUIDText = "lowercase"

    private func strings(_ query: RenderedSQL) throws -> [String] {
        try connection.rows(query).map { row in
            if case .text(let text)? = row.first { return text }
            return ""
        }
    }

    private func execute(_ sql: String, entity: String, property: String? = nil) throws {
        do {
            try connection.execute(RenderedSQL(sql: sql, arguments: []))
        } catch {
            throw ModelError(
                .migrationFailed, entityName: entity, propertyName: property,
                message: "Cannot bring the store to the schema: \(error)")
        }
    }
}

/// What a store holds, asked of its catalog: SQLite's `sqlite_master` and pragmas,
/// PostgreSQL's `information_schema` and `pg_index` in the connection's current schema.
enum StoreCatalog {
    /// The names of the tables.
    static func tables(in dialect: StoreDialect) -> RenderedSQL {
        switch dialect {
        case .sqlite: RenderedSQL(sql: "SELECT name FROM sqlite_master WHERE type = 'table'", arguments: [])
        case .postgres:
            RenderedSQL(sql: "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()", arguments: [])
        }
    }

    /// The names of a table's columns.
    static func columns(of table: String, in dialect: StoreDialect) -> RenderedSQL {
        switch dialect {
        case .sqlite: RenderedSQL(sql: "SELECT name FROM pragma_table_info(?)", arguments: [.text(table)])
        case .postgres:
            RenderedSQL(
                sql: "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1",
                arguments: [.text(table)])
        }
    }

    /// The indexes Cairn created on a table (not those behind its primary key).
    static func indexes(of table: String, in dialect: StoreDialect) -> RenderedSQL {
        switch dialect {
        case .sqlite:
            RenderedSQL(sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
                        arguments: [.text(table)])
        case .postgres:
            RenderedSQL(
                sql: """
                    SELECT i.relname FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid \
                    JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace \
                    WHERE n.nspname = current_schema() AND t.relname = $1 AND NOT x.indisprimary
                    """,
                arguments: [.text(table)])
        }
    }

    /// The indexes over one column that must be dropped before it; `nil` when dropping the
    /// column drops them (PostgreSQL).
    static func indexes(of table: String, on column: String, in dialect: StoreDialect) -> RenderedSQL? {
        guard dialect == .sqlite else { return nil }
        return RenderedSQL(
            sql: "SELECT DISTINCT il.name FROM pragma_index_list(?) AS il, pragma_index_info(il.name) AS ii WHERE ii.name = ? AND il.origin = 'c'",
            arguments: [.text(table), .text(column)])
    }

    /// Whether a table exists.
    static func tableExists(_ table: String, in dialect: StoreDialect) -> RenderedSQL {
        switch dialect {
        case .sqlite: RenderedSQL(sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [.text(table)])
        case .postgres:
            RenderedSQL(
                sql: "SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1",
                arguments: [.text(table)])
        }
    }
}

extension StoreMigrator {
    /// The table where Cairn records the schema version a store was last opened with.
    static let createMetadata =
        #"CREATE TABLE IF NOT EXISTS "_CairnMetadata" ("key" TEXT PRIMARY KEY, "value" TEXT NOT NULL)"#

    /// The schema version recorded in a store file, or `nil` (no file, or never recorded).
    static func storedVersion(at url: URL) throws -> Schema.Version? {
        if url.scheme == "postgresql" || url.scheme == "postgres" {
            let connection = try PostgresConnection(url: url.absoluteString)
            return try storedVersion(in: StoreConnection(postgres: connection, log: StatementLog()))
        }
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        let database = try Database(path: url.path, configuration: configuration)
        defer { try? database.close() }
        return try storedVersion(in: StoreConnection(database: database, log: StatementLog()))
    }

    private static func storedVersion(in connection: StoreConnection) throws -> Schema.Version? {
        guard try connection.tableExists("_CairnMetadata") else { return nil }
        guard case .text(let text)? = try connection.rows(HistoryStorage.metadata("schemaVersion")).first?.first else {
            return nil
        }
        let parts = text.split(separator: ".").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return Schema.Version(parts[0], parts[1], parts[2])
    }
}
