import CairnCoreData
import Testing

/// One comparison built with `NSComparisonPredicate`, and the format string that means the same.
struct ComparisonCase: Sendable, CustomTestStringConvertible {
    let format: String
    let make: @Sendable () -> NSComparisonPredicate
    var testDescription: String { format }

    init(_ format: String, _ make: @escaping @Sendable () -> NSComparisonPredicate) {
        self.format = format
        self.make = make
    }

    /// `keyPath op[options] constant`.
    init(
        _ format: String, _ keyPath: String, _ type: NSComparisonPredicate.Operator, _ constant: (any Sendable)?,
        modifier: NSComparisonPredicate.Modifier = .direct, options: NSComparisonPredicate.Options = []
    ) {
        self.init(format) {
            NSComparisonPredicate(
                leftExpression: NSExpression(forKeyPath: keyPath), rightExpression: NSExpression(forConstantValue: constant),
                modifier: modifier, type: type, options: options)
        }
    }

    /// Comparisons on the stored columns of `StoredExpense`, so they also run as fetches.
    static let columns: [ComparisonCase] = [
        ComparisonCase("amount > 50", "amount", .greaterThan, 50),
        ComparisonCase("amount >= 55.5", "amount", .greaterThanOrEqualTo, 55.5),
        ComparisonCase("amount < 4.5", "amount", .lessThan, 4.5),
        ComparisonCase("amount <= 7", "amount", .lessThanOrEqualTo, 7),
        ComparisonCase("amount != 0", "amount", .notEqualTo, 0),
        ComparisonCase("categoryName == \"Food\"", "categoryName", .equalTo, "Food"),
        ComparisonCase("name ==[cd] \"electricite\"", "name", .equalTo, "electricite",
                       options: [.caseInsensitive, .diacriticInsensitive]),
        ComparisonCase("name BEGINSWITH[c] \"st\"", "name", .beginsWith, "st", options: .caseInsensitive),
        ComparisonCase("name BEGINSWITH \"It\"", "name", .beginsWith, "It"),
        ComparisonCase("notes ENDSWITH \"12345\"", "notes", .endsWith, "12345"),
        ComparisonCase("name CONTAINS[cd] \"CAFE\"", "name", .contains, "CAFE",
                       options: [.caseInsensitive, .diacriticInsensitive]),
        ComparisonCase("name CONTAINS[n] \"e\"", "name", .contains, "e", options: .normalized),
        ComparisonCase("name LIKE[c] \"item*\"", "name", .like, "item*", options: .caseInsensitive),
        ComparisonCase("notes LIKE \"50% off?sale\"", "notes", .like, "50% off?sale"),
        ComparisonCase("name MATCHES \"[0-9]+\"", "name", .matches, "[0-9]+"),
        ComparisonCase("categoryName IN {\"Food\", \"Transport\"}", "categoryName", .in, ["Food", "Transport"]),
        ComparisonCase("amount BETWEEN {5, 20}", "amount", .between, [5, 20]),
        ComparisonCase("isBusiness == TRUE", "isBusiness", .equalTo, true),
        ComparisonCase("notes == nil", "notes", .equalTo, nil),
        ComparisonCase("date > %@", "date", .greaterThan, day(5)),
        ComparisonCase("amount * 2 > 100") {
            NSComparisonPredicate(
                leftExpression: NSExpression(
                    forFunction: "multiply:by:", arguments: [NSExpression(forKeyPath: "amount"), NSExpression(forConstantValue: 2)]),
                rightExpression: NSExpression(forConstantValue: 100), modifier: .direct, type: .greaterThan)
        },
    ]

    /// Comparisons with `ANY`/`ALL` over to-many values (arrays in memory, `items` in SQL).
    static let collections: [ComparisonCase] = [
        ComparisonCase("ANY tags == \"work\"", "tags", .equalTo, "work", modifier: .any),
        ComparisonCase("ALL tags BEGINSWITH \"b\"", "tags", .beginsWith, "b", modifier: .all),
        ComparisonCase("ANY items.name ==[c] \"LATTE\"", "items.name", .equalTo, "LATTE", modifier: .any,
                       options: .caseInsensitive),
        ComparisonCase("ALL items.qty < 3", "items.qty", .lessThan, 3, modifier: .all),
        ComparisonCase("ANY items.price BETWEEN {4, 10}", "items.price", .between, [4, 10], modifier: .any),
    ]

    /// The same predicate parsed from the format (`%@` is `day(5)`).
    var formatPredicate: NSPredicate {
        format.contains("%@") ? NSPredicate(format: format, day(5)) : NSPredicate(format: format)
    }
}

