/// A statement as an error's description shows it: whole up to ``limit`` characters; a longer
/// one (a many-row `INSERT`, a schema script) cut to ``limit`` characters with its length
/// noted, so the message stays readable. The error's `sql` keeps the whole text.
///
/// ```swift
/// StatementExcerpt(#"INSERT INTO "item" ("title") VALUES ($1), ($2), …, ($3000)"#).text
/// // INSERT INTO "item" ("title") VALUES ($1), ($2), ($3), … ($66), ($67), ($68… (25927 characters)
/// ```
///
/// Where the server pointed at a character (PostgreSQL's error position), the excerpt is the
/// stretch of the statement around it, and ``caretColumn`` says where under ``text`` it is.
package struct StatementExcerpt: Sendable {
    /// The most characters of a statement a description shows.
    package static let limit = 500

    /// The statement, or the stretch of it shown, with `…` where it was cut, then its length
    /// when it was cut.
    package let text: String
    /// The column of ``text`` under which a caret marks the position, when there is one and
    /// the text shown is one line.
    package let caretColumn: Int?

    /// - Parameters:
    ///   - sql: the whole statement.
    ///   - position: the 1-based character the error points at, if any.
    package init(_ sql: String, position: Int? = nil) {
        let length = sql.count
        let index = position.flatMap { (1...max(1, length)).contains($0) ? $0 - 1 : nil }
        guard length > Self.limit else {
            text = sql
            caretColumn = sql.contains("\n") ? nil : index
            return
        }
        // Start at the beginning unless the position would fall outside what is shown; then
        // center the window on it.
        var start = 0
        if let index, index >= Self.limit - 40 { start = min(index - Self.limit / 2, length - Self.limit) }
        let characters = Array(sql)
        let shown = String(characters[start..<(start + Self.limit)])
        let lead = start > 0 ? "…" : ""
        let tail = start + Self.limit < length ? "…" : ""
        text = lead + shown + tail + " (\(length) characters)"
        caretColumn = shown.contains("\n") ? nil : index.map { $0 - start + lead.count }
    }
}
