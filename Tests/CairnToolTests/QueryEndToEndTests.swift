import CairnSQLite
import Foundation
import Testing

@testable import CairnTool

/// `cairn info` and `cairn query` run as a user runs them, their output checked against what
/// SQLite reads from the same rows.
@Suite("cairn info and query, end to end")
struct QueryEndToEndTests {
    @Test("info names the kind, the inheritance, the row counts, relationships and indexes")
    func info() throws {
        let run = try Binary.cairn("info", Fixtures.sampleModel, "--model", Fixtures.sampleModelContents)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasPrefix("\(Fixtures.sampleModel): Core Data / SwiftData store\n"))
        #expect(run.out.contains("\nSportCar (table ZCAR, Z_ENT 2, sub-entity of Car, 10 rows; sub-entities: ExpensiveSportCar)\n"))
        #expect(run.out.contains("    owner  to-one  → Person  column ZCAR.ZOWNER, inverse cars\n"))
        #expect(run.out.contains("    cars  to-many → Car  column ZOWNER of the destination, inverse owner\n"))
        #expect(run.out.contains("    Z_Car_UNIQUE_numberPlate (ZNUMBERPLATE) unique\n"))
        #expect(run.out.contains("version hash Person: "))
    }

    @Test("info runs on every fixture store", arguments: Fixtures.allStores)
    func infoEveryStore(path: String) throws {
        let run = try Binary.cairn("info", path)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("Core Data / SwiftData store"))
    }

    @Test("a sub-entity's query returns its rows and its sub-entities', as SQLite lists them")
    func subEntityRows() throws {
        let run = try Binary.cairn("query", Fixtures.sampleModel, "SportCar", "--model", Fixtures.sampleModelContents,
                                   "--keys", "Z_PK,maker,owner", "--format", "csv")
        #expect(run.status == 0, "\(run.err)")
        let db = try Fixtures.open(Fixtures.sampleModel)
        let expected = try db.fetchAll(sql: "SELECT Z_PK, ZMAKER, ZOWNER FROM ZCAR WHERE Z_ENT IN (2, 3) ORDER BY Z_PK") {
            "\(try $0.decode(Int.self, at: 0)),\(try $0.decode(String.self, at: 1)),\(try $0.decode(Int?.self, at: 2).map(String.init) ?? "")"
        }
        #expect(run.out == "Z_PK,maker,owner\r\n" + expected.map { $0 + "\r\n" }.joined())
        #expect(expected.count == 10)
    }

    @Test("a to-one key path and @count through an inverse's column match SQLite's counts")
    func relationshipFilters() throws {
        let db = try Fixtures.open(Fixtures.books)
        let (title, pageCount) = try #require(try db.fetchOne(sql: """
            SELECT ZTITLE, (SELECT count(*) FROM ZPAGE WHERE ZPAGE.ZBOOK = ZBOOK.Z_PK) AS n FROM ZBOOK ORDER BY n DESC, Z_PK LIMIT 1
            """) { (try $0.decode(String.self, at: 0), try $0.decode(Int.self, at: 1)) })
        #expect(pageCount > 0)
        let pages = try Binary.cairn("query", Fixtures.books, "Page", "--where", "book.title == \"\(title)\"", "--keys", "number", "--format", "csv")
        #expect(pages.status == 0, "\(pages.err)")
        #expect(pages.out.split(separator: "\r\n").count - 1 == pageCount)
        // Writers' books: the to-one `author` of Book leads to Writer's hierarchy (Author is its sub-entity).
        let expected = try db.fetchAll(sql: """
            SELECT b.ZTITLE FROM ZBOOK b JOIN ZWRITER w ON w.Z_PK = b.ZAUTHOR WHERE w.ZAGE > 30 ORDER BY b.Z_PK
            """) { try $0.decode(String.self, at: 0) }
        let books = try Binary.cairn("query", Fixtures.books, "Book", "--where", "author.age > 30", "--keys", "title", "--format", "csv")
        #expect(books.out == "title\r\n" + expected.map { Cell.csvField($0) + "\r\n" }.joined())
    }

    @Test("dates print in ISO 8601 from seconds since 2001, and a date string in --where compares as a date")
    func dates() throws {
        let db = try Fixtures.open(Fixtures.sampleModel)
        let seconds = try #require(try db.fetchValue(Double.self, sql: "SELECT ZUPDATEDAT FROM ZPERSON ORDER BY Z_PK LIMIT 1"))
        let iso = try #require(try db.fetchValue(String.self, sql: "SELECT strftime('%Y-%m-%dT%H:%M:%fZ', ? + 978307200, 'unixepoch')", arguments: [seconds]))
        let run = try Binary.cairn("query", Fixtures.sampleModel, "Person", "--model", Fixtures.sampleModelContents,
                                   "--keys", "updatedAt", "--limit", "1", "--format", "json")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "[\n  {\"updatedAt\": \"\(iso)\"}\n]\n")
        let total = try db.fetchValue(Int.self, sql: "SELECT count(*) FROM ZPERSON WHERE ZUPDATEDAT > ?",
                                      arguments: [Date(timeIntervalSince1970: 1_617_800_000).timeIntervalSinceReferenceDate]) ?? -1
        let filtered = try Binary.cairn("query", Fixtures.sampleModel, "Person", "--model", Fixtures.sampleModelContents,
                                        "--where", #"updatedAt > "2021-04-07T12:53:20Z""#, "--format", "csv", "--keys", "Z_PK")
        #expect(filtered.out.split(separator: "\r\n").count - 1 == total)
        #expect(total > 0)
    }

    @Test("a UUID string compares with the 16 bytes Core Data stores, alone and in a list")
    func uuidLiterals() throws {
        let db = try Fixtures.open(Fixtures.books)
        let rows = try db.fetchAll(sql: "SELECT ZTITLE, ZUNIQUEID FROM ZBOOK ORDER BY Z_PK LIMIT 2") {
            (try $0.decode(String.self, at: 0), try $0.decode(Data.self, at: 1))
        }
        let uuids = rows.map { row in row.1.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }.uuidString }
        let one = try Binary.cairn("query", Fixtures.books, "Book", "--where", "uniqueID == '\(uuids[1])'", "--keys", "title", "--format", "csv")
        #expect(one.out == "title\r\n\(rows[1].0)\r\n")
        let list = try Binary.cairn("query", Fixtures.books, "Book", "--where", "uniqueID IN {'\(uuids[0])', '\(uuids[1])'}",
                                    "--keys", "title", "--format", "csv")
        #expect(list.out == "title\r\n\(rows[0].0)\r\n\(rows[1].0)\r\n")
    }

    @Test("JSON keys are the model's names; UUIDs, Bools and binary data print as users think of them")
    func jsonValues() throws {
        let run = try Binary.cairn("query", Fixtures.sampleModel, "ExpensiveSportCar", "--model", Fixtures.sampleModelContents,
                                   "--keys", "Z_PK,isLimitedEdition,owner.id,color", "--format", "json", "--limit", "1")
        #expect(run.status == 0, "\(run.err)")
        let db = try Fixtures.open(Fixtures.sampleModel)
        let row = try #require(try db.fetchOne(sql: """
            SELECT c.Z_PK, c.ZISLIMITEDEDITION, p.ZID, length(c.ZCOLOR) FROM ZCAR c LEFT JOIN ZPERSON p ON p.Z_PK = c.ZOWNER
            WHERE c.Z_ENT = 3 ORDER BY c.Z_PK LIMIT 1
            """) { ($0.databaseValue(at: 0), $0.databaseValue(at: 1), $0.databaseValue(at: 2), $0.databaseValue(at: 3)) })
        guard case .integer(let pk) = row.0, case .integer(let flag) = row.1 else {
            Issue.record("unexpected fixture row \(row)")
            return
        }
        var owner = "null"
        if case .blob(let data) = row.2 { owner = "\"" + data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }.uuidString + "\"" }
        var color = "null"
        if case .integer(let length) = row.3 { color = "\"<\(length) bytes>\"" }
        #expect(run.out == "[\n  {\"Z_PK\": \(pk), \"isLimitedEdition\": \(flag == 1), \"owner.id\": \(owner), \"color\": \(color)}\n]\n")
    }

    @Test("a many-to-many filter reads the join table (on a copy with rows added)")
    func manyToMany() throws {
        let path = try Fixtures.copy(Fixtures.testModel, executing: """
            INSERT INTO ZAUTHOR VALUES (1, 1, 1, 'Ann', 'Lee'), (2, 1, 1, 'Bo', 'Ng'), (3, 1, 1, 'Cy', 'Ray');
            INSERT INTO ZBOOK VALUES (1, 2, 1, 'Swift'), (2, 2, 1, 'SQLite');
            INSERT INTO Z_1BOOKS VALUES (1, 1), (1, 2), (2, 2);
            """)
        let run = try Binary.cairn("query", path, "Author", "--model", Fixtures.testModelContents,
                                   "--where", "ANY books.title == 'SQLite'", "--keys", "firstName,books.@count", "--format", "csv")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "firstName,books.@count\r\nAnn,2\r\nBo,1\r\n")
        let none = try Binary.cairn("query", path, "Book", "--where", "authors.@count == 1", "--keys", "title", "--format", "csv")
        #expect(none.out == "title\r\nSwift\r\n")
    }

    @Test("a syntax error points at its column with a caret; an unknown key lists the entity's keys")
    func errors() throws {
        let syntax = try Binary.cairn("query", Fixtures.sampleModel, "Person", "--where", "firstName == AND x")
        #expect(syntax.status == 2)
        #expect(syntax.err.contains("\n    firstName == AND x\n                 ^\n"), "\(syntax.err)")
        let key = try Binary.cairn("query", Fixtures.sampleModel, "Person", "--model", Fixtures.sampleModelContents, "--where", "nickname == 'x'")
        #expect(key.err == "cairn query: in --where: Person has no key 'nickname'; valid keys: Z_PK, cars, firstName, id, lastName, updatedAt\n")
        let entity = try Binary.cairn("query", Fixtures.sampleModel, "Truck")
        #expect(entity.err == "cairn query: the store has no entity 'Truck'; its entities: Car, SportCar, ExpensiveSportCar, Person\n")
        let option = try Binary.cairn("query", Fixtures.sampleModel, "Car", "--wher", "x")
        #expect(option.status == 2)
        #expect(option.err.hasPrefix("cairn query: unknown option '--wher' for 'cairn query'; valid options: --where, --sort, "))
    }

    @Test("--explain prints the SQL, its values, the plan, and an index to add for a scanned column")
    func explain() throws {
        let run = try Binary.cairn("query", Fixtures.sampleModel, "Car", "--model", Fixtures.sampleModelContents,
                                   "--where", "model == 'GT'", "--keys", "maker", "--explain")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasPrefix(#"""
            sql:
              SELECT "ZCAR"."ZMAKER" AS "maker" FROM "ZCAR" WHERE "ZCAR"."ZMODEL" = ? ORDER BY "ZCAR"."Z_PK" ASC
            values:
              ?1 = "GT"
            plan:
              SCAN ZCAR
            """#))
        #expect(run.out.contains("suggestions:\n  - SQLite reads every row of ZCAR to test 'model', which no index covers: mark 'model' Indexed"))
        let indexed = try Binary.cairn("query", Fixtures.sampleModel, "Car", "--model", Fixtures.sampleModelContents,
                                       "--where", "numberPlate == '303'", "--explain")
        #expect(indexed.out.contains("SEARCH ZCAR USING INDEX Z_Car_UNIQUE_numberPlate (ZNUMBERPLATE=?)"))
        #expect(!indexed.out.contains("suggestions:"))
    }

    @Test("without a cached model, keys from Z columns match in any case, in --where, --keys and --sort")
    func keysFromColumns() throws {
        let copy = try Fixtures.copy(Fixtures.sampleModel, executing: "DELETE FROM Z_MODELCACHE")
        let info = try Binary.cairn("info", copy)
        #expect(info.out.contains("names from: the Z columns, matched by name"))
        let run = try Binary.cairn("query", copy, "Person", "--where", "firstName BEGINSWITH 'T' AND updatedAt > '2021-01-01'",
                                   "--keys", "firstName,lastName", "--sort", "-lastName", "--format", "csv")
        #expect(run.status == 0, "\(run.err)")
        let expected = try Fixtures.open(Fixtures.sampleModel).fetchAll(sql: """
            SELECT ZFIRSTNAME, ZLASTNAME FROM ZPERSON WHERE ZFIRSTNAME >= 'T' AND ZFIRSTNAME < 'U' ORDER BY ZLASTNAME DESC, Z_PK
            """) { "\(try $0.decode(String.self, at: 0)),\(try $0.decode(String.self, at: 1))" }
        #expect(!expected.isEmpty)
        #expect(run.out == "firstName,lastName\r\n" + expected.map { $0 + "\r\n" }.joined())
    }

    @Test("sort, limit and offset page through rows in order")
    func paging() throws {
        let run = try Binary.cairn("query", Fixtures.sampleModel, "Person", "--model", Fixtures.sampleModelContents,
                                   "--sort", "-lastName", "--keys", "lastName", "--limit", "3", "--offset", "1", "--format", "csv")
        let db = try Fixtures.open(Fixtures.sampleModel)
        let names = try db.fetchAll(sql: "SELECT ZLASTNAME FROM ZPERSON ORDER BY ZLASTNAME DESC, Z_PK LIMIT 3 OFFSET 1") {
            try $0.decode(String.self, at: 0)
        }
        #expect(run.out == "lastName\r\n" + names.map { $0 + "\r\n" }.joined())
    }

    @Test("a table aligns its columns and counts its rows")
    func table() throws {
        let run = try Binary.cairn("query", Fixtures.users, "User", "--limit", "2")
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n")
        #expect(lines.count >= 3)
        #expect(lines[1].allSatisfy { $0 == "-" || $0 == " " })
        #expect(lines.last == "(\(lines.count - 3) \(lines.count - 3 == 1 ? "row" : "rows"))")
    }
}
