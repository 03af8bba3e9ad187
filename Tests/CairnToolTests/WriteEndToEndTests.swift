import CairnSQLite
import Foundation
import Testing

@testable import CairnTool

/// `cairn export`, `sql` and `import`, and `query` on the demo's Cairn store, run as a user
/// runs them.
@Suite("cairn export, sql and import, end to end")
struct WriteEndToEndTests {
    /// A plain SQLite file with a typed table, a child table with a foreign key.
    func plainDatabase() throws -> String {
        let path = try Fixtures.write("", named: "plain.db")
        try FileManager.default.removeItem(atPath: path)
        let db = try Database(path: path)
        try db.execute(sql: """
            CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER, score REAL, active BOOLEAN);
            CREATE TABLE pet (id INTEGER PRIMARY KEY, name TEXT, owner INTEGER REFERENCES person(id));
            """)
        try db.close()
        return path
    }

    func rows(_ path: String, _ sql: String) throws -> [String] {
        let db = try Database(path: path)
        return try db.fetchAll(sql: sql) { row in
            (0..<row.count).map { index -> String in
                switch row.databaseValue(at: index) {
                case .null: "NULL"
                case .integer(let int): String(int)
                case .real(let double): String(double)
                case .text(let text): text
                case .blob(let data): "\(data.count)b"
                }
            }.joined(separator: "|")
        }
    }

