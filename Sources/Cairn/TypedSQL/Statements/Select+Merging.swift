// Statements a table keeps as static members, chained onto another statement of the table, as
// StructuredQueries does:
//
//     extension Tag {
//         static let withReminders = group(by: \.id).join(ReminderTag.all) { $0.id.eq($1.tagID) }
//     }
//     Tag.order(by: \.title).withReminders   // Tag.order(by: \.title) + Tag.withReminders
//
// `Select` is `@dynamicMemberLookup`: a member that `Select` does not have is looked up as a
// static member of the table that is itself a statement of the table, and merged into the
// statement it is named on with `+`. The merge is one SQLSelect made from the two: the row is
// the left side's chosen columns then the right side's, joins are appended, WHERE, GROUP BY,
// HAVING and ORDER BY are concatenated (each term once), and the right side's LIMIT and OFFSET
// replace the left side's when it has them.

extension Select {
    /// The two statements of one table as one: the columns the left side chose and then those
    /// the right side chose, both sides' joins, `WHERE`, `GROUP BY`, `HAVING` and `ORDER BY`
    /// concatenated, each term once, and the right side's `LIMIT` and `OFFSET` when it has
    /// them, the left side's otherwise; `DISTINCT` when either side is.
    ///
    /// ```swift
    /// RemindersList.order(by: \.title).select(\.title)
    ///     + RemindersList.group(by: \.id).join(Reminder.all) { $0.id.eq($1.remindersListID) }
    ///         .select { $1.id.count() }
    /// // SELECT "remindersLists"."title", COUNT("reminders"."id") FROM "remindersLists"
    /// // JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID"
    /// // GROUP BY "remindersLists"."id" ORDER BY "remindersLists"."title"
    ///
    /// Reminder.where(\.isFlagged) + Reminder.where { !$0.isCompleted }
    /// // … WHERE "reminders"."isFlagged" AND NOT "reminders"."isCompleted"
    /// ```
    ///
    /// A side that chose no columns adds none of its own: its row is the tables it reads, and
    /// the tables it joins join the row only when neither side chose columns. Each side's
    /// table's default scope is applied before the two are merged, so a scope both share is
    /// written once.
    ///
    /// A statement built on after `+` in the same expression (`(a + b).where { … }.select { … }`)
    /// takes the type checker a few hundred milliseconds: the merged row and joins are parameter
    /// packs it resolves late. Name the sum first (`let both = a + b`), or chain the right side
    /// by name as a static member, whose common forms have types without packs.
    public static func + <each C1, each J1, each C2, each J2>(
        lhs: Self, rhs: Select<(repeat each C2), From, (repeat each J2)>
    ) -> Select<(repeat each C1, repeat each C2), From, (repeat each J1, repeat each J2)>
    where Columns == (repeat each C1), Joins == (repeat each J1) {
        guard lhs.isSelected || rhs.isSelected else { return lhs.merged(with: rhs, decode: nil) }
        let decodeLeft = lhs.decodeSelection
        let decodeRight = rhs.decodeSelection
        return lhs.merged(with: rhs) { decoder in
            // A side that chose no columns has no decoder and no values: `Columns == ()`,
            // an empty pack, which `MergedSelect.noValues()` makes.
            let left: (repeat each C1) = try decodeLeft?(&decoder) ?? MergedSelect.noValues()
            let right: (repeat each C2) = try decodeRight?(&decoder) ?? MergedSelect.noValues()
            return (repeat each left, repeat each right)
        }
    }

    /// `self + other`, its rows decoded by `decode` (`nil` when neither side chose columns).
    func merged<OtherColumns, OtherJoins, Output, NewJoins>(
        with other: Select<OtherColumns, From, OtherJoins>,
        decode: (@Sendable (inout QueryDecoder) throws -> Output)?
    ) -> Select<Output, From, NewJoins> {
        let table = AllRowsQueries.query(for: From.self)
        let columns = MergedSelect.columns(
            query.columns, chosen: isSelected, other.query.columns, chosen: other.isSelected,
            tableColumnCount: table.columns.count)
        return Select<Output, From, NewJoins>(
            query: MergedSelect.clauses(query, other.query, columns: columns, table: table.from),
            isSelected: isSelected || other.isSelected, decode: decode)
    }

    /// A statement the table keeps as a static member, merged into this one with ``+(_:_:)``:
    /// what `Tag.order(by: \.title).withReminders` calls for a table's
    /// `static let withReminders` that `Select` has no member of its own named.
    ///
    /// ```swift
    /// extension RemindersList {
    ///     static let withReminderCount = group(by: \.id)
    ///         .join(Reminder.all) { $0.id.eq($1.remindersListID) }
    ///         .select { $1.id.count() }
    /// }
    /// RemindersList.limit(1).select(\.title).withReminderCount   // → [(String, Int)]
    /// // SELECT "remindersLists"."title", COUNT("reminders"."id") FROM "remindersLists"
    /// // JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID"
    /// // GROUP BY "remindersLists"."id" LIMIT ?
    /// ```
    ///
    /// Disfavored: the two forms that follow give the same statement in the common cases (the
    /// static member is a filter, or this statement is a bare one) under a type without
    /// parameter packs, which is the type a reader expects to see.
    ///
    /// The closures that follow the static member in the same expression are type-checked
    /// against each form: a long chain after it (`.where { … }.join(…) { … }.select { … }`)
    /// takes a few hundred milliseconds. Name the statement up to the static member
    /// (`let base = Tag.order(by: \.title).withReminders`) where that matters.
    @_disfavoredOverload
    public subscript<each C1, each J1, each C2, each J2>(
        dynamicMember keyPath: KeyPath<From.Type, Select<(repeat each C2), From, (repeat each J2)>>
    ) -> Select<(repeat each C1, repeat each C2), From, (repeat each J1, repeat each J2)>
    where Columns == (repeat each C1), Joins == (repeat each J1) {
        self + From.self[keyPath: keyPath]
    }

