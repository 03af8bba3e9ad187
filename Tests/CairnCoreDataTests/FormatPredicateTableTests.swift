import CairnCoreData
import Testing

/// One row of the table: a format, its arguments and variables, and the ids it matches.
struct FormatCase: Sendable, CustomTestStringConvertible {
    let format: String
    let arguments: [FormatValue]
    let variables: [String: FormatValue]
    let expected: [Int]

    init(_ format: String, _ expected: [Int]) {
        self.init(format, [], variables: [:], expected)
    }

    init(_ format: String, variables: [String: FormatValue], _ expected: [Int]) {
        self.init(format, [], variables: variables, expected)
    }

    init(_ format: String, _ arguments: [FormatValue], variables: [String: FormatValue] = [:], _ expected: [Int]) {
        self.format = format
        self.arguments = arguments
        self.variables = variables
        self.expected = expected
    }

    var testDescription: String { format }
}

private let notEight = allIDs.filter { $0 != 8 }

let comparisonCases: [FormatCase] = [
    FormatCase("amount > 50", [4, 6, 7]),
    FormatCase("amount >= 100", [6]),
    FormatCase("amount => 100", [6]),
    FormatCase("amount < 5", [1, 2, 8]),
    FormatCase("amount <= 3", [2, 8]),
    FormatCase("amount =< 3", [2, 8]),
    FormatCase("amount = 23", [5]),
    FormatCase("amount == 23.0", [5]),
    FormatCase("amount != 23", [1, 2, 3, 4, 6, 7, 8, 9, 10]),
    FormatCase("amount <> 23", [1, 2, 3, 4, 6, 7, 8, 9, 10]),
    FormatCase("id == 0x0A", [10]),
    FormatCase("id == 0o7", [7]),
    FormatCase("id == 0b11", [3]),
    FormatCase("amount > 1e1", [3, 4, 5, 6, 7]),
    FormatCase("amount < 9.2e-5", [8]),
    FormatCase("amount BETWEEN {4.5, 12.75}", [1, 3, 9, 10]),
    FormatCase("amount between %@", [.array([.int(10), .int(60)])], [3, 5, 7]),
    FormatCase("-amount < -50", [4, 6, 7]),
    FormatCase("amount * 2 > 100", [4, 6, 7]),
    FormatCase("amount + 10 <= 13", [2, 8]),
    FormatCase("amount - 1 == 22", [5]),
    FormatCase("amount / 2 == 50", [6]),
    FormatCase("2 ** 3 == 8", allIDs),
    FormatCase("amount ** 2 > 10000", []),
    FormatCase("amount ** 2 >= 10000", [6]),
    FormatCase("(amount + 1) * 2 > 200", [6]),
    FormatCase("amount + 1 * 2 == 25", [5]),
    FormatCase("2 ** 2 ** 3 == 256", allIDs),
    FormatCase("-2 ** 2 == 4", allIDs),
    FormatCase("modulus(id, 2) == 0", [2, 4, 6, 8, 10]),
    FormatCase("id + 0.5 > 9", [9, 10]),
    FormatCase("amount / 0 > 0", []),
    FormatCase("amount / 0 == nil", allIDs),
    FormatCase("isBusiness == YES", [3, 5, 7]),
    FormatCase("isBusiness == TRUE", [3, 5, 7]),
    FormatCase("isBusiness = NO", [1, 2, 4, 6, 8, 9, 10]),
    FormatCase("isBusiness == false", [1, 2, 4, 6, 8, 9, 10]),
    FormatCase("isBusiness == 1", [3, 5, 7]),
    FormatCase("name == nil", [8]),
    FormatCase("name = NULL", [8]),
    FormatCase("name != nil", notEight),
    FormatCase("notes == nil", [2, 5]),
    FormatCase("notes == \"\"", [8]),
    FormatCase("categoryName == NIL", [8]),
    FormatCase("name < \"M\"", [1, 6, 10]),
    FormatCase("tags == nil", [8]),
    FormatCase("missingKey == nil", allIDs),
    FormatCase("date > CAST(700000000, \"NSDate\") + 86400 * 5", [6, 7, 8, 9, 10]),
    FormatCase("date >= %@", [.date(day(8))], [8, 9, 10]),
    FormatCase("date BETWEEN %@", [.array([.date(day(2)), .date(day(3))])], [2, 3]),
    FormatCase("date < now()", allIDs),
    FormatCase("date == CAST(700086400.0, 'NSDate')", [1]),
]

