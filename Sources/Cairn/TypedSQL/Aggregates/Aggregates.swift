// Aggregate functions, usable in `select` and `having`:
// `NAME([DISTINCT] x) [FILTER (WHERE condition)]`.

extension QueryExpression where QueryValue: QueryRepresentable {
    /// `COUNT([DISTINCT] x) [FILTER (WHERE …)]`: the number of non-NULL values.
    ///
    /// ```swift
    /// RemindersList.leftJoin(Reminder.all) { … }.select { ($0.title, $1.id.count()) }
    /// // SELECT "remindersLists"."title", COUNT("reminders"."id") …
    /// ```
    public func count(distinct: Bool = false, filter: (any QueryExpression<Bool>)? = nil) -> SQLQueryExpression<Int> {
        SQLQueryExpression(.count(sqlExpression, distinct: distinct, filter: filter?.sqlExpression))
    }

    /// `SUM([DISTINCT] x)`: NULL (`nil`) when there are no values.
    public func sum(distinct: Bool = false, filter: (any QueryExpression<Bool>)? = nil)
        -> SQLQueryExpression<QueryValue._Optionalized>
    {
        SQLQueryExpression(.sum(sqlExpression, distinct: distinct, filter: filter?.sqlExpression))
    }

    /// `TOTAL([DISTINCT] x)`: the sum as a `Double`, 0 when there are no values.
    public func total(distinct: Bool = false, filter: (any QueryExpression<Bool>)? = nil) -> SQLQueryExpression<Double> {
        SQLQueryExpression(.total(sqlExpression, distinct: distinct, filter: filter?.sqlExpression))
    }

    /// `AVG([DISTINCT] x)`: `nil` when there are no values.
    public func avg(distinct: Bool = false, filter: (any QueryExpression<Bool>)? = nil) -> SQLQueryExpression<Double?> {
        SQLQueryExpression(.avg(sqlExpression, distinct: distinct, filter: filter?.sqlExpression))
    }

    /// `MIN(x)`: `nil` when there are no values.
    public func min(filter: (any QueryExpression<Bool>)? = nil) -> SQLQueryExpression<QueryValue._Optionalized> {
        SQLQueryExpression(.min(sqlExpression, filter: filter?.sqlExpression))
    }

    /// `MAX(x)`: `nil` when there are no values.
    public func max(filter: (any QueryExpression<Bool>)? = nil) -> SQLQueryExpression<QueryValue._Optionalized> {
        SQLQueryExpression(.max(sqlExpression, filter: filter?.sqlExpression))
    }

    /// `GROUP_CONCAT([DISTINCT] x[, separator] [ORDER BY …])`: the values joined (`,` by
    /// default), in `order` when given (SQLite 3.44 or later), `nil` when there are none.
    ///
    /// ```swift
    /// Tag.select { $0.title.groupConcat(", ") }  // SELECT GROUP_CONCAT("tags"."title", ?) …
    /// Tag.select { $0.title.groupConcat(order: $0.title.desc()) }
    /// // SELECT GROUP_CONCAT("tags"."title" ORDER BY "tags"."title" DESC) …
    /// ```
    public func groupConcat(
        _ separator: String? = nil, distinct: Bool = false, order: (any QueryOrderingTerm)? = nil,
        filter: (any QueryExpression<Bool>)? = nil
    ) -> SQLQueryExpression<String?> {
        SQLQueryExpression(.groupConcat(
            sqlExpression, separator: separator, distinct: distinct,
            ordering: order.map { [$0.orderingTerm] } ?? [], filter: filter?.sqlExpression))
    }
}

extension PrimaryKeyedTableDefinition where PrimaryColumn == TableColumn<QueryValue, PrimaryKey> {
    /// `COUNT([DISTINCT] primaryKey) [FILTER (WHERE …)]`: the number of rows of this table
    /// (0 for the unmatched side of a left join). A table whose key is a group has none, as in
    /// StructuredQueries: count one of the group's columns.
    ///
    /// ```swift
    /// Reminder.select { $0.count(filter: !$0.isCompleted) }
    /// // SELECT COUNT("reminders"."id") FILTER (WHERE NOT "reminders"."isCompleted") FROM "reminders"
    /// ```
    public func count(distinct: Bool = false, filter: (any QueryExpression<Bool>)? = nil) -> SQLQueryExpression<Int> {
        SQLQueryExpression(.count(primaryKey.sqlExpression, distinct: distinct, filter: filter?.sqlExpression))
    }
}
