import CairnSQLite
import Foundation
import Testing

/// A small seeded generator, so a failure names a date that can be reproduced.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The date text the engine writes, checked against Foundation's formatter (which
/// StructuredQueries writes with) and against SQLite's own date functions, on generated dates.
@Suite("Date text: written as StructuredQueries and SQLite write it, read back exactly")
struct DateTextTests {
    /// StructuredQueries' format: ISO 8601, a space between date and time, milliseconds, UTC.
    static let structuredQueries = Date.ISO8601FormatStyle.iso8601.year().month().day()
        .dateTimeSeparator(.space).time(includingFractionalSeconds: true)

    @Test func textIsFoundationsForDatesInsideAMillisecond() throws {
        var random = SplitMix64(state: 2026)
        for _ in 0..<5_000 {
            // 1900–2100, 0.4 ms into a millisecond, where truncating cannot go either way.
            let milliseconds = Int64.random(in: -3_155_673_600_000...3_155_760_000_000, using: &random)
            let date = Date(timeIntervalSinceReferenceDate: Double(milliseconds) / 1000 + 0.000_4)
            let expected = date.formatted(Self.structuredQueries)
            #expect(DateText.format(date) == expected, "\(milliseconds)")
        }
    }

    @Test func everyDateTextReadsBackAsTheDateOfItsMillisecond() throws {
        var random = SplitMix64(state: 8601)
        for _ in 0..<5_000 {
            // 0001–9999: every date the text can hold.
            let milliseconds = Int64.random(in: -63_113_904_000_000...252_423_993_599_999, using: &random)
            let date = Date(timeIntervalSinceReferenceDate: Double(milliseconds) / 1000)
            let text = try #require(DateText.format(date))
            #expect(DateText.parse(text) == date, "\(text)")
            #expect(DateText.format(try #require(DateText.parse(text))) == text, "\(text)")
        }
    }

    @Test func sqliteReadsTheTextAsTheSameInstant() throws {
        let db = try Database.inMemory()
        var random = SplitMix64(state: 3_40)
        for _ in 0..<500 {
            let milliseconds = Int64.random(in: -63_113_904_000_000...252_423_993_599_999, using: &random)
            let date = Date(timeIntervalSinceReferenceDate: Double(milliseconds) / 1000)
            // SQLite's own text of the instant, from the date bound as text.
            let sqlite = try db.fetchValue(String.self, sql: "SELECT strftime('%Y-%m-%d %H:%M:%f', ?)", arguments: [date])
            #expect(sqlite == DateText.format(date))
            // And the whole seconds since 1970 SQLite counts from it.
            let unix = try db.fetchValue(Int64.self, sql: "SELECT CAST(strftime('%s', ?) AS INTEGER)", arguments: [date])
            #expect(unix == Int64(date.timeIntervalSince1970.rounded(.down)), "\(DateText.format(date) ?? "")")
        }
    }

    @Test func malformedTextIsNotADate() {
        for text in ["", "2026", "2026-13-01", "2026-02-30x", "2026-05-10 24:00", "2026-05-10 09:30:00.", "2026-05-10T09:61",
                     "10000-01-01 00:00:00.000", "2026-05-10 09:30:00.250 ", "٢٠٢٦-05-10"] {
            #expect(DateText.parse(text) == nil, "\(text)")
        }
    }
}
