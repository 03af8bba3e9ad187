// Joins. A join appends the other table's columns to the row (`(From, Joined…)`) and merges
// the other statement's WHERE, GROUP BY, HAVING and ORDER BY clauses, as StructuredQueries
// does. An outer join makes the optional side's columns optional: `leftJoin` turns
// `Reminder` into `Reminder?`, so `$1.title` is a `String?` expression and an unmatched row
// decodes as `nil`. After `select`, `join` and `leftJoin` keep the chosen columns as the row
// (a later `select` adds to them), and a joined statement's own selection follows them.

extension Select {
    /// `JOIN other ON …`
    ///
    /// ```swift
    /// Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }
    /// // SELECT "reminders".…, "remindersLists".… FROM "reminders"
    /// // JOIN "remindersLists" ON "reminders"."remindersListID" = "remindersLists"."id"
    /// ```
    ///
    /// After `select`, the row stays the selected columns; the closures that follow take
    /// every table's columns:
    ///
    /// ```swift
    /// Reminder.select(\.title).join(RemindersList.all) { $0.remindersListID.eq($1.id) }.select { $1.title }
    /// // SELECT "reminders"."title", "remindersLists"."title" FROM "reminders"
    /// // JOIN "remindersLists" ON "reminders"."remindersListID" = "remindersLists"."id"
    /// ```
    public func join<each J: Table, Other: Table, Condition: QueryExpression>(
        _ other: SelectOf<Other>,
        on constraint: ((From.TableColumns, repeat (each J).TableColumns, Other.TableColumns)) -> Condition
    ) -> Select<Columns, From, (repeat each J, Other)>
    where Joins == (repeat each J), Condition.QueryValue: _BooleanValue {
        let condition = constraint((From.columns, repeat (each J).columns, Other.columns)).sqlExpression
        return Select<Columns, From, (repeat each J, Other)>(
            query: joined(.inner, other.query, Other.self, on: condition), isSelected: isSelected,
            decode: decodeSelection)
    }

    /// `JOIN other ON …` where both statements select: the row is this statement's columns,
    /// then the other's.
    ///
    /// ```swift
    /// Reminder.select(\.id).join(RemindersList.select(\.id)) { $0.remindersListID.eq($1.id) }   // → [(Int, Int)]
    /// // SELECT "reminders"."id", "remindersLists"."id" FROM "reminders"
    /// // JOIN "remindersLists" ON "reminders"."remindersListID" = "remindersLists"."id"
    /// ```
    public func join<First, each Rest, each J: Table, Other: Table, OtherFirst, each OtherRest, Condition: QueryExpression>(
        _ other: Select<(OtherFirst, repeat each OtherRest), Other, ()>,
        on constraint: ((From.TableColumns, repeat (each J).TableColumns, Other.TableColumns)) -> Condition
    ) -> Select<(First, repeat each Rest, OtherFirst, repeat each OtherRest), From, (repeat each J, Other)>
    where Columns == (First, repeat each Rest), Joins == (repeat each J), Condition.QueryValue: _BooleanValue {
        let condition = constraint((From.columns, repeat (each J).columns, Other.columns)).sqlExpression
        let query = joined(.inner, other.query, Other.self, on: condition)
        let otherColumns = other.query.columns.map { [$0.expression] }
        let decodeOther = other.decodeSelection
        return appending(otherColumns, to: query, joins: (repeat each J, Other).self) { decoder in
            guard let decodeOther else { throw TypedSQLError.nothingSelected(sql: "") }
            return try decodeOther(&decoder)
        }
    }

    /// `LEFT JOIN other ON …`: the other table's columns become optional.
    ///
    /// ```swift
    /// RemindersList.leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) && !$1.isCompleted }
    /// // … LEFT JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID"
    /// //   AND NOT "reminders"."isCompleted"
    /// ```
    public func leftJoin<each J: Table, Other: Table, Condition: QueryExpression>(
        _ other: SelectOf<Other>,
        on constraint: ((From.TableColumns, repeat (each J).TableColumns, Other?.TableColumns)) -> Condition
    ) -> Select<Columns, From, (repeat each J, Other?)>
    where Joins == (repeat each J), Condition.QueryValue: _BooleanValue {
        let condition = constraint((From.columns, repeat (each J).columns, Other?.columns)).sqlExpression
        return Select<Columns, From, (repeat each J, Other?)>(
            query: joined(.left, other.query, Other.self, on: condition), isSelected: isSelected,
            decode: decodeSelection)
    }

