import CairnCoreData
import CairnTestSupport
import Foundation
import Testing

/// Random format predicates over the fixed dataset's keys: comparisons, string operators with
/// every option, quantifiers, aggregates, `IN`, `BETWEEN`, nil tests and key-to-key
/// comparisons, nested in `AND`, `OR` and `NOT`. Search strings mix case, precomposed and
/// decomposed accents, ligatures, wildcards and quotes.
enum FormatPredicateGenerator {
    static let stringKeys = ["name", "notes", "categoryName", "#first", "owner.name", "owner.address.city"]
    static let numberKeys = [
        "amount", "id", "amount + 1", "-amount", "amount * 2", "items.@count", "items.@sum.price",
        "items.@avg.qty", "items.@max.price", "items.@min.qty",
    ]
    static let texts = [
        "Coffee", "coffee", "café", "cafe", "CAFÉ", "Café", "cafe\u{301}", "É", "é", "e\u{301}", "Zürich", "zurich",
        "ZU\u{308}RICH", "", "a", "e", "E", "50%", "_", "%", "*", "?", "a*b?c", "[x]", "\\", "'", "12345", "123",
        "Item", "item1", "ß", "SS", "ss", "İ", "i", "ı", "Ǆ", "ǆ", "ﬁ", "fi", "Ö", "o\u{308}", "Morning", "off_sale",
        "Paris", "Ann", "Zoë", "Zoe\u{308}", "drink", "Food", "Misc", "bill", "Bob", "EDF", "Trader", "Joe's", "ctric",
    ]
    static let itemNames = ["latte", "LATTE", "pen", "pencil", "p*", "?en", "power", "wine", "", "e", "muffin"]
    static let numbers = ["0", "1", "3", "4.5", "9.99", "12.75", "23", "-1", "100", "55.5", "1e2", "0x0A", "2.5"]
    static let options = ["", "", "[c]", "[d]", "[cd]", "[n]"]
    static let stringOperators = ["==", "!=", "<", "<=", ">", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE"]
    static let orderings = ["==", "!=", "<", "<=", ">", ">="]

    static func pick<T>(_ values: [T], _ random: inout SeededRandom) -> T {
        values[Int(random.next() % UInt64(values.count))]
    }

    /// A double-quoted format string literal.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { result += "\\" }
            result.unicodeScalars.append(scalar)
        }
        return result + "\""
    }

    static func comparison(_ random: inout SeededRandom) -> String {
        let option = pick(options, &random)
        switch random.next() % 10 {
        case 0, 1, 2:
            return "\(pick(stringKeys, &random)) \(pick(stringOperators, &random))\(option) \(quoted(pick(texts, &random)))"
        case 3:
            return "\(pick(numberKeys, &random)) \(pick(orderings, &random)) \(pick(numbers, &random))"
        case 4:
            let quantifier = pick(["ANY", "ALL", "NONE", "SOME"], &random)
            return "\(quantifier) items.name \(pick(stringOperators, &random))\(option) \(quoted(pick(itemNames, &random)))"
        case 5:
            let quantifier = pick(["ANY", "ALL", "NONE"], &random)
            return "\(quantifier) items.\(pick(["qty", "price"], &random)) \(pick(orderings, &random)) \(pick(numbers, &random))"
        case 6:
            let list = (0..<Int(1 + random.next() % 3)).map { _ in quoted(pick(texts, &random)) }
            return "\(pick(stringKeys, &random)) IN\(option) {\(list.joined(separator: ", "))}"
        case 7:
            let bounds = "{\(pick(numbers, &random)), \(pick(numbers, &random))}"
            return "\(pick(numberKeys, &random)) BETWEEN \(bounds)"
        case 8:
            return random.next() % 2 == 0
                ? "\(pick(stringKeys, &random)) \(pick(["==", "!="], &random)) nil"
                : "\(quoted(pick(texts, &random))) IN\(option) \(pick(stringKeys, &random))"
        default:
            return "\(pick(stringKeys, &random)) \(pick(orderings, &random))\(option) \(pick(stringKeys, &random))"
        }
    }

    static func predicate(depth: Int, _ random: inout SeededRandom) -> String {
        switch depth == 0 ? 0 : random.next() % 8 {
        case 0...3: return comparison(&random)
        case 4, 5: return "(\(predicate(depth: depth - 1, &random)) AND \(predicate(depth: depth - 1, &random)))"
        case 6: return "(\(predicate(depth: depth - 1, &random)) OR \(predicate(depth: depth - 1, &random)))"
        default: return "NOT (\(predicate(depth: depth - 1, &random)))"
        }
    }
}

