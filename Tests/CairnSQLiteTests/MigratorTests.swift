import CairnSQLite
import Foundation
import Testing

/// GRDB's `DatabaseMigrator`, as SQLiteData apps create their schema with it.
@Suite struct MigratorTests {
    func tables(_ writer: any DatabaseWriter) throws -> [String] {
        try writer.read { db in
            try db.fetchAll(sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") { row in
                if case .text(let name) = row.databaseValue(at: 0) { name } else { "" }
            }
        }
    }

    func migrator(erasing: Bool = false, secondTable: String = "tags") -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.eraseDatabaseOnSchemaChange = erasing
        migrator.registerMigration("Create reminders") { db in
            try db.execute(sql: #"CREATE TABLE "reminders" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL)"#)
        }
        migrator.registerMigration("Create tags") { db in
            try db.execute(sql: #"CREATE TABLE "\#(secondTable)" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL)"#)
        }
        return migrator
    }

    @Test func migrationsRunOnceEachInOrder() throws {
        let queue = try DatabaseQueue()
        var migrator = migrator()
        try migrator.migrate(queue, upTo: "Create reminders")
        #expect(try tables(queue) == ["grdb_migrations", "reminders"])
        try migrator.migrate(queue)
        try migrator.migrate(queue)  // nothing left to do: no "table already exists"
        #expect(try tables(queue) == ["grdb_migrations", "reminders", "tags"])
        migrator.registerMigration("Add notes") { db in
            try db.execute(sql: #"ALTER TABLE "reminders" ADD COLUMN "notes" TEXT NOT NULL DEFAULT ''"#)
        }
        #expect(try queue.read { try !migrator.hasCompletedMigrations($0) })
        try migrator.migrate(queue)
        #expect(try queue.read { try migrator.appliedIdentifiers($0) } == ["Create reminders", "Create tags", "Add notes"])
        #expect(try queue.read { try migrator.hasCompletedMigrations($0) })
    }

    @Test func aFailingMigrationRollsBackItselfOnly() throws {
        let queue = try DatabaseQueue()
        var migrator = migrator()
        migrator.registerMigration("Broken") { db in
            try db.execute(sql: #"CREATE TABLE "half" ("id" INTEGER PRIMARY KEY)"#)
            try db.execute(sql: "THIS IS NOT SQL")
        }
        #expect(throws: DatabaseError.self) { try migrator.migrate(queue) }
        #expect(try tables(queue) == ["grdb_migrations", "reminders", "tags"])
        #expect(try queue.read { try migrator.appliedIdentifiers($0) } == ["Create reminders", "Create tags"])
    }

    @Test func misuseIsAnError() throws {
        let queue = try DatabaseQueue()
        var twice = migrator()
        twice.registerMigration("Create tags") { _ in }
        #expect(throws: DatabaseMigratorError.self) { try twice.migrate(queue) }
        #expect(throws: DatabaseMigratorError.self) { try migrator().migrate(queue, upTo: "Unknown") }
        #expect(try tables(queue) == [])
    }

    @Test func anEditedMigrationErasesTheDatabaseOnlyWhenAsked() throws {
        let path = try TemporaryDatabasePath()
        defer { path.cleanup() }
        let pool = try DatabasePool(path: path.path)
        try migrator().migrate(pool)
        try pool.write { db in try db.execute(sql: #"INSERT INTO "reminders" ("title") VALUES ('kept')"#) }

        // The same migrations: nothing erased.
        try migrator(erasing: true).migrate(pool)
        #expect(try pool.read { db in try db.fetchAll(sql: #"SELECT "title" FROM "reminders""#) { $0.databaseValue(at: 0) } } == [.text("kept")])

        // An edited migration, without the flag: left as it was (GRDB does the same).
        try migrator(secondTable: "labels").migrate(pool)
        #expect(try tables(pool) == ["grdb_migrations", "reminders", "tags"])

        // With the flag: emptied and migrated again, to the schema the migrations now make.
        try migrator(erasing: true, secondTable: "labels").migrate(pool)
        #expect(try tables(pool) == ["grdb_migrations", "labels", "reminders"])
        #expect(try pool.read { db in try db.fetchAll(sql: #"SELECT "title" FROM "reminders""#) { $0.databaseValue(at: 0) } } == [])
    }
}
