import CairnSQLite
import Foundation
import Testing

@Suite struct DatabaseOpeningTests {
    @Test func fileDatabaseIsHardenedAndInWAL() throws {
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        let db = try Database(path: temp.path)
        #expect(FileManager.default.fileExists(atPath: temp.path))
        #expect(try db.fetchValue(String.self, sql: "PRAGMA journal_mode") == "wal")
        #expect(try db.fetchValue(Int.self, sql: "PRAGMA synchronous") == 1)  // NORMAL
        #expect(try db.fetchValue(Int.self, sql: "PRAGMA foreign_keys") == 1)
        #expect(try db.fetchValue(Int.self, sql: "PRAGMA trusted_schema") == 0)
        #expect(try db.fetchValue(Int.self, sql: "PRAGMA busy_timeout") == 5000)
        // SQLITE_DBCONFIG_DEFENSIVE forbids writing the schema table directly.
        try db.execute(sql: "PRAGMA writable_schema = ON")
        #expect(throws: DatabaseError.self) {
            try db.execute(sql: "DELETE FROM sqlite_master")
        }
    }

    @Test func trustedSchemaTurnsOnlyThatPartOfTheHardeningOff() throws {
        var configuration = Configuration()
        configuration.trustedSchema = true
        let db = try Database.inMemory(configuration: configuration)
        #expect(try db.fetchValue(Int.self, sql: "PRAGMA trusted_schema") == 1)
        try db.execute(sql: "CREATE TABLE t (x)")
        try db.execute(sql: "PRAGMA writable_schema = ON")
        #expect(throws: DatabaseError.self) { try db.execute(sql: "DELETE FROM sqlite_master") }  // still defensive
        configuration.defensive = false
        configuration.trustedSchema = false
        #expect(try Database.inMemory(configuration: configuration).fetchValue(Int.self, sql: "PRAGMA trusted_schema") == 1)
    }

    @Test func busyTimeoutIsConfigurable() throws {
        var configuration = Configuration()
        configuration.busyTimeout = 0.25
        let db = try Database.inMemory(configuration: configuration)
        #expect(try db.fetchValue(Int.self, sql: "PRAGMA busy_timeout") == 250)
    }

    @Test func readOnlyRejectsWrites() throws {
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        try Database(path: temp.path).execute(sql: "CREATE TABLE t (x)")
        var configuration = Configuration()
        configuration.readonly = true
        let db = try Database(path: temp.path, configuration: configuration)
        #expect(try db.fetchCount(sql: "SELECT * FROM t") == 0)
        let error = #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(error?.resultCode == .SQLITE_READONLY)
    }

    @Test func openingAMissingReadOnlyFileFails() throws {
        var configuration = Configuration()
        configuration.readonly = true
        let error = #expect(throws: DatabaseError.self) {
            try Database(path: "/nonexistent-dir/x.sqlite", configuration: configuration)
        }
        #expect(error?.resultCode == .SQLITE_CANTOPEN)
        #expect(error?.message.contains("/nonexistent-dir/x.sqlite") == true)
    }

    @Test func foreignKeysAreEnforced() throws {
        let db = try Database.inMemory()
        try db.execute(sql: """
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (id INTEGER PRIMARY KEY, parentID INTEGER REFERENCES parent(id));
            """)
        var caught: ResultCode?
        do {
            try db.execute(sql: "INSERT INTO child (parentID) VALUES (?)", arguments: [42])
        } catch ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY {
            caught = .SQLITE_CONSTRAINT_FOREIGNKEY
        }
        #expect(caught == .SQLITE_CONSTRAINT_FOREIGNKEY)
    }
}

@Suite struct StatementTests {
    let db: Database
    init() throws {
        db = try Database.inMemory()
        try db.execute(sql: "CREATE TABLE workout (id INTEGER PRIMARY KEY, title TEXT NOT NULL, minutes INTEGER)")
    }

