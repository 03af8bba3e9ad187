@testable import Cairn
import Foundation
import Testing

/// The SQL of each construct, and the rows it returns next to Foundation's answer.
@Suite("Predicate → SQL")
struct PredicateSQLTests {
    let store: PredicateStore<Specimen>

    init() throws {
        store = try PredicateStore([
            specimen("Café run", nickname: "cafe", count: 3, score: 1.5, rank: 2, flag: true, day: 10, due: 20, mood: .happy, token: 0, tags: ["a", "b"]),
            specimen("e\u{301}clair", nickname: nil, count: -7, score: -2, rank: nil, flag: false, day: 20, due: nil, mood: .sad, token: 1),
            specimen("éclair", nickname: "É", count: 7, score: 2.25, rank: -1, flag: true, day: 30, due: 5, mood: .calm, token: 2, tags: ["b"]),
            specimen("", nickname: "", count: 0, score: 0, rank: 0, flag: false, day: 10, due: nil, mood: .happy, token: 3),
            specimen("Zebra", nickname: nil, count: 12, score: 9, rank: 5, flag: false, day: 40, due: 50, mood: .sad, token: 0),
        ])
    }

    /// Renders the WHERE clause of `predicate` and checks the rows against `evaluate`.
    func check(_ predicate: Predicate<Specimen>, _ sql: String, sort: [SortDescriptor<Specimen>] = [],
               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let descriptor = FetchDescriptor(predicate: predicate, sortBy: sort)
        let rendered = try store.sql(descriptor)
        let prefix = "SELECT \"t0\".\"id\" FROM \"Specimen\" AS \"t0\" WHERE "
        #expect(rendered.sql == prefix + sql, sourceLocation: sourceLocation)
        let actual = try store.fetch(descriptor)
        let expected = try store.expected(descriptor)
        if sort.isEmpty {
            #expect(actual.sorted() == expected, sourceLocation: sourceLocation)
        } else {
            #expect(actual == expected, sourceLocation: sourceLocation)
        }
    }

