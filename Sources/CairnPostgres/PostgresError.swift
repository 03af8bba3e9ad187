import CairnSQLite
import CLibPQ

/// An error PostgreSQL or libpq reported: the server's SQLSTATE, its message, detail and hint,
/// and the SQL that failed with the arguments bound to it.
///
/// Arguments may hold personal data, so ``description`` gives only their count; ``arguments``
/// is always available to code.
///
/// ```swift
/// do {
///     try connection.execute(sql: "INSERT INTO item (id) VALUES ($1)", arguments: [1])
/// } catch let error as PostgresError where error.sqlState == "23505" {
///     print(error)
///     // PostgreSQL error 23505: duplicate key value violates unique constraint "item_pkey"
///     //   detail: Key (id)=(1) already exists.
///     //   in: INSERT INTO item (id) VALUES ($1)  -- arguments redacted (1)
/// }
/// ```
///
/// It is a separate type from `DatabaseError`, whose codes are SQLite's result codes:
/// PostgreSQL's five-character SQLSTATE classes do not map onto them one to one.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// The SQLSTATE code (`"23505"` unique violation, `"42601"` syntax error, `"40001"`
    /// serialization failure, `"57014"` query canceled), or nil when the failure happened in
    /// the client (a connection that could not be opened or was lost, a value that cannot be
    /// bound).
    public let sqlState: String?
    /// The primary message.
    public let message: String
    /// The server's detail line (`Key (id)=(1) already exists.`), when it sent one.
    public let detail: String?
    /// The server's hint on what to do, when it sent one.
    public let hint: String?
    /// The 1-based character offset in ``sql`` the server pointed at, when it did.
    public let position: Int?
    /// The SQL being prepared or run, when there was one.
    public let sql: String?
    /// The arguments bound to ``sql``.
    public let arguments: StatementArguments?
    /// A statement prepared before a schema change failed with "cached plan must not change
    /// result type" inside a transaction; it was deallocated, so running the transaction again
    /// prepares it anew.
    var isStalePlan = false

    /// Creates an error; the engine throws these, tests and wrappers may build them too.
    public init(
        sqlState: String? = nil, message: String, detail: String? = nil, hint: String? = nil,
        position: Int? = nil, sql: String? = nil, arguments: StatementArguments? = nil
    ) {
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.hint = hint
        self.position = position
        self.sql = sql
        self.arguments = arguments
    }

    /// The error a failed result carries, or the connection's last message when there is no
    /// result (the connection broke before one came).
    init(result: OpaquePointer?, connection: OpaquePointer?, sql: String?, arguments: StatementArguments?) {
        func field(_ code: Character) -> String? {
            guard let result, let ascii = code.asciiValue,
                  let text = PQresultErrorField(result, Int32(ascii)) else { return nil }
            return String(cString: text)
        }
        let primary = field("M")
        let fallback = result.flatMap { PQresultErrorMessage($0) }.map { String(cString: $0) }
        let connectionMessage = connection.flatMap { PQerrorMessage($0) }.map { String(cString: $0) }
        let message = primary ?? [fallback, connectionMessage].compactMap { $0 }.first { !$0.isEmpty }
        self.init(
            sqlState: field("C"),
            message: (message ?? "unknown error").trimmingTrailingNewlines,
            detail: field("D"), hint: field("H"),
            position: field("P").flatMap { Int($0) },
            sql: sql, arguments: arguments)
    }

    /// Whether retrying the whole transaction may succeed: a serialization failure (`40001`)
    /// or a deadlock (`40P01`), which PostgreSQL's SERIALIZABLE isolation and distributed
    /// engines report for conflicting concurrent transactions, or a stale prepared statement,
    /// which the next attempt prepares again.
    var isTransient: Bool { sqlState == "40001" || sqlState == "40P01" || isStalePlan }

    /// `PostgreSQL error 42601: syntax error at or near "SELEC"`, then the detail, the hint and
    /// the SQL with a caret under the position the server named. A statement over 500
    /// characters shows 500 of them (around the position, if any) and its length; ``sql``
    /// has it whole.
    public var description: String {
        var text = sqlState.map { "PostgreSQL error \($0): \(message)" } ?? "PostgreSQL client error: \(message)"
        if let detail { text += "\n  detail: \(detail)" }
        if let hint { text += "\n  hint: \(hint)" }
        if let sql {
            let excerpt = StatementExcerpt(sql, position: position)
            text += "\n  in: \(excerpt.text)"
            if let arguments, !arguments.isEmpty { text += "  -- arguments redacted (\(arguments.count))" }
            if let column = excerpt.caretColumn {
                text += "\n      " + String(repeating: " ", count: column) + "^"
            }
        }
        return text
    }
}

extension String {
    /// libpq's messages end with a newline.
    var trimmingTrailingNewlines: String {
        var text = Substring(self)
        while text.last?.isNewline == true { text = text.dropLast() }
        return String(text)
    }
}
