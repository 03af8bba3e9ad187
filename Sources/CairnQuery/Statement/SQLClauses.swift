// The pieces statements are made of: result columns, sources, joins, ordering terms,
// assignments and common table expressions.

/// One result column of a `SELECT` or `RETURNING` clause: `expression [AS "alias"]`.
///
/// ```swift
/// SQLSelectColumn(.countAll, as: "n") // COUNT(*) AS "n"
/// ```
public struct SQLSelectColumn: Sendable, Hashable {
    /// The value of the column.
    public var expression: SQLExpression
    /// The name of the column in the result, quoted when rendered.
    public var alias: String?

    /// A result column, optionally named.
    public init(_ expression: SQLExpression, as alias: String? = nil) {
        self.expression = expression
        self.alias = alias
    }
}

/// What a `FROM` clause or a join reads: a table, a subquery or a table-valued function,
/// optionally aliased.
///
/// ```swift
/// SQLTableSource.table("reminders", as: "r")           // "reminders" AS "r"
/// SQLTableSource.table("reminders", schema: "aux")     // "aux"."reminders"
/// SQLTableSource.subquery(SQLSelect(from: "t"), as: "s") // (SELECT * FROM "t") AS "s"
/// ```
public struct SQLTableSource: Sendable, Hashable {
    indirect enum Kind: Sendable, Hashable {
        /// `["schema".]"name" [AS "alias"]`
        case table(name: String, schema: String?, alias: String?)
        /// `(SELECT …) [AS "alias"]`
        case subquery(SQLSelect, alias: String?)
        /// `json_each(…) [AS "alias"]`: a table-valued function, whose columns go by the
        /// function's name (or the alias).
        case function(name: String, call: SQLExpression, alias: String?)
    }

    let kind: Kind

    /// A table (or a common table expression) by name, in `schema` when one is given (an
    /// attached SQLite database, a PostgreSQL schema).
    public static func table(_ name: String, schema: String? = nil, as alias: String? = nil) -> SQLTableSource {
        SQLTableSource(kind: .table(name: name, schema: schema, alias: alias))
    }

    /// A subquery used as a table.
    public static func subquery(_ select: SQLSelect, as alias: String? = nil) -> SQLTableSource {
        SQLTableSource(kind: .subquery(select, alias: alias))
    }

    /// A table-valued function called with `arguments` (`json_each("reminders"."tags")`).
    public static func function(_ name: String, _ arguments: [SQLExpression], as alias: String? = nil) -> SQLTableSource {
        SQLTableSource(kind: .function(name: name, call: .function(name, arguments), alias: alias))
    }

    /// The table name, or `nil` for a subquery or a table-valued function.
    public var tableName: String? {
        if case .table(let name, _, _) = kind { return name }
        return nil
    }

    /// The alias, if any.
    public var alias: String? {
        switch kind {
        case .table(_, _, let alias), .subquery(_, let alias), .function(_, _, let alias): alias
        }
    }

    /// The name columns of this source are qualified with: the alias, else the table (or
    /// table-valued function's) name.
    public var qualifier: String? {
        if case .function(let name, _, let alias) = kind { return alias ?? name }
        return alias ?? tableName
    }
}

/// The kind of a join.
public enum SQLJoinKind: Sendable, Hashable {
    /// `JOIN`
    case inner
    /// `LEFT JOIN`
    case left
    /// `RIGHT JOIN` (SQLite 3.39+)
    case right
    /// `FULL JOIN` (SQLite 3.39+)
    case full
    /// `CROSS JOIN` (no `ON`)
    case cross
}

/// One join of a `SELECT`: `LEFT JOIN "lists" AS "l" ON "l"."id" = "r"."listID"`.
public struct SQLJoin: Sendable, Hashable {
    /// INNER, LEFT, RIGHT, FULL or CROSS.
    public var kind: SQLJoinKind
    /// The joined table or subquery.
    public var source: SQLTableSource
    /// The join condition; `nil` joins every row (`ON` omitted).
    public var condition: SQLExpression?

    /// A join of `source` on `condition`.
    public init(_ kind: SQLJoinKind, _ source: SQLTableSource, on condition: SQLExpression?) {
        self.kind = kind
        self.source = source
        self.condition = condition
    }
}

/// The direction of an `ORDER BY` term.
public enum SQLOrderDirection: Sendable, Hashable {
    /// `ASC`
    case ascending
    /// `DESC`
    case descending
}

/// Where `NULL` sorts in an `ORDER BY` term.
public enum SQLNullOrdering: Sendable, Hashable {
    /// `NULLS FIRST`
    case first
    /// `NULLS LAST`
    case last
}

/// One `ORDER BY` term: `expression [COLLATE c] ASC|DESC [NULLS FIRST|LAST]`.
///
/// ```swift
/// SQLOrderingTerm(.column("title"), .ascending, collation: "NOCASE")
/// // "title" COLLATE NOCASE ASC
/// ```
public struct SQLOrderingTerm: Sendable, Hashable {
    /// The sort key.
    public var expression: SQLExpression
    /// `ASC` or `DESC`.
    public var direction: SQLOrderDirection
    /// `NULLS FIRST` / `NULLS LAST`, or the database's default (SQLite: nulls first when
    /// ascending).
    public var nulls: SQLNullOrdering?
    /// A collation applied to the key (`COLLATE name`).
    public var collation: String?
    /// Whether the key is never `NULL` (a column of a non-optional type, outside an outer
    /// join): then where NULLs sort does not matter, and no `NULLS` clause is written for a
    /// dialect whose default differs from SQLite's. PostgreSQL uses a plain index on the
    /// column for `ORDER BY "c" DESC`, but not for `"c" DESC NULLS LAST`.
    public var keyIsNeverNull = false

    /// An ordering term.
    public init(
        _ expression: SQLExpression, _ direction: SQLOrderDirection = .ascending,
        nulls: SQLNullOrdering? = nil, collation: String? = nil
    ) {
        self.expression = expression
        self.direction = direction
        self.nulls = nulls
        self.collation = collation
    }
}

/// One `SET "column" = value` pair of an `UPDATE` or an upsert.
///
/// ```swift
/// SQLAssignment("count", .column("count").plus(.value(.integer(1)))) // "count" = "count" + ?
/// ```
public struct SQLAssignment: Sendable, Hashable {
    /// The unqualified column name.
    public var column: String
    /// The new value.
    public var value: SQLExpression

    /// An assignment of `value` to `column`.
    public init(_ column: String, _ value: SQLExpression) {
        self.column = column
        self.value = value
    }
}

/// One common table expression of a `WITH` clause: `"name"("a", "b") AS (SELECT …)`.
public struct SQLCommonTableExpression: Sendable, Hashable {
    /// The name the statement refers to.
    public var name: String
    /// Column names; empty takes the names of the select's result columns.
    public var columns: [String]
    /// The query (for a recursive CTE, a compound select that refers to `name`).
    public var select: SQLSelect

    /// A common table expression.
    public init(_ name: String, columns: [String] = [], as select: SQLSelect) {
        self.name = name
        self.columns = columns
        self.select = select
    }
}

/// The operator joining two selects of a compound select.
public enum SQLCompoundOperator: Sendable, Hashable {
    /// `UNION`
    case union
    /// `UNION ALL`
    case unionAll
    /// `INTERSECT`
    case intersect
    /// `EXCEPT`
    case except
}