@Suite("Format predicate differential: a fetch's SQL and evaluate(with:) agree")
struct FormatDifferentialTests {
    /// Every generated predicate parses, evaluates in memory, compiles to SQL, and the SQL
    /// returns exactly the rows the in-memory evaluation matches.
    @Test(arguments: 0..<8)
    func generatedPredicates(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed) &* 104_729 &+ 17)
        let db = try expenseDatabase()
        var compared = 0
        var failures: [String] = []
        for _ in 0..<1_000 {
            let format = FormatPredicateGenerator.predicate(depth: 2, &random)
            do {
                let predicate = try FormatPredicate(format)
                let expected = try matchingIDs(predicate)
                let actual = try sqlIDs(db, predicate)
                compared += 1
                if actual != expected {
                    let sql = try predicate.sqlCondition(for: expenseEntity).render()
                    failures.append("\(format)\n  memory \(expected)\n  SQL    \(actual): \(sql.sql) \(sql.arguments)")
                }
            } catch {
                failures.append("\(format): \(error)")
            }
        }
        let report = failures.prefix(10).joined(separator: "\n")
        #expect(failures.isEmpty, "\(failures.count) of 1,000 differ or fail:\n\(report)")
        #expect(compared == 1_000)
    }

    /// `format` with `argument` as its `%@`, on a table with one text column and one row:
    /// whether `evaluate(with:)` matches the row, and whether the compiled SQL returns it.
    func answers(_ format: String, _ argument: String, on text: String) throws -> (memory: Bool, sql: Bool) {
        var configuration = Configuration()
        configuration.addCairnPredicateSupport()
        let db = try Database.inMemory(configuration: configuration)
        try db.execute(sql: "CREATE TABLE T (name TEXT)")
        try db.execute(sql: "INSERT INTO T VALUES (?)", arguments: [text])
        let predicate = try FormatPredicate(format, arguments: [argument])
        let condition = try predicate.sqlCondition(for: FormatSQLEntity(table: "T", attributes: ["name": "name"]))
        let rendered = try SQLSelect([.function("count", .value(.integer(1)))], from: .table("T")).where(condition).render()
        let counts = try db.fetchAll(sql: rendered.sql, arguments: StatementArguments(rendered.arguments)) {
            try $0.decode(Int.self, at: 0)
        }
        return (try predicate.evaluate(with: ["name": text] as [String: Any]), counts == [1])
    }

    @Test(arguments: [
        // Without options: Unicode scalars, literally.
        ("name == %@", "caf\u{E9}", "cafe\u{301}", false),
        ("name < %@", "caf\u{E9}", "cafe\u{301}", true),
        ("name BEGINSWITH %@", "cafe", "cafe\u{301}", true),
        ("name ENDSWITH %@", "\u{301}", "cafe\u{301}", true),
        ("name CONTAINS %@", "e", "caf\u{E9}", false),
        ("name LIKE %@", "caf?", "cafe\u{301}", false),
        ("name LIKE %@", "caf??", "cafe\u{301}", true),
        ("name LIKE %@", "*?\u{301}", "cafe\u{301}", true),
        ("%@ IN name", "cafe", "cafe\u{301}", true),
        // With [c] or [d]: folded and composed, so encodings do not matter.
        ("name ==[c] %@", "ZU\u{308}RICH", "Z\u{FC}rich", true),
        ("name BEGINSWITH[c] %@", "zu\u{308}", "Z\u{FC}rich", true),
        ("name CONTAINS[c] %@", "\u{FC}", "Zu\u{308}rich", true),
        ("name ENDSWITH[c] %@", "E\u{301}", "caf\u{E9}", true),
        ("name LIKE[c] %@", "z?rich", "Zu\u{308}rich", true),
        ("name >[c] %@", "zz", "Zu\u{308}rich", true),
        ("%@ IN[c] name", "\u{DC}R", "Zu\u{308}rich", true),
        ("name ==[d] %@", "cafe", "cafe\u{301}", true),
    ])
    func encodings(_ format: String, _ argument: String, _ text: String, _ expected: Bool) throws {
        let (memory, sql) = try answers(format, argument, on: text)
        #expect(memory == expected, "in memory")
        #expect(sql == expected, "in SQL")
    }

    /// Random lists of one to three sort descriptors (every selector, both directions, keys of
    /// text, numbers, dates, Bools and a to-one relationship): SQL's ORDER BY and the in-memory
    /// stable sort give the same order.
    @Test(arguments: 0..<4)
    func generatedSorts(seed: Int) throws {
        final class Expense {}
        var random = SeededRandom(seed: UInt64(seed) &* 7_919 &+ 3)
        let db = try expenseDatabase()
        let keys = ["name", "notes", "categoryName", "amount", "date", "isBusiness", "owner.name", "#first"]
        let selectors: [String?] = [
            nil, "compare:", "caseInsensitiveCompare:", "localizedCompare:", "localizedCaseInsensitiveCompare:",
            "localizedStandardCompare:",
        ]
        var failures: [String] = []
        for _ in 0..<300 {
            let descriptors = (0..<Int(1 + random.next() % 3)).map { _ in
                let key = FormatPredicateGenerator.pick(keys, &random).replacingOccurrences(of: "#", with: "")
                let selector = FormatPredicateGenerator.pick(selectors, &random)
                return NSSortDescriptor(key: key, ascending: random.next() % 2 == 0, selector: selector.map { Selector($0) })
            }
            let request = NSFetchRequest<Expense>(entityName: "Expense")
            request.sortDescriptors = descriptors
            let rendered = try request.sqlSelect(for: expenseEntity).render()
            let inSQL = try db.fetchAll(sql: rendered.sql, arguments: StatementArguments(rendered.arguments)) {
                try $0.decode(Int.self, column: "id")
            }
            let inMemory = try expenses().sortedArray(using: descriptors).compactMap { $0["id"] as? Int }
            if inSQL != inMemory {
                failures.append("\(descriptors.map(\.description))\n  memory \(inMemory)\n  SQL    \(inSQL)")
            }
        }
        let report = failures.prefix(10).joined(separator: "\n")
        #expect(failures.isEmpty, "\(failures.count) of 300 differ:\n\(report)")
    }

    @Test func compareSortsByScalarAsSQLiteBinaryDoes() throws {
        let names = ["caf\u{E9}", "cafe\u{301}", "cafe", "Cafe", "caf\u{E9}s"]
        let db = try Database.inMemory()
        try db.execute(sql: "CREATE TABLE T (name TEXT)")
        for name in names { try db.execute(sql: "INSERT INTO T VALUES (?)", arguments: [name]) }
        let inSQL = try db.fetchAll(sql: "SELECT name FROM T ORDER BY name") { try $0.decode(String.self, at: 0) }
        let inMemory = names.sorted { FormatStringComparison.compare.compare($0, $1) == .orderedAscending }
        #expect(inMemory.map { Array($0.unicodeScalars) } == inSQL.map { Array($0.unicodeScalars) })
        #expect(inMemory.map { Array($0.unicodeScalars) } == [
            Array("Cafe".unicodeScalars), Array("cafe".unicodeScalars), Array("cafe\u{301}".unicodeScalars),
            Array("caf\u{E9}".unicodeScalars), Array("caf\u{E9}s".unicodeScalars),
        ])
    }
}