let stringCases: [FormatCase] = [
    FormatCase("name == \"Coffee\"", [1]),
    FormatCase("name == 'Coffee'", [1]),
    FormatCase("name == \"coffee\"", []),
    FormatCase("name ==[c] \"coffee\"", [1]),
    FormatCase("name =[c] 'COFFEE'", [1]),
    FormatCase("name ==[d] \"cafe\"", [2]),
    FormatCase("name ==[cd] \"CAFE\"", [2]),
    FormatCase("name ==[c] \"cafe\"", []),
    FormatCase("name !=[c] \"coffee\"", [2, 3, 4, 5, 6, 7, 8, 9, 10]),
    FormatCase("name BEGINSWITH \"Star\"", [3]),
    FormatCase("name BEGINSWITH \"star\"", []),
    FormatCase("name BEGINSWITH[c] \"star\"", [3]),
    FormatCase("name beginswith[c] 'ITEM'", [9, 10]),
    FormatCase("name ENDSWITH \"s\"", [3, 4]),
    FormatCase("name ENDSWITH[c] \"S\"", [3, 4]),
    FormatCase("name ENDSWITH \"e\"", [1]),
    FormatCase("name ENDSWITH[d] \"e\"", [1, 2, 7]),
    FormatCase("name CONTAINS \"ee\"", [1]),
    FormatCase("name CONTAINS[cd] \"bucks\"", [3]),
    FormatCase("name CONTAINS[cd] \"CAFE\"", [2]),
    FormatCase("name CONTAINS[cd] \"electric\"", [7]),
    FormatCase("name CONTAINS[c] \"electric\"", []),
    FormatCase("name CONTAINS[dc] \"ÉLECTRIC\"", [7]),
    FormatCase("name CONTAINS[n] \"ee\"", [1]),
    FormatCase("name CONTAINS \"'\"", [4]),
    FormatCase("name CONTAINS 'Joe\\'s'", [4]),
    FormatCase("name CONTAINS \"e\"", [1, 4, 5, 7, 9, 10]),
    FormatCase("notes CONTAINS[c] \"coffee\"", [1]),
    FormatCase("name LIKE \"C*\"", [1]),
    FormatCase("name LIKE \"c*\"", [2]),
    FormatCase("name LIKE[c] \"c*\"", [1, 2]),
    FormatCase("name LIKE \"?ber\"", [5]),
    FormatCase("name LIKE \"*e*\"", [1, 4, 5, 7, 9, 10]),
    FormatCase("name LIKE \"item??\"", [9]),
    FormatCase("name LIKE[c] \"item*\"", [9, 10]),
    FormatCase("name LIKE \"*\"", notEight),
    FormatCase("notes LIKE \"a\\\\*b\\\\?c\"", [10]),
    FormatCase("notes LIKE \"a*c\"", [10]),
    FormatCase("notes LIKE \"*%*\"", [9]),
    FormatCase("notes LIKE \"*_*\"", [9]),
    FormatCase("name LIKE[cd] \"*ELECTRIC*\"", [7]),
    FormatCase("name MATCHES \"^[0-9]+$\"", [6]),
    FormatCase("name MATCHES \"[0-9]+\"", [6]),
    FormatCase("name MATCHES \"[a-z]+[0-9]+\"", [9]),
    FormatCase("name MATCHES[c] \"[a-z]+[0-9]+\"", [9, 10]),
    FormatCase("name MATCHES \"Coff|Coffee\"", [1]),
    FormatCase("name MATCHES \".*é\"", [2, 7]),
    FormatCase("name MATCHES[d] \".*e\"", [1, 2, 7]),
    FormatCase("notes MATCHES \"Invoice \\\\d+\"", [6]),
    FormatCase("name MATCHES %@", [.string("^[0-9]+$")], [6]),
    FormatCase("\"Coffee\" IN name", [1]),
    FormatCase("\"off\" IN notes", [1, 9]),
    FormatCase("name == \"Trader Joe\\'s\"", [4]),
    FormatCase("name == 'Trader Joe\\'s'", [4]),
    FormatCase("name == \"Trader Joe's\"", [4]),
    FormatCase("name == '\\u00c9lectricit\\u00e9'", [7]),
    FormatCase("name == \"\\x55ber\"", [5]),
    FormatCase("name == \"\\125ber\"", [5]),
    FormatCase("notes == \"a*b?c\"", [10]),
    FormatCase("lowercase(name) == \"coffee\"", [1]),
    FormatCase("uppercase(name) BEGINSWITH \"ITEM\"", [9, 10]),
    FormatCase("name.length == 4", [2, 5]),
    FormatCase("name CONTAINS \"\"", notEight),
    FormatCase("name BEGINSWITH ''", notEight),
    FormatCase("name ENDSWITH[cd] ''", notEight),
    FormatCase("\"\" IN name", notEight),
    FormatCase("name LIKE ''", []),
]