@Suite("NSComparisonPredicate: the same comparison as NSPredicate(format:), in memory, in SQL, in compounds")
struct NSComparisonPredicateTests {
    @Test(arguments: ComparisonCase.columns + ComparisonCase.collections)
    func matchesTheEquivalentFormatInMemory(_ testCase: ComparisonCase) throws {
        let comparison = testCase.make()
        let parsed = testCase.formatPredicate
        #expect(parsed.formatError == nil)
        #expect(comparison.formatError == nil)
        #expect(printed(comparison) == printed(parsed))
        #expect(comparison.isEqual(parsed) && parsed.isEqual(comparison))
        let rows = expenses()
        let expected = rows.filter { parsed.evaluate(with: $0) }.compactMap { $0["id"] as? Int }
        let actual = rows.filter { comparison.evaluate(with: $0) }.compactMap { $0["id"] as? Int }
        #expect(actual == expected)
        #expect(!expected.isEmpty && expected != allIDs, "the case should tell rows apart")
    }

    @Test(arguments: ComparisonCase.columns)
    func fetchesWhatTheEquivalentFormatFetches(_ testCase: ComparisonCase) throws {
        let (_, context) = try storedExpenses()
        let everything = try context.fetch(StoredExpense.fetchRequest())
        let byFormat = StoredExpense.fetchRequest()
        byFormat.predicate = testCase.formatPredicate
        let byComparison = StoredExpense.fetchRequest()
        byComparison.predicate = testCase.make()
        let expected = try context.fetch(byFormat).map(\.ref)
        #expect(!expected.isEmpty && expected != allIDs, "the case should tell rows apart")
        #expect(try context.fetch(byComparison).map(\.ref) == expected)
        #expect(try context.count(for: byComparison) == expected.count)
        let comparison = testCase.make()
        #expect(everything.filter { comparison.evaluate(with: $0) }.map(\.ref) == expected)
    }

    /// `ANY`/`ALL` over a to-many relationship compile to the same SQL as the format's.
    @Test(arguments: ComparisonCase.collections.filter { $0.format.contains("items") })
    func collectionModifiersCompileToTheFormatsSQL(_ testCase: ComparisonCase) throws {
        let db = try expenseDatabase()
        let comparison = testCase.make().formatPredicate
        let parsed = testCase.formatPredicate.formatPredicate
        let sql = try comparison.sqlCondition(for: expenseEntity).render()
        let formatSQL = try parsed.sqlCondition(for: expenseEntity).render()
        #expect(sql.sql == formatSQL.sql)
        #expect(sql.arguments == formatSQL.arguments)
        #expect(try sqlIDs(db, comparison) == matchingIDs(parsed))
    }

