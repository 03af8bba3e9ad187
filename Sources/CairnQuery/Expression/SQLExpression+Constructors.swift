import CairnSQLite

// MARK: - Leaves

extension SQLExpression {
    /// A column, optionally qualified by a table name or alias.
    ///
    /// ```swift
    /// SQLExpression.column("title")              // "title"
    /// SQLExpression.column("title", table: "t0") // "t0"."title"
    /// ```
    public static func column(_ name: String, table: String? = nil) -> SQLExpression {
        SQLExpression(.column(table: table, name: name))
    }

    /// A column of the row proposed for insertion, inside an upsert's `DO UPDATE`.
    ///
    /// ```swift
    /// SQLExpression.excluded("title") // "excluded"."title"
    /// ```
    public static func excluded(_ name: String) -> SQLExpression {
        SQLExpression(.column(table: "excluded", name: name))
    }

    /// A bound value: always a placeholder in the SQL text, never spliced.
    ///
    /// ```swift
    /// SQLExpression.value(.integer(42)) // ?   arguments: [.integer(42)]
    /// ```
    public static func value(_ value: DatabaseValue) -> SQLExpression {
        SQLExpression(.value(value))
    }

    /// `value` bound, or, when it cannot be bound, an expression whose rendering throws
    /// ``SQLRenderError`` naming the value and why: a statement that compares with a value the
    /// database cannot hold fails, rather than comparing with NULL.
    ///
    /// ```swift
    /// SQLExpression.binding(UInt64.max)  // rendering throws: "… UInt64 value 18446744073709551615
    ///                                    //  does not fit SQLite's 64-bit signed INTEGER …"
    /// ```
    public static func binding(_ value: some DatabaseValueConvertible) -> SQLExpression {
        do { return SQLExpression(.value(try value.databaseValueForBinding())) }
        catch { return unbindable(error) }
    }

    /// An expression standing for a value that could not be bound: rendering it throws
    /// ``SQLRenderError`` with `error`'s description.
    public static func unbindable(_ error: any Error) -> SQLExpression {
        SQLExpression(.unbindable(reason: String(describing: error)))
    }

    /// The SQL `NULL` keyword (not a bound value).
    ///
    /// ```swift
    /// SQLExpression.null // NULL
    /// ```
    public static let null = SQLExpression(.null)

    /// A value the database assigns, in a row of `INSERT … VALUES` (a draft's missing primary
    /// key): `DEFAULT` on PostgreSQL, a bound `NULL` on SQLite.
    public static let databaseDefault = SQLExpression(.databaseDefault)

    /// The boolean constant true: `1` on SQLite, `TRUE` on PostgreSQL.
    public static let `true` = SQLExpression(.boolean(true))

    /// The boolean constant false: `0` on SQLite, `FALSE` on PostgreSQL.
    public static let `false` = SQLExpression(.boolean(false))

    /// `*`, every column of every table in `FROM` (also the argument of `COUNT(*)`).
    public static let star = SQLExpression(.allColumns(table: nil))

    /// Every column of one table or alias.
    ///
    /// ```swift
    /// SQLExpression.allColumns(of: "t0") // "t0".*
    /// ```
    public static func allColumns(of table: String) -> SQLExpression {
        SQLExpression(.allColumns(table: table))
    }

    /// A parameter: a placeholder whose value is given after rendering, by
    /// ``RenderedSQL/binding(_:)``, so one rendering (and one prepared statement) serves
    /// every value. Indexes are the positions in the array given to `binding`.
    ///
    /// ```swift
    /// let template = try SQLSelect(from: "t").where(.column("id").equals(.parameter(0))).render()
    /// template.sql                                  // SELECT * FROM "t" WHERE "id" = ?
    /// try template.binding([.integer(7)]).arguments  // [.integer(7)]
    /// ```
    public static func parameter(_ index: Int) -> SQLExpression {
        SQLExpression(.parameter(index))
    }

    /// A row value: `(a, b)`.
    ///
    /// ```swift
    /// SQLExpression.row([.column("a"), .column("b")]).in(SQLSelect([.column("x"), .column("y")], from: .table("t")))
    /// // ("a", "b") IN (SELECT "x", "y" FROM "t")
    /// ```
    public static func row(_ expressions: [SQLExpression]) -> SQLExpression {
        SQLExpression(.row(expressions))
    }

    /// Raw SQL with bound values and nested expressions: the IR of `#sql`.
    ///
    /// ```swift
    /// let name = DatabaseValue.text("x")
    /// SQLExpression.raw("lower(\(identifier: "title")) = \(name)") // lower("title") = ?
    /// ```
    public static func raw(_ fragment: SQLFragment) -> SQLExpression {
        SQLExpression(.fragment(fragment))
    }
}

