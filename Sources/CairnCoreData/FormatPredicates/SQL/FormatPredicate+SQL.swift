import CairnQuery
import CairnSQLite
import Foundation

extension FormatPredicate {
    /// Compiles the predicate to a `WHERE` condition of the query IR, checking every key path
    /// against `entity`. Values are bound, never spliced. The SQL needs the functions of
    /// ``FormatSQLFunctions`` registered on the connection.
    ///
    /// ```swift
    /// let predicate = try FormatPredicate("name BEGINSWITH %@ AND ANY items.qty > 1", arguments: ["Star"])
    /// try predicate.sqlCondition(for: expense).render().sql
    /// // "Expense"."name" >= ? AND "Expense"."name" < ? AND EXISTS (SELECT 1 FROM "Item" AS "sub1"
    /// //   WHERE "sub1"."expense" = "Expense"."id" AND "sub1"."qty" > ?)
    /// ```
    ///
    /// The translation keeps the in-memory meaning: comparisons are two-valued (`nil` matches
    /// only `nil`, also under `NOT`), `==` is `IS`, `[c]`/`[d]` fold through `cairn_fold`,
    /// `BEGINSWITH` without options is a range that can use an index, `ENDSWITH`, `CONTAINS`
    /// and `LIKE` become `GLOB` patterns with `*`, `?` and `[` escaped (so `%` and `_` are
    /// literal), `MATCHES` calls `cairn_regexp`, `ANY`/`ALL`/`NONE` and collection operators on
    /// to-many relationships become `EXISTS`/`COUNT`/`SUM` subqueries.
    ///
    /// - Parameter entity: the entity.
    /// - Parameter tableAlias: the name the outer query gives the entity's table (default: the
    ///   table's name); every column is qualified with it.
    /// - Throws: ``FormatPredicateError`` for a key that is not in `entity` (listing the valid
    ///   ones), a `$VARIABLE` without a value, or a construct SQL cannot express (named).
    public func sqlCondition(for entity: FormatSQLEntity, tableAlias: String? = nil)
        throws(FormatPredicateError) -> SQLExpression
    {
        let compiler = FormatSQLCompiler(aliases: FormatSQLAliasCounter(), now: Date())
        let scope = FormatSQLScope(entity: entity, alias: tableAlias ?? entity.table)
        return try compiler.condition(self, in: scope, variables: [:], negated: false)
    }
}

extension FormatExpression {
    /// Compiles the expression to a scalar SQL expression over one row of `entity`: key paths
    /// (through to-one relationships) become columns, constants bound values, arithmetic and
    /// functions their SQL forms (an `NSExpressionDescription`'s value).
    ///
    /// ```swift
    /// try FormatPredicateParser.parseExpression("amount * 2").sqlExpression(for: expense).render().sql
    /// // "Expense"."amount" * ?        (2)
    /// ```
    ///
    /// - Throws: ``FormatPredicateError`` for an unknown key, a to-many key path or a list
    ///   where one value is expected, or a construct SQL cannot express.
    public func sqlExpression(for entity: FormatSQLEntity, tableAlias: String? = nil)
        throws(FormatPredicateError) -> SQLExpression
    {
        let compiler = FormatSQLCompiler(aliases: FormatSQLAliasCounter(), now: Date())
        let scope = FormatSQLScope(entity: entity, alias: tableAlias ?? entity.table)
        return try compiler.sql(try compiler.operand(self, in: scope, variables: [:]), [])
    }
}

extension FormatSortDescriptor {
    /// The `ORDER BY` term of the descriptor: the key path's column (through to-one
    /// relationships), its direction, and the collation of its comparison.
    ///
    /// ```swift
    /// let natural = FormatSortDescriptor(key: "name", comparison: .localizedStandardCompare)
    /// try SQLSelect(from: "Expense").orderBy(natural.sqlOrderingTerm(for: expense)).render().sql
    /// // SELECT * FROM "Expense" ORDER BY "Expense"."name" COLLATE cairn_localized_standard ASC
    /// ```
    public func sqlOrderingTerm(for entity: FormatSQLEntity, tableAlias: String? = nil)
        throws(FormatPredicateError) -> SQLOrderingTerm
    {
        let compiler = FormatSQLCompiler(aliases: FormatSQLAliasCounter(), now: Date())
        let scope = FormatSQLScope(entity: entity, alias: tableAlias ?? entity.table)
        let path = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard case .scalar(let column) = try compiler.resolve(path[...], in: scope) else {
            throw FormatPredicateError(.unsupported, "cannot sort by '\(key)': it names a to-many relationship")
        }
        let collation = FormatSQLFunctions.collationName(for: comparison)
        return ascending ? column.ascending(collation: collation) : column.descending(collation: collation)
    }
}

/// A table in scope: the entity and the alias its columns are qualified with.
struct FormatSQLScope {
    let entity: FormatSQLEntity
    let alias: String

    func column(_ name: String) -> SQLExpression { .column(name, table: alias) }
}

/// Hands out subquery aliases (`sub1`, `sub2`, …) unique within one compilation.
final class FormatSQLAliasCounter {
    private var next = 1
    func make() -> String {
        defer { next += 1 }
        return "sub\(next)"
    }
}

/// The rows of a to-many relationship (or a `SUBQUERY` over one), correlated to the outer row.
struct FormatSQLCollection {
    let scope: FormatSQLScope
    /// `"sub1"."expense" = "Expense"."id"` plus any `SUBQUERY` filter.
    var condition: SQLExpression
    /// The value of each element (`"sub1"."qty"`), or nil for the rows themselves.
    var element: SQLExpression?

    func select(_ columns: [SQLExpression], where extra: SQLExpression? = nil) -> SQLSelect {
        var select = SQLSelect(columns, from: .table(scope.entity.table, as: scope.alias))
        select.condition = extra.map { condition.and($0) } ?? condition
        return select
    }
}

/// A compiled operand: a constant (bound, or folded in Swift), a scalar SQL expression, or a
/// collection.
enum FormatSQLOperand {
    case constant(FormatValue)
    case scalar(SQLExpression)
    case collection(FormatSQLCollection)
    /// `{a, b}` with key paths: the right side of `IN` or `BETWEEN`, or a function's arguments.
    case list([FormatSQLOperand])
}

extension FormatValue {
    /// The value as bound: dates as seconds since 2001, Bool as 0/1, UUID as its lowercase text.
    var databaseValue: DatabaseValue? {
        switch self {
        case .null: .null
        case .bool(let bool): .integer(bool ? 1 : 0)
        case .int(let int): .integer(int)
        case .double(let double): .real(double)
        case .string(let string): .text(string)
        case .date(let date): .real(date.timeIntervalSinceReferenceDate)
        case .data(let data): .blob(data)
        case .uuid(let uuid): uuid.databaseValue
        case .array, .opaque: nil
        case .identifier(let identifier): identifier.primaryKey.map(DatabaseValue.integer)
        }
    }
}
