import CairnQuery
import Testing

/// Statements of every kind of IR node, with values derived from `seed`: the same shapes,
/// other values for another seed.
private func statements(_ seed: Int64) -> [(name: String, statement: SQLStatement)] {
    let n = int(seed)
    let s = text("v\(seed)")
    let sub = SQLSelect([c], from: .table("u")).where(d.greaterThan(int(seed + 1))).limit(Int(seed) + 2)
    let joinCondition = a.equals(.column("c", table: "s")).and(b.notEquals(n))
    let condition = SQLExpression.or([
        a.like(s, escape: text("\\")), b.between(n, and: int(seed * 2)), c.in([n, s]).not(),
    ])
    let having = SQLExpression.count(b, distinct: true, filter: b.greaterThan(n)).greaterThan(int(seed - 1))
    let caseTerm = SQLExpression.case(a, when: [(n, s)], else: text("z")).descending(nulls: .last)
    let select = SQLSelect([SQLSelectColumn(a), b.plus(n).aliased("total")], from: .table("t", as: "x"))
        .join(.left, .subquery(sub, as: "s"), on: joinCondition)
        .where(condition)
        .groupBy(a)
        .having(having)
        .orderBy(caseTerm, b.collate("NOCASE").ascending())
        .limit(Int(seed)).offset(Int(seed) * 3)
    let withCTE = SQLSelect(from: "cte")
        .with(SQLCommonTableExpression("cte", columns: ["k"], as: SQLSelect([n])))
        .union(all: true, SQLSelect([s]))
        .where(.exists(SQLSelect(from: "u").where(c.is(n))))
        .where(a.in(SQLSelect([d], from: .table("u")).where(d.lessThan(n))))
        .where(.subquery(SQLSelect([.function("max", [c, n])], from: .table("u"))).greaterThan(n.cast(as: .real)))
        .where(.row([a, b]).equals(.row([n, s])))
    let insert = SQLInsert(into: "t", columns: ["a", "b"], values: [[n, s], [int(seed + 1), .null]])
        .onConflict(["a"], where: b.isNotNull(), doUpdate: [SQLAssignment("b", .excluded("b").concatenated(with: s))],
                    updateWhere: a.greaterThan(n))
        .returning([a])
    let insertSelect = SQLInsert(into: "t", columns: ["a"], source: .select(SQLSelect([n])))
    let update = SQLUpdate("t", set: [SQLAssignment("a", n), SQLAssignment("b", b.times(n))])
        .where(a.notIn([n])).returning([b])
    let delete = SQLDelete(from: "t").where(a.equals(n).and(b.isNull())).returning([a.minus(n)])
    let fragment: SQLFragment = "SELECT \(n) + \(bind: .integer(seed)) FROM \(identifier: "t") WHERE \(SQLSelect([n]))"
    return [
        ("select", .select(select)), ("with, compounds and subqueries", .select(withCTE)),
        ("insert with upsert", .insert(insert)), ("insert select", .insert(insertSelect)),
        ("update", .update(update)), ("delete", .delete(delete)), ("fragment", .fragment(fragment)),
        ("no value", .select(SQLSelect(from: "t").where(a.isNull()))),
    ]
}

@Suite("Rendering once per statement shape")
struct RenderCacheTests {
    @Test("A cached rendering equals a direct one: same SQL text, same arguments in order")
    func sameAsDirect() throws {
        let cache = SQLRenderCache()
        for seed: Int64 in [3, 11, 3, 40] {
            for (name, statement) in statements(seed) {
                let cached = try cache.render(statement)
                let direct = try statement.render()
                #expect(cached == direct, "\(name), seed \(seed)")
            }
        }
        // One shape per statement kind: the values did not make new shapes.
        #expect(cache.count == statements(0).count)
    }

    @Test("A cache in the PostgreSQL dialect renders what a direct PostgreSQL rendering does, $n numbered per statement")
    func sameAsDirectInPostgreSQL() throws {
        let cache = SQLRenderCache(dialect: PostgreSQLDialect())
        for seed: Int64 in [3, 11, 3, 40] {
            for (name, statement) in statements(seed) {
                // The select's NOCASE collation has no PostgreSQL form: both ways throw.
                guard let direct = try? statement.render(dialect: PostgreSQLDialect()) else {
                    #expect(throws: SQLRenderError.self, "\(name)") { try cache.render(statement) }
                    continue
                }
                let cached = try cache.render(statement)
                #expect(cached == direct, "\(name), seed \(seed)")
                #expect(!cached.sql.contains("?"), "\(name): \(cached.sql)")
            }
        }
        #expect(cache.count == statements(0).count - 1)
    }

