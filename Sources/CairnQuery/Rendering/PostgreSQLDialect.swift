/// PostgreSQL's SQL: `$1` placeholders, `TRUE`/`FALSE`, `IS [NOT] DISTINCT FROM`, PostgreSQL
/// type names, and SQLite's functions written so that they answer what SQLite answers.
///
/// ```swift
/// let names = SQLSelect([SQLSelectColumn(.groupConcat(.column("title")))], from: "tags")
/// try names.render(dialect: PostgreSQLDialect()).sql
/// // SELECT string_agg(CAST("title" AS TEXT), ',') FROM "tags"
/// ```
///
/// What is rewritten, and why:
/// - an ordering without `NULLS FIRST`/`LAST` gets SQLite's (`ASC NULLS FIRST`,
///   `DESC NULLS LAST`): PostgreSQL's defaults are the opposite;
/// - `instr(a, b)` → `strpos(a, b)`, `ifnull` → `coalesce`, `iif(c, a, b)` → `CASE`,
///   `char(n)` → `chr(n)`, `unicode(s)` → `ascii(nullif(s, ''))` (a code point in a UTF-8
///   database; NULL for empty text, as SQLite);
/// - `sign(x)` → `CAST(sign(CAST(x AS DOUBLE PRECISION)) AS BIGINT)` (SQLite's is an integer);
///   `hex(b)` → `coalesce(upper(encode(b, 'hex')), '')`; `zeroblob(n)` →
///   `decode(repeat('00', n), 'hex')`; `quote(s)` → the text between quotes with its quotes
///   doubled, or `'NULL'` (PostgreSQL's `quote_nullable` writes a backslash as `E'…'`);
/// - `round(x)`, `round(x, n)` round `CAST(x AS NUMERIC)`: PostgreSQL rounds a
///   `DOUBLE PRECISION` half to even, SQLite (and a `NUMERIC`) half away from zero;
/// - `mod(x, y)` → `mod(CAST(x AS NUMERIC), nullif(CAST(y AS NUMERIC), 0))`: SQLite's
///   divides doubles too, and answers NULL for a zero divisor where PostgreSQL fails;
/// - scalar `max(a, b, …)`/`min(a, b, …)` → `greatest`/`least`, NULL when any argument is
///   NULL as in SQLite (PostgreSQL's skip NULLs);
/// - `GROUP_CONCAT(x[, separator])` → `string_agg(CAST(x AS TEXT), separator)` (`,` by
///   default); `TOTAL(x)` → `coalesce(sum(CAST(x AS DOUBLE PRECISION)), 0.0)`; `AVG(x)` →
///   `avg(CAST(x AS DOUBLE PRECISION))` (SQLite averages in doubles);
/// - `likely(x)`, `unlikely(x)`, `likelihood(x, p)` → `x` (planner hints only);
/// - `COLLATE BINARY` → `COLLATE "C"` (byte order, as SQLite's BINARY); every collation name
///   is quoted, as PostgreSQL reads an unquoted one in lower case;
/// - `LIKE` → `ILIKE`: SQLite's `LIKE` ignores the case of ASCII letters. (`ILIKE` also
///   ignores the case of other letters, where SQLite's does not.)
///
/// What has no PostgreSQL form that answers the same throws ``SQLRenderError`` naming it:
/// `GLOB`, `COLLATE NOCASE`/`RTRIM`, SQLite's date functions (`strftime`, `julianday`, `date`,
/// `time`, `datetime`, `unixepoch`), its JSON functions, `typeof`, `printf`, `randomblob`,
/// `soundex`, `last_insert_rowid` and `changes`.
public struct PostgreSQLDialect: SQLDialect {
    /// The PostgreSQL dialect.
    public init() {}

    /// The dialect's placeholder for the parameter at `index` (`?`, `$1`).
    public func placeholder(at index: Int) -> String { "$\(index)" }

    /// How the dialect writes `true` and `false`.
    public func booleanLiteral(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }

    /// Whether the dialect accepts `NULLS FIRST`/`NULLS LAST`.
    public var supportsNullsOrdering: Bool { true }

    /// PostgreSQL sorts NULL after every value when ascending: orderings write SQLite's
    /// order out (`ASC NULLS FIRST`, `DESC NULLS LAST`).
    public var sortsNullsLargest: Bool { true }

    /// `INSERT … VALUES (DEFAULT, …)` takes a column's default (an identity key's next value).
    public var writesDefaultInValues: Bool { true }

    /// A bound value of a stated type is written `CAST($n AS type)`.
    public var statesBoundValueTypes: Bool { true }

    /// The dialect's `LIMIT`/`OFFSET` clause around the placeholders of its bound values.
    public func limitClause(limit: String?, offset: String?) -> String {
        [limit.map { "LIMIT \($0)" }, offset.map { "OFFSET \($0)" }]
            .compactMap { $0 }.joined(separator: " ")
    }

