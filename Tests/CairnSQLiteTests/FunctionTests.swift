import CairnSQLite
import Foundation
import Testing
import CairnTestSupport

private struct NotAllowed: Error, CustomStringConvertible {
    var description: String { "negative input" }
}

@Suite struct FunctionAndCollationTests {
    static let fold = DatabaseFunction("fold", argumentCount: 1) { arguments in
        guard case .text(let text) = arguments[0] else { return nil }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
    static let checkedDouble = DatabaseFunction("checked_double", argumentCount: 1) { arguments in
        guard case .integer(let value) = arguments[0] else { return nil }
        if value < 0 { throw NotAllowed() }
        return value * 2
    }
    static let reversed = DatabaseCollation("reversed") { lhs, rhs in
        lhs == rhs ? .orderedSame : (lhs < rhs ? .orderedDescending : .orderedAscending)
    }

    @Test func configurationRegistersOnEveryConnectionOfAPool() async throws {
        let temp = try TemporaryDatabasePath()
        defer { temp.cleanup() }
        var configuration = Configuration()
        configuration.functions = [Self.fold]
        configuration.collations = [Self.reversed]
        let pool = try DatabasePool(path: temp.path, configuration: configuration)
        try await pool.write { db in
            try db.execute(sql: "CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('Éclair'), ('apple'), ('Zebra')")
        }
        let matches = try await pool.read { db in
            try db.fetchValues(String.self, sql: "SELECT name FROM t WHERE fold(name) = fold(?)", arguments: ["ECLAIR"])
        }
        #expect(matches == ["Éclair"])
        let ordered = try await pool.read { db in
            try db.fetchValues(String.self, sql: "SELECT name FROM t ORDER BY name COLLATE reversed")
        }
        #expect(ordered == ["Éclair", "apple", "Zebra"].sorted(by: >))
        let nullFolded = try await pool.write { db in try db.fetchValue(String.self, sql: "SELECT fold(NULL)") }
        #expect(nullFolded == nil)
    }

    @Test func thrownErrorBecomesAnSQLError() throws {
        let db = try Database.inMemory()
        db.add(function: Self.checkedDouble)
        #expect(try db.fetchValue(Int.self, sql: "SELECT checked_double(21)") == 42)
        let error = #expect(throws: DatabaseError.self) {
            try db.fetchValue(Int.self, sql: "SELECT checked_double(-1)")
        }
        #expect(error?.message == "checked_double: negative input")
        #expect(error?.sql == "SELECT checked_double(-1)")
    }

    @Test func aRefusedRegistrationIsThrownByTheNextStatementNamingTheFunction() throws {
        let db = try Database.inMemory()
        let name = String(repeating: "n", count: 256)
        db.add(function: DatabaseFunction(name, argumentCount: 0) { _ in 1 })
        let error = #expect(throws: DatabaseError.self) { try db.fetchValue(Int.self, sql: "SELECT 1") }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(error?.message.contains("the SQL function \(name) was not registered") == true)
        #expect(error?.message.contains("longer than 255 UTF-8 bytes") == true)
        // Thrown once: the connection goes on working.
        #expect(try db.fetchValue(Int.self, sql: "SELECT 1") == 1)
    }

    @Test func aRegistrationSQLiteRefusesIsThrownByTheNextStatement() throws {
        let db = try Database.inMemory()
        // More arguments than SQLITE_MAX_FUNCTION_ARG: SQLite itself refuses it.
        db.add(function: DatabaseFunction("wide", argumentCount: 100_000) { _ in 1 })
        db.add(function: Self.checkedDouble)
        let error = #expect(throws: DatabaseError.self) { try db.fetchValue(Int.self, sql: "SELECT checked_double(1)") }
        #expect(error?.message.hasPrefix("the SQL function wide was not registered") == true)
        // The registration after the refused one was made.
        #expect(try db.fetchValue(Int.self, sql: "SELECT checked_double(1)") == 2)
        db.remove(function: DatabaseFunction("wide", argumentCount: 100_000) { _ in 1 })
        let removal = #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT 1") }
        #expect(removal?.message.hasPrefix("the SQL function wide was not removed") == true)
    }