let collectionCases: [FormatCase] = [
    FormatCase("categoryName IN {\"Food\", \"Transport\", \"Utilities\"}", [1, 2, 3, 5, 6, 7]),
    FormatCase("categoryName IN %@", [.array([.string("Food"), .string("Transport"), .string("Utilities")])], [1, 2, 3, 5, 6, 7]),
    FormatCase("NOT categoryName IN {\"Food\"}", [4, 5, 6, 7, 8, 9, 10]),
    FormatCase("categoryName IN[c] {\"food\", \"misc\"}", [1, 2, 3, 9, 10]),
    FormatCase("id IN {1, 3, 5.0}", [1, 3, 5]),
    FormatCase("categoryName IN {}", []),
    FormatCase("amount IN {23, 100}", [5, 6]),
    FormatCase("tags CONTAINS \"drink\"", [1, 2, 3]),
    FormatCase("tags CONTAINS[c] \"misc\"", [10]),
    FormatCase("\"bill\" IN tags", [6, 7]),
    FormatCase("ANY tags == \"work\"", [3, 7]),
    FormatCase("SOME tags == \"work\"", [3, 7]),
    FormatCase("ALL tags == \"drink\"", [2, 5, 8]),
    FormatCase("NONE tags == \"drink\"", [4, 5, 6, 7, 8, 9, 10]),
    FormatCase("NOT ANY tags == \"drink\"", [4, 5, 6, 7, 8, 9, 10]),
    FormatCase("ANY tags BEGINSWITH \"w\"", [3, 4, 7]),
    FormatCase("ANY tags IN {\"bill\", \"sale\"}", [6, 7, 9, 10]),
    FormatCase("tags.@count == 2", [1, 3, 7, 10]),
    FormatCase("tags.@count == 0", [5, 8]),
    FormatCase("tags.@count > 1", [1, 3, 7, 10]),
    FormatCase("tags[FIRST] == \"bill\"", [6, 7]),
    FormatCase("tags[LAST] == \"drink\"", [1, 2, 3]),
    FormatCase("tags[SIZE] == 1", [2, 4, 6, 9]),
    FormatCase("tags[0] == \"sale\"", [9, 10]),
    FormatCase("tags[1] == \"Misc\"", [10]),
    FormatCase("tags[5] == nil", allIDs),
    FormatCase("items.@count >= 2", [3, 4]),
    FormatCase("items.@sum.price > 20", [4, 6, 7]),
    FormatCase("items.@avg.price == 4.5", [1]),
    FormatCase("items.@max.qty == 3", [4, 10]),
    FormatCase("items.@min.price < 1", [9]),
    FormatCase("items.@sum.qty == 10", [9]),
    FormatCase("ANY items.name == \"latte\"", [1, 3]),
    FormatCase("ALL items.qty >= 1", allIDs),
    FormatCase("ALL items.qty > 1", [2, 5, 8, 9, 10]),
    FormatCase("ANY items.price > 50", [6, 7]),
    FormatCase("items.name CONTAINS \"power\"", [6, 7]),
    FormatCase("items[FIRST].name == \"latte\"", [1, 3]),
    FormatCase("items.@distinctUnionOfObjects.name CONTAINS \"latte\"", [1, 3]),
    FormatCase("SUBQUERY(items, $i, $i.qty > 1).@count > 0", [2, 3, 4, 9, 10]),
    FormatCase("SUBQUERY(items, $i, $i.qty > 1 AND $i.price > 4).@count >= 1", [3, 4]),
    FormatCase("SUBQUERY(items, $i, $i.name BEGINSWITH \"p\").@count == items.@count AND items.@count > 0", [6, 7, 9, 10]),
    FormatCase("SUBQUERY(tags, $t, $t == \"drink\")[SIZE] == 1", [1, 2, 3]),
    FormatCase("SUBQUERY(items, $x, $x.price > 100 / 10).@count >= 1", [4, 6, 7]),
    FormatCase("subquery(items, $x, price < 1).@count == 1", [9]),
    FormatCase("count(tags) == 2", [1, 3, 7, 10]),
    FormatCase("sum({amount, 1}) > 100", [6]),
    FormatCase("max({amount, 50}) == 50", [1, 2, 3, 5, 8, 9, 10]),
    FormatCase("min({amount, 5}) == amount", [1, 2, 8]),
    FormatCase("average({amount, amount}) == amount", allIDs),
    FormatCase("sum(items.price) > 50", [6, 7]),
    FormatCase("{1, 2, 3} CONTAINS id", [1, 2, 3]),
    FormatCase("id IN {1, 2, 3}[SIZE]", [3]),
]