    /// The dialect's name for a column type.
    public func typeName(_ type: SQLType) -> String {
        switch type.kind {
        case .integer: "BIGINT"
        case .boolean: "BOOLEAN"
        case .real: "DOUBLE PRECISION"
        case .text: "TEXT"
        case .blob: "BYTEA"
        case .numeric: "NUMERIC"
        case .named(let name): name
        }
    }

    /// The dialect's equality that treats two NULLs as equal (`IS`, `IS NOT DISTINCT FROM`).
    public func nullSafeEqualityOperator(negated: Bool) -> String {
        negated ? "IS DISTINCT FROM" : "IS NOT DISTINCT FROM"
    }

    /// SQLite's scalar functions as PostgreSQL calls them (see the type's notes).
    public func function(_ name: String, _ arguments: [SQLExpression]) throws -> SQLExpression? {
        switch name.lowercased() {
        case "instr" where arguments.count == 2:
            return .function("strpos", arguments)
        case "ifnull":
            return .function("coalesce", arguments)
        case "iif" where arguments.count == 3:
            return .case(when: [(arguments[0], arguments[1])], else: arguments[2])
        case "char" where arguments.count == 1:
            return .function("chr", arguments)
        case "unicode" where arguments.count == 1:
            return .function("ascii", [.function("nullif", [arguments[0], Self.literal("''")])])
        case "sign" where arguments.count == 1 && Self.isCast(arguments[0], to: .real):
            return nil  // already rewritten
        case "sign" where arguments.count == 1:
            return .function("sign", [arguments[0].cast(as: .real)]).cast(as: .integer)
        case "hex" where arguments.count == 1:
            let encoded = SQLExpression.function("encode", [arguments[0], Self.literal("'hex'")])
            return .function("coalesce", [.function("upper", [encoded]), Self.literal("''")])
        case "quote" where arguments.count == 1:
            // '''' is the literal of one quote, '''''' of two.
            let quote = Self.literal("''''")
            let doubled = SQLExpression.function("replace", [arguments[0], quote, Self.literal("''''''")])
            let quoted = quote.concatenated(with: doubled).concatenated(with: quote)
            return .function("coalesce", [quoted, Self.literal("'NULL'")])
        case "zeroblob" where arguments.count == 1:
            let zeros = SQLExpression.function("repeat", [Self.literal("'00'"), arguments[0].cast(as: .named("INTEGER"))])
            return .function("decode", [zeros, Self.literal("'hex'")])
        case "round" where arguments.first.map(Self.isNumericCast) == true:
            return nil  // already rewritten
        case "round" where arguments.count == 1:
            return .function("round", [arguments[0].cast(as: .numeric)])
        case "round" where arguments.count == 2:
            return .function("round", [arguments[0].cast(as: .numeric), arguments[1].cast(as: .named("INTEGER"))])
        case "mod" where arguments.first.map(Self.isNumericCast) == true:
            return nil  // already rewritten
        case "mod" where arguments.count == 2:
            // SQLite's mod() divides doubles and answers NULL for a zero divisor; PostgreSQL's
            // has no double precision form and fails on zero.
            return .function("mod", [arguments[0].cast(as: .numeric),
                                     .function("nullif", [arguments[1].cast(as: .numeric), Self.literal("0")])])
        case "max" where arguments.count > 1, "min" where arguments.count > 1:
            let spelled = name.lowercased() == "max" ? "greatest" : "least"
            return .case(when: [(.or(arguments.map { $0.isNull() }), .null)], else: .function(spelled, arguments))
        case "likely" where arguments.count == 1, "unlikely" where arguments.count == 1,
             "likelihood" where arguments.count == 2:
            return arguments[0]
        case "strftime", "julianday", "date", "time", "datetime", "unixepoch":
            throw unsupported("SQLite's date function \(name)()",
                              instead: "compute the date in Swift and bind it, or write PostgreSQL's own date functions in #sql")
        case let json where json.hasPrefix("json"):
            throw unsupported("SQLite's JSON function \(name)()", instead: "write PostgreSQL's json/jsonb functions in #sql")
        case "typeof", "printf", "format", "last_insert_rowid", "changes", "total_changes",
             "glob", "like", "soundex", "randomblob":
            throw unsupported("SQLite's function \(name)()", instead: "write the PostgreSQL equivalent in #sql")
        default:
            return nil
        }
    }

