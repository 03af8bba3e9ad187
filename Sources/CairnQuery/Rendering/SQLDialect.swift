/// The SQL spelling of one database: placeholders, identifier quoting, boolean constants,
/// `NULLS FIRST`, `LIMIT`, type names and null-safe equality.
///
/// The renderer walks the IR once and asks the dialect only for these spellings, so a new
/// database is one small type. ``SQLiteDialect`` is the engine's; ``PostgreSQLDialect`` proves
/// the seam (numbered `$n` placeholders).
///
/// ```swift
/// let expression = SQLExpression.column("n").equals(.value(.integer(1)))
/// try expression.render(dialect: SQLiteDialect()).sql      // "n" = ?
/// try expression.render(dialect: PostgreSQLDialect()).sql  // "n" = $1
/// ```
public protocol SQLDialect: Sendable {
    /// The placeholder of the argument at `index` (1-based), for example `?` or `$1`.
    func placeholder(at index: Int) -> String

    /// The quoted form of an identifier (a table, column or alias name).
    ///
    /// The default wraps the name in double quotes and doubles embedded ones
    /// (`my "t"` → `"my ""t"""`).
    func quote(identifier: String) -> String

    /// The constant for true or false (`1`/`0` on SQLite).
    func booleanLiteral(_ value: Bool) -> String

    /// Whether `ORDER BY … NULLS FIRST|LAST` is understood. When false, the renderer emulates
    /// it with an extra `x IS NULL` key.
    var supportsNullsOrdering: Bool { get }

    /// Whether the database sorts NULL after every value when ascending (PostgreSQL). SQLite
    /// sorts it before, and Cairn's orderings mean SQLite's order: for such a dialect an
    /// ordering without an explicit `NULLS` clause is rendered with SQLite's.
    var sortsNullsLargest: Bool { get }

    /// The `LIMIT`/`OFFSET` clause (without a leading space) from the rendered limit and offset
    /// expressions (placeholders); at least one is non-nil. The limit's argument is bound
    /// before the offset's.
    func limitClause(limit: String?, offset: String?) -> String

    /// The spelling of a type in `CAST(x AS type)`; `named` types are passed through.
    func typeName(_ type: SQLType) -> String

    /// The null-safe equality operator (`IS`), or its negation (`IS NOT`).
    func nullSafeEqualityOperator(negated: Bool) -> String

    /// The dialect's form of a call to the scalar function `name` (as SQLite spells it), or
    /// nil to call it as it is. Throws ``SQLRenderError`` when the dialect has nothing that
    /// answers the same, naming the function.
    func function(_ name: String, _ arguments: [SQLExpression]) throws -> SQLExpression?

    /// The dialect's form of an aggregate call (as SQLite spells it), or nil to call it as it
    /// is. Throws ``SQLRenderError`` when the dialect has nothing that answers the same.
    func aggregate(_ aggregate: SQLAggregate) throws -> SQLExpression?

    /// The operator `op` where the dialect spells it differently from SQLite; throws
    /// ``SQLRenderError`` for one the dialect lacks (`GLOB`).
    func operatorToken(_ op: SQLBinaryOperator) throws -> String?

    /// The dialect's name for the collation `name` (as SQLite spells it); throws
    /// ``SQLRenderError`` for one the dialect lacks (`NOCASE`).
    func collation(_ name: String) throws -> String

    /// The dialect's form of `lhs op rhs` where it is another expression (a `GLOB` with a
    /// constant pattern as a `LIKE`), or `nil` to render it as it is.
    func binary(_ op: SQLBinaryOperator, _ lhs: SQLExpression, _ rhs: SQLExpression) throws -> SQLExpression?

    /// Whether a collation name is written quoted (PostgreSQL folds an unquoted `C` to `c`,
    /// which names no collation); SQLite's are written bare.
    var quotesCollationNames: Bool { get }

    /// The operator that matches a `LIKE` pattern as SQLite's `LIKE` does (ASCII letters in
    /// either case), or its negation.
    func likeOperator(negated: Bool) -> String

    /// Whether a row of `INSERT … VALUES` may say `DEFAULT` (PostgreSQL); SQLite's may not.
    var writesDefaultInValues: Bool { get }

    /// Whether a bound value whose type the caller stated (``SQLExpression/typed(as:)``) is
    /// written `CAST(? AS type)`: PostgreSQL infers a parameter's type from where it stands,
    /// which in `nullif($1, 0)` is the `0`'s, not the division's. SQLite writes the value bare.
    var statesBoundValueTypes: Bool { get }

    /// Checks `ON CONFLICT DO UPDATE` without a conflict target, which SQLite applies to a
    /// conflict on any uniqueness constraint; a dialect whose database requires the target
    /// (PostgreSQL) throws ``SQLRenderError`` saying so.
    func checkUpdateWithoutConflictTarget() throws
}