    /// A filter (or ordering, or limit) the table keeps as a static member, merged into this
    /// statement, whose row it leaves as it is.
    ///
    /// ```swift
    /// Reminder.select(\.title).incomplete
    /// // SELECT "reminders"."title" FROM "reminders" WHERE NOT "reminders"."isCompleted"
    /// ```
    public subscript(dynamicMember keyPath: KeyPath<From.Type, SelectOf<From>>) -> Self {
        merged(with: From.self[keyPath: keyPath], decode: decodeSelection)
    }
}

extension Select where Columns == (), Joins == () {
    /// A statement the table keeps as a static member, merged into a statement that chose no
    /// columns and joins nothing: the static statement's row, with this statement's clauses.
    ///
    /// ```swift
    /// Tag.order(by: \.title).withReminders   // Select<(), Tag, (ReminderTag?, Reminder?)>
    /// ```
    public subscript<OtherColumns, OtherJoins>(
        dynamicMember keyPath: KeyPath<From.Type, Select<OtherColumns, From, OtherJoins>>
    ) -> Select<OtherColumns, From, OtherJoins> {
        let other = From.self[keyPath: keyPath]
        return merged(with: other, decode: other.decodeSelection)
    }

    /// The filter the table keeps as a static member, named on the filter type itself:
    /// `Where<Reminder>.incomplete` is `Reminder.incomplete`.
    ///
    /// ```swift
    /// Where<Reminder>.incomplete.select(\.title)
    /// // SELECT "reminders"."title" FROM "reminders" WHERE NOT "reminders"."isCompleted"
    /// ```
    ///
    /// Swift does not look up a type's dynamic members for an implicit member expression:
    /// where a `Where<Reminder>` is expected, write `Reminder.incomplete`, not `.incomplete`.
    public static subscript(dynamicMember keyPath: KeyPath<From.Type, Self>) -> Self {
        From.self[keyPath: keyPath]
    }
}

/// The clauses of two statements of one table merged, for ``Select/+(_:_:)``.
enum MergedSelect {
    /// The row of the merged statement. `tableColumnCount` is the number of the table's own
    /// columns, which a statement that chose none selects first, before its joined tables'.
    static func columns(
        _ left: [SQLSelectColumn], chosen leftChosen: Bool, _ right: [SQLSelectColumn], chosen rightChosen: Bool,
        tableColumnCount: Int
    ) -> [SQLSelectColumn] {
        switch (leftChosen, rightChosen) {
        case (true, true): left + right
        case (true, false): left
        case (false, true): right
        // Neither chose: the table's columns once, then each side's joined tables'.
        case (false, false): left + right.dropFirst(tableColumnCount)
        }
    }

    /// `left`'s clauses with `right`'s merged in, and `columns` as the row. `table` is the
    /// `FROM` of a statement begun from the table: the right side's `FROM` replaces the left
    /// side's only when it is something else (a table-valued function, a subquery).
    static func clauses(
        _ left: SQLSelect, _ right: SQLSelect, columns: [SQLSelectColumn], table: SQLTableSource?
    ) -> SQLSelect {
        var query = left
        query.commonTableExpressions = once(left.commonTableExpressions + right.commonTableExpressions)
        query.isRecursive = left.isRecursive || right.isRecursive
        query.isDistinct = left.isDistinct || right.isDistinct
        query.columns = columns
        if let from = right.from, from != table { query.from = from }
        query.joins += right.joins
        query.condition = conjunction(left.condition, right.condition)
        query.groupBy = once(left.groupBy + right.groupBy)
        query.having = conjunction(left.having, right.having)
        query.compounds += right.compounds
        query.ordering = once(left.ordering + right.ordering)
        // LIMIT and OFFSET go together, as StructuredQueries' one limit clause does.
        if right.limit != nil || right.offset != nil {
            query.limit = right.limit
            query.offset = right.offset
        }
        return query
    }

    /// The terms of both conditions joined with `AND`, each once; `nil` when neither has one.
    static func conjunction(_ left: SQLExpression?, _ right: SQLExpression?) -> SQLExpression? {
        guard let right else { return left }
        guard let left else { return right }
        let terms = once(left.conjuncts + right.conjuncts)
        guard let first = terms.first else { return nil }
        return terms.dropFirst().reduce(first) { $0.and($1) }
    }

    /// `elements` without the ones an earlier element equals.
    static func once<Element: Equatable>(_ elements: [Element]) -> [Element] {
        var kept: [Element] = []
        kept.reserveCapacity(elements.count)
        for element in elements where !kept.contains(element) { kept.append(element) }
        return kept
    }

    /// The values of a side that chose no columns: its `Columns` is `()`, so `Values` is an
    /// empty pack and nothing is read. A pack that is not empty would be values missing from
    /// the row, a thrown error.
    static func noValues<each Value>() throws -> (repeat each Value) {
        (repeat try missing((each Value).self))
    }

    private static func missing<Value>(_: Value.Type) throws -> Value {
        throw TypedSQLError.nothingSelected(sql: "")
    }
}