    /// `RIGHT JOIN other ON …`: the tables joined so far become optional.
    ///
    /// ```swift
    /// Reminder.rightJoin(RemindersList.all) { $0.remindersListID.eq($1.id) }
    /// // rows decode as (Reminder?, RemindersList)
    /// ```
    public func rightJoin<each J: Table, Other: Table, Condition: QueryExpression>(
        _ other: SelectOf<Other>,
        on constraint: ((From?.TableColumns, repeat (each J)?.TableColumns, Other.TableColumns)) -> Condition
    ) -> Select<(), From?, (repeat (each J)?, Other)>
    where Columns == (), Joins == (repeat each J), Condition.QueryValue: _BooleanValue {
        let condition = constraint((From?.columns, repeat (each J)?.columns, Other.columns)).sqlExpression
        return Select<(), From?, (repeat (each J)?, Other)>(
            query: joined(.right, other.query, Other.self, on: condition), isSelected: false, decode: nil)
    }

    /// `FULL JOIN other ON …`: every table becomes optional.
    public func fullJoin<each J: Table, Other: Table, Condition: QueryExpression>(
        _ other: SelectOf<Other>,
        on constraint: ((From?.TableColumns, repeat (each J)?.TableColumns, Other?.TableColumns)) -> Condition
    ) -> Select<(), From?, (repeat (each J)?, Other?)>
    where Columns == (), Joins == (repeat each J), Condition.QueryValue: _BooleanValue {
        let condition = constraint((From?.columns, repeat (each J)?.columns, Other?.columns)).sqlExpression
        return Select<(), From?, (repeat (each J)?, Other?)>(
            query: joined(.full, other.query, Other.self, on: condition), isSelected: false, decode: nil)
    }

    /// The clauses after joining `other` (a statement over `Other`) with `condition`; the
    /// other table's columns join the row unless this statement chose its columns.
    private func joined<Other: Table>(
        _ kind: SQLJoinKind, _ other: SQLSelect, _: Other.Type, on condition: SQLExpression
    ) -> SQLSelect {
        var query = self.query
        if !isSelected { query.columns += Other.columns.selectedExpressions.map { SQLSelectColumn($0) } }
        query = query.join(kind, other.from ?? .table(Other.tableName, schema: Other.schemaName, as: Other.tableAlias), on: condition)
        if let otherCondition = other.condition { query = query.where(otherCondition) }
        query.groupBy += other.groupBy
        if let otherHaving = other.having { query = query.having(otherHaving) }
        query.ordering += other.ordering
        return query
    }
}

// MARK: - Static shortcuts

extension Table {
    /// `Self.all.join(other) { … }`
    public static func join<Other: Table, Condition: QueryExpression>(
        _ other: SelectOf<Other>, on constraint: ((TableColumns, Other.TableColumns)) -> Condition
    ) -> Select<(), Self, Other> where Condition.QueryValue: _BooleanValue {
        scoped.join(other, on: constraint)
    }

    /// `Self.all.leftJoin(other) { … }`
    public static func leftJoin<Other: Table, Condition: QueryExpression>(
        _ other: SelectOf<Other>, on constraint: ((TableColumns, Other?.TableColumns)) -> Condition
    ) -> Select<(), Self, Other?> where Condition.QueryValue: _BooleanValue {
        scoped.leftJoin(other, on: constraint)
    }

    /// `Self.all.rightJoin(other) { … }`
    public static func rightJoin<Other: Table, Condition: QueryExpression>(
        _ other: SelectOf<Other>, on constraint: ((Self?.TableColumns, Other.TableColumns)) -> Condition
    ) -> Select<(), Self?, Other> where Condition.QueryValue: _BooleanValue {
        scoped.rightJoin(other, on: constraint)
    }

    /// `Self.all.fullJoin(other) { … }`
    public static func fullJoin<Other: Table, Condition: QueryExpression>(
        _ other: SelectOf<Other>, on constraint: ((Self?.TableColumns, Other?.TableColumns)) -> Condition
    ) -> Select<(), Self?, Other?> where Condition.QueryValue: _BooleanValue {
        scoped.fullJoin(other, on: constraint)
    }
}