    @Test("Each shape is rendered once; later runs only collect values")
    func rendersOnce() throws {
        let cache = SQLRenderCache()
        let find = { (id: Int64) in SQLStatement.select(SQLSelect([a], from: .table("t")).where(a.equals(int(id)))) }
        for id: Int64 in 1...5 { _ = try cache.render(find(id)) }
        #expect(cache.statistics(for: find(99)) == SQLRenderCache.Statistics(renders: 1, hits: 4))
        #expect(try cache.render(find(7)).arguments == [.integer(7)])
        // Another shape (another operator) is rendered separately.
        _ = try cache.render(.select(SQLSelect([a], from: .table("t")).where(a.greaterThan(int(1)))))
        #expect(cache.count == 2)
        #expect(cache.statistics(for: find(1))?.hits == 5)
    }

    @Test("Alternating shapes each keep their own rendering and counts")
    func alternatingShapes() throws {
        // The shape served last is compared first; a loop alternating two shapes misses it
        // every time and must still find each shape's own rendering.
        let cache = SQLRenderCache()
        let equal = { (id: Int64) in SQLStatement.select(SQLSelect([a], from: .table("t")).where(a.equals(int(id)))) }
        let greater = { (id: Int64) in SQLStatement.select(SQLSelect([a], from: .table("t")).where(a.greaterThan(int(id)))) }
        for id: Int64 in 1...3 {
            #expect(try cache.render(equal(id)) == equal(id).render())
            #expect(try cache.render(greater(id)) == greater(id).render())
            #expect(try cache.render(greater(id + 10)) == greater(id + 10).render())
        }
        #expect(cache.statistics(for: equal(0)) == SQLRenderCache.Statistics(renders: 1, hits: 2))
        #expect(cache.statistics(for: greater(0)) == SQLRenderCache.Statistics(renders: 1, hits: 5))
        cache.removeAll()
        #expect(cache.statistics(for: equal(0)) == nil)
        #expect(try cache.render(equal(4)) == equal(4).render())
        #expect(cache.statistics(for: equal(0)) == SQLRenderCache.Statistics(renders: 1, hits: 0))
    }

    @Test("Shapes differ in everything but values", arguments: [
        (SQLSelect(from: "t").where(a.in([int(1), int(2)])), SQLSelect(from: "t").where(a.in([int(1)]))),
        (SQLSelect(from: "t").where(a.equals(int(1))), SQLSelect(from: "t").where(b.equals(int(1)))),
        (SQLSelect(from: "t").where(a.equals(int(1))), SQLSelect(from: "t").where(a.equals(.null))),
        (SQLSelect(from: "t").limit(1), SQLSelect(from: "t")),
        (SQLSelect(from: "t").where(a.equals(text("x"))), SQLSelect(from: "u").where(a.equals(text("x")))),
        // The cache's key hashes a SELECT's column count, not its columns: equal counts must
        // still be told apart, with and without a value among the columns.
        (SQLSelect([a], from: .table("t")).where(a.equals(int(1))), SQLSelect([b], from: .table("t")).where(a.equals(int(1)))),
        (SQLSelect([a, b.plus(int(1))], from: .table("t")), SQLSelect([b, a.plus(int(1))], from: .table("t"))),
    ])
    func distinctShapes(first: SQLSelect, second: SQLSelect) throws {
        let cache = SQLRenderCache()
        #expect(try cache.render(.select(first)) == first.render())
        #expect(try cache.render(.select(second)) == second.render())
        #expect(cache.count == 2)
    }

    @Test("Statements with their own parameters, or too many values, are rendered directly")
    func notCached() throws {
        let cache = SQLRenderCache(maximumValues: 4)
        let parameterized = SQLStatement.select(SQLSelect(from: "t").where(a.equals(.parameter(0))))
        #expect(try cache.render(parameterized) == parameterized.render())
        let many = SQLStatement.insert(SQLInsert(into: "t", columns: ["a"], values: (1...5).map { [int($0)] }))
        #expect(try cache.render(many) == many.render())
        #expect(cache.count == 0)
        let few = SQLStatement.insert(SQLInsert(into: "t", columns: ["a"], values: (1...4).map { [int($0)] }))
        #expect(try cache.render(few).arguments == (1...4).map { .integer($0) })
        #expect(cache.count == 1)
    }

    @Test("A full cache is emptied and starts again")
    func capacity() throws {
        let cache = SQLRenderCache(capacity: 3)
        for column in ["a", "b", "c", "d"] {
            _ = try cache.render(.select(SQLSelect(from: "t").where(SQLExpression.column(column).equals(int(1)))))
        }
        #expect(cache.count == 1)
        cache.removeAll()
        #expect(cache.count == 0)
    }

    @Test("A cached rendering runs in SQLite with each execution's values")
    func runs() throws {
        let db = try SQLiteHarness()
        try db.execute("INSERT INTO t (a, b) VALUES (1, 'one'), (2, 'two')")
        let cache = SQLRenderCache()
        for (id, name) in [(1, "one"), (2, "two"), (1, "one")] {
            let select = SQLSelect([b], from: .table("t")).where(a.equals(int(Int64(id))))
            #expect(try db.rows(cache.render(.select(select))) == [[.text(name)]])
        }
        #expect(cache.count == 1)
    }
}
