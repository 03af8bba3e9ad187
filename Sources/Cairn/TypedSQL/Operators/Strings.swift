// Text operators and functions, on `String` and `String?` expressions.

/// The value type of a text expression: `String` or `String?`.
public protocol _TextValue {
    /// What a count over the text is: `Int`, or `Int?` for optional text (NULL in, NULL out).
    associatedtype _TextCount
}
extension String: _TextValue { public typealias _TextCount = Int }
extension Optional: _TextValue where Wrapped == String { public typealias _TextCount = Int? }

/// A collating sequence for `COLLATE`.
public struct Collation: RawRepresentable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `BINARY`: byte order (SQLite's default).
    public static let binary = Collation(rawValue: "BINARY")
    /// `NOCASE`: ASCII letters compare case-insensitively.
    public static let nocase = Collation(rawValue: "NOCASE")
    /// `RTRIM`: trailing spaces ignored.
    public static let rtrim = Collation(rawValue: "RTRIM")
}

extension QueryExpression where QueryValue: _TextValue {
    /// `x LIKE pattern [ESCAPE e]` (ASCII case-insensitive in SQLite); the pattern is bound.
    ///
    /// ```swift
    /// Reminder.where { $0.title.like("%milk%") }  // … WHERE "reminders"."title" LIKE ?
    /// ```
    public func like(_ pattern: String, escape: Character? = nil) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(sqlExpression.like(.value(.text(pattern)), escape: escape.map { .value(.text(String($0))) }))
    }

    /// `x GLOB pattern` (case-sensitive, `*` and `?` wildcards); the pattern is bound.
    public func glob(_ pattern: String) -> SQLQueryExpression<Bool> {
        SQLQueryExpression(sqlExpression.glob(.value(.text(pattern))))
    }

    /// `x LIKE '%' || ? || '%' ESCAPE '\'`: whether the text contains `other`, with `%`, `_`
    /// and `\` in `other` matched literally.
    ///
    /// ```swift
    /// Fact.where { $0.body.contains(searchText) }
    /// // … WHERE "facts"."body" LIKE ? ESCAPE ?   -- ?1 = '%<escaped text>%', ?2 = '\'
    /// ```
    public func contains(_ other: String) -> SQLQueryExpression<Bool> {
        like("%" + SQLPattern.escapingLike(other) + "%", escape: "\\")
    }

    /// Whether the text starts with `other` (`LIKE 'other%'`, wildcards escaped).
    public func hasPrefix(_ other: String) -> SQLQueryExpression<Bool> {
        like(SQLPattern.escapingLike(other) + "%", escape: "\\")
    }

    /// Whether the text ends with `other` (`LIKE '%other'`, wildcards escaped).
    public func hasSuffix(_ other: String) -> SQLQueryExpression<Bool> {
        like("%" + SQLPattern.escapingLike(other), escape: "\\")
    }

    /// `x COLLATE name`
    ///
    /// ```swift
    /// Tag.order { $0.title.collate(.nocase) }  // … ORDER BY "tags"."title" COLLATE "NOCASE"
    /// ```
    public func collate(_ collation: Collation) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(sqlExpression.collate(collation.rawValue))
    }

    /// `lower(x)`
    public func lower() -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(.function("lower", sqlExpression))
    }

    /// `upper(x)`
    public func upper() -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(.function("upper", sqlExpression))
    }

    /// `length(x)`: the number of characters; `Int?` on optional text, `nil` for NULL.
    ///
    /// ```swift
    /// Reminder.select { $0.title.length() }   // SELECT length("reminders"."title") …: [Int]
    /// ```
    public func length() -> SQLQueryExpression<QueryValue._TextCount> {
        SQLQueryExpression(.function("length", sqlExpression))
    }

    /// `replace(x, pattern, replacement)`: every occurrence of `pattern` replaced.
    ///
    /// ```swift
    /// Reminder.select { $0.notes.replace("\n", " ") }  // SELECT replace("reminders"."notes", ?, ?) …
    /// ```
    public func replace(_ pattern: String, _ replacement: String) -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(.function("replace", sqlExpression, .value(.text(pattern)), .value(.text(replacement))))
    }

    /// `substr(x, offset)` or `substr(x, offset, length)`: SQLite's substring, `offset`
    /// counting from 1 (0 reads as 1 with one character fewer, as SQLite does).
    public func substr(_ offset: Int, _ length: Int? = nil) -> SQLQueryExpression<QueryValue> {
        let start = SQLExpression.value(.integer(Int64(offset)))
        guard let length else { return SQLQueryExpression(.function("substr", sqlExpression, start)) }
        return SQLQueryExpression(.function("substr", sqlExpression, start, .value(.integer(Int64(length)))))
    }

    /// `trim(x)`, or `trim(x, characters)`: leading and trailing spaces (or those characters)
    /// removed.
    public func trim(_ characters: String? = nil) -> SQLQueryExpression<QueryValue> {
        guard let characters else { return SQLQueryExpression(.function("trim", sqlExpression)) }
        return SQLQueryExpression(.function("trim", sqlExpression, .value(.text(characters))))
    }

    /// `ltrim(x)`, or `ltrim(x, characters)`: leading spaces (or those characters) removed.
    ///
    /// ```swift
    /// Tag.select { $0.title.ltrim("#") }  // SELECT ltrim("tags"."title", ?) FROM "tags"
    /// ```
    public func ltrim(_ characters: String? = nil) -> SQLQueryExpression<QueryValue> {
        guard let characters else { return SQLQueryExpression(.function("ltrim", sqlExpression)) }
        return SQLQueryExpression(.function("ltrim", sqlExpression, .value(.text(characters))))
    }

    /// `rtrim(x)`, or `rtrim(x, characters)`: trailing spaces (or those characters) removed.
    public func rtrim(_ characters: String? = nil) -> SQLQueryExpression<QueryValue> {
        guard let characters else { return SQLQueryExpression(.function("rtrim", sqlExpression)) }
        return SQLQueryExpression(.function("rtrim", sqlExpression, .value(.text(characters))))
    }

    /// `quote(x)`: the text as an SQL string literal (`'it''s'`), and the text `NULL` for
    /// NULL.
    ///
    /// ```swift
    /// Reminder.select { $0.title.quote() }  // SELECT quote("reminders"."title") FROM "reminders"
    /// ```
    ///
    /// On PostgreSQL, `coalesce('''' || replace(x, '''', '''''') || '''', 'NULL')`: its own
    /// `quote_nullable` writes text holding a backslash as `E'…'`.
    public func quote() -> SQLQueryExpression<QueryValue> {
        SQLQueryExpression(.function("quote", sqlExpression))
    }

    /// `unicode(x)`: the code point of the first character, `nil` for empty text or NULL.
    ///
    /// ```swift
    /// Tag.select { $0.title.unicode() }  // SELECT unicode("tags"."title") FROM "tags"   → [Int?]
    /// ```
    ///
    /// On PostgreSQL, `ascii(nullif(x, ''))` (its `ascii('')` is 0).
    public func unicode() -> SQLQueryExpression<Int?> {
        SQLQueryExpression(.function("unicode", sqlExpression))
    }

    /// `instr(x, other)`: the 1-based position of the first `other` in `x`, 0 when absent;
    /// `Int?` on optional text, `nil` for NULL.
    public func instr(_ other: String) -> SQLQueryExpression<QueryValue._TextCount> {
        SQLQueryExpression(.function("instr", sqlExpression, .value(.text(other))))
    }

}