let keyPathCases: [FormatCase] = [
    FormatCase("owner.name == \"Ann\"", [1, 2, 3, 4]),
    FormatCase("owner.address.city == \"Berlin\"", [5, 6, 7]),
    FormatCase("owner.address.city ==[cd] \"zurich\"", [9, 10]),
    FormatCase("owner == nil", [8]),
    FormatCase("owner.name == nil", [8]),
    FormatCase("SELF.name == \"Uber\"", [5]),
    FormatCase("self.name == \"Uber\"", [5]),
    FormatCase("#first == \"yes\"", [1]),
    FormatCase("owner[\"name\"] == \"Bob\"", [5, 6, 7]),
    FormatCase("%K == %@", [.string("name"), .string("Uber")], [5]),
    FormatCase("%K == %@", [.string("owner.name"), .string("Bob")], [5, 6, 7]),
    FormatCase("%K CONTAINS[cd] %@", [.string("name"), .string("BUCKS")], [3]),
    FormatCase("%@ == name", [.string("Uber")], [5]),
    FormatCase("%1$K == %2$@", [.string("name"), .string("Coffee")], [1]),
    FormatCase("%2$K == %1$@", [.string("Coffee"), .string("name")], [1]),
    FormatCase("amount > %d", [.int(50)], [4, 6, 7]),
    FormatCase("amount > %i", [.int(50)], [4, 6, 7]),
    FormatCase("amount > %ld", [.int(50)], [4, 6, 7]),
    FormatCase("amount > %lld", [.int(50)], [4, 6, 7]),
    FormatCase("amount > %u", [.int(50)], [4, 6, 7]),
    FormatCase("amount > %f", [.double(50)], [4, 6, 7]),
    FormatCase("amount > %lf", [.double(50)], [4, 6, 7]),
    FormatCase("amount > %f", [.int(50)], [4, 6, 7]),
    FormatCase("name == %s", [.string("Uber")], [5]),
    FormatCase("name == '%@'", [], []),
    FormatCase("name == \"%K\"", [], []),
    FormatCase("isBusiness == %@", [.bool(true)], [3, 5, 7]),
    FormatCase("name == %@", [.null], [8]),
    FormatCase("name == $NAME", variables: ["NAME": .string("Uber")], [5]),
    FormatCase("amount > $MIN AND amount < $MAX", variables: ["MIN": .int(5), "MAX": .double(13)], [3, 9, 10]),
    FormatCase("SUBQUERY(items, $i, $i.price > $P).@count > 0", variables: ["P": .int(20)], [4, 6, 7]),
]

