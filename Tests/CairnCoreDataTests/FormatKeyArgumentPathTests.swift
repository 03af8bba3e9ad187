import CairnCoreData
import Testing

@Suite("%K after a dot continues a key path, as in Apple's grammar")
struct FormatKeyArgumentPathTests {
    /// Apple's spelling, and the same predicate with the keys written out.
    @Test(arguments: [
        ("SUBQUERY(%K, $child, ($child.%K == %@)).@count > 0", [.string("items"), .string("name"), .string("pen")],
         #"SUBQUERY(items, $child, $child.name == "pen").@count > 0"#),
        ("SUBQUERY(%K, $i, $i.%K > %d).@count > 0", [.string("items"), .string("qty"), .int(1)], "SUBQUERY(items, $i, $i.qty > 1).@count > 0"),
        ("%K.%K == %@", [.string("owner"), .string("name"), .string("Ann")], #"owner.name == "Ann""#),
        ("%K.%K == %@", [.string("owner"), .string("address.city"), .string("Paris")], #"owner.address.city == "Paris""#),
        ("owner.%K == %@", [.string("name"), .string("Ann")], #"owner.name == "Ann""#),
        ("SELF.%K == %@", [.string("name"), .string("Coffee")], #"name == "Coffee""#),
        ("ANY items.%K BEGINSWITH[c] %@", [.string("name"), .string("P")], #"ANY items.name BEGINSWITH[c] "P""#),
        ("%2$K.%1$K.@count == 1", [.string("items"), .string("owner")], "owner.items.@count == 1"),
    ] as [(String, [FormatValue], String)])
    func keyArgumentsAfterADot(format: String, arguments: [FormatValue], written: String) throws {
        let predicate = NSPredicate(format: format, argumentArray: arguments)
        #expect(predicate.formatError == nil)
        let expected = try FormatPredicate(written)
        #expect(predicate.formatPredicate == expected)
        #expect(predicate.formatPredicate.predicateFormat == expected.predicateFormat)
    }

    @Test func substitutedSubqueryEvaluatesAndCompiles() throws {
        let predicate = NSPredicate(format: "SUBQUERY(%K, $child, ($child.%K BEGINSWITH %@)).@count > 0", "items", "name", "pen")
        let ids = expenses().filter { predicate.evaluate(with: $0) }.compactMap { $0["id"] as? Int }
        #expect(ids == [9, 10])
        let rendered = try predicate.formatPredicate.sqlCondition(for: expenseEntity).render()
        let written = try FormatPredicate("SUBQUERY(items, $child, $child.name BEGINSWITH 'pen').@count > 0")
            .sqlCondition(for: expenseEntity).render()
        #expect(rendered.sql == written.sql)
        #expect(rendered.arguments == written.arguments)
        #expect(rendered.sql.contains(#"FROM "Item" AS "sub1""#))
    }

    @Test(arguments: [
        ("a.%@ == 1", [.string("b")], "expected a key or %K after '.', found '%@'", 2),
        ("a.%K == 1", [.string("")], "%K needs a non-empty key path string", 2),
        ("a.%K == 1", [], "needs argument 1, but 0 were given", 2),
    ] as [(String, [FormatValue], String, Int)])
    func otherSpecifiersAfterADotAreErrors(format: String, arguments: [FormatValue], message: String, offset: Int) {
        let error = NSPredicate(format: format, argumentArray: arguments).formatError
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "no error")")
        #expect(error?.offset == offset)
    }
}