// MARK: - Logic folding

extension SQLExpression {
    /// The conjunction of every condition; an empty array is true.
    ///
    /// ```swift
    /// SQLExpression.and([a, b, c]) // a AND b AND c
    /// SQLExpression.and([])        // 1
    /// ```
    public static func and(_ conditions: [SQLExpression]) -> SQLExpression {
        logical(.and, conditions, empty: .true)
    }

    /// The disjunction of every condition; an empty array is false.
    ///
    /// ```swift
    /// SQLExpression.or([a, b]) // a OR b
    /// SQLExpression.or([])     // 0
    /// ```
    public static func or(_ conditions: [SQLExpression]) -> SQLExpression {
        logical(.or, conditions, empty: .false)
    }

    /// Any binary operator, for surfaces that map their own operator enums.
    public static func binary(
        _ op: SQLBinaryOperator, _ lhs: SQLExpression, _ rhs: SQLExpression
    ) -> SQLExpression {
        switch op {
        case .and: logical(.and, [lhs, rhs], empty: .true)
        case .or: logical(.or, [lhs, rhs], empty: .false)
        default: SQLExpression(.binary(op, lhs, rhs))
        }
    }

    /// A flat AND/OR list: nested lists of the same operator are merged, one operand is
    /// returned as is, none gives the operator's identity.
    private static func logical(
        _ op: SQLBinaryOperator, _ operands: [SQLExpression], empty: SQLExpression
    ) -> SQLExpression {
        var flat: [SQLExpression] = []
        flat.reserveCapacity(operands.count)
        for operand in operands {
            if case .logical(op, let inner) = operand.node {
                flat += inner
            } else {
                flat.append(operand)
            }
        }
        switch flat.count {
        case 0: return empty
        case 1: return flat[0]
        default: return SQLExpression(.logical(op, flat))
        }
    }

    /// Any unary operator, for surfaces that map their own operator enums.
    public static func unary(_ op: SQLUnaryOperator, _ operand: SQLExpression) -> SQLExpression {
        SQLExpression(.unary(op, operand))
    }
}

// MARK: - Functions, subqueries, CASE

extension SQLExpression {
    /// A scalar function call, built in or registered on the connection.
    ///
    /// The name must be a plain SQL name (letters, digits, `_`); rendering throws otherwise.
    ///
    /// ```swift
    /// SQLExpression.function("fold", .column("title")) // fold("title")
    /// ```
    public static func function(_ name: String, _ arguments: SQLExpression...) -> SQLExpression {
        SQLExpression(.function(name: name, arguments: arguments, quotesName: false))
    }

    /// A scalar function call with an argument array.
    ///
    /// ```swift
    /// SQLExpression.function("coalesce", [.column("a"), .value(.integer(0))]) // coalesce("a", ?)
    /// ```
    public static func function(_ name: String, _ arguments: [SQLExpression]) -> SQLExpression {
        SQLExpression(.function(name: name, arguments: arguments, quotesName: false))
    }

    /// A call of a function registered under any name, its name quoted as an identifier.
    ///
    /// ```swift
    /// SQLExpression.quotedFunction("exclaim", [.column("title")]) // "exclaim"("title")
    /// ```
    public static func quotedFunction(_ name: String, _ arguments: [SQLExpression]) -> SQLExpression {
        SQLExpression(.function(name: name, arguments: arguments, quotesName: true))
    }

    /// `EXISTS (subquery)`.
    ///
    /// ```swift
    /// SQLExpression.exists(SQLSelect(from: "tags")) // EXISTS (SELECT * FROM "tags")
    /// ```
    public static func exists(_ subquery: SQLSelect) -> SQLExpression {
        SQLExpression(.exists(subquery, negated: false))
    }

    /// `NOT EXISTS (subquery)`.
    public static func notExists(_ subquery: SQLSelect) -> SQLExpression {
        SQLExpression(.exists(subquery, negated: true))
    }

    /// A scalar subquery: `(SELECT …)`.
    ///
    /// ```swift
    /// SQLExpression.subquery(SQLSelect([.countAll], from: "tags")) // (SELECT COUNT(*) FROM "tags")
    /// ```
    public static func subquery(_ select: SQLSelect) -> SQLExpression {
        SQLExpression(.subquery(select))
    }