let compoundCases: [FormatCase] = [
    FormatCase("amount > 10 AND isBusiness == YES", [3, 5, 7]),
    FormatCase("amount > 10 && isBusiness == YES", [3, 5, 7]),
    FormatCase("amount > 50 OR name == \"Uber\"", [4, 5, 6, 7]),
    FormatCase("amount > 50 || name == \"Uber\"", [4, 5, 6, 7]),
    FormatCase("NOT amount > 10", [1, 2, 8, 9, 10]),
    FormatCase("! (amount > 10)", [1, 2, 8, 9, 10]),
    FormatCase("!(amount > 10)", [1, 2, 8, 9, 10]),
    FormatCase("name == \"Uber\" OR name == \"Coffee\" AND isBusiness == YES", [5]),
    FormatCase("(name == \"Uber\" OR name == \"Coffee\") AND isBusiness == NO", [1]),
    FormatCase("NOT name == \"Uber\" AND isBusiness == YES", [3, 7]),
    FormatCase("NOT (name == \"Uber\" AND isBusiness == YES)", [1, 2, 3, 4, 6, 7, 8, 9, 10]),
    FormatCase("NOT NOT id == 1", [1]),
    FormatCase("TRUEPREDICATE", allIDs),
    FormatCase("FALSEPREDICATE", []),
    FormatCase("truepredicate", allIDs),
    FormatCase("TRUEPREDICATE AND amount < 1", [8]),
    FormatCase("FALSEPREDICATE OR id == 2", [2]),
    FormatCase("((amount > 10))", [3, 4, 5, 6, 7]),
    FormatCase("(amount + 0) > 10", [3, 4, 5, 6, 7]),
    FormatCase("((amount)) > 10", [3, 4, 5, 6, 7]),
    FormatCase("(amount > 10) AND (id < 5)", [3, 4]),
    FormatCase("amount > 10 and isBusiness == yes", [3, 5, 7]),
    FormatCase("ANY tags == \"drink\" AND NOT ANY tags == \"work\"", [1, 2]),
    FormatCase("name IN {\"Uber\", \"Coffee\"} OR (amount BETWEEN {50, 60})", [1, 5, 7]),
    FormatCase("ANY tags == \"work\" and amount > 50", [7]),
    FormatCase("any tags == \"work\"", [3, 7]),
    FormatCase("name in {\"Uber\"}", [5]),
    FormatCase("name beginswith \"Star\"", [3]),
    FormatCase("id < 3 OR id > 8 AND NOT isBusiness == YES OR id == 5", [1, 2, 5, 9, 10]),
    FormatCase("(id < 3 OR id > 8) AND NOT (isBusiness == YES OR id == 10)", [1, 2, 9]),
    FormatCase("abs(amount - 50) < 10", [7]),
    FormatCase("sqrt(amount) == 10", [6]),
    FormatCase("floor(amount) == 12", [3]),
    FormatCase("ceiling(amount) == 10", [10]),
    FormatCase("trunc(amount) == 86", [4]),
    FormatCase("SELF[\"name\"] ==[c] \"coffee\"", [1]),
    FormatCase("name [c] == \"coffee\"", [1]),
    FormatCase("name [d] == \"cafe\"", [2]),
    FormatCase("name\n==\t\"Uber\"", [5]),
]

@Suite("Format predicate table: each format's matches on the fixed dataset")
struct FormatPredicateTableTests {
    static let all = comparisonCases + stringCases + collectionCases + keyPathCases + compoundCases

    @Test func tableCoversAtLeast150Formats() {
        #expect(Self.all.count >= 150)
    }

    @Test(arguments: all)
    func matches(_ testCase: FormatCase) throws {
        let predicate = try FormatPredicate(testCase.format, arguments: testCase.arguments)
        let variables = testCase.variables.mapValues { Optional<Any>($0) }
        #expect(try matchingIDs(predicate, variables: variables) == testCase.expected)
    }

    @Test(arguments: all)
    func predicateFormatRoundTrips(_ testCase: FormatCase) throws {
        let predicate = try FormatPredicate(testCase.format, arguments: testCase.arguments)
        let reparsed = try FormatPredicate(predicate.predicateFormat)
        #expect(reparsed == predicate, "\(predicate.predicateFormat)")
        #expect(reparsed.predicateFormat == predicate.predicateFormat)
    }

    @Test(arguments: all)
    func nsPredicateAgrees(_ testCase: FormatCase) throws {
        let predicate = NSPredicate(format: testCase.format, argumentArray: testCase.arguments)
        #expect(predicate.formatError == nil)
        let bindings = testCase.variables.mapValues { $0 as Any }
        let ids = expenses().filter { predicate.evaluate(with: $0, substitutionVariables: bindings) }
            .compactMap { $0["id"] as? Int }
        #expect(ids == testCase.expected)
    }
}
