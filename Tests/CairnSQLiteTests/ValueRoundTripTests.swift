import CairnSQLite
import Foundation
import Testing

/// Binds a value, reads it back through both the fast path (`decode`) and the
/// `DatabaseValue` path, and checks what SQLite stored.
private func roundTrip<T: DatabaseValueConvertible>(_ value: T, in db: Database) throws -> (T, T?, String) {
    let stored = try db.fetchOne(sql: "SELECT ?, typeof(?)", arguments: [value, value]) { row in
        (try row.decode(T.self, at: 0), T.fromDatabaseValue(row.databaseValue(at: 0)), try row.decode(String.self, at: 1))
    }
    guard let stored else { throw CancellationError() }
    return stored
}

enum Color: String, DatabaseValueConvertible, Codable { case red, green }
enum Level: Int, DatabaseValueConvertible { case low = 1, high = 9 }
struct Route: Codable, Equatable, JSONDatabaseValueConvertible { var name: String; var points: [Double] }

@Suite struct ValueRoundTripTests {
    let db: Database
    init() throws { db = try Database.inMemory() }

    @Test(arguments: [Int64.min, -1, 0, 1, Int64.max])
    func int64(_ value: Int64) throws {
        let (fast, slow, type) = try roundTrip(value, in: db)
        #expect(fast == value && slow == value && type == "integer")
    }

    @Test func everyIntegerWidth() throws {
        #expect(try roundTrip(Int8.min, in: db).0 == Int8.min)
        #expect(try roundTrip(Int16.max, in: db).0 == Int16.max)
        #expect(try roundTrip(Int32.min, in: db).0 == Int32.min)
        #expect(try roundTrip(Int.max, in: db).0 == Int.max)
        #expect(try roundTrip(UInt8.max, in: db).0 == UInt8.max)
        #expect(try roundTrip(UInt16.max, in: db).0 == UInt16.max)
        #expect(try roundTrip(UInt32.max, in: db).0 == UInt32.max)
        #expect(try roundTrip(UInt64(Int64.max), in: db).0 == UInt64(Int64.max))
        #expect(try roundTrip(UInt(7), in: db).0 == 7)
    }

