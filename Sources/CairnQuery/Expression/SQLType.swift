/// A type for `CAST(x AS type)`; the dialect chooses its spelling.
///
/// ```swift
/// SQLExpression.column("n").cast(as: .integer)
/// // SQLite:     CAST("n" AS INTEGER)
/// // PostgreSQL: CAST("n" AS BIGINT)
/// ```
public struct SQLType: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case integer, real, text, blob, numeric, boolean
        case named(String)
    }

    let kind: Kind

    /// A 64-bit integer (`INTEGER` on SQLite).
    public static let integer = SQLType(kind: .integer)
    /// A double-precision float (`REAL` on SQLite).
    public static let real = SQLType(kind: .real)
    /// Text (`TEXT`).
    public static let text = SQLType(kind: .text)
    /// Bytes (`BLOB` on SQLite, `BYTEA` on PostgreSQL).
    public static let blob = SQLType(kind: .blob)
    /// `NUMERIC` affinity.
    public static let numeric = SQLType(kind: .numeric)
    /// A boolean (`INTEGER` on SQLite, `BOOLEAN` on PostgreSQL).
    public static let boolean = SQLType(kind: .boolean)

    /// A type spelled as given, for example `VARCHAR(20)` or `DECIMAL(10, 2)`: words (letters,
    /// digits, `_`, spaces) and at most one final parenthesized list of numbers; rendering
    /// throws otherwise.
    public static func named(_ name: String) -> SQLType { SQLType(kind: .named(name)) }
}
