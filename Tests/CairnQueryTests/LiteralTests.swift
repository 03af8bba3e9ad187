import CairnQuery
import CairnTestSupport
import Foundation
import Testing

/// Values written as literals (for trigger bodies) must read back as the same values, with
/// the same storage class, when SQLite parses them.
@Suite struct LiteralTests {
    let sqlite: SQLiteHarness

    init() throws { sqlite = try SQLiteHarness() }

    /// `SELECT <literal>` run by SQLite, and its one value.
    private func readBack(_ value: DatabaseValue) throws -> DatabaseValue {
        let rendered = try SQLStatement.select(SQLSelect([.value(value)])).renderInliningValues()
        #expect(rendered.arguments.isEmpty)
        return try sqlite.rows(rendered).first?.first ?? .null
    }

    @Test func literalsSpellValuesAsSQLiteReadsThem() throws {
        let select = { (value: DatabaseValue) in
            try SQLStatement.select(SQLSelect([.value(value)])).renderInliningValues().sql
        }
        #expect(try select(.text("it's")) == "SELECT 'it''s'")
        #expect(try select(.integer(-3)) == "SELECT (-3)")
        #expect(try select(.real(3)) == "SELECT (3.0)")
        #expect(try select(.real(0.1)) == "SELECT (3602879701896397.0 / 36028797018963968)")
        #expect(try select(.real(-0x1p70)) == "SELECT (-1.0 * 4611686018427387904 * 256)")
        #expect(try select(.blob(Data([0x00, 0xAB, 0x10]))) == "SELECT X'00AB10'")
        #expect(try select(.null) == "SELECT NULL")
        let delete = SQLStatement.delete(SQLDelete(from: "t").where(.column("title").equals(.value(.text("x")))))
        #expect(try delete.renderInliningValues().sql == #"DELETE FROM "t" WHERE "title" = 'x'"#)
        #expect(try delete.render().arguments == [.text("x")])  // the ordinary rendering still binds
    }

    @Test func edgeValuesReadBackUnchanged() throws {
        let values: [DatabaseValue] = [
            .integer(.min), .integer(.max), .integer(0), .integer(-1),
            .real(0.1), .real(-0.0), .real(1e-300), .real(-2.5e300), .real(.infinity), .real(-.infinity),
            .real(Double.leastNonzeroMagnitude), .real(123_456_789_012_345_680),
            .text(""), .text("'; DROP TABLE t; --"), .text("ünïcödé 🙂 \"q\" ''"), .text("line\nbreak"),
            .blob(Data()), .blob(Data((0...255).map(UInt8.init))),
        ]
        for value in values {
            // SQLite reads an empty blob literal X'' back as an empty blob.
            #expect(try readBack(value) == value, "\(value)")
        }
        // -0.0 == 0.0 as Doubles: the sign is checked apart.
        guard case .real(let negativeZero) = try readBack(.real(-0.0)) else { Issue.record("not a real"); return }
        #expect(negativeZero.sign == .minus)
        #expect(try readBack(.real(.nan)) == .null)  // as SQLite stores a NaN
    }

    @Test func randomValuesReadBackUnchanged() throws {
        var random = SeededRandom(seed: 17)
        for _ in 0..<20_000 {
            let value: DatabaseValue
            switch Int.random(in: 0..<4, using: &random) {
            case 0: value = .integer(Int64.random(in: .min ... .max, using: &random))
            case 1: value = .real(Double(bitPattern: UInt64.random(in: 0 ... .max, using: &random)))
            case 2:
                let scalars = (0..<Int.random(in: 0..<12, using: &random)).compactMap { _ in
                    Unicode.Scalar(UInt32.random(in: 1...0x1F600, using: &random))
                }
                value = .text(String(String.UnicodeScalarView(scalars)))
            default: value = .blob(Data((0..<Int.random(in: 0..<9, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }))
            }
            if case .real(let real) = value, real.isNaN { continue }
            #expect(try readBack(value) == value, "\(value)")
        }
    }

    @Test func aQuoteBeforeACombiningMarkStaysInsideTheLiteral() throws {
        // "'" + U+0301 is one Character that is not "'": doubling by Character left the quote
        // single, so the text after it ran as SQL.
        let hostile = "a'\u{301}; DELETE FROM t; SELECT '\u{301}"
        let rendered = try SQLStatement.select(SQLSelect([.value(.text(hostile))])).renderInliningValues()
        #expect(rendered.sql == "SELECT 'a''\u{301}; DELETE FROM t; SELECT ''\u{301}'")
        #expect(try sqlite.rows(rendered) == [[.text(hostile)]])
        // Run as a script (sqlite3_exec runs every statement in the text): nothing is deleted.
        try sqlite.execute("INSERT INTO t (title) VALUES ('kept')")
        try sqlite.execute(rendered.sql)
        #expect(try sqlite.rows(SQLSelect([SQLSelectColumn(.countAll)], from: .table("t"))) == [[.integer(1)]])
    }

    @Test func valuesWithoutALiteralThrow() throws {
        #expect(throws: SQLRenderError.self) {
            try SQLStatement.select(SQLSelect([.value(.text("a\0b"))])).renderInliningValues()
        }
        #expect(throws: SQLRenderError.self) {
            try SQLStatement.select(SQLSelect([.parameter(0)])).renderInliningValues()
        }
    }
}