    @Test func cachedStatementIsReusedPerSQLText() throws {
        let first = try db.cachedStatement(sql: "SELECT title FROM workout WHERE id = ?")
        let second = try db.cachedStatement(sql: "SELECT title FROM workout WHERE id = ?")
        let other = try db.cachedStatement(sql: "SELECT id FROM workout")
        #expect(first === second)
        #expect(first !== other)
        // The statement handed out last is checked first by its text: alternating texts, and
        // an equal text in another string, still find their own statements.
        let built = ["SELECT title FROM workout", "WHERE id = ?"].joined(separator: " ")
        #expect(try db.cachedStatement(sql: built) === first)
        #expect(try db.cachedStatement(sql: "SELECT id FROM workout") === other)
        #expect(try db.cachedStatement(sql: built) === first)
        #expect(try db.cachedStatement(sql: "SELECT id FROM workout") === other)
    }

    @Test func canonicallyEquivalentSQLTextsAreDifferentStatements() throws {
        // Swift's String equality treats "é" as one scalar and as "e" plus a combining accent
        // as equal; SQLite compares the bytes. Each text must keep its own statement and rows.
        try db.execute(sql: "INSERT INTO workout (title) VALUES (?), (?), (?)", arguments: ["\u{E9}", "e\u{301}", "e\u{301}"])
        let composed = "SELECT count(*) FROM workout WHERE title = '\u{E9}'"
        let decomposed = "SELECT count(*) FROM workout WHERE title = 'e\u{301}'"
        #expect(composed == decomposed)
        for _ in 0..<2 {
            #expect(try db.fetchValue(Int.self, sql: composed) == 1)
            #expect(try db.fetchValue(Int.self, sql: decomposed) == 2)
        }
        #expect(try db.cachedStatement(sql: composed) !== db.cachedStatement(sql: decomposed))
    }

    @Test func busyCachedStatementIsNotHandedOutTwice() throws {
        try db.execute(sql: "INSERT INTO workout (title) VALUES ('a'), ('b')")
        let sql = "SELECT title FROM workout ORDER BY id"
        let cursor = try db.fetchCursor(sql: sql)
        #expect(try cursor.next()?.decode(String.self, at: 0) == "a")
        // A nested fetch of the same SQL gets its own statement and does not move the cursor.
        #expect(try db.fetchValues(String.self, sql: sql) == ["a", "b"])
        #expect(try cursor.next()?.decode(String.self, at: 0) == "b")
        #expect(try cursor.next() == nil)
    }

    @Test func scriptRunsEveryStatementWithArgumentsInOrder() throws {
        try db.execute(sql: """
            INSERT INTO workout (title, minutes) VALUES (?, ?);
            -- a comment between statements
            INSERT INTO workout (title, minutes) VALUES (?, ?);
            """, arguments: ["Run", 30, "Swim", nil])
        let rows = try db.fetchAll(sql: "SELECT title, minutes FROM workout ORDER BY id") {
            Pair(title: try $0.decode(String.self, at: 0), minutes: try $0.decode(Int?.self, at: 1))
        }
        #expect(rows == [Pair(title: "Run", minutes: 30), Pair(title: "Swim", minutes: nil)])
    }

    struct Pair: Equatable { var title: String; var minutes: Int? }

