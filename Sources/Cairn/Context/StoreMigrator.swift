import Foundation

/// Brings a store's tables to the schema when it opens, in one transaction: creates missing
/// tables, join tables and indexes, and migrates changed tables lightweight-style (columns
/// added, removed, or renamed with `originalName`; indexes and uniqueness added or removed).
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
    let database: Database
    let layouts: [TableLayout]
    /// The schema version recorded in the store's `_CairnMetadata` table.
    let version: Schema.Version

    func run() throws {
        try database.inTransaction(.immediate) {
            let tables = Set(try strings("SELECT name FROM sqlite_master WHERE type = 'table'"))
            for layout in layouts.sorted(by: { $0.tableName < $1.tableName }) {
                if tables.contains(layout.tableName) {
                    try migrateColumns(of: layout)
                } else {
                    try execute(layout.createTable, entity: layout.tableName)
                }
                for (name, statements) in layout.ownedJoinTables where !tables.contains(name) {
                    for sql in statements { try execute(sql, entity: layout.tableName) }
                }
                try migrateIndexes(of: layout)
            }
            try database.execute(sql: StoreMigrator.createMetadata)
            try database.execute(sql: HistoryStorage.createTransactions)
            try database.execute(
                sql: #"INSERT OR REPLACE INTO "_CairnMetadata" ("key", "value") VALUES ('schemaVersion', ?)"#,
                arguments: StatementArguments([.text(version.description)]))
            try recordSchema()
        }
    }

    /// Keeps the description of the entities' tables in the store (``StoredSchemaRecord``),
    /// merged with what other containers of the same file recorded.
    private func recordSchema() throws {
        let key = StoredSchemaRecord.metadataKey
        let existing = try strings(#"SELECT "value" FROM "_CairnMetadata" WHERE "key" = ?"#, [.text(key)]).first
            .flatMap { try? JSONDecoder().decode(StoredSchemaRecord.self, from: Data($0.utf8)) }
        let record = StoredSchemaRecord.merging(layouts, into: existing)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(record), as: UTF8.self)
        try database.execute(
            sql: #"INSERT OR REPLACE INTO "_CairnMetadata" ("key", "value") VALUES (?, ?)"#,
            arguments: StatementArguments([.text(key), .text(json)]))
    }

    private func migrateColumns(of layout: TableLayout) throws {
        let table = SQLText.identifier(layout.tableName)
        let existing = try strings("SELECT name FROM pragma_table_info(?)", [.text(layout.tableName)])
        var remaining = Set(existing)
        remaining.remove(layout.primaryKey)
        let wanted = Set(layout.columns.map(\.name))
        for column in layout.columns {
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
            // Indexes on a column must go before the column can.
            let indexes = try strings(
                "SELECT DISTINCT il.name FROM pragma_index_list(?) AS il, pragma_index_info(il.name) AS ii WHERE ii.name = ? AND il.origin = 'c'",
                [.text(layout.tableName), .text(name)])
            for index in indexes { try execute("DROP INDEX \(SQLText.identifier(index))", entity: layout.tableName, property: name) }
            try execute("ALTER TABLE \(table) DROP COLUMN \(SQLText.identifier(name))", entity: layout.tableName, property: name)
        }
    }

    /// The definition of a column added to an existing table: nullable, or `NOT NULL` with the
    /// attribute's default value (existing rows take it).
    private func addedColumnDefinition(_ column: TableLayout.Column, layout: TableLayout) throws -> String {
        guard case .attribute(let attribute) = column.kind, !attribute.isOptional else { return column.definition }
        guard let defaultValue = attribute.defaultValue, let value = try? attribute.databaseValue(for: defaultValue) else {
            throw ModelError(
                .migrationFailed, entityName: layout.tableName, propertyName: attribute.name,
                column: SQLText.identifier(layout.tableName) + "." + SQLText.identifier(column.name),
                message: "Cannot add the non-optional attribute '\(attribute.name)' to the existing rows of \(layout.tableName): "
                    + "give it a default value (var \(attribute.name): \(attribute.valueType) = …) or make it optional")
        }
        return column.definition + " DEFAULT " + SQLText.literal(value)
    }

    private func migrateIndexes(of layout: TableLayout) throws {
        let existing = Set(try strings(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
            [.text(layout.tableName)]))
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

    private func strings(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> [String] {
        try database.fetchAll(sql: sql, arguments: StatementArguments(arguments)) { row in
            if case .text(let text) = row.databaseValue(at: 0) { return text }
            return ""
        }
    }

    private func execute(_ sql: String, entity: String, property: String? = nil) throws {
        do {
            try database.execute(sql: sql)
        } catch {
            throw ModelError(
                .migrationFailed, entityName: entity, propertyName: property,
                message: "Cannot bring the store to the schema: \(error)")
        }
    }
}

extension StoreMigrator {
    /// The table where Cairn records the schema version a store was last opened with.
    static let createMetadata =
        #"CREATE TABLE IF NOT EXISTS "_CairnMetadata" ("key" TEXT PRIMARY KEY, "value" TEXT NOT NULL)"#

    /// The schema version recorded in a store file, or `nil` (no file, or never recorded).
    static func storedVersion(at url: URL) throws -> Schema.Version? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        let database = try Database(path: url.path, configuration: configuration)
        defer { try? database.close() }
        let hasTable = try database.fetchAll(
            sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_CairnMetadata'") { _ in true }
        guard !hasTable.isEmpty else { return nil }
        let values = try database.fetchAll(
            sql: #"SELECT "value" FROM "_CairnMetadata" WHERE "key" = 'schemaVersion'"#) { $0.databaseValue(at: 0) }
        guard case .text(let text)? = values.first else { return nil }
        let parts = text.split(separator: ".").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return Schema.Version(parts[0], parts[1], parts[2])
    }
}
