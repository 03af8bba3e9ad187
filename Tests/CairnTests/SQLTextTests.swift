@testable import Cairn
import CairnSQLite
import Testing

/// The text Cairn writes into DDL (table and column names; `DEFAULT` values, where SQLite
/// takes no bound parameter) reads back from SQLite as exactly the bytes it was made from.
@Suite("Identifiers and literals written into DDL")
struct SQLTextTests {
    /// Names and texts with quotes, including a quote followed by a combining mark (one
    /// `Character` that is not a quote, but a quote byte to SQLite).
    static let texts = ["plain", "a\"b", "a\"\u{301}b", "\"", "\"\"", "it's", "it'\u{301}s", "'", "é\"\u{301}'\u{301}"]

    @Test("A quoted identifier names the table it was made from", arguments: texts)
    func identifier(_ name: String) throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "CREATE TABLE \(SQLText.identifier(name)) (x)")
        let stored = try db.fetchValue(String.self, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        #expect(stored.map { Array($0.utf8) } == Array(name.utf8))
    }

    @Test("A text literal reads back as the text", arguments: texts)
    func literal(_ text: String) throws {
        let db = try Database(path: ":memory:")
        let read = try db.fetchValue(String.self, sql: "SELECT " + SQLText.literal(.text(text)))
        #expect(read.map { Array($0.utf8) } == Array(text.utf8))
    }
}