    @Test func wrongArgumentCountIsAnError() throws {
        let few = #expect(throws: DatabaseError.self) {
            try db.execute(sql: "INSERT INTO workout (title, minutes) VALUES (?, ?)", arguments: ["x"])
        }
        #expect(few?.resultCode == .SQLITE_RANGE)
        let many = #expect(throws: DatabaseError.self) {
            try db.execute(sql: "SELECT ?", arguments: [1, 2])
        }
        #expect(many?.resultCode == .SQLITE_RANGE)
    }

    @Test func makeStatementRejectsScripts() throws {
        #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "SELECT 1; SELECT 2") }
        #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "  -- nothing") }
        #expect(try db.makeStatement(sql: "SELECT 1;  ").columnCount == 1)
    }

    @Test func packBindingAndStepping() throws {
        let insert = try db.cachedStatement(sql: "INSERT INTO workout (id, title, minutes) VALUES (?, ?, ?)")
        for id in 1...3 {
            try insert.bind(values: Int64(id), "W\(id)", id * 10)
            try insert.execute()
        }
        try insert.bind(values: Int64(4), "W4", Int?.none)
        try insert.execute()
        #expect(try db.fetchValues(Int?.self, sql: "SELECT minutes FROM workout ORDER BY id") == [10, 20, 30, nil])
        #expect(throws: DatabaseError.self) { try insert.bind(values: Int64(5), "W5") }
        #expect(db.lastInsertedRowID == 4)
    }

    @Test func rowByNameUsesTheColumnMapCaseInsensitively() throws {
        try db.execute(sql: "INSERT INTO workout (title, minutes) VALUES ('Run', 30)")
        try db.fetchOne(sql: "SELECT id, title, minutes AS Duration FROM workout") { row throws in
            #expect(row.count == 3)
            #expect(row.columnNames == ["id", "title", "Duration"])
            #expect(try row.decode(Int.self, column: "duration") == 30)
            #expect(try row.decode(String.self, column: "TITLE") == "Run")
            let minutes: Int? = row["Duration"]
            #expect(minutes == 30)
            let wrong: Int? = row["title"]
            #expect(wrong == nil)
            let missing = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, column: "nope") }
            #expect(missing?.reason == .columnNotFound("nope"))
            let range = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, at: 3) }
            #expect(range?.reason == .indexOutOfRange(3, columnCount: 3))
        }
    }

    @Test func cursorStepsLazily() throws {
        let insert = try db.cachedStatement(sql: "INSERT INTO workout (title) VALUES (?)")
        for index in 0..<100 { try insert.execute(arguments: ["w\(index)"]) }
        var counted: [String] = []
        db.add { counted.append($0.sql) }
        let cursor = try db.fetchCursor(sql: "SELECT title FROM workout ORDER BY id")
        var seen = 0
        while let row = try cursor.next() {
            seen += 1
            if try row.decode(String.self, at: 0) == "w9" { break }
        }
        cursor.close()
        #expect(seen == 10)
        #expect(counted == ["SELECT title FROM workout ORDER BY id"])
        #expect(try db.fetchCount(sql: "SELECT * FROM workout") == 100)
    }

    @Test func statementsKnowTheTablesTheyReadAndWrite() throws {
        try db.execute(sql: """
            CREATE TABLE log (message TEXT);
            CREATE TRIGGER workout_log AFTER INSERT ON workout BEGIN INSERT INTO log VALUES (NEW.title); END;
            CREATE VIEW long AS SELECT * FROM workout WHERE minutes > 60;
            """)
        let select = try db.makeStatement(sql: "SELECT title FROM long JOIN log ON log.message = long.title")
        #expect(select.readTables == ["workout", "log", "long"])  // views too
        #expect(select.writtenTables.isEmpty)
        #expect(select.isReadOnly)
        let insert = try db.makeStatement(sql: "INSERT INTO workout (title) VALUES (?)")
        #expect(insert.writtenTables == ["workout", "log"])
        let count = try db.makeStatement(sql: "SELECT COUNT(*) FROM workout")
        #expect(count.readTables == ["workout"])
    }
}

@Suite struct SchemaIntrospectionTests {
    @Test func tablesAndColumns() throws {
        let db = try Database.inMemory()
        try db.execute(sql: "CREATE TABLE Workout (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT 'x', score REAL)")
        #expect(try db.tableExists("workout"))
        #expect(try !db.tableExists("missing"))
        let columns = try db.columns(in: "Workout")
        #expect(columns.map(\.name) == ["id", "title", "score"])
        #expect(columns.map(\.declaredType) == ["INTEGER", "TEXT", "REAL"])
        #expect(columns.map(\.isNotNull) == [false, true, false])
        #expect(columns.map(\.defaultValueSQL) == [nil, "'x'", nil])
        #expect(columns.map(\.primaryKeyIndex) == [1, 0, 0])
        #expect(try db.columns(in: "missing").isEmpty)
    }
}
