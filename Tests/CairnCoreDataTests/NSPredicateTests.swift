import CairnCoreData
import Testing

/// A class that answers keys as a `@Model` will.
final class Account: KeyValueReadable {
    let name: String
    let balance: Double
    let owners: [Account]

    init(name: String, balance: Double, owners: [Account] = []) {
        self.name = name
        self.balance = balance
        self.owners = owners
    }

    func value(forKey key: String) -> Any? {
        switch key {
        case "name": name
        case "balance": balance
        case "owners": owners
        default: nil
        }
    }
}

@Suite("NSPredicate and NSCompoundPredicate: arguments, objects, compounds, injection")
struct NSPredicateTests {
    @Test func argumentsOfEverySupportedSwiftType() {
        let uuid = UUID()
        let data = Data([1, 2, 3])
        let date = Date(timeIntervalSinceReferenceDate: 1234.5)
        let row: [String: Any] = [
            "i": 5, "d": 2.5, "b": true, "s": "x", "u": uuid, "data": data, "date": date, "n": NSNull(),
            "i8": Int8(5), "f": Float(2.5),
        ]
        let optionalNil: String? = nil
        let checks: [(NSPredicate, Bool)] = [
            (NSPredicate(format: "i == %@", NSNumber(value: 5)), true),
            (NSPredicate(format: "i == %@", 5 as Int64), true),
            (NSPredicate(format: "i == %@", UInt8(5)), true),
            (NSPredicate(format: "i == %@", 5.0), true),
            (NSPredicate(format: "i8 == %d", 5), true),
            (NSPredicate(format: "f == %f", 2.5), true),
            (NSPredicate(format: "d == %@", Float(2.5)), true),
            (NSPredicate(format: "d == %@", Decimal(string: "2.5") as Any), true),
            (NSPredicate(format: "b == %@", NSNumber(value: true)), true),
            (NSPredicate(format: "b == %@", true), true),
            (NSPredicate(format: "s == %@", "x" as Substring), true),
            (NSPredicate(format: "s == %@", Character("x")), true),
            (NSPredicate(format: "s == %@", "x" as NSString), true),
            (NSPredicate(format: "u == %@", uuid), true),
            (NSPredicate(format: "u == %@", UUID()), false),
            (NSPredicate(format: "data == %@", data), true),
            (NSPredicate(format: "date == %@", date as NSDate), true),
            (NSPredicate(format: "date == %@", date), true),
            (NSPredicate(format: "n == nil"), true),
            (NSPredicate(format: "n == %@", optionalNil), true),
            (NSPredicate(format: "s == %@", optionalNil), false),
            (NSPredicate(format: "s IN %@", Set(["x", "y"])), true),
            (NSPredicate(format: "i IN %@", [1, 5] as NSArray), true),
            (NSPredicate(format: "s IN %@", ["a": "x"]), true),
            (NSPredicate(format: "i IN %@", [[1], [5]].joined().map { $0 }), true),
        ]
        for (predicate, expected) in checks {
            #expect(predicate.formatError == nil, "\(predicate.formatError.map { "\($0)" } ?? "")")
            #expect(predicate.evaluate(with: row) == expected, "\(predicate)")
        }
    }

    /// The common argument types are recognized before the general casts; wrapped in an
    /// `Optional` they take the general path, which must give the same constant.
    @Test func commonArgumentsConvertAsWhenWrapped() {
        let cases: [(Any, FormatValue)] = [
            (5, .int(5)), (Int64.max, .int(Int64.max)), (2.5, .double(2.5)), (true, .bool(true)),
            (false, .bool(false)), ("x", .string("x")), ("", .string("")), (0, .int(0)), (1, .int(1)),
        ]
        for (value, expected) in cases {
            #expect(FormatValue(converting: value) == expected, "\(value)")
            let wrapped: Any? = Optional(value)
            #expect(FormatValue(converting: wrapped as Any) == expected, "Optional(\(value))")
        }
    }

