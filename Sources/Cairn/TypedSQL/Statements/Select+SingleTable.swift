// Overloads for statements over one table (no join). With a join, the closures of `where`,
// `order`, `group`, `having` and `select` receive one argument per table; without one, the
// type checker cannot infer an empty parameter pack from a closure that uses `$0`, so these
// spell the single-table forms out. Each does what its multi-table sibling does.

extension Select where Joins == () {
    /// `WHERE …` (see the multi-table form for details); a second `where` adds its condition
    /// with `AND`.
    ///
    /// ```swift
    /// Reminder.where { !$0.isCompleted }
    /// // SELECT … FROM "reminders" WHERE NOT "reminders"."isCompleted"
    /// ```
    public func `where`<Condition: QueryExpression>(
        _ predicate: (From.TableColumns) -> Condition
    ) -> Self where Condition.QueryValue: _BooleanValue {
        let condition = predicate(From.columns).sqlExpression
        return with { $0 = $0.where(condition) }
    }

    /// `WHERE …` from statements: each listed condition joined with `AND`, chosen or repeated
    /// with `if`, `switch` and `for` (``ConditionBuilder``); none adds no `WHERE`.
    ///
    /// ```swift
    /// Reminder.where {
    ///     $0.isFlagged
    ///     if hideCompleted { !$0.isCompleted }
    /// }
    /// // SELECT … FROM "reminders" WHERE "reminders"."isFlagged" AND NOT "reminders"."isCompleted"
    /// ```
    @_disfavoredOverload
    public func `where`(@ConditionBuilder _ conditions: (From.TableColumns) -> [SQLExpression]) -> Self {
        guard let condition = ConditionBuilder.conjunction(conditions(From.columns)) else { return self }
        return with { $0 = $0.where(condition) }
    }

    /// `HAVING …`: a condition on the groups of `group(by:)`.
    ///
    /// ```swift
    /// Reminder.group { $0.remindersListID }.having { $0.id.count().gt(2) }
    ///     .select { ($0.remindersListID, $0.id.count()) }
    /// // SELECT "reminders"."remindersListID", COUNT("reminders"."id") FROM "reminders"
    /// // GROUP BY "reminders"."remindersListID" HAVING COUNT("reminders"."id") > ?
    /// ```
    public func having<Condition: QueryExpression>(
        _ predicate: (From.TableColumns) -> Condition
    ) -> Self where Condition.QueryValue: _BooleanValue {
        let condition = predicate(From.columns).sqlExpression
        return with { $0 = $0.having(condition) }
    }

    /// `ORDER BY` keys from a closure (``OrderingBuilder``): an expression, a term, a tuple
    /// of them, or `if`/`switch` choosing among them. Keys add to those of an earlier `order`.
    ///
    /// ```swift
    /// Reminder.order { ($0.isCompleted, $0.title.desc()) }
    /// // SELECT … FROM "reminders" ORDER BY "reminders"."isCompleted" ASC, "reminders"."title" DESC
    /// ```
    public func order(@OrderingBuilder by ordering: (From.TableColumns) -> [SQLOrderingTerm]) -> Self {
        let terms = ordering(From.columns)
        return with { $0.ordering += terms }
    }

    /// One `GROUP BY` key.
    ///
    /// ```swift
    /// Reminder.group { $0.remindersListID }.select { $0.id.count() }
    /// // SELECT COUNT("reminders"."id") FROM "reminders" GROUP BY "reminders"."remindersListID"
    /// ```
    public func group<Key: QueryExpression>(by grouping: (From.TableColumns) -> Key) -> Self {
        let key = grouping(From.columns).sqlExpression
        return with { $0.groupBy.append(key) }
    }

    /// Several `GROUP BY` keys, as a tuple.
    public func group<each Key: QueryExpression>(by grouping: (From.TableColumns) -> (repeat each Key)) -> Self {
        let keys = grouping(From.columns)
        var list: [SQLExpression] = []
        for key in repeat each keys { list.append(key.sqlExpression) }
        return with { $0.groupBy += list }
    }
}

extension Select where Columns == (), Joins == () {
    /// One result column, decoded as its Swift type.
    ///
    /// ```swift
    /// let titles: [String] = try Reminder.select { $0.title }.fetchAll(db)
    /// // SELECT "reminders"."title" FROM "reminders"
    /// ```
    public func select<C: QueryExpression>(
        _ selection: (From.TableColumns) -> C
    ) -> Select<C.QueryValue.QueryOutput, From, ()> where C.QueryValue: QueryRepresentable {
        let column = selection(From.columns)
        var query = self.query
        query.columns = column.selectedExpressions.map { SQLSelectColumn($0) }
        return Select<C.QueryValue.QueryOutput, From, ()>(
            query: query, isSelected: true, decode: { try C.QueryValue.decode(from: &$0) })
    }

    /// Several result columns, as a tuple: wider than the fixed-arity overloads of
    /// Select+TupleOverloads.swift, whose decoders are specialized (a pack expansion is not).
    public func select<each C: QueryExpression>(
        _ selection: (From.TableColumns) -> (repeat each C)
    ) -> Select<(repeat (each C).QueryValue.QueryOutput), From, ()>
    where repeat (each C).QueryValue: QueryRepresentable {
        let columns = selection(From.columns)
        var expressions: [[SQLExpression]] = []
        for column in repeat each columns { expressions.append(column.selectedExpressions) }
        return selecting(expressions) { decoder in (repeat try (each C).QueryValue.decode(from: &decoder)) }
    }
}