@Suite("Format requests answer the same with unsaved changes (in memory) and after save (in SQL)")
struct FormatPendingDifferentialTests {
    static let keys = ["name", "notes", "categoryName", "first", "amount", "ref", "isBusiness", "date"]
    static let stringKeys = ["name", "notes", "categoryName", "#first"]

    static func comparison(_ random: inout SeededRandom) -> String {
        typealias G = FormatPredicateGenerator
        let option = G.pick(G.options, &random)
        switch random.next() % 6 {
        case 0, 1, 2:
            return "\(G.pick(stringKeys, &random)) \(G.pick(G.stringOperators, &random))\(option) \(G.quoted(G.pick(G.texts, &random)))"
        case 3:
            return "\(G.pick(["amount", "ref", "amount * 2"], &random)) \(G.pick(G.orderings, &random)) \(G.pick(G.numbers, &random))"
        case 4:
            return "\(G.pick(stringKeys, &random)) \(G.pick(["==", "!="], &random)) nil"
        default:
            return "isBusiness == \(G.pick(["YES", "NO"], &random))"
        }
    }

    static func predicate(depth: Int, _ random: inout SeededRandom) -> String {
        switch depth == 0 ? 0 : random.next() % 6 {
        case 0...2: return comparison(&random)
        case 3: return "(\(predicate(depth: depth - 1, &random)) AND \(predicate(depth: depth - 1, &random)))"
        case 4: return "(\(predicate(depth: depth - 1, &random)) OR \(predicate(depth: depth - 1, &random)))"
        default: return "NOT (\(predicate(depth: depth - 1, &random)))"
        }
    }

