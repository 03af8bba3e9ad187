import Cairn
import Foundation
import Testing

@Table
struct Sample: Identifiable, Hashable, Sendable {
    let id: Int
    var amount = 0.0
    var delta: Int?
    var bytes: [UInt8] = []
    var data = Data()
    var label: String?
}

/// SQLite's scalar functions on numbers, blobs, text and conditions, as StructuredQueries
/// spells them: the SQL, and what SQLite answers.
@Suite("Typed SQL: scalar functions")
struct ScalarFunctionTests {
    let db: Database

    init() throws {
        db = try Database.inMemory()
        try db.execute(sql: """
            CREATE TABLE samples (
                id INTEGER PRIMARY KEY, amount REAL NOT NULL, delta INTEGER, bytes BLOB NOT NULL,
                data BLOB NOT NULL, label TEXT)
            """)
        try Sample.insert {
            Sample(id: 1, amount: 2.5, delta: -3, bytes: [0x00, 0xFF], data: Data([0x0A]), label: "it's")
            Sample(id: 2, amount: -2.5, delta: nil, bytes: [], data: Data(), label: nil)
            Sample(id: 3, amount: 2.345, delta: 0, bytes: [1], data: Data(), label: "")
        }.execute(db)
    }

    /// The SQL of a selection from every sample, in id order, and what it reads.
    func check<Selected: QueryExpression>(
        _ selection: (Sample.TableColumns) -> Selected, _ sql: String, _ values: [Selected.QueryValue.QueryOutput],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws where Selected.QueryValue: QueryRepresentable, Selected.QueryValue.QueryOutput: Equatable {
        let query = Sample.order(by: \.id).select(selection)
        try assertQuery(
            query, sql: "SELECT " + sql + #" FROM "samples" ORDER BY "samples"."id" ASC"#,
            rows: { try query.fetchAll(db) }, values, sourceLocation: sourceLocation)
    }

    @Test func rowsOfBytesRoundTrip() throws {
        #expect(try Sample.order(by: \.id).select(\.bytes).fetchAll(db) == [[0x00, 0xFF], [], [1]])
        #expect(try Sample.where { $0.bytes.eq([1]) }.select(\.id).fetchAll(db) == [3])
    }

    @Test func absAndSignKeepTheTypeAndNull() throws {
        try check({ $0.delta.abs() }, #"abs("samples"."delta")"#, [3, nil, 0])
        try check({ $0.amount.abs() }, #"abs("samples"."amount")"#, [2.5, 2.5, 2.345])
        try check({ $0.delta.sign() }, #"sign("samples"."delta")"#, [-1, nil, 0])
        try check({ $0.amount.sign() }, #"sign("samples"."amount")"#, [1.0, -1.0, 1.0])
        try check({ ($0.amount - 2.5).sign() }, #"sign("samples"."amount" - ?)"#, [0.0, -1.0, -1.0])
    }

    @Test func roundIsHalfAwayFromZero() throws {
        try check({ $0.amount.round() }, #"round("samples"."amount")"#, [3.0, -3.0, 2.0])
        try check({ $0.amount.round(2) }, #"round("samples"."amount", ?)"#, [2.5, -2.5, 2.35])
        let average = Sample.select { $0.amount.avg().round(2) }
        #expect(try average.render().sql == #"SELECT round(AVG("samples"."amount"), ?) FROM "samples""#)
        #expect(try average.fetchAll(db) == [0.78])
    }

    @Test func hexOfBlobs() throws {
        try check({ $0.bytes.hex() }, #"hex("samples"."bytes")"#, ["00FF", "", "01"])
        try check({ $0.data.hex() }, #"hex("samples"."data")"#, ["0A", "", ""])
    }

    @Test func randomAndZeroBlobs() throws {
        let random = Sample.where { $0.id.eq(1) }.select { _ in 16.randomblob() }
        #expect(try random.render().sql == #"SELECT randomblob(?) FROM "samples" WHERE "samples"."id" = ?"#)
        let bytes = try random.fetchAll(db)
        #expect(bytes.map(\.count) == [16])
        let zeros = Sample.where { $0.id.eq(1) }.select { _ in 3.zeroblob() }
        #expect(try zeros.render().sql == #"SELECT zeroblob(?) FROM "samples" WHERE "samples"."id" = ?"#)
        #expect(try zeros.fetchAll(db) == [[0, 0, 0]])
        #expect(try Sample.where { $0.id.eq(1) }.select { _ in 3.zeroblob().hex() }.fetchAll(db) == ["000000"])
        // In an insert's values, as StructuredQueries writes them: an expression for its column.
        let insert = Sample.insert { ($0.id, $0.amount, $0.bytes, $0.data) } values: { (4, 0.5, 1_024.randomblob(), Data()) }
        #expect(try insert.render().sql == #"INSERT INTO "samples" ("id", "amount", "bytes", "data") VALUES (?, ?, randomblob(?), ?)"#)
        try insert.execute(db)
        #expect(try Sample.find(4).select(\.bytes).fetchAll(db).map(\.count) == [1_024])
    }

    @Test func planningHintsKeepTheCondition() throws {
        let likely = Sample.where { ($0.amount > 0).likely() }.order(by: \.id).select(\.id)
        try assertQuery(
            likely, sql: #"SELECT "samples"."id" FROM "samples" WHERE likely("samples"."amount" > ?) ORDER BY "samples"."id" ASC"#,
            rows: { try likely.fetchAll(db) }, [1, 3])
        let unlikely = Sample.where { ($0.amount > 0).unlikely() }.order(by: \.id).select(\.id)
        try assertQuery(
            unlikely, sql: #"SELECT "samples"."id" FROM "samples" WHERE unlikely("samples"."amount" > ?) ORDER BY "samples"."id" ASC"#,
            rows: { try unlikely.fetchAll(db) }, [1, 3])
        let likelihood = Sample.where { ($0.amount < 0).likelihood(0.25) }.select(\.id)
        try assertQuery(
            likelihood, sql: #"SELECT "samples"."id" FROM "samples" WHERE likelihood("samples"."amount" < ?, 0.25)"#,
            arguments: [.real(0)], rows: { try likelihood.fetchAll(db) }, [2])
    }

    @Test func nullifIsOptional() throws {
        try check({ $0.label.nullif("") }, #"nullif("samples"."label", ?)"#, ["it's", nil, nil])
        try check({ $0.amount.nullif(2.5) }, #"nullif("samples"."amount", ?)"#, [nil, -2.5, 2.345])
    }

    @Test func textFunctions() throws {
        try check({ $0.label.quote() }, #"quote("samples"."label")"#, ["'it''s'", "NULL", "''"])
        try check({ $0.label.unicode() }, #"unicode("samples"."label")"#, [105, nil, nil])
        try check({ $0.label.ltrim("i") }, #"ltrim("samples"."label", ?)"#, ["t's", nil, ""])
        try check({ $0.label.rtrim("s'") }, #"rtrim("samples"."label", ?)"#, ["it", nil, ""])
        try check({ ($0.label ?? "  x  ").ltrim() }, #"ltrim(coalesce("samples"."label", ?))"#, ["it's", "x  ", ""])
        try check({ ($0.label ?? "  x  ").rtrim() }, #"rtrim(coalesce("samples"."label", ?))"#, ["it's", "  x", ""])
    }
}
