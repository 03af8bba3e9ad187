import CSQLite
import CairnSQLite
import CairnTestSupport
import Foundation
import Testing

/// `bind(values:)` copies text into buffers the statement keeps per parameter and binds them
/// `SQLITE_STATIC` (`BoundTextBuffers`); these tests hold it to what a copying bind stores.
@Suite struct BoundTextTests {
    let db: Database

    init() throws {
        db = try Database.inMemory()
        try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT, extra TEXT)")
    }

    /// Random texts, row after row through one statement: lengths that grow and shrink across
    /// the buffer's capacity, small strings, non-ASCII, an embedded NUL, empty and NULL.
    @Test func textsBoundRowAfterRowAreStoredExactly() throws {
        var random = SeededRandom(seed: 7)
        let alphabet: [Character] = ["a", "Z", "0", " ", "é", "☕️", "\u{0}", "'", "ß", "😀"]
        func text() -> String {
            let length = [0, 1, 15, 16, 31, 32, 33, 300, 2_000].randomElement(using: &random) ?? 0
            return String((0..<length).map { _ in alphabet.randomElement(using: &random) ?? "a" })
        }
        var expected: [(Int64, String, String?)] = []
        let insert = try db.cachedStatement(sql: "INSERT INTO note (id, body, extra) VALUES (?, ?, ?)")
        for id in 1...500 {
            let row = (Int64(id), text(), Bool.random(using: &random) ? text() : nil)
            try insert.bind(values: row.0, row.1, row.2)
            try insert.execute()
            expected.append(row)
        }
        let stored = try db.fetchAll(sql: "SELECT id, body, extra FROM note ORDER BY id") { row in
            (try row.decode(Int64.self, at: 0), try row.decode(String.self, at: 1), try row.decode(String?.self, at: 2))
        }
        #expect(stored.count == expected.count)
        for (got, want) in zip(stored, expected) {
            #expect(got.0 == want.0 && got.1 == want.1 && got.2 == want.2, "row \(want.0)")
        }
        // The bytes too: an embedded NUL is kept, not where the text ends.
        #expect(try db.fetchValue(Int.self, sql: "SELECT length(CAST(?1 AS BLOB))", arguments: ["a\u{0}b"]) == 3)
        try insert.bind(values: Int64(501), "a\u{0}b", String?.none)
        try insert.execute()
        #expect(try db.fetchValue(Int.self, sql: "SELECT length(CAST(body AS BLOB)) FROM note WHERE id = 501") == 3)
    }

    /// A scan reads the bound value once per row it compares: the buffer must hold it for the
    /// whole statement, and a rebind mid-iteration resets first, then rewrites the buffer.
    @Test func aBoundTextLastsThroughTheScanAndARebindMidIterationResetsFirst() throws {
        try db.execute(sql: "INSERT INTO note (body) VALUES ('x'), ('yy'), ('x'), ('zzz'), ('x')")
        let select = try db.makeStatement(sql: "SELECT id FROM note WHERE body = ? ORDER BY id")
        try select.bind(values: "x")
        #expect(try select.fetchAll { try $0.decode(Int64.self, at: 0) } == [1, 3, 5])
        try select.bind(values: "x")
        #expect(try select.step())  // a cursor mid-way
        try select.bind(values: "zzz")
        #expect(try select.fetchAll { try $0.decode(Int64.self, at: 0) } == [4])
        let twice = try db.makeStatement(sql: "SELECT ?1 || '|' || ?1 || '|' || ?2")
        try twice.bind(values: String(repeating: "long ", count: 20), "short")
        #expect(try twice.fetchOne { try $0.decode(String.self, at: 0) }
            == String(repeating: "long ", count: 20) + "|" + String(repeating: "long ", count: 20) + "|short")
    }

    /// A parameter that held text and is then bound another type, then text again.
    @Test func aParameterChangesTypeBetweenBinds() throws {
        let select = try db.makeStatement(sql: "SELECT typeof(?1) || ':' || ?1")
        try select.bind(values: "first text, past the small-string size")
        #expect(try select.fetchOne { try $0.decode(String.self, at: 0) } == "text:first text, past the small-string size")
        try select.bind(values: 42)
        #expect(try select.fetchOne { try $0.decode(String.self, at: 0) } == "integer:42")
        try select.bind(values: "two")
        #expect(try select.fetchOne { try $0.decode(String.self, at: 0) } == "text:two")
        let type = try db.makeStatement(sql: "SELECT typeof(?1)")
        try type.bind(values: "text")
        try type.bind(values: String?.none)
        #expect(try type.fetchOne { try $0.decode(String.self, at: 0) } == "null")
    }

    /// More than 12 values go through the variadic `bind(values:)`; it binds as the overloads
    /// of fixed arity do, and both reject a wrong count.
    @Test func thirteenValuesAndWrongCounts() throws {
        let columns = (1...13).map { "c\($0)" }
        try db.execute(sql: "CREATE TABLE wide (\(columns.joined(separator: ", ")))")
        let insert = try db.makeStatement(
            sql: "INSERT INTO wide VALUES (\(Array(repeating: "?", count: 13).joined(separator: ", ")))")
        try insert.bind(values: 1, "two", 3.5, Int?.none, "five, longer than fifteen bytes", true, Int64(7), "8",
                        Data([9]), "10", 11, "", String?.none)
        try insert.execute()
        let stored = try db.fetchOne(sql: "SELECT \(columns.map { "quote(\($0))" }.joined(separator: " || ',' || ")) FROM wide") {
            try $0.decode(String.self, at: 0)
        }
        #expect(stored == "1,'two',3.5,NULL,'five, longer than fifteen bytes',1,7,'8',X'09','10',11,'',NULL")
        let error = #expect(throws: DatabaseError.self) {
            try insert.bind(values: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
        }
        #expect(error?.resultCode == .SQLITE_RANGE)
        let two = try db.makeStatement(sql: "SELECT ?, ?")
        let tooFew = #expect(throws: DatabaseError.self) { try two.bind(values: "a") }
        #expect(tooFew?.resultCode == .SQLITE_RANGE)
        let tooMany = #expect(throws: DatabaseError.self) { try two.bind(values: "a", "b", "c") }
        #expect(tooMany?.resultCode == .SQLITE_RANGE)
        try two.bind(values: "a", "b")
        #expect(try two.fetchOne { "\(try $0.decode(String.self, at: 0))\(try $0.decode(String.self, at: 1))" } == "ab")
    }

    /// A statement stepped through its raw handle is running without Cairn knowing: a bind
    /// must fail as SQLite's own does and leave the text the scan reads untouched.
    @Test func aBindWhileTheRawStatementRunsFailsAndLeavesItsTextAlone() throws {
        try db.execute(sql: "INSERT INTO note (body) VALUES ('a kept text, longer than fifteen'), ('other'), ('a kept text, longer than fifteen')")
        let select = try db.makeStatement(sql: "SELECT id FROM note WHERE body = ? ORDER BY id")
        try select.bind(values: "a kept text, longer than fifteen")
        let handle = try #require(select.sqliteStatement)
        #expect(sqlite3_step(handle) == SQLITE_ROW)
        #expect(sqlite3_column_int64(handle, 0) == 1)
        // One that fits the kept buffer (it would be overwritten in place), one that does not
        // (the buffer would be replaced).
        for text in ["other", "a much longer text that would need a new buffer, well past the first one's size"] {
            let error = #expect(throws: DatabaseError.self) { try select.bind(values: text) }
            #expect(error?.resultCode == .SQLITE_MISUSE)
        }
        #expect(sqlite3_step(handle) == SQLITE_ROW)
        #expect(sqlite3_column_int64(handle, 0) == 3, "the running scan still compares with the text it was given")
        #expect(sqlite3_step(handle) == SQLITE_DONE)
        sqlite3_reset(handle)
        try select.bind(values: "other")
        #expect(try select.fetchAll { try $0.decode(Int64.self, at: 0) } == [2])
    }

    /// A text too long to keep goes through SQLite's copying bind, and is stored whole.
    @Test func aLongTextIsCopiedBySQLite() throws {
        let long = String(repeating: "0123456789abcdef", count: 8_193)  // just over 128 KiB
        let insert = try db.makeStatement(sql: "INSERT INTO note (body) VALUES (?)")
        try insert.bind(values: long)
        try insert.execute()
        try insert.bind(values: "short after long")
        try insert.execute()
        #expect(try db.fetchValues(String.self, sql: "SELECT body FROM note ORDER BY id") == [long, "short after long"])
    }
}