    /// A searched `CASE`: `CASE WHEN c1 THEN r1 … ELSE e END`.
    ///
    /// ```swift
    /// SQLExpression.case(when: [(.column("done"), .value(.text("✓")))], else: .value(.text("")))
    /// // CASE WHEN "done" THEN ? ELSE ? END
    /// ```
    public static func `case`(
        _ base: SQLExpression? = nil,
        when branches: [(SQLExpression, SQLExpression)],
        else otherwise: SQLExpression? = nil
    ) -> SQLExpression {
        SQLExpression(.caseWhen(
            base: base,
            branches: branches.map { SQLCaseBranch(when: $0.0, then: $0.1) },
            otherwise: otherwise))
    }

    /// `CAST(x AS type)`.
    ///
    /// ```swift
    /// SQLExpression.cast(.column("n"), as: .real) // CAST("n" AS REAL)
    /// ```
    public static func cast(_ expression: SQLExpression, as type: SQLType) -> SQLExpression {
        SQLExpression(.cast(expression, type))
    }
}

// MARK: - Aggregates

extension SQLExpression {
    /// `COUNT(*)`.
    public static let countAll = SQLExpression(.aggregate(SQLAggregate(name: "COUNT", arguments: [.star])))

    /// `COUNT(*) FILTER (WHERE condition)`.
    public static func countAll(filter: SQLExpression?) -> SQLExpression {
        SQLExpression(.aggregate(SQLAggregate(name: "COUNT", arguments: [.star], filter: filter)))
    }

    /// `COUNT([DISTINCT] x) [FILTER (WHERE …)]`.
    ///
    /// ```swift
    /// SQLExpression.count(.column("tag"), distinct: true) // COUNT(DISTINCT "tag")
    /// ```
    public static func count(
        _ expression: SQLExpression, distinct: Bool = false, filter: SQLExpression? = nil
    ) -> SQLExpression {
        aggregate("COUNT", expression, distinct: distinct, filter: filter)
    }

    /// `SUM([DISTINCT] x)`: NULL over no rows, integer when every value is.
    public static func sum(
        _ expression: SQLExpression, distinct: Bool = false, filter: SQLExpression? = nil
    ) -> SQLExpression {
        aggregate("SUM", expression, distinct: distinct, filter: filter)
    }

    /// `TOTAL([DISTINCT] x)`: always a real, `0.0` over no rows (SQLite).
    public static func total(
        _ expression: SQLExpression, distinct: Bool = false, filter: SQLExpression? = nil
    ) -> SQLExpression {
        aggregate("TOTAL", expression, distinct: distinct, filter: filter)
    }

    /// `AVG([DISTINCT] x)`.
    public static func avg(
        _ expression: SQLExpression, distinct: Bool = false, filter: SQLExpression? = nil
    ) -> SQLExpression {
        aggregate("AVG", expression, distinct: distinct, filter: filter)
    }

    /// `MIN(x)` as an aggregate.
    public static func min(_ expression: SQLExpression, filter: SQLExpression? = nil) -> SQLExpression {
        aggregate("MIN", expression, distinct: false, filter: filter)
    }

    /// `MAX(x)` as an aggregate.
    public static func max(_ expression: SQLExpression, filter: SQLExpression? = nil) -> SQLExpression {
        aggregate("MAX", expression, distinct: false, filter: filter)
    }

    /// `GROUP_CONCAT([DISTINCT] x[, separator] [ORDER BY …])`; the separator is bound.
    ///
    /// ```swift
    /// SQLExpression.groupConcat(.column("title"), separator: ", ") // GROUP_CONCAT("title", ?)
    /// ```
    /// SQLite rejects `DISTINCT` together with a separator.
    public static func groupConcat(
        _ expression: SQLExpression, separator: String? = nil, distinct: Bool = false,
        ordering: [SQLOrderingTerm] = [], filter: SQLExpression? = nil
    ) -> SQLExpression {
        var arguments = [expression]
        if let separator { arguments.append(.value(.text(separator))) }
        return SQLExpression(.aggregate(SQLAggregate(
            name: "GROUP_CONCAT", arguments: arguments, distinct: distinct,
            ordering: ordering, filter: filter)))
    }

    /// Any aggregate call, including custom registered aggregates.
    public static func aggregate(_ aggregate: SQLAggregate) -> SQLExpression {
        SQLExpression(.aggregate(aggregate))
    }

    private static func aggregate(
        _ name: String, _ expression: SQLExpression, distinct: Bool, filter: SQLExpression?
    ) -> SQLExpression {
        SQLExpression(.aggregate(SQLAggregate(
            name: name, arguments: [expression], distinct: distinct, filter: filter)))
    }
}