    /// A value that is neither `Hashable` nor an object has no equality to compare with.
    @Test func unsupportedArgumentIsAnError() {
        struct Opaque {}
        let predicate = NSPredicate(format: "x == %@", Opaque())
        #expect(predicate.formatError?.code == .argument)
        #expect(predicate.formatError?.offset == 5)
        #expect(throws: FormatPredicateError.self) { try NSPredicate(validatingFormat: "x == %@", Opaque()) }
    }

    @Test func evaluatesKeyValueReadableObjects() throws {
        let ann = Account(name: "Ann", balance: 10)
        let joint = Account(name: "Joint", balance: 500, owners: [ann, Account(name: "Bob", balance: -5)])
        #expect(NSPredicate(format: "balance > 100").evaluate(with: joint))
        #expect(NSPredicate(format: "ANY owners.balance < 0").evaluate(with: joint))
        #expect(NSPredicate(format: "owners.@sum.balance == 5").evaluate(with: joint))
        #expect(NSPredicate(format: "owners[FIRST].name == 'Ann'").evaluate(with: joint))
        #expect(NSPredicate(format: "SUBQUERY(owners, $o, $o.name BEGINSWITH 'B').@count == 1").evaluate(with: joint))
        // An object passed for %@ is compared as isEqual: compares it: here, by identity.
        #expect(NSPredicate(format: "owners CONTAINS %@", ann).evaluate(with: joint))
        #expect(!NSPredicate(format: "owners CONTAINS %@", Account(name: "Ann", balance: 10)).evaluate(with: joint))
        #expect(!NSPredicate(format: "missing == 1").evaluate(with: ann))
        let accounts = [joint, ann]
        #expect(try accounts.filtered(using: NSPredicate(format: "name BEGINSWITH 'A'")).map(\.name) == ["Ann"])
        #expect(try accounts.sortedArray(using: [NSSortDescriptor(key: "balance", ascending: true)]).map(\.name)
            == ["Ann", "Joint"])
    }

    @Test func evaluatesPlainValuesWithSelf() throws {
        let words = ["apple", "Banana", "avocado", "cherry"]
        #expect(try words.filtered(using: NSPredicate(format: "SELF BEGINSWITH[c] 'a'")) == ["apple", "avocado"])
        #expect(try [1, 5, 10, 20].filtered(using: NSPredicate(format: "SELF BETWEEN {5, 10}")) == [5, 10])
        #expect(try words.filtered(using: NSPredicate(format: "SELF IN %@", ["cherry", "kiwi"])) == ["cherry"])
        #expect(try words.filtered(using: NSPredicate(format: "SELF.length > 5")) == ["Banana", "avocado", "cherry"])
    }

    @Test func compoundPredicates() {
        let big = NSPredicate(format: "amount > 50")
        let business = NSPredicate(format: "isBusiness == YES")
        let and = NSCompoundPredicate(andPredicateWithSubpredicates: [big, business])
        let or = NSCompoundPredicate(orPredicateWithSubpredicates: [big, business])
        let not = NSCompoundPredicate(notPredicateWithSubpredicate: or)
        func ids(_ predicate: NSPredicate) -> [Int] {
            expenses().filter(predicate.evaluate).compactMap { $0["id"] as? Int }
        }
        #expect(ids(and) == [7])
        #expect(ids(or) == [3, 4, 5, 6, 7])
        #expect(ids(not) == [1, 2, 8, 9, 10])
        #expect(and.formatPredicate.predicateFormat == "amount > 50 AND isBusiness == TRUE")
        #expect(not.formatPredicate.predicateFormat == "NOT (amount > 50 OR isBusiness == TRUE)")
        #expect(NSCompoundPredicate(type: .and, subpredicates: [and, or]).formatPredicate.predicateFormat
            == "(amount > 50 AND isBusiness == TRUE) AND (amount > 50 OR isBusiness == TRUE)")
        // An empty AND is true, an empty OR false.
        #expect(ids(NSCompoundPredicate(andPredicateWithSubpredicates: [])) == allIDs)
        #expect(ids(NSCompoundPredicate(orPredicateWithSubpredicates: [])).isEmpty)
        #expect(NSCompoundPredicate(andPredicateWithSubpredicates: []).formatPredicate.predicateFormat == "TRUEPREDICATE")
        #expect(NSCompoundPredicate(orPredicateWithSubpredicates: []).formatPredicate.predicateFormat == "FALSEPREDICATE")
        #expect(NSCompoundPredicate(type: .or, subpredicates: []).compoundPredicateType == .or)
        #expect(and.subpredicates.count == 2)
        // A malformed part poisons the whole, visibly.
        let broken = NSCompoundPredicate(andPredicateWithSubpredicates: [big, NSPredicate(format: "amount >")])
        #expect(broken.formatError?.offset == 8)
        #expect(ids(broken).isEmpty)
    }

    @Test func substitutionInACompound() {
        let template = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSPredicate(format: "amount > $MIN"), NSPredicate(format: "amount < $MAX"),
        ])
        let filled = template.withSubstitutionVariables(["MIN": 5, "MAX": 10])
        #expect(printed(filled) == "amount > 5 AND amount < 10")
        #expect(expenses().filter(filled.evaluate).compactMap { $0["id"] as? Int } == [9, 10])
        #expect(template.evaluate(with: ["amount": 7], substitutionVariables: ["MIN": 5, "MAX": 10]))
        #expect(!template.evaluate(with: ["amount": 7], substitutionVariables: ["MIN": 5]))
        #expect(NSPredicate(format: "x == $V").withSubstitutionVariables(["V": NSNull()]).evaluate(with: [String: Any]()))
    }

    @Test func valueInitializerAndEquality() {
        #expect(NSPredicate(value: true).evaluate(with: nil))
        #expect(!NSPredicate(value: false).evaluate(with: nil))
        #expect(printed(NSPredicate(value: true)) == "TRUEPREDICATE")
        #expect(NSPredicate(value: true).formatPredicate == .constant(true))
        #expect(NSPredicate(value: false).formatPredicate == .constant(false))
        #expect(NSPredicate(format: "a == 1") == NSPredicate(format: "a = 1"))
        #expect(NSPredicate(format: "a == 1") != NSPredicate(format: "a == 2"))
        #expect(Set([NSPredicate(format: "a == 1"), NSPredicate(format: "a  ==  1")]).count == 1)
        #expect("\(NSPredicate(format: "a contains[cd] 'x'"))" == "a CONTAINS[cd] \"x\"")
    }

    /// Arguments are values in the tree: nothing passed for `%@` or `%K` can change the
    /// predicate's structure.
    @Test(arguments: [
        "'; TRUEPREDICATE; --",
        "\" OR TRUEPREDICATE OR name == \"",
        "x' OR '1'='1",
        "Robert'); DROP TABLE Expense;--",
        "%@ %K $VAR \\ \" ' \n\t\u{0}",
        "Trader Joe's",
    ])
    func injectionAttemptsStayStrings(_ hostile: String) throws {
        let predicate = try FormatPredicate("name == %@", arguments: [hostile])
        #expect(predicate == .comparison(FormatComparison(
            .keyPath(base: .evaluatedObject, path: ["name"]), .equalTo, .constant(.string(hostile)))))
        #expect(try matchingIDs(predicate) == (hostile == "Trader Joe's" ? [4] : []))
        #expect(try FormatPredicate(predicate.predicateFormat) == predicate)
        #expect(NSPredicate(format: "name == %@", hostile).evaluate(with: ["name": hostile]))

        let keyPath = try FormatPredicate("%K == 1", arguments: [hostile])
        guard case .comparison(let comparison) = keyPath, case .keyPath(_, let path) = comparison.lhs else {
            Issue.record("%K did not become a key path")
            return
        }
        #expect(path.joined(separator: ".") == hostile)
        #expect(try matchingIDs(keyPath).isEmpty)
    }
}
