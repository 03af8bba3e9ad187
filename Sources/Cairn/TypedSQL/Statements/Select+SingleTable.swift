// Overloads for statements over one table (no join). With a join, the closures of `where`,
// `order`, `group`, `having` and `select` receive one argument per table; without one, the
// type checker cannot infer an empty parameter pack from a closure that uses `$0`, so these
// spell the single-table forms out. Each does what its multi-table sibling does.

extension Select where Joins == () {
    /// `WHERE …` (see the multi-table form for details).
    public func `where`<Condition: QueryExpression>(
        _ predicate: (From.TableColumns) -> Condition
    ) -> Self where Condition.QueryValue: _BooleanValue {
        let condition = predicate(From.columns).sqlExpression
        return with { $0 = $0.where(condition) }
    }

    /// `WHERE …` from statements: each listed condition joined with `AND`, chosen or repeated
    /// with `if`, `switch` and `for` (``ConditionBuilder``); none adds no `WHERE`.
    @_disfavoredOverload
    public func `where`(@ConditionBuilder _ conditions: (From.TableColumns) -> [SQLExpression]) -> Self {
        guard let condition = ConditionBuilder.conjunction(conditions(From.columns)) else { return self }
        return with { $0 = $0.where(condition) }
    }

    /// `HAVING …`
    public func having<Condition: QueryExpression>(
        _ predicate: (From.TableColumns) -> Condition
    ) -> Self where Condition.QueryValue: _BooleanValue {
        let condition = predicate(From.columns).sqlExpression
        return with { $0 = $0.having(condition) }
    }

    /// `ORDER BY` keys from a closure (``OrderingBuilder``): an expression, a term, a tuple
    /// of them, or `if`/`switch` choosing among them.
    public func order(@OrderingBuilder by ordering: (From.TableColumns) -> [SQLOrderingTerm]) -> Self {
        let terms = ordering(From.columns)
        return with { $0.ordering += terms }
    }

    /// One `GROUP BY` key.
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
    /// One result column.
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
