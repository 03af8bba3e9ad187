import CairnQuery
import Testing

/// Templates whose statements take their values in order, out of order, and twice: what a
/// run binds must follow the rendered text's placeholders whichever way it was written.
private enum InOrder: SQLTemplateStatement {
    static func statement(for _: SQLTemplate.Kind, _ values: [SQLExpression]) -> SQLStatement {
        .select(SQLSelect(from: "t").where(SQLExpression.column("a").equals(values[0]).and(.column("b").equals(values[1]))))
    }
}

private enum Swapped: SQLTemplateStatement {
    static func statement(for _: SQLTemplate.Kind, _ values: [SQLExpression]) -> SQLStatement {
        .select(SQLSelect(from: "t").where(SQLExpression.column("b").equals(values[1]).and(.column("a").equals(values[0]))))
    }
}

private enum Repeated: SQLTemplateStatement {
    static func statement(for _: SQLTemplate.Kind, _ values: [SQLExpression]) -> SQLStatement {
        .select(SQLSelect(from: "t").where(SQLExpression.column("a").equals(values[0]).or(.column("b").equals(values[0]))))
    }
}

@Suite("SQLTemplate: a run binds its values where its text takes them")
struct TemplateRenderingTests {
    @Test func valuesBindInTheOrderOfTheRenderedPlaceholders() throws {
        let cache = SQLRenderCache()
        for (first, second) in [(1, 2), (3, 4)] {  // rendered, then served from the cache
            let values: [DatabaseValue] = [.integer(Int64(first)), .integer(Int64(second))]
            let inOrder = try cache.rendering(of: SQLTemplate(InOrder.self, .primaryKeyLookup, values: values, statement: InOrder.self))
            #expect(inOrder.sql == #"SELECT * FROM "t" WHERE "a" = ? AND "b" = ?"#)
            #expect(inOrder.arguments == values)
            let swapped = try cache.rendering(of: SQLTemplate(Swapped.self, .primaryKeyLookup, values: values, statement: Swapped.self))
            #expect(swapped.sql == #"SELECT * FROM "t" WHERE "b" = ? AND "a" = ?"#)
            #expect(swapped.arguments == [values[1], values[0]])
            let repeated = try cache.rendering(of: SQLTemplate(Repeated.self, .primaryKeyLookup, values: [values[0]], statement: Repeated.self))
            #expect(repeated.arguments == [values[0], values[0]])
        }
        #expect(cache.statistics(for: SQLTemplate.Identity(Swapped.self, .primaryKeyLookup)) == SQLRenderCache.Statistics(renders: 1, hits: 1))
    }
}