    @Test func aRefusedRegistrationIsThrownEvenForACachedStatement() throws {
        let db = try Database.inMemory()
        #expect(try db.fetchValue(Int.self, sql: "SELECT 1") == 1)
        db.add(function: DatabaseFunction("bad", argumentCount: -2) { _ in 1 })
        let error = #expect(throws: DatabaseError.self) { try db.fetchValue(Int.self, sql: "SELECT 1") }
        #expect(error?.message.hasPrefix("the SQL function bad was not registered: it takes -2 arguments") == true)
    }

    @Test func variadicFunctionsSeeEveryArgumentType() throws {
        let db = try Database.inMemory()
        let seen = Collected<[DatabaseValue]>()
        db.add(function: DatabaseFunction("spy") { arguments in
            seen.append(arguments)
            return arguments.count
        })
        #expect(try db.fetchValue(Int.self, sql: "SELECT spy(1, 2.5, 'x', x'00ff', NULL, '')") == 6)
        #expect(seen.values == [[.integer(1), .real(2.5), .text("x"), .blob(Data([0, 255])), .null, .text("")]])
    }

    @Test func collationOrdersLikeSwift() throws {
        let db = try Database.inMemory()
        try db.add(collation: DatabaseCollation("swift_order") { $0 == $1 ? .orderedSame : ($0 < $1 ? .orderedAscending : .orderedDescending) })
        let words = ["b", "A", "é", "e", "Z", "ä"]
        try db.execute(sql: "CREATE TABLE w (word TEXT)")
        for word in words { try db.execute(sql: "INSERT INTO w VALUES (?)", arguments: [word]) }
        #expect(try db.fetchValues(String.self, sql: "SELECT word FROM w ORDER BY word COLLATE swift_order") == words.sorted())
    }
}

@Suite struct TracingTests {
    @Test func tracerSeesEveryStatementWithRedactedValues() throws {
        let events = Collected<TraceEvent>()
        var configuration = Configuration()
        configuration.tracer = { events.append($0) }
        let db = try Database.inMemory(configuration: configuration)
        let setupCount = events.values.count
        try db.execute(sql: "CREATE TABLE t (secret TEXT)")
        try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["hunter2"])
        _ = try db.fetchAll(sql: "SELECT * FROM t") { _ in () }
        let traced = events.values.dropFirst(setupCount)
        #expect(traced.map(\.sql) == ["CREATE TABLE t (secret TEXT)", "INSERT INTO t VALUES (?)", "SELECT * FROM t"])
        #expect(traced.allSatisfy { $0.expandedSQL == nil && $0.duration >= .zero })
        #expect(!traced.map(\.description).joined().contains("hunter2"))
    }

    @Test func publicArgumentsExpandValues() throws {
        let events = Collected<TraceEvent>()
        var configuration = Configuration()
        configuration.publicStatementArguments = true
        let db = try Database.inMemory(configuration: configuration)
        db.add { events.append($0) }
        try db.execute(sql: "SELECT ?, ?", arguments: ["it's", 7])
        #expect(events.values.map(\.expandedSQL) == ["SELECT 'it''s', 7"])
        #expect(events.values.first?.description.hasSuffix("SELECT 'it''s', 7") == true)
    }

    @Test func countsStatementsSoTestsCanAssertNoNPlusOne() throws {
        let db = try Database.inMemory()
        try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1), (2), (3)")
        var count = 0
        db.add { _ in count += 1 }
        _ = try db.fetchValues(Int.self, sql: "SELECT x FROM t")
        _ = try db.fetchValues(Int.self, sql: "SELECT x FROM t")
        #expect(count == 2)
        db.removeAllTracers()
        _ = try db.fetchValues(Int.self, sql: "SELECT x FROM t")
        #expect(count == 2)
    }
}
