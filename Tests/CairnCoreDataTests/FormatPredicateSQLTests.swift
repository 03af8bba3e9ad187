import CairnCoreData
import Testing

// The fixed dataset as tables: Expense → Owner → Address (to-one), Expense ← Item (to-many).
let addressEntity = FormatSQLEntity(table: "Address", attributes: ["city": "city"])
let ownerEntity = FormatSQLEntity(
    table: "Owner", attributes: ["name": "name"],
    relationships: ["address": .toOne(foreignKey: "address") { addressEntity }])
let itemEntity = FormatSQLEntity(table: "Item", attributes: ["name": "name", "qty": "qty", "price": "price"])
let expenseEntity = FormatSQLEntity(
    table: "Expense",
    attributes: [
        "id": "id", "name": "name", "amount": "amount", "categoryName": "categoryName",
        "isBusiness": "isBusiness", "notes": "notes", "date": "date", "first": "first",
    ],
    relationships: [
        "owner": .toOne(foreignKey: "owner") { ownerEntity },
        "items": .toMany(foreignKey: "expense") { itemEntity },
    ])

/// An in-memory database with Cairn's functions and collations, holding `expenses()`.
func expenseDatabase() throws -> Database {
    var configuration = Configuration()
    configuration.addCairnPredicateSupport()
    let db = try Database.inMemory(configuration: configuration)
    try db.execute(sql: """
        CREATE TABLE Address (id INTEGER PRIMARY KEY, city TEXT);
        CREATE TABLE Owner (id INTEGER PRIMARY KEY, name TEXT, address INTEGER REFERENCES Address(id));
        CREATE TABLE Expense (id INTEGER PRIMARY KEY, name TEXT, amount REAL, categoryName TEXT,
            isBusiness INTEGER, notes TEXT, date REAL, first TEXT, owner INTEGER REFERENCES Owner(id));
        CREATE INDEX Expense_name ON Expense(name);
        CREATE TABLE Item (id INTEGER PRIMARY KEY, expense INTEGER REFERENCES Expense(id), name TEXT,
            qty INTEGER, price REAL);
        INSERT INTO Address VALUES (1, 'Paris'), (2, 'Berlin'), (3, 'Zürich');
        INSERT INTO Owner VALUES (1, 'Ann', 1), (2, 'Bob', 2), (3, 'Zoë', 3);
        """)
    for row in expenses() {
        let id = row["id"] as? Int ?? 0
        let owner: Int? = switch id {
        case 1...4: 1
        case 5...7: 2
        case 9, 10: 3
        default: nil
        }
        let values: [(any DatabaseValueConvertible)?] = [
            id, row["name"] as? String, (row["amount"] as? Double) ?? (row["amount"] as? Int).map(Double.init),
            row["categoryName"] as? String, (row["isBusiness"] as? Bool) == true ? 1 : 0, row["notes"] as? String,
            (row["date"] as? Date)?.timeIntervalSinceReferenceDate, row["first"] as? String, owner,
        ]
        try db.execute(sql: "INSERT INTO Expense VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", arguments: StatementArguments(values))
        for item in row["items"] as? [[String: Any]] ?? [] {
            try db.execute(
                sql: "INSERT INTO Item (expense, name, qty, price) VALUES (?, ?, ?, ?)",
                arguments: [id, item["name"] as? String, item["qty"] as? Int, item["price"] as? Double])
        }
    }
    return db
}

func sqlIDs(_ db: Database, _ predicate: FormatPredicate) throws -> [Int] {
    let condition = try predicate.sqlCondition(for: expenseEntity)
    let select = SQLSelect([.column("id", table: "Expense")], from: .table("Expense"))
        .where(condition).orderBy(SQLExpression.column("id", table: "Expense").ascending())
    let rendered = try select.render()
    return try db.fetchAll(sql: rendered.sql, arguments: StatementArguments(rendered.arguments)) { try $0.decode(Int.self, at: 0) }
}

