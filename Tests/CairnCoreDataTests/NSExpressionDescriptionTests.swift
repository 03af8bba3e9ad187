import CairnCoreData
import Foundation
import Testing

/// `sum:(amount)`-style descriptions, named `name`.
func aggregate(_ function: String, _ keyPath: String, name: String, type: NSAttributeType = .undefinedAttributeType)
    -> NSExpressionDescription
{
    let description = NSExpressionDescription()
    description.name = name
    description.expression = NSExpression(forFunction: function, arguments: [NSExpression(forKeyPath: keyPath)])
    description.expressionResultType = type
    return description
}

@Suite("NSExpressionDescription aggregates in dictionary fetches, computed in SQL")
struct NSExpressionDescriptionTests {
    func entity(_ context: ModelContext) throws -> FormatSQLEntity {
        FormatSQLEntity(try #require(context.container.schema.entitiesByName["StoredExpense"]))
    }

    func dictionaries(_ properties: [Any], groupBy: [Any]? = nil, predicate: NSPredicate? = nil)
        -> NSFetchRequest<NSDictionary>
    {
        let request = NSFetchRequest<NSDictionary>(entityName: "StoredExpense")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = properties
        request.propertiesToGroupBy = groupBy
        request.predicate = predicate
        return request
    }

    @Test func sumGroupedByCategoryWithAPredicate() throws {
        let (_, context) = try storedExpenses()
        let request = dictionaries(
            ["categoryName", aggregate("sum:", "amount", name: "total", type: .doubleAttributeType)],
            groupBy: ["categoryName"], predicate: NSPredicate(format: "amount > %f", 4.0))
        request.sortDescriptors = [NSSortDescriptor(key: "categoryName", ascending: true)]
        #expect(try request.sqlSelect(for: entity(context)).render().sql == """
            SELECT "StoredExpense"."categoryName" AS "categoryName", SUM("StoredExpense"."amount") AS "total" \
            FROM "StoredExpense" WHERE "StoredExpense"."amount" > ? GROUP BY "StoredExpense"."categoryName" \
            ORDER BY "StoredExpense"."categoryName" ASC
            """)
        let rows = try context.fetch(request)
        #expect(rows.compactMap { $0["categoryName"] as? String } == ["Food", "Groceries", "Misc", "Transport", "Utilities"])
        let totals = rows.compactMap { $0["total"] as? Double }
        let expected = [4.5 + 12.75, 86.2, 7 + 9.99, 23, 100 + 55.5]
        #expect(totals.count == expected.count)
        #expect(zip(totals, expected).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(rows.allSatisfy { $0["total"] is NSNumber })
    }

    @Test(arguments: [
        ("sum:", "SUM", 20.25), ("average:", "AVG", 6.75), ("min:", "MIN", 3.0), ("max:", "MAX", 12.75),
        ("count:", "COUNT", 3.0),
    ])
    func ungroupedAggregateOverThePredicatesRows(function: String, sql: String, expected: Double) throws {
        let (_, context) = try storedExpenses()
        let request = dictionaries([aggregate(function, "amount", name: "value")],
                                   predicate: NSPredicate(format: "categoryName == %@", "Food"))
        request.sortDescriptors = [NSSortDescriptor(key: "amount", ascending: true)]
        let rendered = try request.sqlSelect(for: entity(context)).render().sql
        #expect(rendered == """
            SELECT \(sql)("StoredExpense"."amount") AS "value" FROM "StoredExpense" \
            WHERE "StoredExpense"."categoryName" = ?
            """)
        let rows: [[String: Any]] = try context.fetch(request).map { ($0 as? [String: Any]) ?? [:] }
        #expect(rows.count == 1)
        let value = try #require(rows.first?["value"] as? NSNumber)
        #expect(abs(value.doubleValue - expected) < 1e-9)
        if function == "count:" { #expect(rows.first?["value"] as? Int == 3) }
    }

    @Test(arguments: [
        ("sum:", "SUM", [20.25, 16.99]), ("average:", "AVG", [6.75, 8.495]), ("min:", "MIN", [3.0, 7.0]),
        ("max:", "MAX", [12.75, 9.99]), ("count:", "COUNT", [3.0, 2.0]),
    ])
    func aggregatePerGroupOverThePredicatesRows(function: String, sql: String, expected: [Double]) throws {
        let (_, context) = try storedExpenses()
        let request = dictionaries(["categoryName", aggregate(function, "amount", name: "value")], groupBy: ["categoryName"],
                                   predicate: NSPredicate(format: "categoryName IN %@", ["Food", "Misc"]))
        request.sortDescriptors = [NSSortDescriptor(key: "categoryName", ascending: true)]
        let rendered = try request.sqlSelect(for: entity(context)).render().sql
        #expect(rendered == """
            SELECT "StoredExpense"."categoryName" AS "categoryName", \(sql)("StoredExpense"."amount") AS "value" \
            FROM "StoredExpense" WHERE "StoredExpense"."categoryName" IN (?, ?) GROUP BY "StoredExpense"."categoryName" \
            ORDER BY "StoredExpense"."categoryName" ASC
            """)
        let rows = try context.fetch(request)
        #expect(rows.compactMap { $0["categoryName"] as? String } == ["Food", "Misc"])
        let values = rows.compactMap { ($0["value"] as? NSNumber)?.doubleValue }
        #expect(values.count == 2)
        #expect(zip(values, expected).allSatisfy { abs($0 - $1) < 1e-9 })
    }

    @Test func countsAndLatestDatesPerCategoryAsSwiftValues() throws {
        let (_, context) = try storedExpenses()
        let request = NSFetchRequest<[String: Any]>(entityName: "StoredExpense")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = [
            "categoryName", aggregate("count:", "ref", name: "count"), aggregate("max:", "date", name: "latest"),
            aggregate("sum:", "ref", name: "refs"),
        ]
        request.propertiesToGroupBy = ["categoryName"]
        request.predicate = NSPredicate(format: "categoryName != nil")
        request.sortDescriptors = [NSSortDescriptor(key: "categoryName", ascending: false)]
        let rows = try context.fetch(request)
        #expect(rows.compactMap { $0["categoryName"] as? String } == ["Utilities", "Transport", "Misc", "Groceries", "Food"])
        #expect(rows.compactMap { $0["count"] as? Int } == [2, 1, 2, 1, 3])
        #expect(rows.compactMap { $0["latest"] as? Date } == [day(7), day(5), day(10), day(4), day(3)])
        #expect(rows.compactMap { $0["refs"] as? Int } == [13, 5, 19, 4, 6])
    }

    @Test func theResultTypeChoosesTheValuesType() throws {
        let (_, context) = try storedExpenses()
        let request = NSFetchRequest<[String: Any]>(entityName: "StoredExpense")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = [
            aggregate("sum:", "amount", name: "whole", type: .integer64AttributeType),
            aggregate("max:", "ref", name: "largest", type: .doubleAttributeType),
            aggregate("min:", "name", name: "first", type: .stringAttributeType),
        ]
        let row = try #require(try context.fetch(request).first)
        #expect(row["whole"] as? Int == 301)  // 301.94, as an integer
        #expect(row["largest"] as? Double == 10)
        #expect(row["first"] as? String == "12345")
    }

    @Test func perRowExpressionsAndArithmetic() throws {
        let (_, context) = try storedExpenses()
        let doubled = NSExpressionDescription()
        doubled.name = "doubled"
        doubled.expression = NSExpression(
            forFunction: "multiply:by:", arguments: [NSExpression(forKeyPath: "amount"), NSExpression(forConstantValue: 2)])
        doubled.expressionResultType = .doubleAttributeType
        let request = dictionaries(["ref", doubled], predicate: NSPredicate(format: "ref <= 2"))
        #expect(try request.sqlSelect(for: entity(context)).render().sql == """
            SELECT "StoredExpense"."ref" AS "ref", "StoredExpense"."amount" * ? AS "doubled" FROM "StoredExpense" \
            WHERE "StoredExpense"."ref" <= ? ORDER BY "StoredExpense"."id" ASC
            """)
        let rows = try context.fetch(request)
        #expect(rows.compactMap { $0["doubled"] as? Double } == [9.0, 6.0])
        #expect(rows.compactMap { $0["ref"] as? Int } == [1, 2])
    }

    @Test func havingFiltersGroupsOnAnAggregateNamedByVariable() throws {
        let (_, context) = try storedExpenses()
        let request = dictionaries(["categoryName", aggregate("sum:", "amount", name: "total")], groupBy: ["categoryName"])
        // Core Data's spelling: the description's name as a variable expression.
        request.havingPredicate = NSPredicate(format: "%@ > %f", NSExpression(forVariable: "total"), 20.0)
        request.sortDescriptors = [NSSortDescriptor(key: "total", ascending: false)]
        let sql = try request.sqlSelect(for: entity(context)).render().sql
        #expect(sql == """
            SELECT "cairn_groups"."categoryName" AS "categoryName", "cairn_groups"."total" AS "total" \
            FROM (SELECT "StoredExpense"."categoryName" AS "categoryName", SUM("StoredExpense"."amount") AS "total" \
            FROM "StoredExpense" GROUP BY "StoredExpense"."categoryName") AS "cairn_groups" \
            WHERE "cairn_groups"."total" > ? ORDER BY "cairn_groups"."total" DESC
            """)
        #expect(try context.fetch(request).compactMap { $0["categoryName"] as? String }
            == ["Utilities", "Groceries", "Transport", "Food"])

        request.havingPredicate = NSPredicate(format: "$total > 20 AND categoryName != %@", "Food")
        #expect(try context.fetch(request).compactMap { $0["categoryName"] as? String } == ["Utilities", "Groceries", "Transport"])

        request.havingPredicate = NSPredicate(format: "$total > 20 AND amount > 3")
        #expect {
            _ = try context.fetch(request) as [NSDictionary]
        } throws: { error in
            "\(error)".contains("no key 'amount'; valid keys: categoryName, total")
        }
    }

    @Test func expressionsFromFormatsFetchAsTheirFunctionSpellings() throws {
        let (_, context) = try storedExpenses()
        let total = NSExpressionDescription()
        total.name = "total"
        total.expression = NSExpression(format: "sum(amount * 2)")
        let request = dictionaries([total], predicate: NSPredicate(format: "categoryName == 'Food'"))
        let sql = try request.sqlSelect(for: entity(context)).render().sql
        #expect(sql.hasPrefix(#"SELECT SUM("StoredExpense"."amount" * ?) AS "total" FROM "StoredExpense""#))
        #expect(try context.fetch(request).first?["total"] as? Double == 40.5)
    }

    @Test func groupsSortedByTheirAggregateThenLimited() throws {
        let (_, context) = try storedExpenses()
        let request = dictionaries(["categoryName", aggregate("sum:", "amount", name: "total")], groupBy: ["categoryName"])
        request.sortDescriptors = [NSSortDescriptor(key: "total", ascending: false)]
        request.fetchLimit = 2
        let sql = try request.sqlSelect(for: entity(context)).render().sql
        #expect(sql.hasSuffix(#"AS "cairn_groups" ORDER BY "cairn_groups"."total" DESC LIMIT ?"#))
        #expect(try context.fetch(request).compactMap { $0["categoryName"] as? String } == ["Utilities", "Groceries"])
    }

    @Test func malformedRequestsAreErrorsThatSayWhy() throws {
        let (_, context) = try storedExpenses()
        func message(_ request: NSFetchRequest<NSDictionary>) -> String {
            do {
                _ = try context.fetch(request) as [NSDictionary]
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(message(dictionaries(["name", aggregate("sum:", "amount", name: "total")], groupBy: ["categoryName"]))
            .contains("'name' is in propertiesToFetch but not in propertiesToGroupBy"))
        #expect(message(dictionaries([aggregate("frobnicate:", "amount", name: "x")])).contains("no function 'frobnicate:'"))
        #expect(message(dictionaries([aggregate("sum:", "weight", name: "x")])).contains("weight"))
        let empty = NSExpressionDescription()
        empty.name = "nothing"
        #expect(message(dictionaries([empty])).contains("'nothing' has no expression"))
        #expect(message(dictionaries([42])).contains("takes property names"))
    }

    @Test func theExpressionsOwnAPI() {
        let amount = NSExpression(forKeyPath: "amount")
        let sum = NSExpression(forFunction: "sum:", arguments: [amount])
        #expect(amount.expressionType == .keyPath && amount.keyPath == "amount")
        #expect(sum.expressionType == .function && sum.function == "sum:" && sum.arguments?.count == 1)
        #expect(sum.description == "sum:(amount)")
        #expect(amount.expressionValue(with: ["amount": 4.5], context: nil) as? Double == 4.5)
        #expect(NSExpression(forConstantValue: 3).constantValue as? Int == 3)
        #expect(NSExpression(forFunction: "nope:", arguments: []).expressionError != nil)
        #expect(NSExpression.expressionForEvaluatedObject().expressionType == .evaluatedObject)
        let parsed = NSExpression(format: "sum(amount)")
        #expect(parsed.expressionType == .function && parsed.function == "sum:")
        #expect(parsed.arguments?.first?.keyPath == "amount")
        let times = NSExpression(format: "amount * %d", 2)
        #expect(times.function == "multiply:by:" && times.arguments?.last?.constantValue as? Int == 2)
        #expect(NSExpression(format: "amount *").expressionError?.offset == 8)
        // For `%@`, an expression is substituted as an expression, not as a constant.
        let overFive = NSPredicate(format: "%@ > 5", amount)
        #expect(overFive.formatPredicate.predicateFormat == "amount > 5")
        #expect(overFive.evaluate(with: ["amount": 6]))
        let broken = NSPredicate(format: "%@ > 5", NSExpression(forFunction: "nope:", arguments: []))
        #expect(broken.formatError?.message.contains("no function 'nope:'") == true)
    }
}
