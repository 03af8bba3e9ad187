import CairnQuery
import Testing

/// Two spellings Swift's `==` calls equal (canonical equivalence) and SQLite does not: it
/// compares identifiers and SQL text byte by byte.
private let spellings: [(first: String, second: String)] = [
    ("caf\u{E9}", "cafe\u{301}"),  // "é" precomposed, then "e" + combining acute accent
    ("K", "\u{212A}"),  // Latin capital K, then the Kelvin sign
]

/// Every place the IR holds a name or SQL text, as a statement with `name` in that place.
private let places: [(place: String, statement: @Sendable (String) -> SQLStatement)] = [
    ("table", { .select(SQLSelect(from: $0)) }),
    ("table alias", { .select(SQLSelect(from: .table("t", as: $0))) }),
    ("column", { .select(SQLSelect([.column($0)], from: .table("t"))) }),
    ("column's table", { .select(SQLSelect([.column("a", table: $0)], from: .table("t"))) }),
    ("all columns of", { .select(SQLSelect([.allColumns(of: $0)], from: .table("t"))) }),
    ("result alias", { .select(SQLSelect([a.aliased($0)], from: .table("t"))) }),
    ("function", { .select(SQLSelect([.function($0, a)], from: .table("t"))) }),
    ("aggregate", { .select(SQLSelect([.aggregate(SQLAggregate(name: $0, arguments: [a]))], from: .table("t"))) }),
    ("collation", { .select(SQLSelect(from: "t").where(a.collate($0).equals(int(1)))) }),
    ("ordering collation", { .select(SQLSelect(from: "t").orderBy(a.ascending(collation: $0))) }),
    ("cast type", { .select(SQLSelect([a.cast(as: .named($0))], from: .table("t"))) }),
    ("joined table", { .select(SQLSelect(from: "t").join(.inner, .table($0), on: a.equals(int(1)))) }),
    ("subquery alias", { .select(SQLSelect(from: .subquery(SQLSelect(from: "t"), as: $0))) }),
    ("common table expression", { .select(SQLSelect(from: "w").with(SQLCommonTableExpression($0, as: SQLSelect([int(1)])))) }),
    ("its columns", { .select(SQLSelect(from: "w").with(SQLCommonTableExpression("w", columns: [$0], as: SQLSelect([int(1)])))) }),
    ("insert table", { .insert(SQLInsert(into: $0, columns: ["a"], values: [[int(1)]])) }),
    ("insert column", { .insert(SQLInsert(into: "t", columns: [$0], values: [[int(1)]])) }),
    ("upsert target", { .insert(SQLInsert(into: "t", columns: ["a"], values: [[int(1)]]).onConflictDoNothing([$0])) }),
    ("update table", { .update(SQLUpdate($0, set: [SQLAssignment("a", int(1))])) }),
    ("update alias", { .update(SQLUpdate("t", as: $0, set: [SQLAssignment("a", int(1))])) }),
    ("assigned column", { .update(SQLUpdate("t", set: [SQLAssignment($0, int(1))])) }),
    ("delete table", { .delete(SQLDelete(from: $0).where(a.equals(int(1)))) }),
    ("delete alias", { .delete(SQLDelete(from: "t", as: $0).where(a.equals(int(1)))) }),
    ("fragment text", { .fragment(SQLFragment(sql: "SELECT '\($0)'")) }),
    ("fragment identifier", { .fragment("SELECT * FROM \(identifier: $0) WHERE a = \(bind: .integer(1))") }),
    ("nested fragment", { .select(SQLSelect(from: "t").where(.raw("a = '\(raw: $0)'"))) }),
]

@Suite("Rendering once per shape: text compared byte for byte")
struct RenderCacheTextTests {
    @Test("Canonically equal spellings never share a rendering", arguments: spellings)
    func spellingsKeepTheirOwnSQL(first: String, second: String) throws {
        #expect(first == second)  // what the IR's `==` sees
        #expect(Array(first.utf8) != Array(second.utf8))  // what SQLite sees
        for (place, statement) in places {
            #expect(statement(first) == statement(second), "\(place)")
            #expect(!statement(first).hasIdenticalText(to: statement(second)), "\(place)")
            #expect(statement(first).hasIdenticalText(to: statement(first)), "\(place)")
            // Either spelling cached first, each run twice: a cached rendering has the bytes of
            // a direct one, and a name the renderer refuses (a function named with the Kelvin
            // sign) is refused even after its ASCII twin was cached.
            for order in [[first, second], [second, first]] {
                let cache = SQLRenderCache()
                for spelling in order + order {
                    let direct = Result { try Array(statement(spelling).render().sql.utf8) }
                    let cached = Result { try Array(cache.render(statement(spelling)).sql.utf8) }
                    switch (direct, cached) {
                    case let (.success(expected), .success(actual)): #expect(actual == expected, "\(place)")
                    case (.failure, .failure): break
                    default: Issue.record("\(place): the cache answered \(cached), a direct rendering \(direct)")
                    }
                }
            }
        }
    }

    @Test("The spelling rendered first keeps the entry; its twin is rendered on every run")
    func twinIsNotCached() throws {
        let cache = SQLRenderCache()
        let one = SQLStatement.select(SQLSelect(from: "caf\u{E9}").where(a.equals(int(1))))
        let other = SQLStatement.select(SQLSelect(from: "cafe\u{301}").where(a.equals(int(2))))
        for _ in 0..<3 {
            _ = try cache.render(one)
            _ = try cache.render(other)
        }
        #expect(cache.count == 1)
        #expect(cache.statistics(for: one) == SQLRenderCache.Statistics(renders: 1, hits: 2))
        #expect(cache.statistics(for: other) == nil)
    }

    @Test("The same text in new storage still hits the cache")
    func equalBytesHit() throws {
        let cache = SQLRenderCache()
        // Built at run time, so each statement holds its own copy of a long table name.
        let name = { String(repeating: "workout_", count: 4) + "log" }
        for id: Int64 in 1...3 {
            _ = try cache.render(.select(SQLSelect(from: name()).where(a.equals(int(id)))))
        }
        let probe = SQLStatement.select(SQLSelect(from: name()).where(a.equals(int(0))))
        #expect(cache.statistics(for: probe) == SQLRenderCache.Statistics(renders: 1, hits: 2))
    }

    @Test("In SQLite the two spellings are two tables, and each query reads its own")
    func runsAgainstTheRightTable() throws {
        let db = try SQLiteHarness(schema: """
            CREATE TABLE "caf\u{E9}" (a INTEGER);
            CREATE TABLE "cafe\u{301}" (a INTEGER);
            INSERT INTO "caf\u{E9}" VALUES (1);
            INSERT INTO "cafe\u{301}" VALUES (2);
            """)
        let cache = SQLRenderCache()
        for _ in 0..<2 {
            for (table, expected) in [("caf\u{E9}", 1), ("cafe\u{301}", 2)] {
                let select = SQLSelect([a], from: .table(table)).where(a.greaterThan(int(0)))
                #expect(try db.rows(cache.render(.select(select))) == [[.integer(Int64(expected))]])
            }
        }
    }
}