@Suite("Format predicates compiled to SQL: same answers as in memory, SQL as expected")
struct FormatPredicateSQLTests {
    /// Every table case either compiles and returns exactly the in-memory answer from SQLite,
    /// or is refused with a named reason (a key the tables do not have, such as `tags`, or a
    /// construct evaluated in memory only).
    @Test func tableCasesGiveTheSameAnswersInSQL() throws {
        let db = try expenseDatabase()
        var compiled = 0
        var refused: [String] = []
        for testCase in FormatPredicateTableTests.all {
            let parsed = try FormatPredicate(testCase.format, arguments: testCase.arguments)
            let predicate = try parsed.substituting(testCase.variables.mapValues { Optional<Any>($0) })
            do {
                let ids = try sqlIDs(db, predicate)
                compiled += 1
                #expect(ids == testCase.expected, "\(testCase.format)  SQL: \((try? predicate.sqlCondition(for: expenseEntity).render().sql) ?? "")")
            } catch let error as FormatPredicateError where error.code == .unknownKey {
                // The tables have no `tags` column (an array attribute is not a relationship).
                #expect(testCase.format.contains("tags") || testCase.format.contains("missingKey"), "\(error)")
            } catch let error as FormatPredicateError where error.code == .unsupported {
                refused.append(testCase.format + " — " + error.message)
            }
        }
        let refusedList = refused.joined(separator: "\n")
        #expect(compiled >= 150, "only \(compiled) compiled; refused:\n\(refusedList)")
        #expect(refused.allSatisfy { $0.contains("in memory only") }, "\(refusedList)")
    }