    /// SQLite's aggregates as PostgreSQL calls them (see the type's notes).
    public func aggregate(_ aggregate: SQLAggregate) throws -> SQLExpression? {
        switch aggregate.name.lowercased() {
        case "group_concat" where aggregate.arguments.count <= 2 && !aggregate.arguments.isEmpty:
            var spelled = aggregate
            spelled.name = "string_agg"
            spelled.arguments = [aggregate.arguments[0].cast(as: .text),
                                 aggregate.arguments.count == 2 ? aggregate.arguments[1] : Self.literal("','")]
            return .aggregate(spelled)
        case "avg" where aggregate.arguments.count == 1:
            // SQLite averages in doubles; PostgreSQL's avg of integers is a numeric of 16
            // decimals, which reads back one digit short of the double (-3.694444444444444 for
            // -3.6944444444444446).
            if case .cast(_, .real) = aggregate.arguments[0].node { return nil }
            var average = aggregate
            average.arguments = [aggregate.arguments[0].cast(as: .real)]
            return .aggregate(average)
        case "total" where aggregate.arguments.count == 1:
            var sum = aggregate
            sum.name = "sum"
            sum.arguments = [aggregate.arguments[0].cast(as: .real)]
            return .function("coalesce", [.aggregate(sum), Self.literal("0.0")])
        case let json where json.hasPrefix("json"):
            throw unsupported("SQLite's JSON aggregate \(aggregate.name)()",
                              instead: "write PostgreSQL's json_agg/jsonb_agg in #sql")
        default:
            return nil
        }
    }

    /// Collation names are quoted: PostgreSQL folds an unquoted name to lower case.
    public var quotesCollationNames: Bool { true }

    /// `ILIKE`: PostgreSQL's `LIKE` is case-sensitive, SQLite's is not for ASCII letters.
    public func likeOperator(negated: Bool) -> String { negated ? "NOT ILIKE" : "ILIKE" }

    /// `x GLOB 'pattern'` with a constant pattern: `(x LIKE 'pattern' ESCAPE '\')`, the
    /// pattern translated (``SQLPattern/like(fromGlob:)``). `LIKE`, not the `ILIKE` that
    /// stands for SQLite's `LIKE`: `GLOB` tells case.
    ///
    /// `x / y` and `x % y` divide by `nullif(y, 0)`: SQLite answers NULL for a zero divisor
    /// where PostgreSQL fails. A bound divisor is wrapped only when its type is stated
    /// (``SQLExpression/typed(as:)``, `nullif(CAST($1 AS BIGINT), 0)`): the server infers a
    /// bare `$1`'s type from the `0` (`integer`), and a `2.5` would not bind. A bare one
    /// stays `x / $1`, typed as `x`, and a zero there fails with PostgreSQL's
    /// division-by-zero error.
    public func binary(_ op: SQLBinaryOperator, _ lhs: SQLExpression, _ rhs: SQLExpression) throws -> SQLExpression? {
        switch (op, rhs.node) {
        case (.glob, .value(.text(let glob))):
            guard let pattern = SQLPattern.like(fromGlob: glob) else { return nil }
            return .raw("(\(lhs) LIKE \(SQLExpression.value(.text(pattern))) ESCAPE '\\')")
        case (.divide, _), (.remainder, _):
            switch rhs.node {
            case .value, .parameter, .null: return nil
            default:
                if case .function(let name, _, false) = rhs.node, name == "nullif" { return nil }
                return .binary(op, lhs, .function("nullif", [rhs, Self.literal("0")]))
            }
        default:
            return nil
        }
    }

    /// `GLOB` with a pattern that is not a constant has no PostgreSQL operator that matches
    /// the same strings.
    public func operatorToken(_ op: SQLBinaryOperator) throws -> String? {
        guard op == .glob else { return nil }
        throw unsupported("SQLite's GLOB operator (with a pattern that is not a constant or has a character class)",
                          instead: "use LIKE, or a regular expression (~) in #sql")
    }

    /// `BINARY` is byte order, PostgreSQL's `"C"`; `NOCASE` and `RTRIM` have no PostgreSQL
    /// collation that compares the same.
    public func collation(_ name: String) throws -> String {
        switch name.uppercased() {
        case "BINARY": return "C"
        case "NOCASE", "RTRIM":
            throw unsupported("SQLite's \(name.uppercased()) collation",
                              instead: "compare lower(x) (NOCASE folds ASCII letters only), or use a PostgreSQL collation")
        default: return name
        }
    }

    /// A constant the rewrite adds, written into the SQL rather than bound: the caller's
    /// arguments stay the ones its own expression bound, in its order.
    private static func literal(_ sql: String) -> SQLExpression {
        .raw(SQLFragment(sql: sql))
    }

    private static func isNumericCast(_ expression: SQLExpression) -> Bool {
        isCast(expression, to: .numeric)
    }

    private static func isCast(_ expression: SQLExpression, to target: SQLType) -> Bool {
        if case .cast(_, let type) = expression.node { return type == target }
        return false
    }

    /// PostgreSQL's `ON CONFLICT DO UPDATE` must name the conflicting columns.
    public func checkUpdateWithoutConflictTarget() throws {
        throw unsupported(
            "ON CONFLICT DO UPDATE without a conflict target",
            instead: "name the conflicting columns (onConflict: { $0.id } doUpdate: { … }), or use DO NOTHING")
    }

    private func unsupported(_ construct: String, instead: String) -> SQLRenderError {
        SQLRenderError(reason: .unsupported(construct: construct, dialect: "PostgreSQL", instead: instead))
    }
}
