@testable import Cairn
@testable import CairnCoreData
import Foundation
import Testing

/// A fetch request's `SELECT` is compiled once per shape and kept in the cache `FetchDescriptor`
/// shapes use; each fetch binds its own values.
@Suite("NSFetchRequest SQL compiled once per shape")
struct NSFetchRequestShapeTests {
    /// The saved expenses, a fresh context, and the log of the statements its store runs.
    func expenses() throws -> (ModelContext, StatementLog) {
        let (container, context) = try storedExpenses()
        let log = StatementLog()
        try container.read(for: StoredExpense.self) { db in db.add { log.sql.append($0.sql) } }
        log.sql = []
        return (context, log)
    }

    func request(_ predicate: NSPredicate?, sortedBy sorts: [NSSortDescriptor] = [], limit: Int = 0, offset: Int = 0)
        -> NSFetchRequest<StoredExpense>
    {
        let request = StoredExpense.fetchRequest()
        request.predicate = predicate
        request.sortDescriptors = sorts
        request.fetchLimit = limit
        request.fetchOffset = offset
        return request
    }

    /// The refs `predicate` picks out of `expenses` in memory (`evaluate(with:)`).
    func evaluated(_ predicate: NSPredicate, in expenses: [StoredExpense]) -> [Int] {
        expenses.filter { predicate.evaluate(with: $0) }.map(\.ref)
    }

    @Test("a lookup by key in a loop compiles one SELECT; each key binds its value and gets its row")
    func lookupsShareOneShape() throws {
        let (context, log) = try expenses()
        let cache = QueryCache()
        try QueryCache.$current.withValue(cache) { () throws in
            for key in allIDs {
                let lookup = request(NSPredicate(format: "ref == %d", key), limit: 1)
                #expect(try context.fetch(lookup).map(\.ref) == [key])
            }
            #expect(cache.compileCount == 1)
        }
        let columns = #""id", "ref", "name", "amount", "categoryName", "isBusiness", "notes", "date", "first""#
        #expect(Set(log.sql) == [
            #"SELECT \#(columns) FROM "StoredExpense" WHERE "StoredExpense"."ref" = ? ORDER BY "StoredExpense"."id" ASC LIMIT ?"#
        ])
        #expect(log.sql.count == allIDs.count)
    }

    @Test("values of one kind or another share a shape; nil, patterns and folded strings key their own SQL")
    func whatDecidesTheSQLStaysInTheShape() throws {
        let (context, _) = try expenses()
        let everything: [StoredExpense] = try context.fetch(StoredExpense.fetchRequest())
        let cache = QueryCache()
        try QueryCache.$current.withValue(cache) { () throws in
            let shared = [
                NSPredicate(format: "amount > %d", 50), NSPredicate(format: "amount > %f", 4.5),
                NSPredicate(format: "amount > %lld", Int64(20)), NSPredicate(format: "amount > %@", 2.25),
            ]
            for predicate in shared {
                #expect(try context.fetch(request(predicate)).map(\.ref) == evaluated(predicate, in: everything))
            }
            #expect(cache.compileCount == 1)

            let own = [
                NSPredicate(format: "name == %@", "Coffee"), NSPredicate(format: "name == %@", NSNull()),
                NSPredicate(format: "name != %@", NSNull()), NSPredicate(format: "name CONTAINS[c] %@", "co"),
                NSPredicate(format: "name CONTAINS[c] %@", "EE"), NSPredicate(format: "name ==[c] %@", "coffee"),
                NSPredicate(format: "name IN %@", ["Coffee", "Lunch"]), NSPredicate(format: "name IN %@", ["Taxi"]),
            ]
            for predicate in own {
                #expect(try context.fetch(request(predicate)).map(\.ref) == evaluated(predicate, in: everything),
                        "\(predicate.formatPredicate.predicateFormat)")
            }
            // `name == "Coffee"` is a shape of its own (a bound value); every other one is too.
            #expect(cache.compileCount == 1 + own.count)
        }
    }

    @Test("limits and offsets are bound: one shape serves every page of a sort")
    func pagesShareAShape() throws {
        let (context, _) = try expenses()
        let byAmount = [NSSortDescriptor(key: "amount", ascending: true)]
        let all = try context.fetch(request(nil, sortedBy: byAmount)).map(\.ref)
        let cache = QueryCache()
        try QueryCache.$current.withValue(cache) { () throws in
            for (limit, offset) in [(2, 1), (3, 4), (1, 9), (5, 7)] {
                let page = try context.fetch(request(nil, sortedBy: byAmount, limit: limit, offset: offset)).map(\.ref)
                #expect(page == Array(all.dropFirst(offset).prefix(limit)))
            }
            #expect(cache.compileCount == 1)
        }
    }

    @Test("a predicate that calls now() is compiled at each fetch, not kept")
    func nowIsNotKept() throws {
        let (context, _) = try expenses()
        let everything: [StoredExpense] = try context.fetch(StoredExpense.fetchRequest())
        let predicate = NSPredicate(format: "date < now()")
        let cache = QueryCache()
        try QueryCache.$current.withValue(cache) { () throws in
            for _ in 0..<2 {
                #expect(try context.fetch(request(predicate)).map(\.ref) == evaluated(predicate, in: everything))
            }
            #expect(cache.compileCount == 0)
        }
    }

    @Test("a shape that does not compile throws the request's own error, every time")
    func errorsNameTheRequestsPredicate() throws {
        let (context, _) = try expenses()
        for key in [1, 2] {
            #expect {
                try context.fetch(request(NSPredicate(format: "nokey == %d", key)))
            } throws: { error in
                guard let error = error as? FormatPredicateError else { return false }
                return error.code == .unknownKey && error.message.contains("no key 'nokey'")
            }
        }
    }
}
