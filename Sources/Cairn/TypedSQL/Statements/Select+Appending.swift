// `select` on a statement that already selects: the new columns follow the chosen ones, as in
// StructuredQueries, and a row decodes as one flat tuple of all of them.
//
// Each form requires `Columns == (First, repeat each Rest)`: at least one column chosen. A
// statement that chose nothing has `Columns == ()`, which matches none of these, so the first
// `select` keeps its own overloads (and the fixed-arity decoders of Select+TupleOverloads.swift)
// and the solver drops these at the first requirement.

extension Select {
    /// Adds a column of the table, named by a key path, after the columns already selected.
    ///
    /// ```swift
    /// Reminder.select(\.id).select(\.title)   // → [(Int, String)]
    /// // SELECT "reminders"."id", "reminders"."title" FROM "reminders"
    /// ```
    public func select<First, each Rest, C: QueryExpression>(
        _ keyPath: KeyPath<From.TableColumns, C>
    ) -> Select<(First, repeat each Rest, C.QueryValue.QueryOutput), From, ()>
    where Columns == (First, repeat each Rest), Joins == (), C.QueryValue: QueryRepresentable {
        appending([From.columns[keyPath: keyPath].selectedExpressions]) { try C.QueryValue.decode(from: &$0) }
    }

    /// Adds a result column after the columns already selected.
    ///
    /// ```swift
    /// Reminder.select { $0.id }.where { $0.isFlagged }.select { $0.title }   // → [(Int, String)]
    /// // SELECT "reminders"."id", "reminders"."title" FROM "reminders" WHERE "reminders"."isFlagged"
    /// ```
    public func select<First, each Rest, C: QueryExpression>(
        _ selection: (From.TableColumns) -> C
    ) -> Select<(First, repeat each Rest, C.QueryValue.QueryOutput), From, ()>
    where Columns == (First, repeat each Rest), Joins == (), C.QueryValue: QueryRepresentable {
        appending([selection(From.columns).selectedExpressions]) { try C.QueryValue.decode(from: &$0) }
    }

    /// Adds several result columns, a tuple, after the columns already selected.
    ///
    /// ```swift
    /// Reminder.select { $0.id }.select { ($0.title, $0.priority) }   // → [(Int, String, Priority?)]
    /// // SELECT "reminders"."id", "reminders"."title", "reminders"."priority" FROM "reminders"
    /// ```
    public func select<First, each Rest, each C: QueryExpression>(
        _ selection: (From.TableColumns) -> (repeat each C)
    ) -> Select<(First, repeat each Rest, repeat (each C).QueryValue.QueryOutput), From, ()>
    where Columns == (First, repeat each Rest), Joins == (), repeat (each C).QueryValue: QueryRepresentable {
        let columns = selection(From.columns)
        var expressions: [[SQLExpression]] = []
        for column in repeat each columns { expressions.append(column.selectedExpressions) }
        return appending(expressions) { decoder in (repeat try (each C).QueryValue.decode(from: &decoder)) }
    }

    /// Adds a result column, from any table of the statement, after the columns already
    /// selected.
    ///
    /// ```swift
    /// Reminder.select(\.title).join(RemindersList.all) { $0.remindersListID.eq($1.id) }.select { $1.title }
    /// // SELECT "reminders"."title", "remindersLists"."title" FROM "reminders"
    /// // JOIN "remindersLists" ON "reminders"."remindersListID" = "remindersLists"."id"
    /// ```
    public func select<First, each Rest, each J: Table, C: QueryExpression>(
        _ selection: ((From.TableColumns, repeat (each J).TableColumns)) -> C
    ) -> Select<(First, repeat each Rest, C.QueryValue.QueryOutput), From, Joins>
    where Columns == (First, repeat each Rest), Joins == (repeat each J), C.QueryValue: QueryRepresentable {
        let column = selection((From.columns, repeat (each J).columns))
        return appending([column.selectedExpressions]) { try C.QueryValue.decode(from: &$0) }
    }

    /// Adds several result columns, from any table of the statement, after the columns
    /// already selected.
    ///
    /// ```swift
    /// Reminder.select(\.id).join(RemindersList.all) { $0.remindersListID.eq($1.id) }
    ///     .select { ($0.title, $1.title) }   // → [(Int, String, String)]
    /// ```
    ///
    /// Disfavored, as the first `select`'s tuple form over joined tables is, so that a closure
    /// of one value takes the form above.
    @_disfavoredOverload
    public func select<First, each Rest, each J: Table, each C: QueryExpression>(
        _ selection: ((From.TableColumns, repeat (each J).TableColumns)) -> (repeat each C)
    ) -> Select<(First, repeat each Rest, repeat (each C).QueryValue.QueryOutput), From, Joins>
    where Columns == (First, repeat each Rest), Joins == (repeat each J), repeat (each C).QueryValue: QueryRepresentable {
        let columns = selection((From.columns, repeat (each J).columns))
        var expressions: [[SQLExpression]] = []
        for column in repeat each columns { expressions.append(column.selectedExpressions) }
        return appending(expressions) { decoder in (repeat try (each C).QueryValue.decode(from: &decoder)) }
    }

    /// The statement with `expressions` (each new column's, in order) after the selected
    /// columns, its rows decoded as the selected values followed by `decode`'s.
    ///
    /// Generic over the selected values as one pack (`Selected`), which the public forms'
    /// `(First, repeat each Rest)` is: a value of that tuple type can be spread with
    /// `repeat each`, one of `(First, repeat each Rest)` cannot.
    func appending<each Selected, each New>(
        _ expressions: [[SQLExpression]], decode: @escaping @Sendable (inout QueryDecoder) throws -> (repeat each New)
    ) -> Select<(repeat each Selected, repeat each New), From, Joins> where Columns == (repeat each Selected) {
        appending(expressions, joins: Joins.self, decode: decode)
    }

    /// ``appending(_:decode:)`` into a statement over `NewJoins`, the tables joined so far and
    /// one more (the query already joins it).
    func appending<each Selected, each New, NewJoins>(
        _ expressions: [[SQLExpression]], to query: SQLSelect? = nil, joins _: NewJoins.Type,
        decode: @escaping @Sendable (inout QueryDecoder) throws -> (repeat each New)
    ) -> Select<(repeat each Selected, repeat each New), From, NewJoins> where Columns == (repeat each Selected) {
        var query = query ?? self.query
        query.columns += expressions.joined().map { SQLSelectColumn($0) }
        let selected = decodeSelection
        return Select<(repeat each Selected, repeat each New), From, NewJoins>(
            query: query, isSelected: true,
            decode: { decoder in
                // A statement with columns chosen always has a decoder: `select`, `count()` and
                // `Values` give one. The guard keeps a missing one a thrown error all the same.
                guard let selected else { throw TypedSQLError.nothingSelected(sql: "") }
                let chosen = try selected(&decoder)
                let added = try decode(&decoder)
                return (repeat each chosen, repeat each added)
            })
    }
}