    @Test(arguments: [
        ("amount > 50", #""Expense"."amount" > ?"#, [DatabaseValue.integer(50)]),
        ("name == 'Coffee'", #""Expense"."name" = ?"#, [.text("Coffee")]),
        ("name != nil", #"NOT "Expense"."name" IS NULL"#, []),
        ("name ==[cd] 'Café'", #"cairn_fold("Expense"."name", ?) = ?"#, [.integer(3), .text("cafe")]),
        ("name BEGINSWITH 'Star'", #""Expense"."name" >= ? AND "Expense"."name" < ?"#, [.text("Star"), .text("Stas")]),
        ("name BEGINSWITH[c] 'St*r'", #"cairn_fold("Expense"."name", ?) GLOB ?"#, [.integer(1), .text("st[*]r*")]),
        ("notes LIKE '50%_*'", #""Expense"."notes" GLOB ?"#, [.text("50%_*")]),
        ("notes CONTAINS '[x]'", #""Expense"."notes" GLOB ?"#, [.text("*[[]x]*")]),
        // Patterns are read by Unicode scalar, in memory as in SQL: CONTAINS has no wildcards,
        // and in LIKE a `?` followed by a combining mark is still the one-scalar wildcard.
        ("notes CONTAINS '*\u{301}'", #""Expense"."notes" GLOB ?"#, [.text("*[*]\u{301}*")]),
        ("notes LIKE '?\u{301}*'", #""Expense"."notes" GLOB ?"#, [.text("?\u{301}*")]),
        ("name MATCHES '^[0-9]+$'", #"cairn_regexp(?, "Expense"."name", ?)"#, [.text("^[0-9]+$"), .integer(0)]),
        ("NOT amount < 5", #"NOT coalesce("Expense"."amount" < ?, 0)"#, [.integer(5)]),
        ("categoryName IN {'Food', 'Misc'}", #""Expense"."categoryName" IN (?, ?)"#, [.text("Food"), .text("Misc")]),
        ("amount BETWEEN {1, 2}", #""Expense"."amount" BETWEEN ? AND ?"#, [.integer(1), .integer(2)]),
        ("owner.address.city == 'Paris'",
         #"(SELECT (SELECT "sub2"."city" FROM "Address" AS "sub2" WHERE "sub2"."id" = "sub1"."address") FROM "Owner" AS "sub1" WHERE "sub1"."id" = "Expense"."owner") = ?"#,
         [.text("Paris")]),
        ("ANY items.qty > 1",
         #"EXISTS (SELECT ? FROM "Item" AS "sub1" WHERE "sub1"."expense" = "Expense"."id" AND "sub1"."qty" > ?)"#,
         [.integer(1), .integer(1)]),
        ("ALL items.qty > 1",
         #"NOT EXISTS (SELECT ? FROM "Item" AS "sub1" WHERE "sub1"."expense" = "Expense"."id" AND NOT coalesce("sub1"."qty" > ?, 0))"#,
         [.integer(1), .integer(1)]),
        ("items.@sum.price > 20",
         #"(SELECT coalesce(SUM("sub1"."price"), ?) FROM "Item" AS "sub1" WHERE "sub1"."expense" = "Expense"."id") > ?"#,
         [.integer(0), .integer(20)]),
        ("SUBQUERY(items, $i, $i.qty > 1).@count > 0",
         #"(SELECT COUNT(*) FROM "Item" AS "sub1" WHERE "sub1"."expense" = "Expense"."id" AND "sub1"."qty" > ?) > ?"#,
         [.integer(1), .integer(0)]),
        ("amount / 2 == 50", #"CAST("Expense"."amount" AS REAL) / ? = ?"#, [.integer(2), .integer(50)]),
        ("average({amount, 4}) > 3",
         #"((SELECT AVG(cairn_value) FROM (SELECT ("Expense"."amount") AS cairn_value UNION ALL SELECT (?)) AS cairn_values)) > ?"#,
         [.integer(4), .integer(3)]),
        ("TRUEPREDICATE", "1", []),
    ] as [(String, String, [DatabaseValue])])
    func sqlSnapshots(_ format: String, _ sql: String, _ arguments: [DatabaseValue]) throws {
        let rendered = try FormatPredicate(format).sqlCondition(for: expenseEntity).render()
        #expect(rendered.sql == sql)
        #expect(rendered.arguments == arguments)
    }

    @Test func injectionThroughArgumentsStaysBound() throws {
        let hostile = "x' OR 1=1; DROP TABLE Expense; --"
        let rendered = try FormatPredicate("name == %@", arguments: [hostile]).sqlCondition(for: expenseEntity).render()
        #expect(rendered.sql == #""Expense"."name" = ?"#)
        #expect(rendered.arguments == [.text(hostile)])
        let db = try expenseDatabase()
        #expect(try sqlIDs(db, try FormatPredicate("name == %@", arguments: [hostile])).isEmpty)
        #expect(try sqlIDs(db, try FormatPredicate("name == %@", arguments: ["Trader Joe's"])) == [4])
        #expect(try db.fetchCount(sql: "SELECT * FROM Expense") == 10)
    }

    @Test func unknownKeysAreErrorsListingTheValidOnes() {
        for (format, arguments) in [("nmae == 'x'", [Any?]()), ("%K == 1", ["amount; DROP TABLE Expense"]), ("owner.nmae == 1", []),
                                    ("ANY items.cost > 1", [])] {
            #expect {
                try FormatPredicate(format, arguments: arguments).sqlCondition(for: expenseEntity)
            } throws: { error in
                guard let error = error as? FormatPredicateError else { return false }
                return error.code == .unknownKey && error.message.contains("valid keys:")
            }
        }
        #expect {
            try FormatPredicate("nmae == 'x'").sqlCondition(for: expenseEntity)
        } throws: { error in
            "\(error)" == "Expense has no key 'nmae'; valid keys: amount, categoryName, date, first, id, isBusiness, items, name, notes, owner"
        }
    }

    @Test func constructsSQLCannotExpressAreNamedErrors() {
        for format in ["tags[0] == 'x'", "FUNCTION(name, 'x') == 1", "median({amount, 1}) == 1", "$V == 1", "items == nil"] {
            #expect(throws: FormatPredicateError.self, "\(format)") {
                try FormatPredicate(format).sqlCondition(for: expenseEntity)
            }
        }
    }

    @Test func prefixRangeUpperBound() throws {
        #expect(try FormatSQLCompilerProbe.range("ab") == #""n" >= ? AND "n" < ?"#)
        #expect(try FormatPredicate("n BEGINSWITH ''").sqlCondition(for: FormatSQLEntity(table: "t", attributes: ["n": "n"]))
            .render().sql == #""t"."n" >= ?"#)
    }

    @Test func sortDescriptorsOrderRowsAsInMemory() throws {
        let db = try expenseDatabase()
        for comparison in FormatStringComparison.allCases {
            for ascending in [true, false] {
                let descriptor = FormatSortDescriptor(key: "name", ascending: ascending, comparison: comparison)
                let term = try descriptor.sqlOrderingTerm(for: expenseEntity)
                let select = SQLSelect([.column("id", table: "Expense")], from: .table("Expense"))
                    .orderBy(term, SQLExpression.column("id", table: "Expense").ascending())
                let rendered = try select.render()
                let sqlOrder = try db.fetchAll(sql: rendered.sql, arguments: StatementArguments(rendered.arguments)) {
                    try $0.decode(Int.self, at: 0)
                }
                let memoryOrder = try FormatSortDescriptor.sort(expenses(), by: [descriptor]).compactMap { $0["id"] as? Int }
                #expect(sqlOrder == memoryOrder, "\(comparison) ascending: \(ascending) — \(rendered.sql)")
            }
        }
        let natural = FormatSortDescriptor(key: "owner.address.city", ascending: false, comparison: .localizedStandardCompare)
        let sql = try SQLSelect(from: "Expense").orderBy(natural.sqlOrderingTerm(for: expenseEntity)).render().sql
        #expect(sql.hasSuffix(#"COLLATE cairn_localized_standard DESC"#))
    }
}

/// Renders the prefix range on a bare column.
enum FormatSQLCompilerProbe {
    static func range(_ prefix: String) throws -> String {
        let entity = FormatSQLEntity(table: "t", attributes: ["n": "n"])
        return try FormatPredicate("n BEGINSWITH %@", arguments: [prefix]).sqlCondition(for: entity, tableAlias: "x")
            .render().sql.replacingOccurrences(of: #""x"."#, with: "")
    }
}
