import Cairn
import Testing

@Table("ledgers")
struct Ledger: Equatable {
    let id: UInt64
    var total: UInt64
}

/// SQLite's integers are 64-bit signed. A `UInt64` up to `Int64.max` is stored as an integer,
/// as StructuredQueries stores it; a larger one cannot be bound, and a statement that holds one
/// throws, naming the value, instead of comparing with NULL (which would answer `<`, `!=` and
/// `IS NOT` wrongly).
@Suite("Typed SQL: values the database cannot hold")
struct UnbindableValueTests {
    let db: Database
    static let tooLarge = UInt64(Int64.max) + 1

    init() throws {
        db = try Database.inMemory()
        try db.execute(sql: #"CREATE TABLE "ledgers" ("id" INTEGER PRIMARY KEY, "total" INTEGER NOT NULL)"#)
        try Ledger.insert {
            Ledger(id: 1, total: 5)
            Ledger(id: 2, total: UInt64(Int64.max))
        }.execute(db)
    }

    /// The error names the value and says why.
    func expectRefusal(_ body: () throws -> Void) {
        let error = #expect(throws: SQLRenderError.self) { try body() }
        #expect(error?.description.contains("9223372036854775808") == true)
        #expect(error?.description.contains("does not fit SQLite's 64-bit signed INTEGER") == true)
    }

    @Test func uint64ColumnsHoldValuesUpToInt64Max() throws {
        #expect(try Ledger.order(by: \.id).fetchAll(db)
            == [Ledger(id: 1, total: 5), Ledger(id: 2, total: UInt64(Int64.max))])
        #expect(try Ledger.where { $0.total.gt(5) }.select(\.id).fetchAll(db) == [2])
        #expect(try Ledger.find(2).select(\.total).fetchOne(db) == UInt64(Int64.max))
    }

    @Test func aComparisonWithATooLargeValueThrows() throws {
        expectRefusal { _ = try Ledger.where { $0.total.lt(Self.tooLarge) }.fetchAll(db) }
        expectRefusal { _ = try Ledger.where { $0.total.neq(Self.tooLarge) }.fetchCount(db) }
        expectRefusal { _ = try Ledger.where { $0.total.isNot(Self.tooLarge) }.fetchAll(db) }
        expectRefusal { _ = try Ledger.where { $0.total.in([1, Self.tooLarge]) }.fetchAll(db) }
    }

    @Test func aLookupOrDeleteByATooLargeKeyThrows() throws {
        expectRefusal { _ = try Ledger.find(Self.tooLarge).fetchOne(db) }
        expectRefusal { _ = try Ledger.find([1, Self.tooLarge]).fetchAll(db) }
        expectRefusal { try Ledger.delete(Ledger(id: Self.tooLarge, total: 1)).execute(db) }
        expectRefusal { try Ledger.find(Self.tooLarge).delete().execute(db) }
        #expect(try Ledger.fetchCount(db) == 2)
    }

    @Test func aBoundInterpolationOfATooLargeValueThrows() throws {
        expectRefusal { _ = try #sql("SELECT \(bind: Self.tooLarge)", as: Int.self).fetchAll(db) }
        expectRefusal { _ = try Ledger.select { _ in Self.tooLarge }.fetchAll(db) }
    }

    @Test func anInsertNamesTheProperty() throws {
        let error = #expect(throws: TypedSQLError.self) {
            try Ledger.insert { Ledger(id: 3, total: Self.tooLarge) }.execute(db)
        }
        #expect(error?.description.contains("property 'total': UInt64 value 9223372036854775808 does not fit") == true)
    }

    @Test func writingATooLargeValueChangesNothing() throws {
        #expect(throws: (any Error).self) { try Ledger.insert { Ledger(id: 3, total: Self.tooLarge) }.execute(db) }
        #expect(throws: (any Error).self) { try Ledger.update { $0.total = Self.tooLarge }.execute(db) }
        #expect(try Ledger.order(by: \.id).select(\.total).fetchAll(db) == [5, UInt64(Int64.max)])
    }
}