    @Test func sqlTextIsTheFormatsSQL() throws {
        let predicate = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "amount"), rightExpression: NSExpression(forConstantValue: 50),
            modifier: .direct, type: .greaterThan)
        let rendered = try predicate.formatPredicate.sqlCondition(for: expenseEntity).render()
        #expect(rendered.sql == #""Expense"."amount" > ?"#)
        #expect(rendered.arguments == [.integer(50)])
        // Read directly: on `NSComparisonPredicate` the property is Cairn's, not deprecated.
        #expect(predicate.predicateFormat == "amount > 50")
        let prefix = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "name"), rightExpression: NSExpression(forConstantValue: "st"),
            modifier: .direct, type: .beginsWith, options: .caseInsensitive)
        #expect(printed(prefix) == #"name BEGINSWITH[c] "st""#)
    }

    @Test func nestsInCompoundPredicatesInMemoryAndInFetches() throws {
        let big = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "amount"), rightExpression: NSExpression(forConstantValue: 20),
            modifier: .direct, type: .greaterThan)
        let business = NSPredicate(format: "isBusiness == YES")
        let food = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "categoryName"), rightExpression: NSExpression(forConstantValue: "food"),
            modifier: .direct, type: .equalTo, options: .caseInsensitive)
        let compound = NSCompoundPredicate(orPredicateWithSubpredicates: [
            NSCompoundPredicate(andPredicateWithSubpredicates: [big, business]), food,
        ])
        let equivalent = NSPredicate(format: "(amount > 20 AND isBusiness == YES) OR categoryName ==[c] \"food\"")
        #expect(compound.formatPredicate == equivalent.formatPredicate)
        #expect(compound.formatPredicate.predicateFormat == printed(equivalent))
        let expected = [1, 2, 3, 5, 7]
        #expect(expenses().filter { compound.evaluate(with: $0) }.compactMap { $0["id"] as? Int } == expected)
        let (_, context) = try storedExpenses()
        let request = StoredExpense.fetchRequest()
        request.predicate = compound
        #expect(try context.fetch(request).map(\.ref) == expected)
        let negated = NSCompoundPredicate(notPredicateWithSubpredicate: food)
        request.predicate = negated
        #expect(try context.fetch(request).map(\.ref) == [4, 5, 6, 7, 8, 9, 10])
    }

    @Test func variablesAreSubstitutedLikeTheFormats() throws {
        let template = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "amount"), rightExpression: NSExpression(forVariable: "LIMIT"),
            modifier: .direct, type: .greaterThanOrEqualTo)
        #expect(printed(template) == "amount >= $LIMIT")
        let bound = template.withSubstitutionVariables(["LIMIT": 55.5])
        #expect(printed(bound) == "amount >= 55.5")
        #expect(expenses().filter { bound.evaluate(with: $0) }.compactMap { $0["id"] as? Int } == [4, 6, 7])
        #expect(template.evaluate(with: ["amount": 60.0], substitutionVariables: ["LIMIT": 50]))
        #expect(throws: FormatPredicateError.self) { try template.checkedEvaluate(with: ["amount": 60.0]) }
    }

    @Test func accessorsAndApplesRawValues() {
        let left = NSExpression(forKeyPath: "tags")
        let right = NSExpression(forConstantValue: "b")
        let predicate = NSComparisonPredicate(
            leftExpression: left, rightExpression: right, modifier: .all, type: .beginsWith,
            options: [.caseInsensitive, .normalized])
        #expect(predicate.leftExpression === left)
        #expect(predicate.rightExpression === right)
        #expect(predicate.comparisonPredicateModifier == .all)
        #expect(predicate.predicateOperatorType == .beginsWith)
        #expect(predicate.options == [.caseInsensitive, .normalized])
        #expect(printed(predicate) == #"ALL tags BEGINSWITH[cn] "b""#)
        let operators: [(NSComparisonPredicate.Operator, UInt)] = [
            (.lessThan, 0), (.lessThanOrEqualTo, 1), (.greaterThan, 2), (.greaterThanOrEqualTo, 3), (.equalTo, 4),
            (.notEqualTo, 5), (.matches, 6), (.like, 7), (.beginsWith, 8), (.endsWith, 9), (.in, 10),
            (.customSelector, 11), (.contains, 99), (.between, 100),
        ]
        for (op, raw) in operators { #expect(op.rawValue == raw) }
        #expect([NSComparisonPredicate.Modifier.direct, .all, .any].map(\.rawValue) == [0, 1, 2])
        #expect([NSComparisonPredicate.Options.caseInsensitive, .diacriticInsensitive, .normalized].map(\.rawValue) == [1, 2, 4])
    }

    /// `.customSelector` and an invalid expression are errors, never crashes: `evaluate`
    /// answers false, `checkedEvaluate` and fetches throw the named error.
    @Test func unsupportedCombinationsAreErrors() throws {
        let custom = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "name"), rightExpression: NSExpression(forConstantValue: "x"),
            modifier: .direct, type: .customSelector)
        #expect(custom.formatError?.code == .unsupported)
        #expect(custom.formatError?.message.contains(".customSelector") == true)
        #expect(!custom.evaluate(with: ["name": "x"]))
        #expect(throws: FormatPredicateError.self) { try custom.checkedEvaluate(with: ["name": "x"]) }
        let badFunction = NSComparisonPredicate(
            leftExpression: NSExpression(forFunction: "nope:", arguments: [NSExpression(forKeyPath: "amount")]),
            rightExpression: NSExpression(forConstantValue: 1), modifier: .direct, type: .equalTo)
        #expect(badFunction.formatError?.message.contains("no function 'nope:'") == true)
        let (_, context) = try storedExpenses()
        for predicate in [custom, badFunction] {
            let request = StoredExpense.fetchRequest()
            request.predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [NSPredicate(value: true), predicate])
            #expect(throws: FormatPredicateError.self) { try context.fetch(request) }
        }
        let unknownKey = StoredExpense.fetchRequest()
        unknownKey.predicate = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "nope"), rightExpression: NSExpression(forConstantValue: 1),
            modifier: .direct, type: .equalTo)
        #expect { try context.fetch(unknownKey) } throws: { ($0 as? FormatPredicateError)?.code == .unknownKey }
    }
}