    @Test func integerOverflowOnReadIsAnError() throws {
        let error = #expect(throws: RowDecodingError.self) {
            try db.fetchOne(sql: "SELECT 300 AS n") { try $0.decode(UInt8.self, at: 0) }
        }
        #expect(error?.reason == .valueMismatch(storedValue: "300"))
        #expect(error?.columnName == "n")
        #expect(throws: RowDecodingError.self) {
            try db.fetchOne(sql: "SELECT -1") { try $0.decode(UInt64.self, at: 0) }
        }
        #expect(throws: RowDecodingError.self) {
            try db.fetchOne(sql: "SELECT 2.5") { try $0.decode(Int.self, at: 0) }
        }
        #expect(try db.fetchValue(Int.self, sql: "SELECT 3.0") == 3)
    }

    @Test func uint64AboveInt64MaxCannotBeBound() throws {
        let error = #expect(throws: DatabaseError.self) {
            try db.execute(sql: "SELECT ?", arguments: [UInt64.max])
        }
        #expect(error?.resultCode == .SQLITE_MISMATCH)
        #expect(error?.message.contains("18446744073709551615") == true)
        let statement = try db.makeStatement(sql: "SELECT ?")
        #expect(throws: DatabaseValueEncodingError.self) { try statement.bind(UInt64.max, at: 1) }
    }

    @Test(arguments: [0.0, -0.5, 1e308, -1e-308, Double.infinity, -Double.infinity, Double.pi])
    func double(_ value: Double) throws {
        let (fast, slow, type) = try roundTrip(value, in: db)
        #expect(fast == value && slow == value && type == "real")
    }

    @Test func nanIsStoredAsNull() throws {
        // SQLite stores NaN as NULL; the optional read says so, the non-optional one throws.
        #expect(try db.fetchValue(Double.self, sql: "SELECT ?", arguments: [Double.nan]) == nil)
        #expect(throws: RowDecodingError.self) {
            try db.fetchOne(sql: "SELECT ?", arguments: [Double.nan]) { try $0.decode(Double.self, at: 0) }
        }
    }

    @Test func floatAndBool() throws {
        #expect(try roundTrip(Float(1.5), in: db).0 == 1.5)
        #expect(try roundTrip(true, in: db) == (true, true, "integer"))
        #expect(try roundTrip(false, in: db) == (false, false, "integer"))
        #expect(try db.fetchValue(Bool.self, sql: "SELECT 7") == true)
    }

    // Either side of Swift's 15-byte inline limit, where reading switches between two paths.
    @Test(arguments: ["", "a", "Café ☕️ 🏃‍♀️ — 日本語", String(repeating: "x", count: 100_000), "nul\u{0}inside",
                      "fifteen bytes!!", "sixteen bytes!!!", "café crème é", "日本語日本", "日本語日本x"])
    func string(_ value: String) throws {
        let (fast, slow, type) = try roundTrip(value, in: db)
        #expect(fast == value && slow == value && type == "text")
    }

    /// SQLite stores whatever bytes it is given as TEXT; invalid UTF-8 comes back repaired
    /// with U+FFFD, short or long, never as a `String` that breaks its own invariants.
    @Test(arguments: [0, 3, 12, 13, 40])
    func invalidUTF8IsRepaired(padding: Int) throws {
        let prefix = String(repeating: "a", count: padding)
        let hexPrefix = String(repeating: "61", count: padding)
        let text = try db.fetchValue(String.self, sql: "SELECT CAST(x'\(hexPrefix)FF62C3' AS TEXT)")
        #expect(text == prefix + "\u{FFFD}b\u{FFFD}")
        #expect(text?.utf8.count == padding + 7)
    }

    @Test func nullOrValueReadsAColumnOnce() throws {
        let read = try db.fetchOne(sql: "SELECT NULL, 5, 'x', 2.5") { row in
            [row.nullOrValue(Int.self, at: 0), row.nullOrValue(Int.self, at: 1), row.nullOrValue(Int.self, at: 2),
             row.nullOrValue(Int.self, at: 3), row.nullOrValue(Int.self, at: 9)]
        }
        #expect(read?.map(\.isNull) == [true, false, false, false, true])
        #expect(read?.map(\.value) == [nil, 5, nil, nil, nil])
    }

    @Test func data() throws {
        #expect(try roundTrip(Data(), in: db) == (Data(), Data(), "blob"))
        let bytes = Data((0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        #expect(try roundTrip(bytes, in: db) == (bytes, bytes, "blob"))
        #expect(try db.fetchValue(Data.self, sql: "SELECT 'ab'") == Data("ab".utf8))
    }

    @Test func dateIsTextInUTCToTheMillisecond() throws {
        let date = Date(timeIntervalSinceReferenceDate: 123_456_789.25)
        #expect(try roundTrip(date, in: db) == (date, date, "text"))
        #expect(try db.fetchValue(String.self, sql: "SELECT ?", arguments: [date]) == "2004-11-29 21:33:09.250")
        // SQLite's own text for the same instant, so its date functions and comparisons agree.
        #expect(try db.fetchValue(String.self, sql: "SELECT strftime('%Y-%m-%d %H:%M:%f', ?)", arguments: [date])
            == "2004-11-29 21:33:09.250")
        // A number still reads as seconds since 2001 (how @Model and Core Data store dates).
        #expect(try db.fetchValue(Date.self, sql: "SELECT 60") == Date(timeIntervalSinceReferenceDate: 60))
        #expect(try db.fetchValue(Date.self, sql: "SELECT 60.5") == Date(timeIntervalSinceReferenceDate: 60.5))
    }

    @Test(arguments: [
        (0.0, "1970-01-01 00:00:00.000"),
        (-0.001, "1969-12-31 23:59:59.999"),
        (-86_400 * 365.25 * 70, "1899-12-31 12:00:00.000"),
        (951_782_400.0, "2000-02-29 00:00:00.000"),
        (1_778_371_200.0009, "2026-05-10 00:00:00.000"),
        (1_778_371_200.0999, "2026-05-10 00:00:00.099"),
        (-62_135_596_800.0, "0001-01-01 00:00:00.000"),
        (253_402_300_799.5, "9999-12-31 23:59:59.500"),
    ])
    func dateText(_ secondsSince1970: Double, _ text: String) throws {
        let date = Date(timeIntervalSince1970: secondsSince1970)
        #expect(date.databaseValue == .text(text))
        // Foundation's formatter, which StructuredQueries uses, writes the same text.
        let style = Date.ISO8601FormatStyle.iso8601.year().month().day().dateTimeSeparator(.space)
            .time(includingFractionalSeconds: true)
        if secondsSince1970 >= 0 { #expect(date.formatted(style) == text) }
    }

    @Test func aDateReadBackWritesTheSameText() throws {
        for text in ["2023-11-14 22:15:00.341", "2026-05-10 23:59:59.999", "1987-02-10 03:51:43.007"] {
            let date = try #require(try db.fetchValue(Date.self, sql: "SELECT ?", arguments: [text]))
            #expect(date.databaseValue == .text(text))
        }
    }

    @Test func aDateOutsideFourDigitYearsIsStoredAsSecondsAndReadsBack() throws {
        let far = Date(timeIntervalSinceReferenceDate: 1e12)
        #expect(far.databaseValue == .real(1e12))
        #expect(try db.fetchValue(Date.self, sql: "SELECT ?", arguments: [far]) == far)
        #expect(Date(timeIntervalSinceReferenceDate: .infinity).databaseValue == .real(.infinity))
    }

    @Test(arguments: [
        ("2001-01-01", 0.0),
        ("2001-01-01 00:01", 60.0),
        ("2001-01-01T00:00:01.5Z", 1.5),
        ("2001-01-01 02:00:00+02:00", 0.0),
        ("2000-12-31T23:59:59-00:00", -1.0),
        ("2024-02-29 12:00:00", 730_900_800.0),
    ])
    func dateFromText(_ text: String, _ seconds: Double) throws {
        let date = try db.fetchValue(Date.self, sql: "SELECT ?", arguments: [text])
        #expect(date?.timeIntervalSinceReferenceDate == seconds)
    }

    @Test func malformedDateTextIsAnError() throws {
        #expect(throws: RowDecodingError.self) {
            try db.fetchOne(sql: "SELECT '2024-13-01'") { try $0.decode(Date.self, at: 0) }
        }
    }

    @Test func uuid() throws {
        let uuid = UUID()
        #expect(try roundTrip(uuid, in: db) == (uuid, uuid, "text"))
        #expect(try db.fetchValue(String.self, sql: "SELECT ?", arguments: [uuid]) == uuid.uuidString.lowercased())
        #expect(try db.fetchValue(UUID.self, sql: "SELECT ?", arguments: [uuid.uuidString]) == uuid)
        #expect(try db.fetchValue(UUID.self, sql: "SELECT ?", arguments: ["e621e1F8-C36C-495a-93fc-0c247a3e6e5f"])
            == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(throws: RowDecodingError.self) {
            try db.fetchValue(UUID.self, sql: "SELECT ?", arguments: ["e621e1f8-c36c-495a-93fc-0c247a3e6e5"])
        }
        let blob = withUnsafeBytes(of: uuid.uuid) { Data($0) }
        #expect(try db.fetchValue(UUID.self, sql: "SELECT ?", arguments: [blob]) == uuid)
    }

    @Test func urlAndDecimal() throws {
        let url = try #require(URL(string: "https://example.com/a%20b?q=1#f"))
        #expect(try roundTrip(url, in: db) == (url, url, "text"))
        let decimal = try #require(Decimal(string: "12345678901234567890.123456789"))
        #expect(try roundTrip(decimal, in: db) == (decimal, decimal, "text"))
        #expect(try db.fetchValue(Decimal.self, sql: "SELECT 42") == Decimal(42))
    }

    @Test func optionals() throws {
        let none: Int? = nil
        #expect(try roundTrip(none, in: db) == (Int??.some(nil), Int??.some(nil), "null"))
        #expect(try roundTrip(Int?.some(5), in: db).0 == 5)
        #expect(try db.fetchOne(sql: "SELECT NULL") { try $0.decode(String?.self, at: 0) } == .some(nil))
    }

    @Test func rawRepresentableAndJSON() throws {
        #expect(try roundTrip(Color.green, in: db) == (.green, .green, "text"))
        #expect(try roundTrip(Level.high, in: db) == (.high, .high, "integer"))
        #expect(throws: RowDecodingError.self) {
            try db.fetchOne(sql: "SELECT 'blue'") { try $0.decode(Color.self, at: 0) }
        }
        let route = Route(name: "Park", points: [1, 2.5])
        #expect(try roundTrip(route, in: db) == (route, route, "text"))
        #expect(try db.fetchValue(String.self, sql: "SELECT ?", arguments: [route]) == #"{"name":"Park","points":[1,2.5]}"#)
        let tags = DatabaseJSON(["a", "b"])
        #expect(try roundTrip(tags, in: db).0 == tags)
    }

    @Test func nullIntoNonOptionalNamesColumnAndSQL() throws {
        let error = #expect(throws: RowDecodingError.self) {
            try db.fetchOne(sql: "SELECT 1 AS id, NULL AS title") { try $0.decode(String.self, column: "title") }
        }
        #expect(error?.reason == .unexpectedNull)
        #expect(error?.columnIndex == 1)
        #expect(error?.columnName == "title")
        #expect(error?.sql == "SELECT 1 AS id, NULL AS title")
        #expect(error?.description.contains("String?") == true)
    }

    /// What SQLite stores for a value bound through `bind(values:)` (each type's own
    /// `sqlite3_bind_*`) and through `StatementArguments` (a `DatabaseValue`), as
    /// `typeof || ':' || quote`.
    private func storedBothWays<V: DatabaseValueConvertible>(_ value: V) throws -> (typed: String?, boxed: String?) {
        let sql = "SELECT typeof(?1) || ':' || quote(?1)"
        let statement = try db.makeStatement(sql: sql)
        try statement.bind(values: value)
        let typed = try statement.fetchOne { try $0.decode(String.self, at: 0) }
        return (typed, try db.fetchValue(String.self, sql: sql, arguments: [value]))
    }

    @Test func typedBindingStoresWhatArgumentsStore() throws {
        #expect(try storedBothWays(Int64.min) == ("integer:-9223372036854775808", "integer:-9223372036854775808"))
        #expect(try storedBothWays(UInt8(200)) == ("integer:200", "integer:200"))
        #expect(try storedBothWays(2.5) == ("real:2.5", "real:2.5"))
        #expect(try storedBothWays(true) == ("integer:1", "integer:1"))
        #expect(try storedBothWays("") == ("text:''", "text:''"))
        #expect(try storedBothWays("Café ☕️") == ("text:'Café ☕️'", "text:'Café ☕️'"))
        #expect(try storedBothWays(String?.none) == ("null:NULL", "null:NULL"))
        #expect(try storedBothWays(Double?.some(1)) == ("real:1.0", "real:1.0"))
        #expect(try storedBothWays(Level.high) == ("integer:9", "integer:9"))
        #expect(try storedBothWays(Color.red) == ("text:'red'", "text:'red'"))
        #expect(try storedBothWays(Data([1, 2])) == ("blob:X'0102'", "blob:X'0102'"))
        let statement = try db.makeStatement(sql: "SELECT ?")
        #expect(throws: DatabaseValueEncodingError.self) { try statement.bind(values: UInt64.max) }
        #expect(throws: DatabaseValueEncodingError.self) { try statement.bind(values: UInt64?.some(.max)) }
    }
}
