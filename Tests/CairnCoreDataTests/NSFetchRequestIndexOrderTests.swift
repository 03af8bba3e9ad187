@testable import Cairn
import CairnCoreData
import CairnTestSupport
import Foundation
import Testing

/// A request with a limit whose last sort descriptor is descending is read in the order of an
/// index on that key (ties by `"id" DESC`) when no rows tie, and with the primary-key ascending
/// tie-break when they do; either way the rows are those of the same request without a page,
/// cut to the page.
@Suite("NSFetchRequest pages read in index order")
struct NSFetchRequestIndexOrderTests {
    static let orderedByID = #""StoredExpense"."id" ASC"#

    /// Expenses with these amounts, inserted in a shuffled order (so stored order is not key
    /// order), an index on `amount`, a fresh context and the log of the statements it runs.
    func expenses(_ amounts: [Double], seed: UInt64, names: [String]? = nil) throws -> (ModelContext, StatementLog) {
        let container = try ModelContainer(
            for: Schema([StoredExpense.self]), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        try container.write(for: StoredExpense.self) { db in
            try db.execute(sql: #"CREATE INDEX "StoredExpense_amount" ON "StoredExpense" ("amount")"#)
        }
        var random = SeededRandom(seed: seed)
        let writer = ModelContext(container)
        for (index, amount) in amounts.shuffled(using: &random).enumerated() {
            writer.insert(StoredExpense(row: [
                "id": index + 1, "amount": amount, "name": names.map { $0[index % $0.count] } ?? "e\(index)",
                "isBusiness": index % 3 == 0,
            ]))
        }
        try writer.save()
        let log = StatementLog()
        try container.read(for: StoredExpense.self) { db in db.add { log.sql.append($0.sql) } }
        log.sql = []
        return (ModelContext(container), log)
    }

    func request(_ sorts: [NSSortDescriptor], limit: Int, offset: Int = 0) -> NSFetchRequest<StoredExpense> {
        let request = StoredExpense.fetchRequest()
        request.sortDescriptors = sorts
        request.fetchLimit = limit
        request.fetchOffset = offset
        return request
    }

    /// The page as the request without a page gives it (that read keeps `"id" ASC`).
    func expected(_ request: NSFetchRequest<StoredExpense>, in context: ModelContext) throws -> [Int] {
        let all = StoredExpense.fetchRequest()
        all.sortDescriptors = request.sortDescriptors
        all.predicate = request.predicate
        let refs = try context.fetch(all).map(\.ref)
        return Array(refs.dropFirst(request.fetchOffset).prefix(request.fetchLimit))
    }

    @Test("distinct keys: one SELECT that reads the index backwards; the rows beside the page stay unregistered")
    func distinctKeysReadTheIndex() throws {
        try TiedShapes.$current.withValue(TiedShapes()) {
            let (context, log) = try expenses((0..<40).map { Double($0) * 1.5 }, seed: 1)
            let page = request([NSSortDescriptor(key: "amount", ascending: false)], limit: 5, offset: 2)
            let fetched = try context.fetch(page)
            #expect(log.sql.count == 1)
            #expect(log.sql.first?.hasSuffix(
                #"ORDER BY "StoredExpense"."amount" DESC, "StoredExpense"."id" DESC LIMIT ? OFFSET ?"#) == true)
            #expect(context.tracked.count == 5)
            // Amounts 58.5 down to 0: offset 2, five rows.
            #expect(fetched.map(\.amount) == [55.5, 54, 52.5, 51, 49.5])
            #expect(fetched.map(\.ref) == (try expected(page, in: context)))
            let plan = try context.container.store(for: "StoredExpense").read { connection in
                try connection.rows(PreparedStatement(rendered: RenderedSQL(
                    sql: "EXPLAIN QUERY PLAN " + (log.sql.first ?? ""), arguments: [.integer(7), .integer(1)])))
            }
            #expect(plan.contains { $0.last == .text("SCAN StoredExpense USING INDEX StoredExpense_amount") })
            #expect(!plan.contains { $0.last.map { "\($0)".contains("TEMP B-TREE") } ?? false })
        }
    }

    /// A limit is an upper bound: one far beyond the table reads it in index order like any
    /// other, without sizing anything by the limit.
    @Test("a limit of 2^40 rows pages in index order and returns the 12 there are")
    func hugeLimit() throws {
        try TiedShapes.$current.withValue(TiedShapes()) {
            let (context, log) = try expenses((0..<12).map { Double($0) }, seed: 3)
            let page = request([NSSortDescriptor(key: "amount", ascending: false)], limit: 1 << 40, offset: 1)
            let fetched = try context.fetch(page)
            #expect(log.sql.count == 1)
            #expect(fetched.map(\.amount) == (0..<11).reversed().map(Double.init))
            #expect(fetched.map(\.ref) == (try expected(page, in: context)))
        }
    }

    @Test("keys that tie in, before or after the page: the id-ascending order, then the ordinary read for that shape",
          arguments: [(0, 3), (1, 3), (2, 2), (3, 4), (5, 1), (0, 40)])
    func tiesFallBack(offset: Int, limit: Int) throws {
        try TiedShapes.$current.withValue(TiedShapes()) {
            // Groups of three equal amounts.
            let (context, log) = try expenses((0..<24).map { Double($0 / 3) }, seed: UInt64(offset * 100 + limit))
            let page = request([NSSortDescriptor(key: "amount", ascending: false)], limit: limit, offset: offset)
            let first = try context.fetch(page).map(\.ref)
            #expect(log.sql.count == 2)
            #expect(log.sql.last?.contains(Self.orderedByID) == true)
            log.sql = []
            let second = try context.fetch(page).map(\.ref)
            #expect(log.sql.count == 1 && log.sql.first?.contains(Self.orderedByID) == true)
            #expect(first == second)
            #expect(first == (try expected(page, in: context)))
        }
    }

    @Test("generated keys, sorts, predicates and pages: the rows of the unpaged request; both reads are taken")
    func differential() throws {
        var random = SeededRandom(seed: 0xC0DE)
        var indexReads = 0
        var fallbacks = 0
        for round in 0..<40 {
            let distinct = [200, 30, 8, 3][round % 4]
            let amounts = (0..<30).map { _ in Double(random.next() % UInt64(distinct)) }
            // Names that are equal by Swift's == but not byte for byte (é precomposed and not).
            let names = round % 3 == 0 ? ["é", "e\u{301}", "E", "e"] : nil
            let (context, log) = try expenses(amounts, seed: random.next(), names: names)
            for _ in 0..<8 {
                var sorts = [NSSortDescriptor(key: "amount", ascending: false)]
                if random.next() % 3 == 0 { sorts.insert(NSSortDescriptor(key: "isBusiness", ascending: true), at: 0) }
                if random.next() % 4 == 0 { sorts.insert(NSSortDescriptor(key: "name", ascending: false), at: 0) }
                let page = request(sorts, limit: Int(1 + random.next() % 12), offset: Int(random.next() % 12))
                if random.next() % 2 == 0 { page.predicate = NSPredicate(format: "amount >= %f", 2.0) }
                try TiedShapes.$current.withValue(TiedShapes()) {
                    log.sql = []
                    let fetched = try context.fetch(page).map(\.ref)
                    if log.sql.count == 1 { indexReads += 1 } else { fallbacks += 1 }
                    #expect(fetched == (try expected(page, in: context)), "\(sorts) \(page.fetchOffset) \(page.fetchLimit)")
                }
            }
        }
        #expect(indexReads > 40 && fallbacks > 40)
    }

    @Test("other requests keep the id-ascending tie-break: an ascending last key, no limit, a collated string key")
    func otherRequestsAreUnchanged() throws {
        try TiedShapes.$current.withValue(TiedShapes()) {
            let (context, log) = try expenses((0..<10).map { Double($0) }, seed: 3)
            let requests = [
                request([NSSortDescriptor(key: "amount", ascending: true)], limit: 3),
                request([NSSortDescriptor(key: "amount", ascending: false)], limit: 0),
                request([NSSortDescriptor(key: "name", ascending: false, selector: Selector("localizedStandardCompare:"))],
                        limit: 3),
            ]
            for page in requests {
                log.sql = []
                let fetched = try context.fetch(page).map(\.ref)
                #expect(log.sql.count == 1)
                #expect(log.sql.first?.contains(Self.orderedByID) == true)
                if page.fetchLimit > 0 { #expect(fetched == (try expected(page, in: context))) }
            }
        }
    }
}