    /// Saved rows, some edited and one deleted without saving, and new unsaved rows, with text
    /// in both normal forms. With unsaved changes a fetch runs in memory (`evaluate(with:)` and
    /// the in-memory sort); after `save()` the same request runs in SQL. Both must return the
    /// same objects in the same order, so saving never changes what a request answers.
    @Test(arguments: 0..<4)
    func sameAnswersBeforeAndAfterSave(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed) &* 31 &+ 5)
        let (_, context) = try storedExpenses()
        let saved = try context.fetch(StoredExpense.fetchRequest())
        saved[1].name = "cafe\u{301}"
        saved[2].categoryName = "FOOD"
        saved[6].notes = "e\u{301}dition ZU\u{308}RICH"
        context.delete(saved[3])
        context.insert(StoredExpense(row: ["id": 11, "name": "Caf\u{E9}", "amount": 4.5, "categoryName": "Food", "notes": "zu\u{308}rich"]))
        context.insert(StoredExpense(row: ["id": 12, "amount": 23, "isBusiness": true, "first": "o\u{308}"]))
        context.insert(StoredExpense(row: ["id": 13, "name": "item9", "amount": 100.0, "notes": "50% off_sale"]))
        let selectors: [String?] = [nil, "caseInsensitiveCompare:", "localizedStandardCompare:"]
        let requests = (0..<250).map { _ in
            let request = StoredExpense.fetchRequest()
            request.predicate = NSPredicate(format: Self.predicate(depth: 2, &random))
            request.sortDescriptors = (0..<Int(random.next() % 3)).map { _ in
                NSSortDescriptor(
                    key: FormatPredicateGenerator.pick(Self.keys, &random), ascending: random.next() % 2 == 0,
                    selector: FormatPredicateGenerator.pick(selectors, &random).map { Selector($0) })
            }
            return request
        }
        let inMemory = try requests.map { try context.fetch($0).map(\.ref) }
        try context.save()
        #expect(try context.fetch(StoredExpense.fetchRequest()).count == 12)
        var failures: [String] = []
        var matched = 0
        for (request, before) in zip(requests, inMemory) {
            let after = try context.fetch(request).map(\.ref)
            if !after.isEmpty { matched += 1 }
            if after != before {
                let format = request.predicate.map { printed($0) } ?? ""
                failures.append("\(format) \((request.sortDescriptors ?? []).map(\.description))\n  unsaved \(before)\n  saved   \(after)")
            }
        }
        let report = failures.prefix(10).joined(separator: "\n")
        #expect(failures.isEmpty, "\(failures.count) of 250 differ:\n\(report)")
        #expect(matched > 50, "only \(matched) requests matched any row")
    }
}