    @Test("CSV import types each field by the table, quotes and doubled quotes included")
    func importCSV() throws {
        let path = try plainDatabase()
        let csv = try Fixtures.write("name,age,score,active\r\nAnn,31,4.5,true\r\n\"Bo, Jr.\",40,,no\r\n\"Cy \"\"C\"\"\nTwo\",22,1e3,1\r\n", named: "people.csv")
        let run = try Binary.cairn("import", path, "person", csv)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "imported 3 rows into person\n")
        #expect(run.err == "imported 3/3 rows (" + (run.err.split(separator: "(").last.map(String.init) ?? ""))
        #expect(try rows(path, "SELECT id, name, age, score, active, typeof(age) FROM person") == [
            "1|Ann|31|4.5|1|integer", "2|Bo, Jr.|40|NULL|0|integer", "3|Cy \"C\"\nTwo|22|1000.0|1|integer",
        ])
    }

    @Test("a bad row stops the import with its line and reason; its batch is rolled back, earlier batches stay")
    func badRow() throws {
        let path = try plainDatabase()
        let csv = try Fixtures.write("name,age\nA,1\nB,2\nC,3\nD,x\nE,5\n", named: "people.csv")
        let run = try Binary.cairn("import", path, "person", csv, "--batch", "2")
        #expect(run.status == 1)
        #expect(run.err.hasSuffix("cairn import: \(csv) line 5: age = \"x\" is not a whole number\n"
            + "  its batch (records 3–4) was rolled back; the 2 rows of earlier batches were written\n"), "\(run.err)")
        #expect(try rows(path, "SELECT name FROM person ORDER BY id") == ["A", "B"])
        // A row the table refuses (NOT NULL) is reported the same way.
        let json = try Fixtures.write("[\n  {\"name\": \"F\", \"age\": 1},\n  {\"name\": null, \"age\": 2}\n]", named: "people.json")
        let refused = try Binary.cairn("import", path, "person", json)
        #expect(refused.err.contains("\(json) line 3: person refused the row: NOT NULL constraint failed: person.name\n"
            + "  its batch (records 1–2) was rolled back; nothing was written"), "\(refused.err)")
        #expect(try rows(path, "SELECT count(*) FROM person") == ["2"])
    }

    @Test("JSON import: numbers, Bools and nulls by the table's types; an unknown field lists the keys")
    func importJSON() throws {
        let path = try plainDatabase()
        let json = try Fixtures.write(#"[{"name": "Ann", "age": 3, "active": true, "score": null}, {"name": "Bo", "score": 2}]"#, named: "p.json")
        let run = try Binary.cairn("import", path, "person", json)
        #expect(run.status == 0, "\(run.err)")
        #expect(try rows(path, "SELECT name, age, score, active FROM person") == ["Ann|3|NULL|1", "Bo|NULL|2.0|NULL"])
        let unknown = try Fixtures.write(#"[{"nickname": "A"}]"#, named: "q.json")
        let refused = try Binary.cairn("import", path, "person", unknown)
        #expect(refused.err == "cairn import: \(unknown): field 'nickname' is not a key of person; its keys: id, name, age, score, active, pet\n")
    }

    @Test("import refuses Core Data and SwiftData stores and leaves them untouched")
    func importAppleStore() throws {
        let copy = try Fixtures.copy(Fixtures.testModel)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let json = try Fixtures.write(#"[{"title": "A"}]"#, named: "b.json")
        let run = try Binary.cairn("import", copy, "Book", json)
        #expect(run.status == 1)
        #expect(run.err.hasPrefix("cairn import: \(copy) is a Core Data / SwiftData store; cairn does not write those"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
    }

    @Test("export writes every row as JSON or CSV, and a CSV export imports back unchanged")
    func exportRoundTrip() throws {
        let path = try plainDatabase()
        let csv = try Fixtures.write("name,age,score,active\nAnn,31,4.5,true\n\"Bo, \"\"B\"\"\",40,,false\n", named: "people.csv")
        #expect(try Binary.cairn("import", path, "person", csv).status == 0)
        let exported = try Binary.cairn("export", path, "person", "--format", "csv")
        #expect(exported.out == "id,name,age,score,active\r\n1,Ann,31,4.5,true\r\n2,\"Bo, \"\"B\"\"\",40,,false\r\n")
        let json = try Binary.cairn("export", path, "person")
        #expect(json.out == """
            [
              {"id": 1, "name": "Ann", "age": 31, "score": 4.5, "active": true},
              {"id": 2, "name": "Bo, \\"B\\"", "age": 40, "score": null, "active": false}
            ]

            """)
        let second = try plainDatabase()
        let file = try Fixtures.write(exported.out, named: "export.csv")
        #expect(try Binary.cairn("import", second, "person", file).status == 0)
        #expect(try rows(second, "SELECT * FROM person") == rows(path, "SELECT * FROM person"))
    }

    @Test("export of an Apple store's entity matches SQLite's rows")
    func exportAppleStore() throws {
        let run = try Binary.cairn("export", Fixtures.books, "Author", "--format", "csv")
        #expect(run.status == 0, "\(run.err)")
        let db = try Fixtures.open(Fixtures.books)
        let expected = try db.fetchAll(sql: """
            SELECT Z_PK, ZAGE, ZALIAS, ZSITEURL FROM ZWRITER WHERE Z_ENT = 6 ORDER BY Z_PK
            """) { row in
            (0..<4).map { index -> String in
                if case .integer(let int) = row.databaseValue(at: index) { return String(int) }
                if case .text(let text) = row.databaseValue(at: index) { return Cell.csvField(text) }
                return ""
            }.joined(separator: ",")
        }
        #expect(run.out == "Z_PK,age,alias,siteURL\r\n" + expected.map { $0 + "\r\n" }.joined())
        #expect(expected.count == 2)
        // Writer, the root, has only `age`; its rows say which entity each is.
        let writers = try Binary.cairn("export", Fixtures.books, "Writer", "--format", "csv")
        #expect(writers.out == "Z_PK,entity,age\r\n1,Author,30\r\n2,Author,40\r\n")
    }

    @Test("sql runs read-only unless --write, on a copy it may change")
    func sql() throws {
        let path = try plainDatabase()
        let write = "INSERT INTO person (name, age) VALUES ('Zed', 9)"
        let refused = try Binary.cairn("sql", path, write)
        #expect(refused.status == 2)
        #expect(refused.err == "cairn sql: this statement changes the file, which is open read-only; add --write to run it\n")
        #expect(try Binary.cairn("sql", path, write, "--write").out == "1 row changed\n")
        let read = try Binary.cairn("sql", path, "SELECT name, age * 2 AS double FROM person", "--format", "json")
        #expect(read.out == "[\n  {\"name\": \"Zed\", \"double\": 18}\n]\n")
        let bad = try Binary.cairn("sql", path, "SELEC 1")
        #expect(bad.status == 1)
        #expect(bad.err.contains("syntax error"))
    }

    @Test("rows committed to a -wal file beside the store are read, and the store is not changed")
    func writeAheadLog() throws {
        // A copy taken while a connection is open keeps its last commits in the -wal file only.
        let folder = try Fixtures.write("", named: "placeholder")
        let original = URL(fileURLWithPath: folder).deletingLastPathComponent().appendingPathComponent("live.db").path
        let db = try Database(path: original)
        try db.execute(sql: "PRAGMA wal_autocheckpoint = 0; CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT)")
        try db.execute(sql: "INSERT INTO note (text) VALUES ('in the WAL')")
        let copyFolder = try Fixtures.write("", named: "placeholder")
        let copy = URL(fileURLWithPath: copyFolder).deletingLastPathComponent().appendingPathComponent("copy.db").path
        try FileManager.default.copyItem(atPath: original, toPath: copy)
        try FileManager.default.copyItem(atPath: original + "-wal", toPath: copy + "-wal")
        try db.close()
        let walBefore = try Data(contentsOf: URL(fileURLWithPath: copy + "-wal"))
        #expect(!walBefore.isEmpty)
        let run = try Binary.cairn("query", copy, "note", "--format", "csv")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "id,text\r\n1,in the WAL\r\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy + "-wal")) == walBefore)
    }

    @Test("query on the demo's store gives the demo's numbers")
    func demoNumbers() throws {
        let folder = try Fixtures.write("", named: "placeholder")
        let store = URL(fileURLWithPath: folder).deletingLastPathComponent().appendingPathComponent("workouts.store").path
        let demo = try Binary.run("workouts", ["--path", store, "--count", "1200"])
        #expect(demo.status == 0, "\(demo.err)")
        /// The first number after `label` on the demo's line that holds it (headings are bold,
        /// so the label need not start its line).
        func demoNumber(_ label: String) -> Int? {
            guard let line = demo.out.split(separator: "\n").first(where: { $0.contains(label) }),
                let end = line.range(of: label)?.upperBound
            else { return nil }
            let number = line[end...].split(whereSeparator: { !$0.isNumber && $0 != "," }).first { $0.contains(where: \.isNumber) }
            return number.flatMap { Int($0.replacingOccurrences(of: ",", with: "")) }
        }
        func count(_ format: String) throws -> Int {
            let run = try Binary.cairn("query", store, "Workout", "--where", format, "--keys", "id", "--format", "csv")
            #expect(run.status == 0, "\(run.err)")
            return run.out.split(separator: "\r\n").count - 1
        }
        let info = try Binary.cairn("info", store)
        #expect(info.out.hasPrefix("\(store): Cairn store\n"))
        #expect(info.out.contains("Workout (table Workout, 1200 rows)"))
        #expect(try count("minutes >= 30") == demoNumber("filter minutes >= 30, sort startedAt desc"))
        #expect(try count("isFavorite == YES") == demoNumber("marked on the actor"))
        #expect(try count("title CONTAINS[cd] 'run'") == demoNumber("Search \"run\":"))
        #expect(try count("title CONTAINS[cd] 'run' AND isFavorite == YES") == demoNumber("Search \"run\", favorites only:"))

        // Importing into the demo's store: ISO 8601 dates fill its REAL date columns as seconds
        // since 2001, true/false its INTEGER Bool column; the primary key is a key of --where.
        let csv = try Fixtures.write("title,startedAt,minutes,calories,isFavorite\nLunch run,2026-12-01T12:00:00Z,35,310.5,false\n", named: "more.csv")
        let imported = try Binary.cairn("import", store, "Workout", csv)
        #expect(imported.status == 0, "\(imported.err)")
        let added = try Binary.cairn("query", store, "Workout", "--where", "id > 1200 AND startedAt == '2026-12-01T12:00:00Z'",
                                     "--keys", "id,title,startedAt,isFavorite", "--format", "csv")
        // The store records which columns are dates and Bools, so the row prints as the model has it.
        #expect(added.out == "id,title,startedAt,isFavorite\r\n1201,Lunch run,2026-12-01T12:00:00Z,false\r\n")
        // Told otherwise, it prints as stored: seconds since 2001.
        let typed = try Binary.cairn("query", store, "Workout", "--where", "id > 1200", "--keys", "title,startedAt",
                                     "--types", "startedAt=double", "--format", "json")
        let seconds = Cell.decimalText(Date(timeIntervalSince1970: 1_796_126_400).timeIntervalSinceReferenceDate)
        #expect(typed.out == "[\n  {\"title\": \"Lunch run\", \"startedAt\": \(seconds)}\n]\n")
    }
}
