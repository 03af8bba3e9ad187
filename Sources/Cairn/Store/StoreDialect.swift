import Foundation

/// The SQL a store speaks: SQLite's for a file or memory store, PostgreSQL's for a server
/// store. Model statements are built once in the query IR and rendered in the dialect of the
/// store they run on; compiled fetches are cached per dialect.
enum StoreDialect: Hashable, Sendable {
    case sqlite
    case postgres

    /// Renders `statement` for this store.
    func render(_ statement: some SQLRenderable) throws -> RenderedSQL {
        switch self {
        case .sqlite: try statement.render()
        case .postgres: try statement.render(dialect: PostgresModelDialect())
        }
    }

    /// The cache of typed statements rendered in this dialect.
    var renderCache: SQLRenderCache {
        switch self {
        case .sqlite: SQLRenderCache.shared
        case .postgres: PostgresRendering.cache
        }
    }

    /// Whether an INSERT's key comes back through `RETURNING` (a server has no
    /// `last_insert_rowid`).
    var returnsInsertedKeys: Bool { self == .postgres }

    /// `key IN (<keys>)` with the keys bound as one JSON array, so the SQL text does not depend
    /// on how many there are and no list of placeholders meets the engines' limits:
    /// SQLite's `json_each`, PostgreSQL's `json_array_elements_text` cast back to integers.
    func key(_ key: SQLExpression, in keys: some Sequence<Int64>) -> SQLExpression {
        let array = DatabaseValue.text("[" + keys.map(String.init).joined(separator: ",") + "]")
        switch self {
        case .sqlite:
            return .raw("\(key) IN (SELECT value FROM json_each(\(array)))")
        case .postgres:
            return .raw("\(key) IN (SELECT CAST(value AS BIGINT) FROM json_array_elements_text(CAST(\(array) AS JSON)))")
        }
    }
}

/// PostgreSQL's dialect with the functions and collations that Cairn's compiled predicates
/// and sorts call (``PredicateFunctions``) written in PostgreSQL, where it answers what Swift
/// answers; otherwise an error that names the construct and says what to write instead.
///
/// | SQLite (Cairn's) | PostgreSQL |
/// |---|---|
/// | `x COLLATE cairn_swift` (Swift's `String` `<`) | `x COLLATE "C"` (code point order) |
/// | `cairn_contains(a, b)` (`a.contains(b)`) | `strpos(a, b) > 0` |
/// | `cairn_starts_with(a, b)` (`a.starts(with: b)`) | `starts_with(a, b)` |
/// | `cairn_unwrap(x)` (`x!`) | `x` (a `NULL` row does not match, rather than failing the fetch) |
///
/// Swift compares text by canonical equivalence, and PostgreSQL by code points: the two agree
/// on text in one normalization form (NFC, what keyboards and most sources produce).
struct PostgresModelDialect: SQLDialect {
    private let base = PostgreSQLDialect()

    func placeholder(at index: Int) -> String { base.placeholder(at: index) }
    func quote(identifier: String) -> String { base.quote(identifier: identifier) }
    func booleanLiteral(_ value: Bool) -> String { base.booleanLiteral(value) }
    var supportsNullsOrdering: Bool { base.supportsNullsOrdering }
    var sortsNullsLargest: Bool { base.sortsNullsLargest }
    var writesDefaultInValues: Bool { base.writesDefaultInValues }
    var statesBoundValueTypes: Bool { base.statesBoundValueTypes }
    func limitClause(limit: String?, offset: String?) -> String { base.limitClause(limit: limit, offset: offset) }
    func typeName(_ type: SQLType) -> String { base.typeName(type) }
    func nullSafeEqualityOperator(negated: Bool) -> String { base.nullSafeEqualityOperator(negated: negated) }
    func aggregate(_ aggregate: SQLAggregate) throws -> SQLExpression? { try base.aggregate(aggregate) }
    func operatorToken(_ op: SQLBinaryOperator) throws -> String? { try base.operatorToken(op) }
    func binary(_ op: SQLBinaryOperator, _ lhs: SQLExpression, _ rhs: SQLExpression) throws -> SQLExpression? {
        try base.binary(op, lhs, rhs)
    }
    func likeOperator(negated: Bool) -> String { base.likeOperator(negated: negated) }
    var quotesCollationNames: Bool { base.quotesCollationNames }
    func checkUpdateWithoutConflictTarget() throws { try base.checkUpdateWithoutConflictTarget() }

    func function(_ name: String, _ arguments: [SQLExpression]) throws -> SQLExpression? {
        switch name {
        case PredicateFunctions.containsName where arguments.count == 2:
            // A literal, not a bound 0: compiled fetches map bound values to their sources.
            return .function("strpos", arguments).greaterThan(.raw(SQLFragment(sql: "0")))
        case PredicateFunctions.startsWithName where arguments.count == 2:
            return .function("starts_with", arguments)
        case PredicateFunctions.unwrapName where arguments.count == 1:
            return arguments[0]
        case "json_array_length" where arguments.count == 1:
            // An array attribute's JSON is stored as text.
            return .raw("json_array_length(CAST(\(arguments[0]) AS JSON))")
        case PredicateFunctions.characterCountName:
            throw unsupported("String.count (Characters) in a predicate",
                              instead: "compare the text itself, or count in Swift after the fetch")
        case PredicateFunctions.foldName, PredicateFunctions.localizedStandardContainsName:
            throw unsupported("a case- and diacritic-insensitive comparison (localizedStandardContains, [cd])",
                              instead: "compare with contains or == on text stored in the form you search for")
        case PredicateFunctions.localizedCompareName, PredicateFunctions.caseInsensitiveCompareName:
            throw unsupported("\(name)() (localized or case-insensitive comparison)",
                              instead: "sort and compare without a localized comparator")
        case let other where other.hasPrefix("cairn_"):
            // The format predicates' string functions (cairn_string_test, cairn_regexp,
            // cairn_lower, cairn_upper) run Swift's string code inside SQLite.
            throw unsupported("\(other)() (a string comparison Cairn runs in Swift inside SQLite: [c], [d], MATCHES, "
                                + "IN on text, lowercase(), uppercase() or a key path on the right of CONTAINS)",
                              instead: "compare with ==, BEGINSWITH, CONTAINS, ENDSWITH or LIKE without options")
        default:
            return try base.function(name, arguments)
        }
    }

    func collation(_ name: String) throws -> String {
        switch name {
        case PredicateFunctions.swiftCollationName:
            return "C"
        case PredicateFunctions.lexicalCollationName, PredicateFunctions.localizedCollationName,
             PredicateFunctions.localizedStandardCollationName, PredicateFunctions.caseInsensitiveCollationName:
            throw unsupported("the string comparator of a sort (\(name))",
                              instead: "sort with SortDescriptor(\\.property) (Swift's String order)")
        case PredicateFunctions.decimalCollationName:
            throw unsupported("Decimal order (Decimal attributes are stored as exact text)",
                              instead: "store the value as Double or Int to sort or compare it on PostgreSQL")
        default:
            return try base.collation(name)
        }
    }

    private func unsupported(_ construct: String, instead: String) -> SQLRenderError {
        SQLRenderError.unsupported(construct, dialect: "PostgreSQL", instead: instead)
    }
}