extension SQLDialect {
    /// SQLite's spelling: every function as it is.
    public func function(_ name: String, _ arguments: [SQLExpression]) throws -> SQLExpression? { nil }

    /// SQLite's spelling: every aggregate as it is.
    public func aggregate(_ aggregate: SQLAggregate) throws -> SQLExpression? { nil }

    /// SQLite's spelling of every operator.
    public func operatorToken(_ op: SQLBinaryOperator) throws -> String? { nil }

    /// SQLite's collation names.
    public func collation(_ name: String) throws -> String { name }

    /// Every binary operator as it is.
    public func binary(_ op: SQLBinaryOperator, _ lhs: SQLExpression, _ rhs: SQLExpression) throws -> SQLExpression? { nil }

    /// Collation names written bare, as SQLite's are.
    public var quotesCollationNames: Bool { false }

    /// `ON CONFLICT DO UPDATE` without a target is taken, as SQLite takes it.
    public func checkUpdateWithoutConflictTarget() throws {}

    /// No `DEFAULT` in `VALUES`, as in SQLite.
    public var writesDefaultInValues: Bool { false }

    /// Bound values written bare, as SQLite takes them. A dialect that wraps another forwards
    /// this too.
    public var statesBoundValueTypes: Bool { false }

    /// NULL sorts before every value, as in SQLite.
    public var sortsNullsLargest: Bool { false }

    /// `LIKE`, which is case-insensitive for ASCII letters in SQLite.
    public func likeOperator(negated: Bool) -> String { negated ? "NOT LIKE" : "LIKE" }

    /// The identifier in double quotes, with embedded quotes doubled.
    public func quote(identifier: String) -> String {
        var name = identifier
        return name.withUTF8 { utf8 in
            String(unsafeUninitializedCapacity: 2 * utf8.count + 2) { buffer in
                guard let destination = buffer.baseAddress else { return 0 }
                return writeQuotedIdentifier(utf8, to: destination).count
            }
        }
    }
}

/// Writes `utf8` wrapped in double quotes, with each quote doubled, to `destination`, which
/// must hold `2 * utf8.count + 2` bytes. Returns the bytes written, and whether the name holds
/// a NUL (no dialect can quote one). A `"` is never part of a longer UTF-8 sequence, so
/// doubling it cannot split a character.
func writeQuotedIdentifier(
    _ utf8: UnsafeBufferPointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>
) -> (count: Int, hasNUL: Bool) {
    var end = 0
    var hasNUL = false
    destination[end] = UInt8(ascii: "\"")
    end += 1
    for byte in utf8 {
        hasNUL = hasNUL || byte == 0
        destination[end] = byte
        end += 1
        if byte == UInt8(ascii: "\"") {
            destination[end] = byte
            end += 1
        }
    }
    destination[end] = UInt8(ascii: "\"")
    return (end + 1, hasNUL)
}

/// SQLite's SQL: `?` placeholders, `1`/`0` booleans, `IS` for null-safe equality.
///
/// ```swift
/// try SQLSelect(from: "t").limit(10).offset(20).render(dialect: SQLiteDialect()).sql
/// // SELECT * FROM "t" LIMIT ? OFFSET ?
/// ```
public struct SQLiteDialect: SQLDialect {
    /// The SQLite dialect.
    public init() {}

    /// The dialect's placeholder for the parameter at `index` (`?`, `$1`).
    public func placeholder(at index: Int) -> String { "?" }

    /// How the dialect writes `true` and `false`.
    public func booleanLiteral(_ value: Bool) -> String { value ? "1" : "0" }

    /// Bound values written bare: SQLite takes a value of any type anywhere.
    public var statesBoundValueTypes: Bool { false }

    /// SQLite understands `NULLS FIRST`/`NULLS LAST` since 3.30.
    public var supportsNullsOrdering: Bool { true }

    /// The dialect's `LIMIT`/`OFFSET` clause around the placeholders of its bound values.
    public func limitClause(limit: String?, offset: String?) -> String {
        switch (limit, offset) {
        case let (limit?, offset?): "LIMIT \(limit) OFFSET \(offset)"
        case let (limit?, nil): "LIMIT \(limit)"
        // SQLite has no OFFSET without LIMIT; a negative limit means no limit.
        case let (nil, offset?): "LIMIT -1 OFFSET \(offset)"
        case (nil, nil): ""
        }
    }

    /// The dialect's name for a column type.
    public func typeName(_ type: SQLType) -> String {
        switch type.kind {
        case .integer, .boolean: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        case .numeric: "NUMERIC"
        case .named(let name): name
        }
    }

    /// The dialect's equality that treats two NULLs as equal (`IS`, `IS NOT DISTINCT FROM`).
    public func nullSafeEqualityOperator(negated: Bool) -> String { negated ? "IS NOT" : "IS" }
}
