import Cairn
import Foundation
import Testing

/// Cairn registers one list of SQL functions and collations on every connection; a name
/// listed twice would leave SQLite with whichever registration came last (a collation) or two
/// functions under one name (at two arities), so each name must appear once.
@Suite("The SQL function and collation registry")
struct PredicateFunctionRegistryTests {
    @Test("every function name appears once, at one arity")
    func functionNamesOnce() {
        let names = PredicateFunctions.functions.map(\.name)
        let repeated = Dictionary(grouping: names, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "listed more than once: \(repeated)")
        #expect(Set(names) == [
            "cairn_fold", "cairn_count", "cairn_lower", "cairn_upper", "cairn_contains", "cairn_starts_with",
            "cairn_localized_standard_contains", "cairn_localized_compare", "cairn_case_insensitive_compare",
            "cairn_string_test", "cairn_regexp", "cairn_unwrap",
        ])
    }

    @Test("every collation name appears once")
    func collationNamesOnce() {
        let names = PredicateFunctions.collations.map(\.name)
        let repeated = Dictionary(grouping: names, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "listed more than once: \(repeated)")
        #expect(Set(names) == [
            "cairn_swift", "cairn_lexical", "cairn_localized", "cairn_localized_case_insensitive",
            "cairn_localized_standard", "cairn_case_insensitive", "cairn_decimal",
        ])
    }

    @Test("adding the support twice keeps one registration of each name")
    func addedTwice() {
        var configuration = Configuration()
        configuration.addCairnPredicateSupport()
        configuration.addCairnPredicateSupport()
        #expect(configuration.functions.count == PredicateFunctions.functions.count)
        #expect(configuration.collations.count == PredicateFunctions.collations.count)
    }

    /// One value per function and collation, run through SQLite on a connection with the
    /// registry, so a registration that points at the wrong Swift code fails here.
    @Test("each function and collation answers in SQL", arguments: [
        // Composed after folding: six code points, not seven.
        ("length(cairn_fold('Zu' || char(776) || 'RICH', 1))", DatabaseValue.integer(6)),
        ("cairn_fold('Zu' || char(776) || 'RICH', 3)", .text("zurich")),
        ("cairn_fold('Café', 1)", .text("café")),
        ("cairn_fold('Café', 2)", .text("Cafe")),
        ("cairn_fold('Café', 0)", .text("Café")),
        ("cairn_fold(NULL, 3)", .null),
        ("cairn_lower('ÉTÉ')", .text("été")),
        ("cairn_upper('été')", .text("ÉTÉ")),
        ("cairn_count('e' || char(769))", .integer(1)),
        ("cairn_contains('Café', 'fé')", .integer(1)),
        ("cairn_starts_with('Café', 'Ca')", .integer(1)),
        ("cairn_localized_standard_contains('Le Café', 'CAFE')", .integer(1)),
        ("cairn_localized_compare('a', 'B')", .integer(-1)),
        ("cairn_case_insensitive_compare('abc', 'ABC')", .integer(0)),
        ("cairn_string_test('BEGINSWITH', 'Straße', 'STR', 1)", .integer(1)),
        ("cairn_string_test('ENDSWITH', 'Café', 'E', 3)", .integer(1)),
        ("cairn_string_test('CONTAINS', 'Café', 'afe', 0)", .integer(0)),
        ("cairn_string_test('LIKE', 'file10', 'file?0', 0)", .integer(1)),
        ("cairn_string_test('IN', 'af', 'Café', 0)", .integer(1)),
        ("cairn_string_test('IN', 3, 3.0, 0)", .integer(1)),
        ("cairn_string_test('IN', 'a', NULL, 0)", .integer(0)),
        ("cairn_regexp('[0-9]+', '2026', 0)", .integer(1)),
        ("cairn_regexp('caf.', 'CAFÉ', 1)", .integer(1)),
        ("cairn_regexp('[0-9]+', NULL, 0)", .integer(0)),
        ("cairn_unwrap(7)", .integer(7)),
        ("'b' < 'B' COLLATE cairn_swift", .integer(0)),
        ("'file9' < 'file10' COLLATE cairn_localized_standard", .integer(1)),
        ("'a' = 'A' COLLATE cairn_case_insensitive", .integer(1)),
        ("'a' < 'B' COLLATE cairn_localized", .integer(1)),
        ("'a' = 'A' COLLATE cairn_localized_case_insensitive", .integer(1)),
        ("'a' = 'A' COLLATE cairn_localized", .integer(0)),
        ("'9' < '10' COLLATE cairn_decimal", .integer(1)),
        ("'a' < 'b' COLLATE cairn_lexical", .integer(1)),
    ])
    func answers(_ expression: String, _ expected: DatabaseValue) throws {
        var configuration = Configuration()
        configuration.addCairnPredicateSupport()
        let db = try Database.inMemory(configuration: configuration)
        #expect(try db.fetchOne(sql: "SELECT " + expression) { $0.databaseValue(at: 0) } == expected)
    }

    @Test("an invalid MATCHES pattern is an error that says what is wrong")
    func invalidPattern() throws {
        var configuration = Configuration()
        configuration.addCairnPredicateSupport()
        let db = try Database.inMemory(configuration: configuration)
        let error = #expect(throws: DatabaseError.self) { _ = try db.fetchOne(sql: "SELECT cairn_regexp('[a', 'a', 0)") { $0.databaseValue(at: 0) } }
        #expect(String(describing: error).contains("opens a character class that is never closed"), "\(String(describing: error))")
    }
}