    @Test("comparisons bind values and compare strings as Swift does")
    func comparisons() throws {
        let limit = 3
        try check(#Predicate { $0.count >= limit }, "\"t0\".\"count\" >= ?")
        try check(#Predicate { $0.score < 2.0 }, "\"t0\".\"score\" < ?")
        let name = "éclair"
        try check(#Predicate { $0.name == name }, "\"t0\".\"name\" COLLATE cairn_swift = ?")
        try check(#Predicate { $0.name > "a" }, "\"t0\".\"name\" COLLATE cairn_swift > ?")
        let cutoff = referenceDay.addingTimeInterval(20)
        try check(#Predicate { $0.day <= cutoff }, "\"t0\".\"day\" <= ?")
        try check(#Predicate { $0.token < tokens[2] }, "\"t0\".\"token\" < ?")
        try check(#Predicate { $0.count < [1, 5][1] }, "\"t0\".\"count\" < ?")
    }

    @Test("optionals compare as Swift: nil == nil, IS / IS NOT, ??, flatMap, if let, !")
    func optionals() throws {
        try check(#Predicate { $0.nickname == nil }, "\"t0\".\"nickname\" COLLATE cairn_swift IS ?")
        try check(#Predicate { $0.rank != nil }, "\"t0\".\"rank\" IS NOT ?")
        let none: Int? = nil
        try check(#Predicate { $0.rank == none }, "\"t0\".\"rank\" IS ?")
        try check(#Predicate { ($0.rank ?? 0) > 1 }, "COALESCE(\"t0\".\"rank\", ?) > ?")
        try check(#Predicate { $0.rank.flatMap { $0 > 0 } == true },
                  "CASE WHEN \"t0\".\"rank\" IS NULL THEN NULL ELSE \"t0\".\"rank\" > ? END IS ?")
        try check(#Predicate { sample in
            if let rank = sample.rank { rank < 3 } else { false }
        }, "COALESCE(CASE WHEN \"t0\".\"rank\" IS NULL THEN NULL ELSE \"t0\".\"rank\" < ? END, ?)")
        try check(#Predicate { $0.rank != nil && $0.rank! > 0 },
                  "CASE WHEN \"t0\".\"rank\" IS NOT ? THEN cairn_unwrap(\"t0\".\"rank\") > ? ELSE 0 END")
    }

    @Test("Bool properties are conditions; enums compare by raw value")
    func boolsAndEnums() throws {
        try check(#Predicate { $0.flag }, "\"t0\".\"flag\"")
        try check(#Predicate { !$0.flag }, "NOT \"t0\".\"flag\"")
        try check(#Predicate { $0.flag == true }, "\"t0\".\"flag\" = ?")
        let mood = Temper.sad
        try check(#Predicate { $0.mood == mood }, "\"t0\".\"mood\" = ?")
        #expect(try store.sql(FetchDescriptor(predicate: #Predicate { $0.mood == mood })).arguments == [.text("sad")])
    }

    @Test("&&, ||, ! and the ternary")
    func logic() throws {
        let text = ""
        let favoritesOnly = false
        try check(
            #Predicate { (text.isEmpty || $0.name.localizedStandardContains(text)) && (!favoritesOnly || $0.flag) },
            "(? OR cairn_localized_standard_contains(\"t0\".\"name\", ?)) AND (? OR \"t0\".\"flag\")")
        try check(#Predicate { ($0.flag ? $0.count : -$0.count) > 2 },
                  "CASE WHEN \"t0\".\"flag\" THEN \"t0\".\"count\" ELSE -\"t0\".\"count\" END > ?")
    }

    @Test("arithmetic with Swift's integer division and remainder")
    func arithmetic() throws {
        try check(#Predicate { $0.count / 2 == -3 }, "\"t0\".\"count\" / ? = ?")
        try check(#Predicate { $0.count % 4 == -3 }, "\"t0\".\"count\" % ? = ?")
        try check(#Predicate { $0.count * 2 + 1 > 5 }, "\"t0\".\"count\" * ? + ? > ?")
        try check(#Predicate { $0.score / 2 < 1 }, "\"t0\".\"score\" / ? < ?")
    }

    @Test("captured arrays and ranges: IN json_each, BETWEEN, >= AND <")
    func collections() throws {
        let counts = [3, 12, 99]
        try check(#Predicate { counts.contains($0.count) },
                  "\"t0\".\"count\" IN (SELECT value FROM json_each(?))")
        let names = ["éclair", "Zebra"]
        try check(#Predicate { names.contains($0.name) },
                  "(\"t0\".\"name\" COLLATE cairn_swift) IN (SELECT value FROM json_each(?))")
        let ranks: [Int?] = [nil, 5]
        try check(#Predicate { ranks.contains($0.rank) },
                  "CASE WHEN \"t0\".\"rank\" IS NULL THEN ? ELSE \"t0\".\"rank\" IN (SELECT value FROM json_each(?)) END")
        let closed = 0...7
        try check(#Predicate { closed.contains($0.count) }, "\"t0\".\"count\" BETWEEN ? AND ?")
        let open = 0..<7
        try check(#Predicate { open.contains($0.count) }, "\"t0\".\"count\" >= ? AND \"t0\".\"count\" < ?")
        let moods = [Temper.sad, .calm]
        try check(#Predicate { moods.contains($0.mood) }, "\"t0\".\"mood\" IN (SELECT value FROM json_each(?))")
        try check(#Predicate { $0.tags.contains("b") },
                  "EXISTS (SELECT 1 FROM json_each(\"t0\".\"tags\") AS \"t1\" WHERE (\"t1\".\"value\" COLLATE cairn_swift = ?))")
    }

    @Test("strings: contains, starts(with:), count, isEmpty, localizedStandardContains")
    func strings() throws {
        try check(#Predicate { $0.name.contains("clair") }, "cairn_contains(\"t0\".\"name\", ?)")
        try check(#Predicate { $0.name.starts(with: "e") }, "cairn_starts_with(\"t0\".\"name\", ?)")
        try check(#Predicate { $0.name.count == 6 }, "cairn_count(\"t0\".\"name\") = ?")
        try check(#Predicate { $0.name.isEmpty }, "\"t0\".\"name\" = ?")
        try check(#Predicate { $0.name.localizedStandardContains("ECLAIR") },
                  "cairn_localized_standard_contains(\"t0\".\"name\", ?)")
        let same = ComparisonResult.orderedSame
        try check(#Predicate { $0.name.caseInsensitiveCompare("zebra") == same },
                  "cairn_case_insensitive_compare(\"t0\".\"name\", ?) = ?")
    }

    @Test("model-free parts are evaluated once and bound")
    func modelFreeParts() throws {
        let now = Date.now
        try check(#Predicate { $0.day > now }, "\"t0\".\"day\" > ?")
        let limits = [2, 9, 4]
        try check(#Predicate { $0.count < (limits.max() ?? 0) }, "\"t0\".\"count\" < ?")
    }

    @Test("constructs without SQL throw the documented errors")
    func unsupportedConstructs() throws {
        func error(_ predicate: Predicate<Specimen>) -> SwiftDataError? {
            do {
                _ = try store.sql(FetchDescriptor(predicate: predicate))
                return nil
            } catch {
                return error as? SwiftDataError
            }
        }
        #expect(error(#Predicate { $0.tags[0] == "a" }) == .unsupportedPredicate)
        #expect(error(#Predicate { $0.tags[0] == "a" })?.description.contains("subscript") == true)
        #expect(error(#Predicate { $0.mood.rawValue == "sad" }) == .unsupportedKeyPath)
        #expect(error(#Predicate { $0.name.contains(/a+/) })?.description.contains("Regex") == true)
        #expect(error(#Predicate { $0.day.timeIntervalSinceNow > 0 }) == .unsupportedKeyPath)
        let limit: Int? = nil
        #expect(error(#Predicate { $0.count > limit! }) == .unsupportedPredicate)
    }

    @Test("a whole predicate without the model binds one value")
    func constantPredicate() throws {
        let on = true
        try check(#Predicate { _ in on }, "?")
    }
}
