// `map` and `flatMap` on optional expressions, spelled as StructuredQueries spells them:
// `$0.dueDate.map(\.year)`, `$0.title.map { $0.upper() }`, `$0.priority.flatMap { $0.max() }`.
// The closure receives the expression as its non-optional type, so every function of the
// wrapped type is available in it.
//
// `map` gives NULL for a NULL operand. SQLite's own functions and operators mostly do so
// already; where the closure's SQL shows that (SQLExpression.propagatesNull(from:)), it is used
// as it is, the SQL the same function gives on the optional column directly
// (`$0.dueDate.map(\.year)` and `$0.dueDate.year` are one statement). Otherwise it is wrapped
// in `CASE WHEN x IS NULL THEN NULL ELSE … END`, as StructuredQueries always wraps it.
//
// Like the ordering operators (ComparisonOperators.swift), they are members of the two concrete
// expression types, not of every `QueryExpression`: Swift's optionals are query expressions too,
// and a `map` for them all would sit beside `Optional.map` at every call in a file that imports
// Cairn.

/// An optional bindable value: the type of an expression `map` and `flatMap` unwrap.
public protocol _OptionalQueryValue: QueryBindable {
    /// The value type without the optional.
    associatedtype _Wrapped: QueryBindable
}

extension Optional: _OptionalQueryValue where Wrapped: QueryBindable {
    public typealias _Wrapped = Wrapped
}

extension TableColumn where Value: _OptionalQueryValue {
    /// The closure applied to the column as its non-optional type; `nil` where the column is
    /// NULL.
    ///
    /// ```swift
    /// Reminder.select { $0.dueDate.map(\.year) }                        // → Int?
    /// // SELECT CAST(strftime('%Y', "reminders"."dueDate") AS INTEGER) FROM "reminders"
    /// Reminder.select { $0.title.map { $0.upper() } }                  // → String?
    /// // SELECT upper("reminders"."title") FROM "reminders"
    /// Reminder.select { $0.priority.map { $0.is(Priority.high) } }     // → Bool?
    /// // SELECT CASE WHEN "reminders"."priority" IS NULL THEN NULL
    /// //   ELSE "reminders"."priority" IS ? END FROM "reminders"
    /// ```
    ///
    /// Where the closure's SQL is NULL for a NULL column anyway (comparisons, arithmetic,
    /// SQLite's text, date and JSON functions), it is written as it is, the same SQL as the
    /// function on the optional column directly (`$0.dueDate.year`); otherwise (a
    /// `@DatabaseFunction`, `#sql`, `coalesce`, `IS`) it is wrapped in `CASE WHEN x IS NULL
    /// THEN NULL ELSE … END`.
    public func map<Result: QueryExpression>(
        _ transform: (SQLQueryExpression<Value._Wrapped>) -> Result
    ) -> SQLQueryExpression<Result.QueryValue._Optionalized> where Result.QueryValue: QueryRepresentable {
        SQLQueryExpression(mapped(sqlExpression, transform(SQLQueryExpression(sqlExpression)).sqlExpression))
    }

    /// The closure applied to the column as its non-optional type, its optional result
    /// written as it is: the closure decides what a NULL column gives.
    ///
    /// ```swift
    /// Reminder.select { $0.priority.flatMap { $0.max() } }   // → Priority?
    /// // SELECT MAX("reminders"."priority") FROM "reminders"
    /// ```
    public func flatMap<Result: QueryExpression>(
        _ transform: (SQLQueryExpression<Value._Wrapped>) -> Result
    ) -> SQLQueryExpression<Result.QueryValue> where Result.QueryValue: _OptionalQueryValue {
        SQLQueryExpression(transform(SQLQueryExpression(sqlExpression)).sqlExpression)
    }
}

extension SQLQueryExpression where QueryValue: _OptionalQueryValue {
    /// The closure applied to the expression as its non-optional type; `nil` where the
    /// expression is NULL.
    ///
    /// ```swift
    /// Profile.select { $0.editor.jsonExtract(\.joinedAt).map(\.year) }
    /// // SELECT CAST(strftime('%Y', json_extract("profiles"."editor", ?)) AS INTEGER)
    /// // FROM "profiles"
    /// ```
    ///
    /// As for a column's ``TableColumn/map(_:)``, the closure's SQL is written as it is where
    /// it is NULL for NULL anyway, else wrapped in `CASE WHEN x IS NULL THEN NULL ELSE … END`.
    public func map<Result: QueryExpression>(
        _ transform: (SQLQueryExpression<QueryValue._Wrapped>) -> Result
    ) -> SQLQueryExpression<Result.QueryValue._Optionalized> where Result.QueryValue: QueryRepresentable {
        let wrapped = SQLQueryExpression<QueryValue._Wrapped>(sqlExpression)
        return SQLQueryExpression<Result.QueryValue._Optionalized>(mapped(sqlExpression, transform(wrapped).sqlExpression))
    }

    /// The closure applied to the expression as its non-optional type, its optional result
    /// written as it is.
    public func flatMap<Result: QueryExpression>(
        _ transform: (SQLQueryExpression<QueryValue._Wrapped>) -> Result
    ) -> SQLQueryExpression<Result.QueryValue> where Result.QueryValue: _OptionalQueryValue {
        SQLQueryExpression<Result.QueryValue>(transform(SQLQueryExpression<QueryValue._Wrapped>(sqlExpression)).sqlExpression)
    }
}

/// `transformed`, or `CASE WHEN operand IS NULL THEN NULL ELSE transformed END` where its shape
/// does not show that it is NULL for a NULL operand.
private func mapped(_ operand: SQLExpression, _ transformed: SQLExpression) -> SQLExpression {
    transformed.propagatesNull(from: operand) ? transformed : .case(when: [(operand.isNull(), .null)], else: transformed)
}
